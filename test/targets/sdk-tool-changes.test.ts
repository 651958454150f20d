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
    // A member by name: the namespace's gate and the action's.
    expect([router.checkToolCall({ namespace: 'file_ops', name: 'read_file' }), router.checkToolCall({ namespace: 'file_ops', name: 'delete_file' })]).toMatchObject([{ allowed: true, kind: 'namespace' }, { allowed: false, code: 'blocked' }]);
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
    // A misspelt encoding (from JavaScript or a config value) fails loudly instead of falling back to the default.
    expect(() => router.compile({ target: 'openai-responses', messages, options: { namespaces: 'nativ' as 'native' } })).toThrow(/options\.namespaces takes 'native' or 'action-args'; got "nativ"/);
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

/** A Responses output item calling a toolkit's tool through the toolkit's native namespace. */
const kitCall = (name: string, args: string, call_id = 'k1') => ({ type: 'function_call', id: `fc_${call_id}`, call_id, name, namespace: 'Weather', arguments: args, status: 'completed' });
const loadCall = { id: 'l1', type: 'function' as const, function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } };

describe('toolkits as native namespaces on Responses', () => {
  it('each toolkit is a NamespaceTool whose functions are deferred; tools stay byte-identical across a load', async () => {
    const { router } = exampleRouter();
    const first = router.compile({ target: 'openai-responses', messages: history.slice(0, 1), options: { namespaces: 'native' } });
    const kits = (first.tools as NamespaceTool[]).filter((t) => t.type === 'namespace' && ['Weather', 'Database'].includes(t.name));
    expect(kits.map((k) => [k.name, k.tools.map((m) => [m.name, 'defer_loading' in m && m.defer_loading])])).toEqual([
      ['Weather', [['get_forecast', true], ['get_current_weather', true]]],
      ['Database', [['run_query', true], ['describe_table', true]]],
    ]);
    expect(first.tools).toContainEqual(expect.objectContaining({ type: 'tool_search', execution: 'client' }));
    const loaded = await router.dispatch(loadCall);
    const messages: NeutralMessage[] = [history[0]!, { role: 'assistant', content: null, tool_calls: [loadCall] }, toolMessage(loadCall, loaded)];
    const payload = router.compile({ target: 'openai-responses', messages, options: { namespaces: 'native' } });
    expect(JSON.stringify(payload.tools)).toBe(JSON.stringify(first.tools));
    // The load's result carries the toolkit's namespace, its functions loaded (no defer_loading).
    const output = payload.input.at(-1) as ResponseToolSearchOutputItemParam;
    expect(output).toMatchObject({ type: 'tool_search_output', call_id: 'l1', execution: 'client' });
    expect(output.tools).toEqual([{ ...kits[0], tools: kits[0]!.tools.map(({ defer_loading: _d, ...m }) => m) }]);
  });

  it('is the SDK request type; defer_loading goes on the functions, not on the namespace', () => {
    const { router } = exampleRouter();
    const params: ResponseCreateParamsNonStreaming = { model: 'gpt-x', ...router.compile({ target: 'openai-responses', messages: history, options: { namespaces: 'native' } }) };
    const member = { type: 'function', name: 'get_forecast', parameters: { type: 'object' }, defer_loading: true } satisfies NamespaceTool.Function;
    // @ts-expect-error a namespace is not deferred itself; its functions are
    const bad: NamespaceTool = { type: 'namespace', name: 'Weather', description: 'W', tools: [member], defer_loading: true };
    const good = { type: 'namespace', name: 'Weather', description: 'W', tools: [member] } satisfies NamespaceTool;
    const carried = { type: 'tool_search_output', call_id: 'l1', execution: 'client', tools: [good] } satisfies ResponseToolSearchOutputItemParam;
    expect([params.tools!.length > 0, bad.name, carried.tools.length]).toEqual([true, 'Weather', 1]);
  });

  it('a member call dispatches exactly as the toolkit tool called by name: results, codes and reasons', async () => {
    const cases: Array<[string, string, (r: ReturnType<typeof exampleRouter>['router']) => unknown]> = [
      ['get_forecast', '{"city":"Lisbon"}', () => undefined],
      ['get_forecast', '{"city":"Lisbon","days":30}', () => undefined],
      ['get_forecast', 'not json', () => undefined],
      ['get_current_weather', '{"city":"Porto"}', (r) => r.setBlockedTools(['get_current_weather'])],
      ['get_forecast', '{"city":"Lisbon"}', (r) => r.setBlockedTools(['Weather'])],
    ];
    for (const load of [true, false]) {
      for (const [name, args, prepare] of cases) {
        const { router } = exampleRouter();
        if (load) await router.dispatch(loadCall);
        prepare(router);
        const item = kitCall(name, args);
        const [reply] = fromProvider('openai-responses', { object: 'response', output: [item] });
        const byName = await router.dispatch({ id: 'k1', type: 'function', function: { name, arguments: args } });
        expect(await router.dispatch(reply!.tool_calls![0]!), `${name} ${args} loaded=${load}`).toEqual(byName);
        expect(await router.dispatch(item)).toEqual(byName);
        expect(router.checkToolCall({ namespace: 'Weather', name }).allowed).toBe(byName.ok || (!byName.ok && byName.code !== 'blocked' && byName.code !== 'not_loaded'));
      }
    }
    const { router } = exampleRouter();
    await router.dispatch(loadCall);
    const unknown = await router.dispatch(kitCall('get_forcast', '{}'));
    expect(unknown).toMatchObject({ ok: false, code: 'unknown_action' });
    expect(!unknown.ok && unknown.reason).toContain('get_forecast');
    expect(await router.dispatch(kitCall('run_query', '{"sql":"x"}'))).toMatchObject({ ok: false, code: 'unknown_action' });
  });

  it('the history round trip and the provider gate: a neutral member call becomes the namespace item; allowed_tools names a loaded, open toolkit', async () => {
    const { router } = exampleRouter();
    const loaded = await router.dispatch(loadCall);
    const reply = fromProvider('openai-responses', { object: 'response', output: [kitCall('get_forecast', '{"city":"Lisbon"}')] });
    const call = reply[0]!.tool_calls![0]!;
    const messages: NeutralMessage[] = [history[0]!, { role: 'assistant', content: null, tool_calls: [loadCall] }, toolMessage(loadCall, loaded), ...reply, toolMessage(call, await router.dispatch(call))];
    const compile = (m: NeutralMessage[]) => router.compile({ target: 'openai-responses', messages: m, options: { namespaces: 'native', allowedTools: true } });
    expect(compile(messages).input[3]).toEqual(kitCall('get_forecast', '{"city":"Lisbon"}'));
    const neutral = compile([...messages.slice(0, 3), { role: 'assistant', content: null, tool_calls: [{ ...call, id: 'k2' }] }]);
    expect(neutral.input[3]).toEqual({ type: 'function_call', call_id: 'k2', name: 'get_forecast', namespace: 'Weather', arguments: '{"city":"Lisbon"}' });
    const named = (p: { tool_choice?: { tools: unknown[] } }) => p.tool_choice!.tools;
    expect(named(compile(messages))).toContainEqual({ type: 'namespace', name: 'Weather' });
    expect(named(compile(messages))).not.toContainEqual({ type: 'namespace', name: 'Database' });
    expect(named(compile(messages))).not.toContainEqual({ type: 'function', name: 'get_forecast' });
    router.setBlockedTools(['Weather']);
    expect(named(compile(messages))).not.toContainEqual({ type: 'namespace', name: 'Weather' });
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

  it('nothing the gate lets through is NONE on Gemini and `none` on OpenAI: an empty list would allow every tool', () => {
    const { router } = exampleRouter();
    const everything = router.compile({ target: 'gemini', messages: history }).config.tools![0]!.functionDeclarations.map((d) => d.name);
    router.setBlockedTools([...everything.filter((n) => n !== 'call_toolkit_tool'), ...router.compile().directoryXml.match(/(?<=name=")[^"]+/g)!] as never[]);
    expect(router.allowedToolNames({ target: 'gemini' })).toEqual([]);
    const gemini = router.compile({ target: 'gemini', messages: history, options: { allowedTools: true } });
    expect(gemini.config.toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    const params: GenerateContentParameters = { model: 'gemini-x', ...gemini };
    expect(params.config!.toolConfig!.functionCallingConfig!.mode).toBe('NONE');
    expect(router.compile({ target: 'openai', messages: history, options: { allowedTools: true } }).tool_choice).toBe('none');
    expect(router.compile({ target: 'openai-responses', messages: history, options: { allowedTools: true } }).tool_choice).toBe('none');
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

  it('openai-responses: a toolkit namespace of deferred functions, its load as tool search items and a member call', async () => {
    const { router } = exampleRouter();
    const loaded = await router.dispatch(loadCall);
    const reply = fromProvider('openai-responses', { object: 'response', output: [kitCall('get_forecast', '{"city":"Lisbon"}')] });
    const messages: NeutralMessage[] = [history[0]!, { role: 'assistant', content: null, tool_calls: [loadCall] }, toolMessage(loadCall, loaded), ...reply, toolMessage(reply[0]!.tool_calls![0]!, { ok: true, result: 'sunny' })];
    const payload = router.compile({ target: 'openai-responses', messages, options: { namespaces: 'native', allowedTools: true } });
    const body = await server.send('openai-responses', payload);
    expect(body).toEqual(JSON.parse(JSON.stringify({ model: 'gpt-test', ...payload })));
    const json = JSON.stringify(body);
    expect(json).toContain('{"type":"namespace","name":"Weather","description":"Weather forecast APIs","tools":[{"type":"function","name":"get_forecast"');
    expect(json).toContain('"defer_loading":true');
    expect(json).toContain('"type":"tool_search_output","call_id":"l1","execution":"client","status":"completed","tools":[{"type":"namespace","name":"Weather"');
    expect(json).toContain('"namespace":"Weather","arguments":"{\\"city\\":\\"Lisbon\\"}"');
  });

  it('gemini: toolConfig in the REST body', async () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['terminal']);
    const body = await server.send('gemini', router.compile({ target: 'gemini', messages: history, options: { allowedTools: true } }));
    expect(body['toolConfig']).toEqual({ functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['file_ops', 'get_time', 'load_toolkit', 'call_toolkit_tool'] } });
  });
});
