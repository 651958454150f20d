/**
 * `serveMcp` driven by the official MCP client, over stdio (examples/mcp-server.ts
 * started as a child process) and over Streamable HTTP on 127.0.0.1
 * (`serveMcpHttp` in this process): list, call, rejections as `isError`,
 * `list_changed` after a toolkit load, the order stable across calls, the
 * directory in the instructions and announcements on results. Then
 * `toolroute import mcp --url` reads the served router back into a spec.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { connectMcp, listAllTools, serveMcpHttp, type McpConnection } from '../../integrations/mcp/index.js';
import { REPO } from '../generator/helpers.js';
import { cli, tempDir } from './mcp-servers.js';

const STABLE = ['file_ops', 'terminal', 'read_file', 'run_bash', 'get_time', 'load_toolkit'];
const text = (r: CallToolResult) => r.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** One served demo router for the tests that leave its state alone (the conversation test serves its own). */
let sharedServer: ReturnType<typeof serveMcpHttp> | undefined;
function shared(): ReturnType<typeof serveMcpHttp> {
  sharedServer ??= serveMcpHttp(createDemoRouter()).then((served) => {
    cleanups.push(() => served.close());
    return served;
  });
  return sharedServer;
}

/** The same conversation over either transport. */
async function exercise(connection: McpConnection): Promise<void> {
  const { client } = connection;
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
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

describe('serveMcp over stdio (examples/mcp-server.ts as a child process)', () => {
  it('lists, calls, rejects, notifies and keeps its order', async () => {
    const connection = await connectMcp({
      command: process.execPath,
      args: ['--conditions=toolroute-source', '--import', 'tsx', path.join(REPO, 'examples/mcp-server.ts')],
      cwd: REPO,
    });
    cleanups.push(() => connection.close());
    expect(connection.server?.name).toBe('toolroute-example');
    await exercise(connection);
  });
});

describe('serveMcpHttp over Streamable HTTP on 127.0.0.1', () => {
  it('lists, calls, rejects, notifies and keeps its order', async () => {
    const router = createDemoRouter();
    const served = await serveMcpHttp(router, { name: 'toolroute-example' });
    cleanups.push(() => served.close());
    expect(served.url.hostname).toBe('127.0.0.1');
    const connection = await connectMcp({ url: served.url });
    cleanups.push(() => connection.close());
    await exercise(connection);
    // The router's state is the served state: the load happened on this router.
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    expect(served.sessions.size).toBe(1);
  });

  it('answers requests without a session, and other paths, with JSON-RPC errors', async () => {
    const served = await shared();
    const noSession = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ error: { message: expect.stringContaining('initialize') } });
    const elsewhere = await fetch(new URL('/other', served.url));
    expect(elsewhere.status).toBe(404);
  });

  it('toolroute import mcp --url reads the served router back into a spec', async () => {
    const served = await shared();
    const dir = tempDir('mcp-url-');
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const spec = path.join(dir, 'served.spec.yaml');
    const r = await cli(['import', 'mcp', '--out', spec, '--as', 'flat', '--name', 'served', '--url', served.url.href]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(spec, 'utf8')).toMatch(/- name: file_ops\n/);
    const check = await cli(['import', 'mcp', '--out', spec, '--check', '--url', served.url.href]);
    expect(check.code).toBe(0);
    // load_toolkit is toolroute's own name: imported as a tool it would collide, so it is renamed and the rename recorded.
    expect(readFileSync(spec, 'utf8')).toContain('# import: name "load_toolkit" written as "mcp_load_toolkit": "load_toolkit" is reserved by toolroute.');
  });
});
