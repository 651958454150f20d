/**
 * Helpers of the MCP traffic tests: raw Streamable HTTP requests (to see
 * statuses the official client hides), and a router whose `run_bash` waits
 * until its `ctx.signal` aborts.
 */
import { request } from 'node:http';
import * as gen from '../../generated/index.js';
import { createRouter } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';

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
