/**
 * `serveMcp` with library tools (`libraryTools`, examples/memory-tools.ts),
 * driven by the official MCP client over Streamable HTTP on 127.0.0.1
 * (`serveMcpHttp` in this process), on each SDK line: the library tools are listed, at the
 * place every payload gives them (after `load_toolkit`, before loaded
 * toolkits' tools), with their own schemas; calls reach their handlers; the
 * gate blocks them as `isError` results without changing the list; their
 * own validators reject bad arguments, named, before the handler runs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as gen from '../../generated/index.js';
import { memoryTools } from '../../examples/memory-tools.js';
import { connectMcp, listAllTools, serveMcpHttp, type McpSdkLine } from '../../integrations/mcp/index.js';
import { createRouter } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { LINES, texts as text } from './mcp-lines.js';

const STABLE = ['file_ops', 'terminal', 'read_file', 'run_bash', 'get_time', 'load_toolkit'];
const LIBRARY = ['remember', 'recall'];
type CallToolResult = { isError?: boolean; structuredContent?: unknown; content: unknown[] };
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function served(sdk: McpSdkLine) {
  const store = new Map<string, string>();
  const { handlers, log } = recordingHandlers();
  const router = createRouter(gen, handlers, { libraryTools: memoryTools(store) });
  const server = await serveMcpHttp(router, { name: 'toolroute-library', sdk });
  cleanups.push(() => server.close());
  const connection = await connectMcp({ url: server.url }, { sdk });
  cleanups.push(() => connection.close());
  return { router, store, log, client: connection.client, connection };
}

describe.each(LINES)('serveMcp with library tools (the official MCP client over Streamable HTTP), SDK %s', (sdk) => {
  it('lists the library tools after load_toolkit with their own schemas, and keeps their place when a toolkit loads', async () => {
    const { client, connection } = await served(sdk);
    let changed = 0;
    connection.onToolListChanged(() => {
      changed++;
    });
    const first = await listAllTools(client);
    expect(first.map((t) => t.name)).toEqual([...STABLE, ...LIBRARY]);
    const remember = first.find((t) => t.name === 'remember')!;
    expect(remember.description).toMatch(/^Store a fact for later turns/);
    expect(remember.inputSchema).toMatchObject({ type: 'object', required: ['key', 'value'], additionalProperties: false, properties: { key: { type: 'string', minLength: 1 } } });

    await client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } });
    await expect.poll(() => changed).toBe(1);
    const after = await listAllTools(client);
    expect(after.map((t) => t.name)).toEqual([...STABLE, ...LIBRARY, 'get_forecast', 'get_current_weather']);
    expect(after.slice(0, first.length)).toEqual(first);
  });

  it('calls reach the library handlers: remember stores, recall reads back', async () => {
    const { client, store, log } = await served(sdk);
    const remembered = (await client.callTool({ name: 'remember', arguments: { key: 'deploy-target', value: 'eu-west-1' } })) as CallToolResult;
    expect(remembered.isError).toBeFalsy();
    expect(text(remembered)).toEqual(['Remembered "deploy-target".']);
    expect([...store]).toEqual([['deploy-target', 'eu-west-1']]);
    const recalled = (await client.callTool({ name: 'recall', arguments: { key: 'deploy-target' } })) as CallToolResult;
    expect(recalled.isError).toBeFalsy();
    expect(recalled.structuredContent).toEqual({ key: 'deploy-target', value: 'eu-west-1' });
    const keys = (await client.callTool({ name: 'recall', arguments: {} })) as CallToolResult;
    expect(keys.structuredContent).toEqual({ keys: ['deploy-target'] });
    // The application's handlers saw none of it.
    expect(log).toEqual([]);
  });

  it('the gate blocks a library tool (an isError result naming it), the list stays the same, and unblocking restores it', async () => {
    const { client, router, store } = await served(sdk);
    const before = await listAllTools(client);
    router.setBlockedTools(['remember']);
    const blocked = (await client.callTool({ name: 'remember', arguments: { key: 'k', value: 'v' } })) as CallToolResult;
    expect(blocked.isError).toBe(true);
    expect(text(blocked)[0]).toMatch(/"remember"[\s\S]*blocked/i);
    expect(store.size).toBe(0);
    // Blocking never changes the tool surface (so a client's cached prompt holds); recall still runs.
    expect(await listAllTools(client)).toEqual(before);
    expect(((await client.callTool({ name: 'recall', arguments: {} })) as CallToolResult).isError).toBeFalsy();
    router.setBlockedTools([]);
    expect(((await client.callTool({ name: 'remember', arguments: { key: 'k', value: 'v' } })) as CallToolResult).isError).toBeFalsy();
    expect([...store]).toEqual([['k', 'v']]);
  });

  it("the library tool's validator rejects bad arguments before its handler runs, naming what is wrong", async () => {
    const { client, store } = await served(sdk);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ key: 'k' }, /value/],
      [{ key: '', value: 'v' }, /key/],
      [{ key: 'k', value: 7 }, /value/],
      [{ key: 'k', value: 'v', extra: true }, /extra/],
    ];
    for (const [args, names] of cases) {
      const r = (await client.callTool({ name: 'remember', arguments: args })) as CallToolResult;
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(text(r)[0], JSON.stringify(args)).toMatch(/^Invalid arguments for "remember"/);
      expect(text(r)[0], JSON.stringify(args)).toMatch(names);
    }
    expect(store.size).toBe(0);
  });
});
