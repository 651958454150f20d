/**
 * `serveMcpHttp` processes sharing one session store, on each SDK line: what one process changes, another does not
 * undo. A call that changed nothing leaves a change made elsewhere in the record; a session ended on one process stays
 * ended although a call of it finishes on another; a record written elsewhere that this server's router refuses ends
 * the session with 404; and a full server lets go of sessions ended elsewhere before it refuses a new one.
 * (Two servers in this process stand for two processes: they share nothing but the store.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as gen from '../../generated/index.js';
import { memorySessionStore, serveMcpHttp, type McpSdkLine } from '../../integrations/mcp/index.js';
import { createRouter } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { LINES } from './mcp-lines.js';
import { INITIALIZE, rawCall, rawSession } from './mcp-traffic.helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * Two servers on one memory store, a router per session, whose `run_bash` waits for `release()` and then, with
 * `announce`, changes its session's state.
 */
async function twoProcesses(sdk: McpSdkLine, options: { announce?: boolean; maxSessions?: number } = {}) {
  const store = memorySessionStore();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let running = 0;
  const { handlers } = recordingHandlers();
  const make = () => {
    const router = createRouter(gen, {
      ...handlers,
      run_bash: async () => {
        running++;
        await held;
        if (options.announce === true) router.announce('job', 'The long job finished.');
        return 'finished';
      },
    });
    return router;
  };
  const one = await serveMcpHttp(make, { sdk, store, ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }) });
  const two = await serveMcpHttp(make, { sdk, store });
  cleanups.push(() => one.close(), () => two.close());
  const id = await rawSession(one.url);
  const call = (url: URL, name: string, args: object) => rawCall(url, id, 'POST', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });
  const list = (url: URL) => rawCall(url, id, 'POST', { jsonrpc: '2.0', id: 8, method: 'tools/list' });
  /** Starts the waiting call on `one`; resolves, once its handler runs, to the call's answer still pending. */
  const longCall = async () => {
    const answer = call(one.url, 'run_bash', { command: 'long' });
    await expect.poll(() => running).toBe(1);
    return { answer };
  };
  return { store, one, two, id, call, list, longCall, release };
}

describe.each(LINES)('processes sharing a session store, %s server', (sdk) => {
  it('a call that changed nothing does not overwrite a toolkit loaded meanwhile on another process', async () => {
    const { store, one, two, id, call, list, longCall, release } = await twoProcesses(sdk);
    const { answer } = await longCall();
    const load = await call(two.url, 'load_toolkit', { toolkit_name: 'Weather' });
    expect(load.status).toBe(200);
    expect(load.text).toContain('loaded');
    release();
    expect((await answer).text).toContain('finished');
    const record = await store.get(id);
    expect((record?.snapshot as { loaded: string[] }).loaded).toEqual(['Weather']);
    // The process that ran the call sees the load on its next request.
    expect((await list(one.url)).text).toContain('get_forecast');
  });

  it('a session ended on another process stays ended when a call that changed its state finishes', async () => {
    const { store, one, two, id, list, longCall, release } = await twoProcesses(sdk, { announce: true });
    const { answer } = await longCall();
    expect((await rawCall(two.url, id, 'DELETE')).status).toBe(200);
    expect(store.size).toBe(0);
    release();
    await answer;
    expect(await store.get(id)).toBeUndefined();
    expect((await list(one.url)).status).toBe(404);
    expect((await list(two.url)).status).toBe(404);
  });

  it('a record written elsewhere that this server cannot restore ends its open session with 404, not an error on every request', async () => {
    const { store, one, id, list } = await twoProcesses(sdk);
    expect((await list(one.url)).status).toBe(200);
    // Another process, on a newer spec, stored a toolkit this server's spec does not have.
    const record = (await store.get(id))!;
    await store.set(id, { ...record, snapshot: { ...(record.snapshot as object), loaded: ['Retired'] }, revision: 'written-elsewhere' }, 60_000);
    const refused = await list(one.url);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain("its stored state does not fit this server's tools");
    expect(refused.text).toContain('Retired');
    expect(store.size).toBe(0);
    expect((await list(one.url)).status).toBe(404);
  });

  it('a full server lets go of a session ended on another process before it refuses a new one', async () => {
    const { one, two, id } = await twoProcesses(sdk, { maxSessions: 1 });
    expect(one.sessions.has(id)).toBe(true);
    expect((await rawCall(two.url, id, 'DELETE')).status).toBe(200);
    const next = await fetch(one.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) });
    await next.text();
    expect(next.status).toBe(200);
    expect(one.sessions.has(id)).toBe(false);
    expect(one.sessions.size).toBe(1);
  });
});
