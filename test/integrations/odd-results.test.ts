/**
 * What a handler returns reaches the model on every integration, whatever it is: a value JSON cannot write (a BigInt,
 * a cyclic object), an object that is not plain data (a Date, a Map, bytes), or data shaped almost like MCP content
 * blocks. None of them ends an AI SDK or Agents run, or turns an MCP `tools/call` into a protocol error. Over MCP, a
 * proxied tool also gets the call's signal: a time limit on this side cancels the tool on the server.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as generated from '../../generated/index.js';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';
import { connectMcp, mcpHandlers, serveMcpHttp, type McpSdkLine } from '../../integrations/mcp/index.js';
import { toOpenAiAgents } from '../../integrations/openai-agents/index.js';
import { outputText } from '../../integrations/openai-agents/tools.js';
import { createRouter } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { LINES } from './mcp-lines.js';
import { waitingRouter } from './mcp-traffic.helpers.js';

const cyclic: Record<string, unknown> = { a: 1 };
cyclic['self'] = cyclic;
const RESULTS: Record<string, unknown> = {
  big: 10n,
  cyclic,
  date: new Date(0),
  map: new Map([[1, 2]]),
  namedMap: new Map([['a', 1]]),
  set: new Set(['x', 'y']),
  nested: { ids: new Set([1, 2]), big: 10n, byName: new Map([['a', { b: 1 }]]) },
  bytes: new Uint8Array([1, 2]),
  almostBlocks: [{ type: 'image', url: 'https://example.com/a.png' }, { type: 'text' }],
  // Shaped like blocks, with a field the SDK refuses: an embedded resource without its uri, a priority above 1, no base64.
  badResource: [{ type: 'resource', resource: {} }],
  badAnnotations: [{ type: 'text', text: 'a', annotations: { priority: 5 } }],
  badImage: [{ type: 'image', data: 'not base64!!', mimeType: 'image/png' }],
  blocks: [{ type: 'text', text: 'a' }, { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }],
  plain: { temp: 21 },
  // Parsed JSON can hold a `__proto__` key as data.
  proto: JSON.parse('{"a":1,"nested":{"__proto__":{"admin":true}}}') as unknown,
};
function oddRouter() {
  const { handlers } = recordingHandlers();
  return createRouter(generated, { ...handlers, get_time: ({ timezone }: { timezone?: string }) => RESULTS[timezone ?? 'plain'] });
}
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.each(LINES)('MCP, %s', (sdk: McpSdkLine) => {
  it('answers every result as a tool result: text always, structured content for JSON objects only', async () => {
    const served = await serveMcpHttp(oddRouter(), { sdk });
    const { client, close } = await connectMcp({ url: served.url }, { sdk });
    cleanups.push(() => served.close(), close);
    const call = async (timezone: string) =>
      (await client.callTool({ name: 'get_time', arguments: { timezone } })) as { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };
    expect(await call('big')).toMatchObject({ content: [{ type: 'text', text: '10' }] });
    expect(await call('cyclic')).toMatchObject({ content: [{ type: 'text', text: '(a value JSON cannot encode)' }] });
    const date = await call('date');
    expect(date).toMatchObject({ content: [{ type: 'text', text: '"1970-01-01T00:00:00.000Z"' }] });
    expect(date.structuredContent).toBeUndefined();
    // A Map, a Set and a BigInt inside a result keep their data: JSON alone would write `{}` or refuse the whole value.
    const map = await call('map');
    expect(map).toMatchObject({ content: [{ type: 'text', text: '[[1,2]]' }] });
    expect(map.structuredContent).toBeUndefined();
    expect(await call('namedMap')).toMatchObject({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(await call('set')).toMatchObject({ content: [{ type: 'text', text: '["x","y"]' }] });
    const nested = { ids: [1, 2], big: 10, byName: { a: { b: 1 } } };
    expect(await call('nested')).toMatchObject({ content: [{ type: 'text', text: JSON.stringify(nested) }], structuredContent: nested });
    expect(await call('bytes')).toMatchObject({ content: [{ type: 'text', text: '{"0":1,"1":2}' }], structuredContent: { 0: 1, 1: 2 } });
    for (const name of ['almostBlocks', 'badResource', 'badAnnotations', 'badImage']) {
      expect(await call(name), name).toMatchObject({ content: [{ type: 'text', text: JSON.stringify(RESULTS[name]) }] });
    }
    expect((await call('blocks')).content).toEqual(RESULTS['blocks']);
    expect(await call('plain')).toMatchObject({ content: [{ type: 'text', text: '{"temp":21}' }], structuredContent: { temp: 21 } });
    // Structured content would lose the key on its way out (the SDK rebuilds it), and disagree with the text: text alone.
    const proto = await call('proto');
    expect(proto).toMatchObject({ content: [{ type: 'text', text: '{"a":1,"nested":{"__proto__":{"admin":true}}}' }] });
    expect(proto.structuredContent).toBeUndefined();
  });

  it("a proxied tool's time limit here cancels the tool on the server", async () => {
    const aborted: unknown[] = [];
    const served = await serveMcpHttp(waitingRouter(aborted, () => undefined), { sdk });
    const { client, close } = await connectMcp({ url: served.url }, { sdk });
    cleanups.push(() => served.close(), close);
    const proxied = await mcpHandlers(client, generated, { tools: ['run_bash'] });
    const { handlers } = recordingHandlers();
    const router = createRouter(generated, { ...handlers, ...proxied }, { timeoutMs: 200 });
    expect(await router.dispatch({ name: 'run_bash', arguments: '{"command":"sleep"}' })).toMatchObject({ ok: false, code: 'timeout' });
    await expect.poll(() => aborted.length, { timeout: 5000 }).toBe(1);
  });
});

describe('AI SDK and OpenAI Agents', () => {
  it('a result JSON cannot write goes to the model as text, never an exception that ends the run; a BigInt is a number while one holds it', async () => {
    const settings = toAiSdk(oddRouter());
    const output = (value: unknown) => settings.tools['get_time']!.toModelOutput!({ output: value, toolCallId: 'c', input: {} } as never);
    expect(await output(10n)).toEqual({ type: 'json', value: 10 });
    expect(await output(2n ** 64n)).toEqual({ type: 'json', value: '18446744073709551616' });
    expect(await output(cyclic)).toEqual({ type: 'text', value: '(a value JSON cannot encode)' });
    expect(await output({ temp: 21 })).toEqual({ type: 'json', value: { temp: 21 } });
    expect(await output(RESULTS['nested'])).toEqual({ type: 'json', value: { ids: [1, 2], big: 10, byName: { a: { b: 1 } } } });
    expect(outputText({ ok: true, result: RESULTS['nested'] })).toBe('{"ids":[1,2],"big":10,"byName":{"a":{"b":1}}}');
    expect(outputText({ ok: true, result: 10n })).toBe('10');
    expect(outputText({ ok: true, result: cyclic })).toBe('(a value JSON cannot encode)');
  });

  it('a misspelled option throws, naming the closest one', () => {
    expect(() => toAiSdk(oddRouter(), { toolKitLoading: 'append' } as never)).toThrow(/toAiSdk options: unknown name "toolKitLoading" \(did you mean "toolkitLoading"\?\)/);
    expect(() => toOpenAiAgents(oddRouter(), { tool: ['get_time'] } as never)).toThrow(/toOpenAiAgents options: unknown name "tool" \(did you mean "tools"\?\)/);
  });
});
