/**
 * `serveMcpHttp` under real traffic, on each SDK line (server and client):
 * sessions end (idle timeout, DELETE, the cap) but never under a running
 * call, bodies have a limit checked
 * before they are read, requests are checked in order with errors that say
 * what is wrong, a tool-set change reaches every session it affects (shared
 * router: all; a router per session: only that one), and cancelling a call
 * (through the SDK, or by dropping the request) aborts the handler's signal.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { clientLineOf } from '../../integrations/mcp/sdk.js';
import { connectMcp, listAllTools, memorySessionStore, serveMcpHttp, type McpConnection, type McpSdkLine } from '../../integrations/mcp/index.js';
import { LINES, PAIRS, texts } from './mcp-lines.js';
import { callOutlivingIdleTimeout, expectOutlivedIdleTimeout, INITIALIZE, postLarge, rawCall, rawSession, waitingRouter } from './mcp-traffic.helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
async function connect(url: URL, sdk: McpSdkLine): Promise<McpConnection> {
  const connection = await connectMcp({ url }, { sdk });
  cleanups.push(() => connection.close());
  return connection;
}

/** Servers started once per line: a router per session (one with a short idle timeout), a shared router, a router whose handler waits. */
const started = new Map<McpSdkLine, ReturnType<typeof start>>();
async function start(sdk: McpSdkLine) {
  const store = memorySessionStore();
  const shortIdle = await serveMcpHttp(() => createDemoRouter(), { sdk, store, idleTimeoutMs: 1000 });
  const perSession = await serveMcpHttp(() => createDemoRouter(), { sdk });
  const sharedRouter = createDemoRouter();
  const shared = await serveMcpHttp(sharedRouter, { sdk });
  const aborted: unknown[] = [];
  let running = 0;
  const waiting = await serveMcpHttp(
    waitingRouter(aborted, () => running++),
    { sdk },
  );
  cleanups.push(() => shortIdle.close(), () => perSession.close(), () => shared.close(), () => waiting.close());
  return { store, shortIdle, perSession, shared, sharedRouter, waiting, aborted, running: () => running };
}
function servers(sdk: McpSdkLine) {
  let s = started.get(sdk);
  if (!s) started.set(sdk, (s = start(sdk)));
  return s;
}

