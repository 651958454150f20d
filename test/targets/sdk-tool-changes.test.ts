/**
 * Changes of the tool set in each provider's own words, against the official SDKs, two ways:
 *
 * - types (checked by `tsc -p .`): Anthropic's `tool-changes` payload is the beta `MessageCreateParamsNonStreaming`,
 *   a native Responses namespace is `NamespaceTool`, the Responses registration pair is `ResponseInputItem`s and the
 *   Gemini gate is `GenerateContentParameters`; each `@ts-expect-error` case is a near miss the SDK rejects, with a
 *   `satisfies` twin fixing only the named fault;
 * - bytes: the real SDK clients send the payloads to a recording server on 127.0.0.1 (Anthropic through
 *   `client.beta.messages.create`, whose `betas` become the `anthropic-beta` header).
 */
import Anthropic from '@anthropic-ai/sdk';
import type {
  BetaRequestToolAdditionBlock,
  BetaRequestToolRemovalBlock,
  MessageCreateParamsNonStreaming as BetaMessageCreateParamsNonStreaming,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { GenerateContentParameters } from '@google/genai';
import type { NamespaceTool, ResponseCreateParamsNonStreaming, ResponseInputItem, ResponseToolSearchOutputItemParam } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicToolChanges, createRouter, fromProvider, toolMessage, type NeutralMessage } from '../../runtime/index.js';
import * as flatOnly from '../fixtures/flat-only/expected/index.js';
import { startMockProvider, type MockProvider } from '../conversation/mock-provider.js';
import { exampleRouter } from '../runtime/helpers.js';
import { okAnswer, startRecordingServer, type RecordingServer } from './recording-server.js';

const loaded = exampleRouter().router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' });
const history: NeutralMessage[] = [
  { role: 'user', content: 'Weather in Lisbon?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: loaded },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'get_forecast', arguments: '{"city":"Lisbon"}' } }] },
  { role: 'tool', tool_call_id: 'c2', content: '{"sky":"sunny"}' },
];
const ping = { name: 'ping', description: 'Ping a host', parameters: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] }, handler: () => 'pong' } as const;

/** Anthropic with tool changes: Weather loaded, `terminal` blocked, `ping` registered after the first turn. */
function anthropicRun() {
  const { router } = exampleRouter({ model: 'claude-opus-4-8' });
  const first = router.compile({ target: 'anthropic', messages: history.slice(0, 1), options: { allowedTools: true } });
  const r = router.registerTools([ping]);
  r.setBlockedTools(['terminal']);
  return { first, payload: r.compile({ target: 'anthropic', messages: history, options: { allowedTools: true } }), router: r };
}

