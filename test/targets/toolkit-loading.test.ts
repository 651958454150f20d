/**
 * Native toolkit loading (runtime/toolkit-loading.ts) through the real router:
 * the dispatcher tool checked exactly like a namespace action, Responses
 * `tool_search_call` dispatched like `load_toolkit`, Anthropic `tool_reference`
 * blocks only for successful loads, the strategy option failing closed;
 * `cacheReuse` block by block; and the cache-key property in both directions.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as gen from '../../generated/index.js';
import { cacheBlocks, cacheReuse, createRouter, TOOLKIT_DISPATCHER_NAME, type Target } from '../../runtime/index.js';
import type { NeutralMessage } from '../../runtime/targets/history.js';
import { exampleRouter, recordingHandlers } from '../runtime/helpers.js';
import { cachedPrefixOracle } from './cache-oracle.js';

const TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];
const via = (tool: string, args: unknown) => ({ name: TOOLKIT_DISPATCHER_NAME, arguments: JSON.stringify({ tool, args }) });

describe('the dispatcher tool', () => {
  test('routes a loaded toolkit tool to its handler with its own arguments', async () => {
    const { router, log } = exampleRouter();
    router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"weather"}' });
    const r = await router.dispatch({ id: 'c1', ...via('get_forecast', { city: 'Lisbon', days: 2 }) });
    expect(r).toMatchObject({ ok: true, tool: 'get_forecast', callId: 'c1' });
    expect(log.at(-1)).toMatchObject({ tool: 'get_forecast', args: { city: 'Lisbon', days: 2 } });
    expect(router.checkToolCall(via('get_forecast', { city: 'Lisbon' }))).toMatchObject({ allowed: true, call: { tool: 'get_forecast', via: 'toolkit', group: 'Weather' } });
  });

  test('rejects like a namespace action: unknown, not loaded, blocked, invalid, malformed, extra keys', async () => {
    const { router, log } = exampleRouter();
    expect(await router.dispatch(via('get_forcast', {}))).toMatchObject({ ok: false, code: 'unknown_action', reason: expect.stringMatching(/^"get_forcast" is not a tool of any toolkit\. Did you mean: get_forecast/) });
    expect(await router.dispatch(via('read_file', { path: 'a' }))).toMatchObject({ code: 'unknown_action' });
    expect(await router.dispatch({ name: TOOLKIT_DISPATCHER_NAME, arguments: '{}' })).toMatchObject({ code: 'unknown_action', reason: expect.stringContaining('needs "tool" (a string) and "args" (an object)') });
    expect(await router.dispatch(via('run_query', { sql: 'SELECT 1' }))).toMatchObject({ code: 'not_loaded', reason: expect.stringContaining('{"toolkit_name":"Database"}') });
    router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Database"}' });
    expect(await router.dispatch(via('run_query', { sql: 42 }))).toMatchObject({
      code: 'invalid_arguments',
      reason: expect.stringMatching(/^Invalid arguments for "call_toolkit_tool" tool "run_query":\n- \/args\/sql: .*\nFix them and call call_toolkit_tool again\.$/),
    });
    expect(await router.dispatch(via('run_query', 'SELECT 1'))).toMatchObject({ code: 'malformed_arguments' });
    // The envelope is a namespace's, `tool` in place of `action`: a stray key beside `args` is refused by name, as
    // malformed; a flattened call (no `args`) runs with the keys beside `tool` as its arguments; `"args": null` is none.
    const namespaceStray = await router.dispatch({ name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a"},"limit":3}' });
    const stray = await router.dispatch({ name: TOOLKIT_DISPATCHER_NAME, arguments: '{"tool":"run_query","args":{"sql":"x"},"limit":3}' });
    expect(stray).toEqual({ ok: false, code: 'malformed_arguments', callId: undefined,
      reason: 'Key "limit" of the "call_toolkit_tool" call is outside "args" and would be ignored, so the call was not run. Put every argument of "run_query" inside "args": {"tool":"run_query","args":{…}}.' });
    expect(stray.ok === false && namespaceStray.ok === false && stray.reason.replace('call_toolkit_tool', 'file_ops').replace(/run_query/g, 'read_file').replace('"tool"', '"action"')).toBe(namespaceStray.ok === false ? namespaceStray.reason : '');
    expect(await router.dispatch({ name: TOOLKIT_DISPATCHER_NAME, arguments: '{"tool":"run_query","args":[1]}' })).toMatchObject({ code: 'malformed_arguments',
      reason: 'Arguments for "call_toolkit_tool" must be {"tool":"run_query","args":{…}} with "args" a JSON object; got array.' });
    expect(log).toEqual([]);
    expect(await router.dispatch({ name: TOOLKIT_DISPATCHER_NAME, arguments: '{"tool":"run_query","sql":"SELECT 2"}' })).toMatchObject({ ok: true, tool: 'run_query' });
    expect(log.at(-1)).toMatchObject({ tool: 'run_query', args: { sql: 'SELECT 2' } });
    expect(await router.dispatch({ name: TOOLKIT_DISPATCHER_NAME, arguments: '{"tool":"run_query","args":null}' })).toMatchObject({ ok: false, code: 'invalid_arguments',
      reason: expect.stringMatching(/^Invalid arguments for "call_toolkit_tool" tool "run_query":\n- \/args\/sql: missing/) });
    log.length = 0;
    expect(await router.dispatch({ name: TOOLKIT_DISPATCHER_NAME, arguments: '{"tool":' })).toMatchObject({ code: 'malformed_arguments' });
    router.setBlockedTools(['Database']);
    expect(await router.dispatch(via('run_query', { sql: 'SELECT 1' }))).toMatchObject({ code: 'blocked', reason: 'Tool "run_query" is currently blocked.' });
    expect(log).toEqual([]);
  });

  test('is offered only where the strategy says, and never without toolkits', () => {
    const messages: NeutralMessage[] = [{ role: 'user', content: 'hi' }];
    const names = (router: ReturnType<typeof exampleRouter>['router'], target: Target) => cacheBlocks(target, router.compile({ target, messages })).filter((b) => b.section === 'tools').map((b) => b.json.includes(TOOLKIT_DISPATCHER_NAME));
    const native = exampleRouter().router;
    expect(names(native, 'openai').filter(Boolean)).toHaveLength(1);
    expect(names(native, 'gemini').filter(Boolean)).toHaveLength(1);
    expect(names(native, 'anthropic').filter(Boolean)).toHaveLength(0);
    const everywhere = exampleRouter({ toolkitLoading: 'dispatcher' }).router;
    for (const target of TARGETS) expect(names(everywhere, target).filter(Boolean), target).toHaveLength(1);
    const append = exampleRouter({ toolkitLoading: { openai: 'append' } }).router;
    expect(names(append, 'openai').filter(Boolean)).toHaveLength(0);
    expect(names(append, 'gemini').filter(Boolean)).toHaveLength(1);
  });

  test('a misspelt strategy fails at createRouter, not silently', () => {
    const make = (toolkitLoading: unknown) => () => createRouter(gen, recordingHandlers().handlers, { toolkitLoading } as never);
    expect(make('apend')).toThrow(/toolkitLoading: "apend" is not a strategy; use one of 'native', 'dispatcher', 'append'/);
    expect(make({ openai: 'nope' })).toThrow(/"nope" is not a strategy/);
    expect(make({ claude: 'append' })).toThrow(/"claude" is not a target/);
    expect(make(['append'])).toThrow(TypeError);
    expect(make({ openai: 'append', gemini: 'dispatcher' })).not.toThrow();
  });
});

describe('Responses tool_search_call', () => {
  test('is dispatched like load_toolkit: gate, case-insensitive name, reasons', async () => {
    const { router } = exampleRouter();
    const item = (args: unknown) => ({ type: 'tool_search_call', id: 'ts_1', call_id: 'c9', execution: 'client', status: 'completed', arguments: args });
    expect(await router.dispatch(item({ toolkit_name: 'weather' }))).toMatchObject({ ok: true, tool: 'load_toolkit', callId: 'c9', result: expect.stringMatching(/^Toolkit "Weather" loaded\./) });
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    expect(await router.dispatch(item({ toolkit_name: 'Wether' }))).toMatchObject({ ok: false, code: 'invalid_arguments', reason: expect.stringContaining('Weather') });
    router.setBlockedTools(['Database']);
    expect(await router.dispatch(item({ toolkit_name: 'Database' }))).toMatchObject({ code: 'blocked', reason: 'Toolkit "Database" is currently blocked.' });
  });

  test('a failed load is an empty tool_search_output followed by the error text', () => {
    const { router } = exampleRouter();
    const messages: NeutralMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Nope"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Unknown toolkit "Nope". Available toolkits: Weather, Database.' },
    ];
    const payload = router.compile({ target: 'openai-responses', messages });
    expect(payload.input.slice(1)).toEqual([
      { type: 'tool_search_call', call_id: 'c1', arguments: { toolkit_name: 'Nope' }, execution: 'client', status: 'completed' },
      { type: 'tool_search_output', call_id: 'c1', execution: 'client', status: 'completed', tools: [] },
      { role: 'developer', content: 'load_toolkit: Unknown toolkit "Nope". Available toolkits: Weather, Database.' },
    ]);
    expect(payload.tools?.at(-1)).toMatchObject({ type: 'tool_search', execution: 'client', parameters: { properties: { toolkit_name: { enum: ['Weather', 'Database'] } } } });
  });
});

describe('Anthropic tool_reference', () => {
  const history = (result: string): NeutralMessage[] => [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"WEATHER"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: result },
  ];

  test('follows a successful load only, whatever the state is now', () => {
    const { router } = exampleRouter();
    const text = router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' });
    const result = (p: ReturnType<typeof router.compile<'anthropic'>>) => (p.messages[2]!.content as Array<{ content: unknown }>)[0]!.content;
    expect(result(router.compile({ target: 'anthropic', messages: history(text) }))).toEqual([
      { type: 'text', text },
      { type: 'tool_reference', tool_name: 'get_forecast' },
      { type: 'tool_reference', tool_name: 'get_current_weather' },
    ]);
    // JSON of the text (a generic loop's JSON.stringify(result)) is recognized too.
    expect(JSON.stringify(result(router.compile({ target: 'anthropic', messages: history(JSON.stringify(text)) })))).toContain('tool_reference');
    // An error result gets none.
    expect(result(router.compile({ target: 'anthropic', messages: history('Toolkit "Weather" is currently blocked.') }))).toBe('Toolkit "Weather" is currently blocked.');
    // Blocking later does not rewrite the earlier turn.
    const before = JSON.stringify(router.compile({ target: 'anthropic', messages: history(text) }));
    router.setBlockedTools(['Weather']);
    expect(JSON.stringify(router.compile({ target: 'anthropic', messages: history(text) }))).toBe(before);
  });
});

describe('cacheReuse', () => {
  const base = { system: 'S', messages: [{ role: 'user', content: 'a' }], tools: [{ name: 't', input_schema: { type: 'object' } }] };

  test('an appended turn is full reuse; a changed system breaks after the tools; markers and deferred tools do not count', () => {
    const next = { ...base, messages: [...base.messages, { role: 'assistant', content: 'b' }] };
    expect(cacheReuse('anthropic', base, next)).toMatchObject({ full: true, reusedBlocks: 3, totalBlocks: 3 });
    const changed = cacheReuse('anthropic', base, { ...next, system: 'T' });
    expect(changed).toMatchObject({ full: false, reusedBlocks: 1, firstMismatch: { section: 'system', path: 'system' } });
    expect(changed.reusedBytes).toBe(cacheBlocks('anthropic', base)[0]!.bytes);
    expect(cacheReuse('anthropic', base, { ...next, tools: [{ ...base.tools[0]!, cache_control: { type: 'ephemeral' } }, { name: 'd', defer_loading: true }] }).full).toBe(true);
    // On Responses a deferred function is in the prefix: adding one before the others breaks it.
    const responses = { instructions: 'S', input: [{ role: 'user', content: 'a' }], tools: [{ type: 'function', name: 't' }] };
    expect(cacheReuse('openai-responses', responses, { ...responses, tools: [{ type: 'function', name: 'd', defer_loading: true }, ...responses.tools] })).toMatchObject({ full: false, reusedBlocks: 0 });
  });

  test('a string content that becomes blocks keeps its first block; Gemini parts merge the same way', () => {
    const tail = { ...base, messages: [{ role: 'user', content: 'a' }] };
    expect(cacheReuse('anthropic', tail, { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] }).full).toBe(true);
    const g = { contents: [{ role: 'user', parts: [{ text: 'a' }] }], config: { systemInstruction: 'S' } };
    expect(cacheReuse('gemini', g, { ...g, contents: [{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }] }] }).full).toBe(true);
    expect(cacheReuse('gemini', g, { ...g, contents: [{ role: 'model', parts: [{ text: 'a' }] }] }).full).toBe(false);
  });

  test('never throws on garbage', () => {
    for (const target of TARGETS) {
      for (const junk of [null, 1, 'x', [], { tools: 'no' }, { messages: [null] }, { contents: [{ parts: null }] }]) {
        expect(() => cacheReuse(target, junk, junk)).not.toThrow();
      }
    }
    const cyclic: Record<string, unknown> = { role: 'user' };
    cyclic['content'] = [cyclic];
    expect(cacheReuse('openai', { messages: [cyclic] }, { messages: [cyclic] }).full).toBe(false);
  });
});

describe('cacheKey property: equal keys if and only if equal cached bytes', () => {
  test('random router states and requests, every target, both directions', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('block' as const), names: fc.subarray([...gen.TOOL_NAMES, ...gen.NAMESPACE_NAMES, ...gen.TOOLKIT_NAMES]) }),
      fc.record({ kind: fc.constant('announce' as const), id: fc.constantFrom('a', 'b'), channel: fc.constantFrom('auto' as const, 'system' as const, 'user_tail' as const) }),
      fc.record({ kind: fc.constant('load' as const), toolkit: fc.constantFrom(...gen.TOOLKIT_NAMES) }),
      fc.record({ kind: fc.constant('message' as const), text: fc.string({ maxLength: 8 }) }),
    );
    const request = fc.record({
      system: fc.constantFrom('You are terse.', 'You are careful.'),
      tools: fc.constantFrom(undefined, ['file_ops'], ['file_ops', 'terminal', 'get_time']),
      strategy: fc.constantFrom('native' as const, 'dispatcher' as const, 'append' as const),
      target: fc.constantFrom(...TARGETS),
      toolSearch: fc.boolean(),
    });
    let equal = 0;
    let different = 0;
    fc.assert(
      fc.property(request, fc.array(op, { maxLength: 6 }), request, fc.array(op, { maxLength: 6 }), (r1, ops1, r2, ops2) => {
        const build = (r: typeof r1, ops: typeof ops1) => {
          const router = createRouter(gen, recordingHandlers().handlers, { toolkitLoading: r.strategy });
          const messages: NeutralMessage[] = [{ role: 'user', content: 'start' }];
          for (const o of ops) {
            if (o.kind === 'block') router.setBlockedTools(o.names);
            else if (o.kind === 'announce') router.announce(o.id, 'fact', { channel: o.channel });
            else if (o.kind === 'load') router.handleTool({ name: 'load_toolkit', arguments: JSON.stringify({ toolkit_name: o.toolkit }) });
            else messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: o.text });
          }
          const payload = router.compile({ target: r1.target, system: r.system, messages, ...(r.tools ? { tools: r.tools as never } : {}), ...(r.toolSearch ? { options: { toolSearch: true } } : {}) });
          return { key: router.cacheKey(payload), oracle: cachedPrefixOracle(r1.target, payload) };
        };
        const a = build(r1, ops1);
        const b = build({ ...r2, target: r1.target }, ops2);
        expect(a.key).toMatch(/^[0-9a-f]{64}$/);
        expect(a.key === b.key).toBe(a.oracle === b.oracle);
        if (a.key === b.key) equal++;
        else different++;
      }),
      { numRuns: 300, seed: 9 },
    );
    expect(equal).toBeGreaterThan(10);
    expect(different).toBeGreaterThan(10);
  });
});

describe('provider-side blocklist (options.allowedTools, opt-in)', () => {
  const messages: NeutralMessage[] = [{ role: 'user', content: 'hi' }];

  test('Chat and Responses get allowed_tools listing what the gate lets through; tools never change; the gate stays the authority', async () => {
    const { router } = exampleRouter();
    const chat = () => router.compile({ target: 'openai', messages, options: { allowedTools: true } });
    const responses = () => router.compile({ target: 'openai-responses', messages, options: { allowedTools: true } });
    const open = chat();
    expect(open.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: { mode: 'auto', tools: ['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool'].map((name) => ({ type: 'function', function: { name } })) },
    });
    expect(responses().tool_choice).toEqual({ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'file_ops' }, { type: 'function', name: 'terminal' }, { type: 'function', name: 'get_time' }, { type: 'tool_search' }] });
    // Blocking a whole namespace and every toolkit removes them; blocking one action does not remove its namespace.
    router.setBlockedTools(['terminal', 'Weather', 'Database', 'delete_file']);
    const blocked = chat();
    expect(blocked.tool_choice?.allowed_tools.tools.map((t) => t.function.name)).toEqual(['file_ops', 'get_time']);
    expect(responses().tool_choice?.tools).toEqual([{ type: 'function', name: 'file_ops' }, { type: 'function', name: 'get_time' }]);
    expect(blocked.tools).toBe(open.tools);
    // Honest key: tool_choice is sent before the conversation, so the key follows it; cacheReuse counts it right after the tools.
    expect(router.cacheKey(blocked)).not.toBe(router.cacheKey(open));
    expect(cacheReuse('openai', open, blocked)).toMatchObject({ full: false, firstMismatch: { section: 'tool_choice' } });
    // The gate still answers for the blocked action inside an allowed namespace.
    expect(await router.dispatch({ name: 'file_ops', arguments: { action: 'delete_file', args: { path: 'a' } } })).toMatchObject({ code: 'blocked' });
    expect(router.allowedToolNames({ target: 'gemini' })).toEqual(['file_ops', 'get_time']);
    // The same blocklist gives the same tool_choice and the same key.
    const again = chat();
    expect(again.tool_choice).toEqual(blocked.tool_choice);
    expect(router.cacheKey(again)).toBe(router.cacheKey(blocked));
  });

  test('Gemini gets toolConfig VALIDATED with allowedFunctionNames; Anthropic without tool changes warns and sends nothing', () => {
    const { router } = exampleRouter();
    const codes: string[] = [];
    const onWarning = (_m: string, code: string) => codes.push(code);
    router.setBlockedTools(['terminal']);
    const anthropic = router.compile({ target: 'anthropic', messages, options: { allowedTools: true, onWarning } });
    const gemini = router.compile({ target: 'gemini', messages, options: { allowedTools: true, onWarning } });
    expect(JSON.stringify(anthropic)).not.toContain('tool_choice');
    expect(gemini.config.toolConfig).toEqual({ functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['file_ops', 'get_time', 'load_toolkit', 'call_toolkit_tool'] } });
    const plain = router.compile({ target: 'gemini', messages });
    expect(gemini.config.tools).toEqual(plain.config.tools);
    expect(gemini.config.systemInstruction).toBe(plain.config.systemInstruction);
    expect(codes).toEqual(['allowed-tools-unsupported']); // Anthropic only, once per router
    expect(router.cacheKey(anthropic)).toBe(router.cacheKey(router.compile({ target: 'anthropic', messages })));
  });

  test("Anthropic 'tool-changes': a blocked tool is withdrawn at the tail with tool_removal; tools and system unchanged", () => {
    const { router } = exampleRouter({ toolkitLoading: 'tool-changes' });
    const open = router.compile({ target: 'anthropic', messages, options: { allowedTools: true } });
    router.setBlockedTools(['terminal']);
    const blocked = router.compile({ target: 'anthropic', messages, options: { allowedTools: true } });
    expect(blocked.tools).toBe(open.tools);
    expect(blocked.system).toBe(open.system);
    expect(blocked.messages.at(-1)).toEqual({ role: 'system', content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'terminal' } }] });
    expect((blocked as { betas?: unknown }).betas).toEqual(['mid-conversation-tool-changes-2026-07-01']);
    router.setBlockedTools([]);
    expect(router.compile({ target: 'anthropic', messages, options: { allowedTools: true } }).messages).toEqual(open.messages);
  });
});