describe.each(LINES)('session lifetime, %s server', (sdk) => {
  it('frees sessions left by connect-and-close cycles after the idle timeout; their ids then answer 404 and a new session works', async () => {
    const { shortIdle, store } = await servers(sdk);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const connection = await connectMcp({ url: shortIdle.url }, { sdk });
      await listAllTools(connection.client);
      ids.push(...[...shortIdle.sessions.keys()].filter((id) => !ids.includes(id)));
      await connection.close();
    }
    expect(ids).toHaveLength(10);
    await expect.poll(() => shortIdle.sessions.size, { timeout: 5000 }).toBe(0);
    await expect.poll(() => store.size, { timeout: 5000 }).toBe(0);
    const gone = await rawCall(shortIdle.url, ids[0], 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.text)).toMatchObject({ error: { code: -32001, message: expect.stringContaining('initialize') } });
    const again = await connect(shortIdle.url, sdk);
    expect((await listAllTools(again.client)).map((t) => t.name)).toContain('load_toolkit');
  });

  it('frees a session on DELETE: gone from the server and the store, then 404', async () => {
    const { shared } = await servers(sdk);
    const id = await rawSession(shared.url);
    expect(shared.sessions.has(id)).toBe(true);
    expect((await rawCall(shared.url, id, 'DELETE')).status).toBe(200);
    expect(shared.sessions.has(id)).toBe(false);
    for (const method of ['POST', 'GET', 'DELETE']) {
      expect((await rawCall(shared.url, id, method, method === 'POST' ? { jsonrpc: '2.0', id: 2, method: 'tools/list' } : undefined)).status).toBe(404);
    }
    expect((await rawCall(shared.url, 'no-such-session', 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(404);
  });

  it('refuses an initialize beyond maxSessions with 503, and accepts one again when a session ends', async () => {
    const capped = await serveMcpHttp(createDemoRouter(), { sdk, maxSessions: 2 });
    cleanups.push(() => capped.close());
    const [a] = [await rawSession(capped.url), await rawSession(capped.url)];
    const over = await rawCall(capped.url, undefined, 'POST', INITIALIZE);
    expect(over.status).toBe(503);
    expect(over.text).toContain('maximum of 2 open sessions');
    await rawCall(capped.url, a, 'DELETE');
    await rawSession(capped.url);
  });

  it('continues a session on a server that has not seen it, from the shared store: state restored, announcements not repeated', async () => {
    const store = memorySessionStore();
    const [one, two, three] = await Promise.all([1, 2, 3].map(() => serveMcpHttp(() => createDemoRouter(), { sdk, store })));
    cleanups.push(() => one!.close(), () => two!.close(), () => three!.close());
    const id = await rawSession(one!.url);
    const call = (url: URL, name: string, args: object) => rawCall(url, id, 'POST', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } });
    const list = async (url: URL) => (await rawCall(url, id, 'POST', { jsonrpc: '2.0', id: 4, method: 'tools/list' })).text;
    // `two` first sees the session through a listing; `one` then loads a toolkit, which `two` lists and calls.
    expect(await list(two!.url)).not.toContain('get_forecast');
    const load = await call(one!.url, 'load_toolkit', { toolkit_name: 'weather' });
    expect(load.text).toContain('notifications/tools/list_changed');
    expect(load.text).toContain('announcement id=\\"env\\"');
    expect(await list(two!.url)).toContain('get_forecast');
    const forecast = await call(two!.url, 'get_forecast', { city: 'Lisbon' });
    expect(forecast.text).toContain('"structuredContent":{"city":"Lisbon","days":3,"forecast":"sunny"}');
    expect(forecast.text).not.toContain('announcement');
    // `three` first sees the session now: it starts from the stored state.
    expect(three!.sessions.size).toBe(0);
    expect(await list(three!.url)).toContain('get_forecast');
    expect(three!.sessions.has(id)).toBe(true);
  });

  it('a session whose stored state this server cannot restore (a deploy removed a blocked tool) ends with 404, not 500 on every request', async () => {
    const store = memorySessionStore();
    const before = await serveMcpHttp(() => createDemoRouter(), { sdk, store });
    // After the deploy: a router of a spec without `delete_file`, whose restore refuses the blocklist naming it.
    const after = await serveMcpHttp(() => new Proxy(createDemoRouter(), {
      get: (target, key) => (key === 'restore' ? () => { throw new TypeError('restore: unknown name "delete_file"'); } : Reflect.get(target, key, target)),
    }), { sdk, store });
    cleanups.push(() => before.close(), () => after.close());
    const id = await rawSession(before.url);
    const revived = await rawCall(after.url, id, 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(revived.status).toBe(404);
    expect(revived.text).toContain('its stored state does not fit this server');
    expect(revived.text).toContain('unknown name \\"delete_file\\"');
    expect(store.size).toBe(0);
    expect((await rawCall(before.url, id, 'POST', { jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(404);
  });

  it('a call whose state the store cannot write afterwards still returns its result: to onError, else a note in the result', async () => {
    for (const withHook of [false, true]) {
      const inner = memorySessionStore();
      let down = false;
      const errors: unknown[] = [];
      const store = { ...inner, set: (id: string, r: never, ttl: number) => (down ? Promise.reject(new Error('store down')) : inner.set(id, r, ttl)) };
      const served = await serveMcpHttp(() => createDemoRouter(), { sdk, store, ...(withHook ? { onError: (e: unknown) => errors.push(e) } : {}) });
      cleanups.push(() => served.close());
      const connection = await connect(served.url, sdk);
      down = true;
      // A load changes the session's state, so it is written after the call.
      const result = (await connection.client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } })) as { isError?: boolean };
      expect(result.isError ?? false).toBe(false);
      expect(texts(result)[0]).toMatch(/^Toolkit "Weather" loaded\./);
      const note = 'Note: the server could not store the MCP session\'s state after this call; the call itself ran.';
      expect(texts(result).includes(note)).toBe(!withHook);
      expect(errors.map((e) => (e as Error).message)).toEqual(withHook ? ['store down'] : []);
    }
  });

  it('an initialize whose record the store cannot write is refused with 503 and leaves no session behind; onError gets the error', async () => {
    const inner = memorySessionStore();
    let down = true;
    const errors: unknown[] = [];
    const store = { ...inner, set: (id: string, r: never, ttl: number) => (down ? Promise.reject(new Error('store down')) : inner.set(id, r, ttl)) };
    const served = await serveMcpHttp(() => createDemoRouter(), { sdk, store, maxSessions: 1, onError: (e: unknown) => errors.push(e) });
    cleanups.push(() => served.close());
    const refused = await rawCall(served.url, undefined, 'POST', INITIALIZE);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('store down') } });
    expect(served.sessions.size).toBe(0);
    expect(errors.map((e) => (e as Error).message)).toEqual(['store down']);
    // The one session this server allows is still free once the store is back.
    down = false;
    await rawSession(served.url);
    expect(served.sessions.size).toBe(1);
  });

  it('rejects bad options loudly, before it listens', async () => {
    const listening = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = listening();
    await expect(serveMcpHttp(createDemoRouter(), { sdk, idleTimeoutMs: 0 })).rejects.toThrow(/idleTimeoutMs must be a positive number/);
    await expect(serveMcpHttp(createDemoRouter(), { sdk, idleTimeoutMs: Infinity })).rejects.toThrow(/idleTimeoutMs must be at most 2147483647/);
    await expect(serveMcpHttp(createDemoRouter(), { sdk, maxSessions: 1.5 })).rejects.toThrow(/maxSessions must be a whole number, got 1.5/);
    await expect(serveMcpHttp(createDemoRouter(), { sdk, maxBodyBytes: 1024.5 })).rejects.toThrow(/maxBodyBytes must be a whole number/);
    await expect(serveMcpHttp(() => ({}) as never, { sdk })).rejects.toThrow(/snapshot\(\) and restore\(\)/);
    await expect(serveMcpHttp(createDemoRouter(), { sdk, maxBodyByte: 1024 } as never)).rejects.toThrow(/serveMcpHttp options: unknown name "maxBodyByte" \(did you mean "maxBodyBytes"\?\)/);
    await expect(serveMcpHttp(createDemoRouter(), { sdk, allowedHosts: 'localhost' as never })).rejects.toThrow(/allowedHosts must be an array of host names/);
    await expect(serveMcpHttp(createDemoRouter(), { sdk, path: 'mcp' })).rejects.toThrow(/path must start with "\/"/);
    // A store missing methods would fail every initialize (or, without touch, a later request) instead.
    await expect(serveMcpHttp(createDemoRouter(), { sdk, store: {} as never })).rejects.toThrow(/^serveMcpHttp: store must have the methods get, set, touch and delete \(an McpSessionStore\); it lacks get, set, touch, delete\.$/);
    const { touch: _touch, ...noTouch } = memorySessionStore();
    await expect(serveMcpHttp(createDemoRouter(), { sdk, store: noTouch as never })).rejects.toThrow(/it lacks touch\.$/);
    expect(listening()).toBe(before);
  });

  it('a call still running when the client ends the session does not bring the session back', async () => {
    const { waiting, running } = await servers(sdk);
    const id = await rawSession(waiting.url);
    const before = running();
    const call = rawCall(waiting.url, id, 'POST', { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'run_bash', arguments: { command: 'sleep' } } }).catch(() => undefined);
    await expect.poll(running).toBe(before + 1);
    expect((await rawCall(waiting.url, id, 'DELETE')).status).toBe(200);
    await call;
    // The call has settled (its after-call save included): the session stays ended.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await rawCall(waiting.url, id, 'POST', { jsonrpc: '2.0', id: 9, method: 'tools/list' })).status).toBe(404);
  });
});