describe('tool changes on Anthropic', () => {
  it('load → tool_addition references after the load result; block → tool_removal and registration → tool_definition at the tail; tools unchanged', () => {
    const { first, payload } = anthropicRun();
    expect(payload.tools).toEqual(first.tools);
    expect(payload.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'system', 'assistant', 'user', 'system']);
    expect(payload.messages[3]!.content).toEqual(['get_forecast', 'get_current_weather'].map((name) => ({ type: 'tool_addition', tool: { type: 'tool_reference', name } })));
    const tail = payload.messages[6]!.content as unknown as Array<Record<string, unknown>>;
    expect(tail[0]).toEqual({ type: 'tool_removal', tool: { type: 'tool_reference', name: 'terminal' } });
    expect(tail[1]).toMatchObject({ type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'ping', input_schema: { type: 'object' } } } });
    const beta = anthropicToolChanges(payload)!;
    expect(beta.betas).toEqual(['mid-conversation-tool-changes-2026-07-01', 'inline-tools-2026-09-15']);
    expect(anthropicToolChanges(exampleRouter().router.compile({ target: 'anthropic', messages: history }))).toBeUndefined();
  });

  it('is the beta MessageCreateParamsNonStreaming (types)', () => {
    const beta = anthropicToolChanges(anthropicRun().payload)!;
    const params: BetaMessageCreateParamsNonStreaming = { model: 'claude-opus-4-8', max_tokens: 1, ...beta };
    const removal = { type: 'tool_removal', tool: { type: 'tool_reference', name: 'terminal' } } satisfies BetaRequestToolRemovalBlock;
    // @ts-expect-error a removal names a tool; it cannot carry a definition
    const badRemoval: BetaRequestToolRemovalBlock = { type: 'tool_removal', tool: { type: 'tool_definition', definition: { name: 'x', input_schema: { type: 'object' } } } };
    const addition = { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'x', input_schema: { type: 'object' } } } } satisfies BetaRequestToolAdditionBlock;
    // @ts-expect-error a definition's input_schema must be an object schema
    const badAddition: BetaRequestToolAdditionBlock = { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'x', input_schema: { type: 'string' } } } };
    expect([params.messages.length, removal.type, addition.type, badRemoval.type, badAddition.type]).toEqual([7, 'tool_removal', 'tool_addition', 'tool_removal', 'tool_addition']);
  });

  it('a model without mid-conversation system messages keeps the deferred mode; tool-changes fails at creation for it', () => {
    const { router } = exampleRouter({ model: 'claude-sonnet-5' });
    expect(anthropicToolChanges(router.compile({ target: 'anthropic', messages: history }))).toBeUndefined();
    expect(() => exampleRouter({ model: 'claude-sonnet-5', toolkitLoading: 'tool-changes' })).toThrow(/'tool-changes' is not available on target 'anthropic'/);
    expect(() => exampleRouter({ toolkitLoading: { openai: 'tool-changes' } })).toThrow(/not available on target 'openai'/);
  });

  it('never after a paused turn: the tail changes follow the last user turn, before a paused assistant turn', () => {
    const { router } = exampleRouter({ toolkitLoading: 'tool-changes' });
    router.setBlockedTools(['terminal']);
    const paused = fromProvider('anthropic', { role: 'assistant', stop_reason: 'pause_turn', content: [{ type: 'server_tool_use', id: 's1', name: 'web_search', input: {} }] });
    const payload = router.compile({ target: 'anthropic', messages: [{ role: 'user', content: 'search' }, ...paused], options: { allowedTools: true } });
    expect(payload.messages.map((m) => m.role)).toEqual(['user', 'system', 'assistant']);
    expect(JSON.stringify(payload.messages[1])).toContain('"tool_removal"');
  });

  it('a router without toolkits: the gate and a late registration still go out as tool changes', () => {
    const handler = () => 'ok';
    const router = createRouter(flatOnly, { get_time: handler, read_file: handler, stat_file: handler, send_email: handler }, { model: 'claude-opus-4-8' });
    const messages: NeutralMessage[] = [{ role: 'user', content: 'hi' }];
    const first = router.compile({ target: 'anthropic', messages });
    const r = router.registerTools([ping]);
    r.setBlockedTools(['send_email']);
    const payload = anthropicToolChanges(r.compile({ target: 'anthropic', messages, options: { allowedTools: true } }))!;
    expect(payload.tools).toEqual(first.tools);
    expect(payload.messages[1]).toMatchObject({ role: 'system', content: [{ type: 'tool_removal', tool: { name: 'send_email' } }, { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'ping' } } }] });
  });

  it('compaction blocks, tool_changes included, round-trip unchanged', () => {
    const compaction = { type: 'compaction', content: 'summary', encrypted_content: null, signature: 'sig', tool_changes: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'terminal' } }] };
    const reply = fromProvider('anthropic', { role: 'assistant', stop_reason: 'end_turn', content: [compaction as never, { type: 'text', text: 'Done.' }] });
    const { router } = exampleRouter({ toolkitLoading: 'tool-changes' });
    const payload = router.compile({ target: 'anthropic', messages: [{ role: 'user', content: 'hi' }, ...reply, { role: 'user', content: 'more' }] });
    expect(payload.messages[1]).toEqual({ role: 'assistant', content: [compaction, { type: 'text', text: 'Done.' }] });
  });
});

/** A Responses output item calling a namespace member, as the model sends it. */
const memberCall = (name: string, args: string, call_id = 'c9') => ({ type: 'function_call', id: `fc_${call_id}`, call_id, name, namespace: 'file_ops', arguments: args, status: 'completed' });

