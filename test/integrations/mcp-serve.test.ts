/**
 * `serveMcp` driven by the official MCP client, over stdio (examples/mcp-server.ts
 * started as a child process) and over Streamable HTTP on 127.0.0.1
 * (`serveMcpHttp` in this process), each SDK line serving and each
 * connecting: list, call, rejections as `isError`, `list_changed` after a
 * toolkit load, the order stable across calls, the directory in the
 * instructions and announcements on results. A request from a foreign host is
 * refused before its body is read. Then `toolroute import mcp --url` reads
 * the served router back into a spec.
 */
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { connectMcp, listAllTools, serveMcpHttp, type McpConnection, type McpSdkLine } from '../../integrations/mcp/index.js';
import { REPO } from '../generator/helpers.js';
import { LINES, PAIRS, texts as text } from './mcp-lines.js';
import { cli, tempDir } from './mcp-servers.js';

const STABLE = ['file_ops', 'terminal', 'read_file', 'run_bash', 'get_time', 'load_toolkit'];
type CallToolResult = { isError?: boolean; structuredContent?: unknown; content: unknown[] };
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** One served demo router per line for the tests that leave its state alone (the conversation test serves its own). */
const sharedServers = new Map<McpSdkLine, ReturnType<typeof serveMcpHttp>>();
function shared(sdk: McpSdkLine): ReturnType<typeof serveMcpHttp> {
  let served = sharedServers.get(sdk);
  if (!served) {
    served = serveMcpHttp(createDemoRouter(), { sdk }).then((s) => {
      cleanups.push(() => s.close());
      return s;
    });
    sharedServers.set(sdk, served);
  }
  return served;
}

/** Sends a request by hand (any Host header), writing none of the body it announces; resolves with the status. */
function rawStatus(url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** The same conversation over either transport. */
async function exercise(connection: McpConnection): Promise<void> {
  const { client } = connection;
  let changed = 0;
  connection.onToolListChanged(() => {
    changed++;
  });
  expect(connection.instructions).toContain('<available_toolkits>');
  expect(connection.instructions).toContain('Weather');
  expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });

  // List: namespaces, flat tools, the loader; the same bytes on every call.
  const first = await listAllTools(client);
  expect(first.map((t) => t.name)).toEqual(STABLE);
  expect(first[0]!.inputSchema).toMatchObject({ type: 'object', properties: { action: { type: 'string' } } });
  expect(await listAllTools(client)).toEqual(first);
  // One page, and no cursor handed out: a cursor is an invalid parameter (MCP's pagination rule), not a silent first page.
  await expect(client.listTools({ cursor: 'page-2' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('takes no cursor') });

  // Call through a namespace: the first result also carries the standing announcement, once.
  const write = (await client.callTool({ name: 'file_ops', arguments: { action: 'write_file', args: { path: 'a.txt', content: 'hi' } } })) as CallToolResult;
  expect(write.isError).toBeFalsy();
  expect(write.structuredContent).toEqual({ path: 'a.txt', bytes: 2 });
  expect(text(write)).toEqual([JSON.stringify({ path: 'a.txt', bytes: 2 }), expect.stringContaining('<announcement id="env">')]);
  const read = (await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })) as CallToolResult;
  expect(text(read)).toEqual(['hi']);

  // Rejections are isError results carrying toolroute's reasons.
  const invalid = (await client.callTool({ name: 'read_file', arguments: { path: 7 } })) as CallToolResult;
  expect(invalid.isError).toBe(true);
  expect(text(invalid)[0]).toMatch(/^Invalid arguments for "read_file":[\s\S]*\/path/);
  const unknown = (await client.callTool({ name: 'read_fil', arguments: {} })) as CallToolResult;
  expect(unknown.isError).toBe(true);
  expect(text(unknown)[0]).toMatch(/Unknown tool "read_fil"[\s\S]*read_file/);
  const early = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } })) as CallToolResult;
  expect(early.isError).toBe(true);
  expect(text(early)[0]).toContain('Call load_toolkit with {"toolkit_name":"Weather"} first');
  const failing = (await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } })) as CallToolResult;
  expect(failing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool "read_file" failed: no such file: missing.txt' }] });

  // Loading a toolkit: list_changed, then its tools after the stable prefix.
  expect(changed).toBe(0);
  const load = (await client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'weather' } })) as CallToolResult;
  expect(text(load)[0]).toMatch(/^Toolkit "Weather" loaded\./);
  await expect.poll(() => changed).toBe(1);
  const after = await listAllTools(client);
  expect(after.map((t) => t.name)).toEqual([...STABLE, 'get_forecast', 'get_current_weather']);
  expect(after.slice(0, STABLE.length)).toEqual(first);
  const forecast = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } })) as CallToolResult;
  expect(forecast.structuredContent).toEqual({ city: 'Lisbon', days: 3, forecast: 'sunny' });
  // Loading again changes nothing: no second notification.
  await client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } });
  expect(await listAllTools(client)).toEqual(after);
  expect(changed).toBe(1);
}