// These wait on real idle timeouts; each has its own servers and store, so they run side by side (both lines).
describe.concurrent.each(LINES)('idle timing, %s server', (sdk) => {
  it('keeps the stored record at least idleTimeoutMs past the last request, although it skips touches within a tenth of it', async ({ expect }) => {
    const inner = memorySessionStore();
    const ttls: number[] = [];
    const store = { ...inner, set: (id: string, r: never, ttl: number) => (ttls.push(ttl), inner.set(id, r, ttl)), touch: (id: string, ttl: number) => (ttls.push(ttl), inner.touch(id, ttl)) };
    const served = await serveMcpHttp(() => createDemoRouter(), { sdk, store, idleTimeoutMs: 10_000 });
    cleanups.push(() => served.close());
    const id = await rawSession(served.url);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await rawCall(served.url, id, 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
    // A request within the skipped tenth: the record's life, counted from the last touch, still covers the timeout.
    expect((await rawCall(served.url, id, 'POST', { jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(200);
    expect(ttls.length).toBeGreaterThan(1);
    for (const ttl of ttls) expect(ttl).toBeGreaterThanOrEqual(11_000);
  });
  it('a call running longer than idleTimeoutMs keeps its session, here and in the shared store; the idle clock starts when it finishes', async ({ expect }) => {
    const store = memorySessionStore();
    const seen = await callOutlivingIdleTimeout(sdk, store, 1000);
    expectOutlivedIdleTimeout(seen);
    expect(store.size).toBe(0);
  });
  it('a request that brings a session to another server counts as activity in the shared store', async ({ expect }) => {
    const store = memorySessionStore();
    const [one, two] = await Promise.all([1, 2].map(() => serveMcpHttp(() => createDemoRouter(), { sdk, store, idleTimeoutMs: 1000 })));
    cleanups.push(() => one!.close(), () => two!.close());
    const id = await rawSession(one!.url);
    const list = async (url: URL) => (await rawCall(url, id, 'POST', { jsonrpc: '2.0', id: 5, method: 'tools/list' })).status;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await list(two!.url)).toBe(200);
    // 1.2 s after the session's last write, 0.5 s after its last request.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await list(two!.url)).toBe(200);
  });
});

describe.each(LINES)('request checks, %s server', (sdk) => {
  it('refuses a 20 MB body with 413 before reading it whole, from Content-Length or while it streams', async () => {
    const { shared } = await servers(sdk);
    const declared = await postLarge(shared.url, {}, 20_000_000);
    expect(declared.status).toBe(413);
    expect(declared.written).toBeLessThan(20_000_000);
    const streamed = await postLarge(shared.url, {}, undefined);
    expect(streamed.status).toBe(413);
    expect(streamed.written).toBeLessThan(20_000_000);
    // The Host and Origin checks come first.
    expect((await postLarge(shared.url, { host: 'evil.example' }, 20_000_000)).status).toBe(403);
    expect((await postLarge(shared.url, { origin: 'http://evil.example' }, 20_000_000)).status).toBe(403);
    // The server still answers.
    await rawSession(shared.url);
  });

  it('answers malformed requests with errors that say what is wrong', async () => {
    const { shared } = await servers(sdk);
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(shared.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    const cases: [Response, number, RegExp][] = [
      [await post('{"jsonrpc": ', {}), 400, /Parse error: the request body is not JSON/],
      [await post(''), 400, /body is empty/],
      [await post('{}', { 'content-type': 'text/plain' }), 415, /Content-Type must be application\/json/],
      [await post('{}', { 'content-type': 'application/json; charset=latin1' }), 415, /must be UTF-8 JSON, not charset "latin1"/],
      [await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), 400, /no Mcp-Session-Id header/],
      [await fetch(shared.url, { method: 'PUT', body: '{}' }), 405, /takes POST, GET and DELETE/],
      [await fetch(shared.url), 400, /GET needs an Mcp-Session-Id header/],
      [await post(JSON.stringify(INITIALIZE), { origin: 'http://evil.example' }), 403, /Origin "http:\/\/evil.example" is not this server/],
    ];
    for (const [response, status, message] of cases) {
      expect(response.status).toBe(status);
      expect((await response.json()) as object).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(message) } });
    }
    // UTF-8 named as a charset, in any spelling, is what JSON is sent in.
    for (const type of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
      const ok = await post(JSON.stringify(INITIALIZE), { 'content-type': type });
      await ok.text();
      expect(ok.status, type).toBe(200);
    }
  });
});

describe.each(PAIRS)('tool-set changes and cancellation: $server server, $client client', ({ server, client }) => {
  it('tells every session of a shared router when one loads a toolkit', async () => {
    const { shared, sharedRouter } = await servers(server);
    const connections = [await connect(shared.url, client), await connect(shared.url, client), await connect(shared.url, client)];
    const changed = [0, 0, 0];
    connections.forEach((c, i) => c.onToolListChanged(() => changed[i]!++));
    for (const c of connections) await listAllTools(c.client);
    const kit = sharedRouter.getLoadedToolkits().includes('Weather') ? 'Database' : 'Weather';
    await connections[0]!.client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: kit } });
    await expect.poll(() => changed, { timeout: 3000 }).toEqual([1, 1, 1]);
    for (const c of connections) expect((await listAllTools(c.client)).map((t) => t.name)).toEqual(expect.arrayContaining(kit === 'Weather' ? ['get_forecast'] : ['run_query']));
  });

  it('keeps a router per session: a load changes and notifies only its own session', async () => {
    const { perSession } = await servers(server);
    const [a, b] = [await connect(perSession.url, client), await connect(perSession.url, client)];
    const changed = [0, 0];
    a.onToolListChanged(() => changed[0]!++);
    b.onToolListChanged(() => changed[1]!++);
    const load = await a.client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'weather' } });
    expect(texts(load)[0]).toMatch(/^Toolkit "Weather" loaded\./);
    await expect.poll(() => changed[0]).toBe(1);
    expect((await listAllTools(a.client)).map((t) => t.name)).toContain('get_forecast');
    expect((await listAllTools(b.client)).map((t) => t.name)).not.toContain('get_forecast');
    const early = await b.client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } });
    expect(texts(early)[0]).toContain('Call load_toolkit');
    expect(changed[1]).toBe(0);
  });

  it('aborts the handler\'s signal when the client cancels the call', async () => {
    const { waiting, aborted, running } = await servers(server);
    const connection = await connect(waiting.url, client);
    const before = { running: running(), aborted: aborted.length };
    const cancel = new AbortController();
    const options = { signal: cancel.signal };
    const call = clientLineOf(connection.client) === '2.x'
      ? connection.client.callTool({ name: 'run_bash', arguments: { command: 'sleep' } }, options)
      : connection.client.callTool({ name: 'run_bash', arguments: { command: 'sleep' } }, undefined, options);
    await expect.poll(running).toBe(before.running + 1);
    cancel.abort('enough');
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborted.length).toBe(before.aborted + 1);
  });

  it('an announcement made during a call the client cancelled rides on the next delivered result, since the cancelled one never arrived', async () => {
    const aborts: unknown[] = [];
    let runs = 0;
    const router = waitingRouter(aborts, () => {
      runs++;
      router.announce('deploy', 'Production is frozen.');
    });
    const served = await serveMcpHttp(router, { sdk: server });
    cleanups.push(() => served.close());
    const connection = await connect(served.url, client);
    const cancel = new AbortController();
    const call = clientLineOf(connection.client) === '2.x'
      ? connection.client.callTool({ name: 'run_bash', arguments: { command: 'sleep' } }, { signal: cancel.signal })
      : connection.client.callTool({ name: 'run_bash', arguments: { command: 'sleep' } }, undefined, { signal: cancel.signal });
    await expect.poll(() => runs).toBe(1);
    cancel.abort('enough');
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborts.length).toBe(1);
    const next = await connection.client.callTool({ name: 'get_time', arguments: {} });
    expect(texts(next).at(-1)).toBe('<announcements>\n<announcement id="deploy">\nProduction is frozen.\n</announcement>\n</announcements>');
  });

  it('aborts the handler\'s signal when the HTTP request of the call is dropped', async () => {
    const { waiting, aborted, running } = await servers(server);
    const id = await rawSession(waiting.url);
    const before = { running: running(), aborted: aborted.length };
    const drop = new AbortController();
    const call = rawCall(waiting.url, id, 'POST', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'run_bash', arguments: { command: 'sleep' } } }, drop.signal);
    await expect.poll(running).toBe(before.running + 1);
    drop.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborted.length).toBe(before.aborted + 1);
    expect(String(aborted.at(-1))).toContain('dropped');
  });
});