describe('native namespaces on Responses', () => {
  it('a namespace is a NamespaceTool with one function per action (strict as the spec asks)', () => {
    const { router } = exampleRouter();
    const payload = router.compile({ target: 'openai-responses', messages: history, options: { namespaces: 'native' } });
    const ns = payload.tools!.find((t) => t.type === 'namespace') as NamespaceTool;
    expect(ns.name).toBe('file_ops');
    expect(ns.tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'delete_file']);
    expect(ns.tools.every((t) => t.type === 'function' && 'strict' in t)).toBe(true);
    const params: ResponseCreateParamsNonStreaming = { model: 'gpt-x', ...payload };
    // @ts-expect-error a namespace needs its description
    const bad: NamespaceTool = { type: 'namespace', name: 'x', tools: [] };
    const good = { type: 'namespace', name: 'x', description: 'X', tools: [] } satisfies NamespaceTool;
    expect([params.tools!.length > 0, bad.name, good.name]).toEqual([true, 'x', 'x']);
  });

  it('a function_call with a namespace dispatches exactly like { action, args }: results, codes and reasons', async () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['delete_file']);
    const cases: Array<[string, string]> = [['read_file', '{"path":"a.ts"}'], ['read_fil', '{"path":"a.ts"}'], ['read_file', '{"path":1}'], ['delete_file', '{"path":"a"}'], ['read_file', 'not json']];
    for (const [name, args] of cases) {
      const [reply] = fromProvider('openai-responses', { object: 'response', output: [memberCall(name, args)] });
      const call = reply!.tool_calls![0]!;
      const direct = { id: 'c9', type: 'function' as const, function: { name: 'file_ops', arguments: args === 'not json' ? '{"action":"read_file","args":"not json"}' : `{"action":"${name}","args":${args}}` } };
      const [viaNamespace, viaActionArgs] = [await router.dispatch(call), await router.dispatch(direct)];
      expect(call.function.name).toBe('file_ops');
      expect(viaNamespace, `${name} ${args}`).toEqual(viaActionArgs);
    }
  });

  it('the history round trip: a received call is replayed as received; a neutral one becomes the member call', () => {
    const { router } = exampleRouter();
    const item = memberCall('read_file', '{"path":"a.ts"}');
    const reply = fromProvider('openai-responses', { object: 'response', output: [item] });
    const messages: NeutralMessage[] = [{ role: 'user', content: 'read a.ts' }, ...reply, toolMessage(reply[0]!.tool_calls![0]!, { ok: true, result: 'text of a.ts' })];
    const payload = router.compile({ target: 'openai-responses', messages, options: { namespaces: 'native' } });
    expect(payload.input[1]).toEqual(item);
    const neutral = router.compile({ target: 'openai-responses', messages: [messages[0]!, { role: 'assistant', content: null, tool_calls: [{ id: 'c9', type: 'function', function: { name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a.ts"}}' } }] }], options: { namespaces: 'native' } });
    expect(neutral.input[1]).toEqual({ type: 'function_call', call_id: 'c9', name: 'read_file', namespace: 'file_ops', arguments: '{"path":"a.ts"}' });
    const entries: ResponseInputItem[] = payload.input;
    expect(entries).toHaveLength(3);
  });

  it('a tool registered after the first turn arrives in a tool_search_output at the tail; tools unchanged', () => {
    const { router } = exampleRouter();
    const first = router.compile({ target: 'openai-responses', messages: history.slice(0, 1) });
    const r = router.registerTools([ping]);
    const payload = r.compile({ target: 'openai-responses', messages: history, options: { allowedTools: true } });
    expect(payload.tools).toEqual(first.tools);
    const pair: ResponseInputItem[] = payload.input.slice(-2);
    expect(pair).toEqual([
      { type: 'tool_search_call', call_id: 'toolroute_registered', arguments: { registered: true }, execution: 'client', status: 'completed' },
      { type: 'tool_search_output', call_id: 'toolroute_registered', execution: 'client', status: 'completed', tools: [expect.objectContaining({ type: 'function', name: 'ping' })] },
    ]);
    expect(payload.tool_choice!.tools).toContainEqual({ type: 'function', name: 'ping' });
    const output = { type: 'tool_search_output', call_id: 'toolroute_registered', execution: 'client', tools: [{ type: 'function', name: 'ping', parameters: null, strict: false }] } satisfies ResponseToolSearchOutputItemParam;
    // @ts-expect-error a function tool in a tool_search_output needs its `parameters` and `strict` keys
    const bad: ResponseToolSearchOutputItemParam = { type: 'tool_search_output', call_id: 'toolroute_registered', execution: 'client', tools: [{ type: 'function', name: 'ping' }] };
    expect([output.type, bad.type]).toEqual(['tool_search_output', 'tool_search_output']);
  });
});

describe('the Gemini gate', () => {
  it('toolConfig VALIDATED is the SDK type; a wrong shape is not', () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['terminal']);
    const payload = router.compile({ target: 'gemini', messages: history, options: { allowedTools: true } });
    const params: GenerateContentParameters = { model: 'gemini-x', ...payload };
    // @ts-expect-error allowedFunctionNames is a list
    const bad: GenerateContentParameters = { model: 'm', contents: [], config: { toolConfig: { functionCallingConfig: { allowedFunctionNames: 'file_ops' } } } };
    const good = { model: 'm', contents: [], config: { toolConfig: { functionCallingConfig: { allowedFunctionNames: ['file_ops'] } } } } satisfies GenerateContentParameters;
    expect(params.config!.toolConfig!.functionCallingConfig!.allowedFunctionNames).not.toContain('terminal');
    expect([bad.model, good.model]).toEqual(['m', 'm']);
  });
});

describe('the bytes the real SDK clients send', () => {
  let server: RecordingServer;
  let beta: MockProvider;
  beforeAll(async () => {
    server = await startRecordingServer();
    beta = await startMockProvider((_body, _i, path) => okAnswer(path));
  });
  afterAll(async () => {
    await server.close();
    await beta.close();
  });

  it('anthropic: client.beta.messages.create sends the tool changes and the anthropic-beta header', async () => {
    const payload = anthropicToolChanges(anthropicRun().payload)!;
    await new Anthropic({ apiKey: 'test', baseURL: beta.url, maxRetries: 0 }).beta.messages.create({ model: 'claude-opus-4-8', max_tokens: 16, ...payload });
    const sent = beta.requests.at(-1)!;
    const { betas, ...rest } = payload;
    expect(sent.body).toEqual(JSON.parse(JSON.stringify({ model: 'claude-opus-4-8', max_tokens: 16, ...rest })));
    expect(String(sent.headers['anthropic-beta']).split(',')).toEqual(betas);
  });

  it('openai-responses: the namespace tool, the member call and the registration pair', async () => {
    const { router } = exampleRouter();
    router.compile({ target: 'openai-responses', messages: history.slice(0, 1) });
    const r = router.registerTools([ping]);
    const reply = fromProvider('openai-responses', { object: 'response', output: [memberCall('read_file', '{"path":"a.ts"}')] });
    const messages: NeutralMessage[] = [...history, ...reply, toolMessage(reply[0]!.tool_calls![0]!, { ok: true, result: 'text' })];
    const payload = r.compile({ target: 'openai-responses', messages, options: { namespaces: 'native', allowedTools: true } });
    const body = await server.send('openai-responses', payload);
    expect(body).toEqual(JSON.parse(JSON.stringify({ model: 'gpt-test', ...payload })));
    expect(JSON.stringify(body)).toContain('"type":"namespace","name":"file_ops"');
    expect(JSON.stringify(body.tool_choice)).toContain('{"type":"namespace","name":"file_ops"}');
  });

  it('gemini: toolConfig in the REST body', async () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['terminal']);
    const body = await server.send('gemini', router.compile({ target: 'gemini', messages: history, options: { allowedTools: true } }));
    expect(body['toolConfig']).toEqual({ functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['file_ops', 'get_time', 'load_toolkit', 'call_toolkit_tool'] } });
  });
});