describe.each([
  { server: '1.x', client: '2.x' },
  { server: '2.x', client: '1.x' },
] as const)('serveMcp over stdio (examples/mcp-server.ts as a child process): $server server, $client client', ({ server, client }) => {
  it('lists, calls, rejects, notifies and keeps its order', async () => {
    const connection = await connectMcp(
      {
        command: process.execPath,
        args: ['--conditions=toolroute-source', '--import', 'tsx', path.join(REPO, 'examples/mcp-server.ts')],
        cwd: REPO,
        env: { TOOLROUTE_MCP_SDK: server },
      },
      { sdk: client },
    );
    cleanups.push(() => connection.close());
    expect(connection.line).toBe(client);
    expect(connection.server?.name).toBe('toolroute-example');
    await exercise(connection);
  });
});

describe.each(PAIRS)('serveMcpHttp over Streamable HTTP on 127.0.0.1: $server server, $client client', ({ server, client }) => {
  it('lists, calls, rejects, notifies and keeps its order', async () => {
    const router = createDemoRouter();
    const served = await serveMcpHttp(router, { name: 'toolroute-example', sdk: server });
    cleanups.push(() => served.close());
    expect(served.url.hostname).toBe('127.0.0.1');
    const connection = await connectMcp({ url: served.url }, { sdk: client });
    cleanups.push(() => connection.close());
    expect(connection.line).toBe(client);
    await exercise(connection);
    // The router's state is the served state: the load happened on this router.
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    expect(served.sessions.size).toBe(1);
    expect([...served.sessions.values()][0]!.line).toBe(server);
    // Closing the connection ends its session on the server (a DELETE), not at the idle timeout.
    await connection.close();
    expect(served.sessions.size).toBe(0);
  });
});

describe.each(LINES)('serveMcpHttp with the %s server', (sdk) => {
  it('answers requests without a session, and other paths, with JSON-RPC errors', async () => {
    const served = await shared(sdk);
    const noSession = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ error: { message: expect.stringContaining('initialize') } });
    const elsewhere = await fetch(new URL('/other', served.url));
    expect(elsewhere.status).toBe(404);
  });

  it('refuses a foreign Host, or a foreign Origin, with 403 before reading the body', async () => {
    const served = await shared(sdk);
    // The body announced is never sent: only an answer given before reading it arrives.
    expect(await rawStatus(served.url, { host: `evil.example:${served.url.port}` })).toBe(403);
    expect(await rawStatus(served.url, { host: served.url.host, origin: 'http://evil.example' })).toBe(403);
    expect(await rawStatus(new URL('/other', served.url), { host: 'evil.example' })).toBe(403);
    // Its own host and localhost, with or without an Origin of theirs, get through.
    const ok = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };
    expect((await fetch(served.url, ok)).status).toBe(400);
    expect((await fetch(new URL(`http://localhost:${served.url.port}/mcp`), { ...ok, headers: { ...ok.headers, origin: `http://localhost:${served.url.port}` } })).status).not.toBe(403);
  });

  it('toolroute import mcp --url reads the served router back into a spec', async () => {
    const served = await shared(sdk);
    const dir = tempDir('mcp-url-');
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const spec = path.join(dir, 'served.spec.yaml');
    const r = await cli(['import', 'mcp', '--out', spec, '--as', 'flat', '--name', 'served', '--sdk', sdk, '--url', served.url.href]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(spec, 'utf8')).toMatch(/- name: file_ops\n/);
    const check = await cli(['import', 'mcp', '--out', spec, '--check', '--sdk', sdk, '--url', served.url.href]);
    expect(check.code).toBe(0);
    // Neither run leaves its session open on the server.
    expect(served.sessions.size).toBe(0);
    // load_toolkit is toolroute's own name: imported as a tool it would collide, so it is renamed and the rename recorded.
    expect(readFileSync(spec, 'utf8')).toContain('# import: name "load_toolkit" written as "mcp_load_toolkit": "load_toolkit" is reserved by toolroute.');
  });
});