// These wait on client timeouts and the idle timeout; each has its own server, so they run side by side (all pairs).
describe.concurrent.each(PAIRS)('slow sessions: $server server, $client client', ({ server, client }) => {
  it('a load the client gave up on (its session save was slow) still sends notifications/tools/list_changed, on the session stream', async ({ expect }) => {
    const memory = memorySessionStore();
    // A remote store, slow to save the session that has just loaded Weather: the client's 300 ms timeout passes first.
    const slow = { ...memory, set: async (id: string, record: Parameters<typeof memory.set>[1], ttl: number) => {
      if (JSON.stringify(record).includes('Weather')) await new Promise((resolve) => setTimeout(resolve, 600));
      return memory.set(id, record, ttl);
    } };
    const served = await serveMcpHttp(() => createDemoRouter(), { sdk: server, store: slow });
    cleanups.push(() => served.close());
    const connection = await connect(served.url, client);
    let changed = 0;
    connection.onToolListChanged(() => changed++);
    const params = { name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } };
    const call = clientLineOf(connection.client) === '2.x' ? connection.client.callTool(params, { timeout: 300 }) : connection.client.callTool(params, undefined, { timeout: 300 });
    await expect(call).rejects.toThrow(/timed out/);
    await expect.poll(() => changed, { timeout: 5000 }).toBe(1);
    expect((await listAllTools(connection.client)).map((t) => t.name)).toContain('get_forecast');
  });
  it('lets a session whose call the client cancelled go idle: the cancelled POST ends, and the idle timeout ends the session', async ({ expect }) => {
    const aborts: unknown[] = [];
    let runs = 0;
    const served = await serveMcpHttp(() => waitingRouter(aborts, () => runs++), { sdk: server, idleTimeoutMs: 500 });
    cleanups.push(() => served.close());
    const connection = await connect(served.url, client);
    const cancel = new AbortController();
    const options = { signal: cancel.signal };
    const call = clientLineOf(connection.client) === '2.x'
      ? connection.client.callTool({ name: 'run_bash', arguments: { command: 'sleep' } }, options)
      : connection.client.callTool({ name: 'run_bash', arguments: { command: 'sleep' } }, undefined, options);
    await expect.poll(() => runs).toBe(1);
    cancel.abort('enough');
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborts.length).toBe(1);
    await expect.poll(() => served.sessions.size, { timeout: 5000 }).toBe(0);
  });
});
