/**
 * Helpers of the MCP traffic tests: raw Streamable HTTP requests (to see
 * statuses the official client hides), a router whose `run_bash` waits
 * until its `ctx.signal` aborts, and a call that outlives the idle timeout
 * (also run against Redis).
 */
import { expect } from 'vitest';
import { request } from 'node:http';
import * as gen from '../../generated/index.js';
import { connectMcp, listAllTools, serveMcpHttp, type McpSdkLine, type McpSessionStore } from '../../integrations/mcp/index.js';
import { createRouter } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { texts } from './mcp-lines.js';

export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
} as const;

/** Starts a session by hand: its id. */
export async function rawSession(url: URL): Promise<string> {
  const r = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(INITIALIZE) });
  await r.text();
  const id = r.headers.get('mcp-session-id');
  if (r.status !== 200 || id === null) throw new Error(`initialize answered ${r.status}`);
  const done = await fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-session-id': id }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  await done.text();
  return id;
}

/** A request in a session (or none): status and the body text. */
export async function rawCall(url: URL, id: string | undefined, method: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; text: string }> {
  const r = await fetch(url, {
    method,
    headers: { ...JSON_HEADERS, ...(id !== undefined ? { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });
  return { status: r.status, text: await r.text() };
}

/**
 * POSTs a body of `declared` bytes (or chunked when undefined), writing 64 KiB chunks until the server answers or
 * `declared` is reached: the status, and how many bytes had been written when the answer came.
 */
export function postLarge(url: URL, headers: Record<string, string>, declared: number | undefined): Promise<{ status: number; written: number }> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const req = request(url, { method: 'POST', headers: { ...JSON_HEADERS, ...(declared !== undefined ? { 'content-length': String(declared) } : {}), ...headers } }, (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, written });
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && written < (declared ?? 20_000_000)) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    req.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"');
    pump();
  });
}

/** A router over the example whose `run_bash` waits for its `ctx.signal`; `aborted` collects the reasons. */
export function waitingRouter(aborted: unknown[], started: () => void) {
  const { handlers } = recordingHandlers();
  return createRouter(gen, {
    ...handlers,
    run_bash: (_args: unknown, ctx: { signal: AbortSignal }) =>
      new Promise<string>((resolve) => {
        started();
        ctx.signal.addEventListener('abort', () => {
          aborted.push(ctx.signal.reason);
          resolve('stopped');
        });
      }),
  });
}

/**
 * A tool call that outlives the idle timeout, on two `serveMcpHttp` servers sharing `store` (a router per session):
 * the client calls `run_bash` on the first, which runs for 1.5 idle timeouts (past the timeout and its margin of a
 * tenth); meanwhile the same client lists the tools (same server) and a raw request of the session reaches the second
 * server. Then the call finishes, and the
 * session answers for a while after it and ends once nothing reaches it. Returns what each step saw.
 */
export async function callOutlivingIdleTimeout(sdk: McpSdkLine, store: McpSessionStore, idleTimeoutMs: number) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let running = 0;
  const { handlers } = recordingHandlers();
  const make = () => createRouter(gen, { ...handlers, run_bash: async () => (running++, await held, 'finished') });
  const [one, two] = await Promise.all([serveMcpHttp(make, { sdk, store, idleTimeoutMs }), serveMcpHttp(make, { sdk, store, idleTimeoutMs })]);
  const connection = await connectMcp({ url: one!.url }, { sdk });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const error = (e: unknown) => `failed: ${e instanceof Error ? e.message : String(e)}`;
  try {
    const id = [...one!.sessions.keys()][0]!;
    const call = connection.client.callTool({ name: 'run_bash', arguments: { command: 'long' } }).then((r) => texts(r), error);
    for (let waited = 0; running === 0 && waited < 5000; waited += 10) await sleep(10);
    await sleep(idleTimeoutMs * 1.5);
    const sameClient = await listAllTools(connection.client).then((tools) => tools.map((t) => t.name), error);
    const otherServer = (await rawCall(two!.url, id, 'POST', { jsonrpc: '2.0', id: 90, method: 'tools/list' })).status;
    release();
    const result = await Promise.race([call, sleep(3000).then(() => 'still pending 3 s after it finished')]);
    // The idle clock starts when the call finishes.
    await sleep(idleTimeoutMs * 0.6);
    const afterFinish = await listAllTools(connection.client).then((tools) => tools.length, error);
    // Then nothing reaches the session: it ends on both servers, and its id answers 404.
    for (let waited = 0; (one!.sessions.size > 0 || two!.sessions.size > 0) && waited < 5000; waited += 20) await sleep(20);
    const open = one!.sessions.size + two!.sessions.size;
    await sleep(idleTimeoutMs / 2);
    const ended = (await rawCall(one!.url, id, 'POST', { jsonrpc: '2.0', id: 91, method: 'tools/list' })).status;
    return { sameClient, otherServer, result, afterFinish, open, ended };
  } finally {
    release();
    await connection.close().catch(() => undefined);
    await Promise.all([one!.close(), two!.close()]);
  }
}

/** What `callOutlivingIdleTimeout` must see with any session store: the session lived through the call, then ended. */
export function expectOutlivedIdleTimeout(seen: Awaited<ReturnType<typeof callOutlivingIdleTimeout>>): void {
  expect(seen.sameClient).toEqual(expect.arrayContaining(['terminal', 'load_toolkit']));
  expect(seen.otherServer).toBe(200);
  expect(seen.result).toEqual(['finished']);
  expect(seen.afterFinish).toBeGreaterThan(0);
  expect(seen.open).toBe(0);
  expect(seen.ended).toBe(404);
}
