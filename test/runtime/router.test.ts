/**
 * Unit behaviour of the router: library-owned load_toolkit, the gate through layers, call shapes and hostile input,
 * handler errors, run-time registration, per-target compile selection and the runtime's public exports.
 */
import { describe, expect, test } from 'vitest';
import * as runtime from '../../runtime/index.js';
import { createRouter, ToolCallRejectedError, type GeneratedModule } from '../../runtime/index.js';
import { exampleRouter, generated, recordingHandlers } from './helpers.js';

const call = (name: string, args: unknown = {}) => ({ name, arguments: JSON.stringify(args) });

describe('load_toolkit (library-owned)', () => {
  test('handleTool loads once, lists signatures, and answers mistakes with text', () => {
    const { router } = exampleRouter();
    expect(router.handleTool(call('load_toolkit', { toolkit_name: 'WEATHER' }))).toMatch(/^Toolkit "Weather" loaded\./);
    expect(router.handleTool(call('load_toolkit', { toolkit_name: 'weather' }))).toMatch(/^Toolkit "Weather" is already loaded\./);
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    expect(router.handleTool(call('load_toolkit', { toolkit_name: 'Wether' }))).toBe(
      'Error: Unknown toolkit "Wether". Did you mean: Weather? Available toolkits: Weather, Database.',
    );
    expect(router.handleTool(call('load_toolkit', {}))).toMatch(/^Error: load_toolkit needs \{"toolkit_name": "<name>"\}\./);
    expect(router.handleTool({ name: 'load_toolkit', arguments: '{oops' })).toMatch(/^Error: Arguments for "load_toolkit" are not valid JSON/);
    expect(router.handleTool(call('read_file'))).toMatch(/^Error: "read_file" is not a library tool/);
    expect(router.handleTool(null)).toMatch(/^Error:/);
    router.setBlockedTools(['Database']);
    expect(router.handleTool(call('load_toolkit', { toolkit_name: 'Database' }))).toBe('Error: Toolkit "Database" is currently blocked.');
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
  });

  test('dispatch handles load_toolkit too, and marks blocked tools in the listing', async () => {
    const { router, log } = exampleRouter();
    router.setBlockedTools(['describe_table']);
    const r = await router.dispatch(call('load_toolkit', { toolkit_name: 'Database' }));
    expect(r).toMatchObject({ ok: true, tool: 'load_toolkit' });
    expect((r as { result: string }).result).toContain('- describe_table: Show the columns of a table (currently blocked)\n  table: string\n  schema?: string');
    expect(log).toEqual([]);
  });

  test('extractToolkit is case-insensitive, returns full definitions, and throws like the reference library on unknown names', () => {
    const { router } = exampleRouter();
    const tools = router.extractToolkit('dAtAbAsE');
    expect(tools.map((t) => t.name)).toEqual(['run_query', 'describe_table']);
    expect(tools[0]!.parameters).toMatchObject({ type: 'object', required: ['sql'] });
    expect(() => router.extractToolkit('Nope')).toThrow(ToolCallRejectedError);
    expect(() => router.extractToolkit('Nope')).toThrow('Unknown toolkit: "Nope". Available: Weather, Database');
  });
});

describe('the gate sees through layers', () => {
  test('a blocked tool is blocked flat, as a namespace action and as a loaded toolkit tool', async () => {
    const { router, log } = exampleRouter();
    router.extractToolkit('Weather');
    router.setBlockedTools(['read_file', 'get_forecast']);
    expect(await router.dispatch(call('read_file', { path: 'a' }))).toMatchObject({ ok: false, code: 'blocked' });
    expect(await router.dispatch(call('file_ops', { action: 'read_file', args: { path: 'a' } }))).toMatchObject({ ok: false, code: 'blocked' });
    expect(await router.dispatch(call('get_forecast', { city: 'x' }))).toMatchObject({ ok: false, code: 'blocked' });
    expect(await router.dispatch(call('file_ops', { action: 'write_file', args: { path: 'a', content: '' } }))).toMatchObject({ ok: true });
    expect(log.map((c) => c.tool)).toEqual(['write_file']);
  });

  test('blocking a namespace or a toolkit blocks all of its tools, everywhere', async () => {
    const { router } = exampleRouter();
    router.extractToolkit('Weather');
    router.setBlockedTools(['terminal', 'Weather']);
    expect(await router.dispatch(call('terminal', { action: 'tail_logs', args: { service: 's' } }))).toMatchObject({ code: 'blocked' });
    expect(await router.dispatch(call('run_bash', { command: 'ls' }))).toMatchObject({ code: 'blocked' });
    expect(await router.dispatch(call('get_current_weather', { city: 'x' }))).toMatchObject({ code: 'blocked' });
    expect(await router.dispatch(call('get_time'))).toMatchObject({ ok: true });
  });

  test('blocking never changes compile() output, neutral or per target', () => {
    const { router } = exampleRouter();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const before = JSON.stringify([router.compile(), router.compile({ target: 'anthropic', messages })]);
    router.setBlockedTools(['file_ops', 'Weather', 'load_toolkit', 'get_time']);
    expect(JSON.stringify([router.compile(), router.compile({ target: 'anthropic', messages })])).toBe(before);
  });
});

describe('call shapes and hostile input', () => {
  test('OpenAI Responses native namespace calls route to the action', async () => {
    const { router, log } = exampleRouter();
    const r = await router.dispatch({ type: 'function_call', call_id: 'c9', namespace: 'file_ops', name: 'read_file', arguments: '{"path":"p"}' });
    expect(r).toEqual({ ok: true, tool: 'read_file', result: { tool: 'read_file', args: { path: 'p' } }, callId: 'c9' });
    expect(log[0]).toMatchObject({ callId: 'c9' });
    // A namespace that names a tool: said so, not "unknown tool" with that very tool among the available ones.
    const flat = await router.dispatch({ type: 'function_call', call_id: 'c10', namespace: 'read_file', name: 'read_file', arguments: '{"path":"p"}' });
    expect(flat).toMatchObject({ ok: false, code: 'unknown_tool', reason: '"read_file" is a tool, not a namespace: call it by its own name, with no namespace.' });
    expect(log).toHaveLength(1);
  });

  test('limits reject huge and deep input before parsing or walking it', async () => {
    const { router } = exampleRouter({ maxArgumentsLength: 1000, maxDepth: 8 });
    const huge = await router.dispatch({ name: 'get_time', arguments: `{"timezone":"${'x'.repeat(5000)}"}` });
    expect(huge).toMatchObject({ ok: false, code: 'malformed_arguments' });
    expect((huge as { reason: string }).reason).toContain('the limit is 1000');
    const hugeObject = await router.dispatch({ name: 'get_time', input: { timezone: 'x'.repeat(5000) } });
    expect(hugeObject).toMatchObject({ ok: false, code: 'malformed_arguments' });
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(await router.dispatch({ name: 'get_time', input: deep })).toMatchObject({ ok: false, code: 'malformed_arguments' });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(await router.dispatch({ name: 'get_time', input: cyclic })).toMatchObject({ ok: false, code: 'malformed_arguments' });
  });

  test('throwing getters, class instances and non-JSON values are rejections, not exceptions', async () => {
    const { router } = exampleRouter();
    const trap = new Proxy({}, { get() { throw new Error('trap'); }, getOwnPropertyDescriptor() { throw new Error('trap'); } });
    expect(await router.dispatch(trap)).toMatchObject({ ok: false, code: 'empty_name' });
    expect(await router.dispatch({ name: 'get_time', input: { timezone: new Date() } })).toMatchObject({ code: 'malformed_arguments' });
    expect(await router.dispatch({ name: 'get_time', input: { timezone: () => 1 } })).toMatchObject({ code: 'malformed_arguments' });
    expect(await router.dispatch({ name: 'get_time', input: { n: NaN } })).toMatchObject({ code: 'malformed_arguments' });
    expect(router.tryResolveNamespace(call('file_ops', { action: 'nope' }))).toMatchObject({ ok: false, code: 'unknown_action' });
    expect(() => router.resolveNamespace(call('file_ops', { action: 'nope' }))).toThrow(ToolCallRejectedError);
    expect(router.resolveNamespace(call('file_ops', { action: 'read_file', args: { path: 'x' } }))).toEqual({ group: 'file_ops', toolName: 'read_file', args: { path: 'x' } });
  });

  test('invalid arguments are reported by JSON pointer, capped to a few lines', async () => {
    const { router } = exampleRouter();
    const r = await router.dispatch(call('file_ops', { action: 'write_file', args: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, mode: 'x' } }));
    expect(r).toMatchObject({ ok: false, code: 'invalid_arguments' });
    const lines = (r as { reason: string }).reason.split('\n');
    expect(lines[0]).toBe('Invalid arguments for "file_ops" action "write_file":');
    expect(lines).toContain('- /args/path: missing (required, expected string)');
    expect(lines.filter((l) => l.startsWith('- ')).length).toBe(6); // 5 problems + "…and N more"
    expect(lines.at(-2)).toMatch(/^- …and \d+ more$/);
    expect(lines.at(-1)).toBe('Fix them and call file_ops again.');
  });
});

describe('handlers', () => {
  test('a throwing handler becomes handler_error, or propagates when asked', async () => {
    const { handlers } = recordingHandlers();
    const failing = { ...handlers, get_time: () => { throw new Error('clock broke'); } };
    const router = createRouter(generated, failing);
    expect(await router.dispatch(call('get_time'))).toMatchObject({ ok: false, code: 'handler_error', reason: 'Tool "get_time" failed: clock broke' });
    const strict = createRouter(generated, failing, { propagateHandlerErrors: true });
    await expect(strict.dispatch(call('get_time'))).rejects.toThrow('clock broke');
  });

  test('handlers receive the call id and the per-dispatch context', async () => {
    const { router, log } = exampleRouter();
    await router.dispatch({ id: 'c1', function: { name: 'get_time', arguments: '' } }, { context: { user: 'ada' } });
    expect(log).toEqual([{ tool: 'get_time', args: {}, callId: 'c1', context: { user: 'ada' } }]);
  });

  test('a missing handler is a programmer error at createRouter', () => {
    expect(() => createRouter(generated, {} as never)).toThrow(/no handler for "read_file", "run_bash"/);
  });

  test('OpenAI strict-mode nulls of optional properties are decoded before validation', async () => {
    const { handlers, log } = recordingHandlers();
    const spec = generated.spec;
    const strictish: GeneratedModule = {
      spec: { ...spec, tools: spec.tools.map((t) => (t.name === 'read_file' ? { ...t, nullDecode: { optional: ['encoding', 'max_bytes'] } } : t)) },
    };
    const router = createRouter(strictish, handlers as never);
    const r = await router.dispatch(call('read_file', { path: 'a', encoding: null, max_bytes: null }));
    expect(r).toMatchObject({ ok: true });
    expect(log[0]!.args).toEqual({ path: 'a' });
    expect(await router.dispatch(call('read_file', { path: null }))).toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('run-time registration', () => {
  test('registered tools, namespaces and toolkits behave like spec ones', async () => {
    const { router } = exampleRouter();
    const seen: unknown[] = [];
    const validate = Object.assign((d: unknown) => typeof (d as { n?: unknown }).n === 'number', { errors: null });
    const r = router
      .registerTools([{ name: 'ping', description: 'Ping', tags: ['net'], handler: (a) => (seen.push(a), 'pong') }])
      .registerNamespaces([{ name: 'git', description: 'Git', tools: [{ name: 'git_status', description: 'Status', handler: () => 'clean' }, 'get_time'] }])
      .registerToolkits([{ name: 'Math', description: 'Numbers', tools: [{ name: 'square', description: 'n²', parameters: { n: { type: 'number' } }, validate, handler: (a) => (a['n'] as number) ** 2 }] }]);
    expect(await r.dispatch(call('ping', { any: 1 }))).toMatchObject({ ok: true, result: 'pong' });
    expect(await r.dispatch(call('git', { action: 'git_status' }))).toMatchObject({ ok: true, result: 'clean' });
    expect(await r.dispatch(call('git', { action: 'get_time' }))).toMatchObject({ ok: true, tool: 'get_time' });
    expect(await r.dispatch(call('square', { n: 3 }))).toMatchObject({ code: 'not_loaded' });
    expect(r.handleTool(call('load_toolkit', { toolkit_name: 'math' }))).toContain('- square: n²\n  n?: number');
    expect(await r.dispatch(call('square', { n: 3 }))).toMatchObject({ ok: true, result: 9 });
    expect(await r.dispatch(call('square', { n: 'x' }))).toMatchObject({ code: 'invalid_arguments' });
    expect(r.pruneByTask('check the net').tools.map((t) => t.name)).toEqual(['get_time', 'ping']);
    const neutral = r.compile();
    // Namespaces, then the flat tools in no namespace (get_time joined git, so only ping), then the loader.
    expect(neutral.tools.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'git', 'ping', 'load_toolkit']);
    expect(neutral.directoryXml).toContain('<toolkit name="Math" tools="square">Numbers</toolkit>');
    expect(neutral.tools.at(-1)!.parameters).toMatchObject({ properties: { toolkit_name: { enum: ['Weather', 'Database', 'Math'] } } });
    r.setBlockedTools(['git']);
    expect(await r.dispatch(call('git', { action: 'git_status' }))).toMatchObject({ code: 'blocked' });
    // Blocking a group blocks its members everywhere, spec tools included.
    expect(await r.dispatch(call('get_time'))).toMatchObject({ code: 'blocked' });
    // The router's group lists start as the spec's own frozen arrays: registration copies them, never writes into
    // the spec, so the generated module (and every other router over it) is unchanged.
    const getTime = generated.spec.tools.find((t) => t.name === 'get_time')!;
    expect(getTime.namespaces).toEqual([]);
    expect(Object.isFrozen(getTime.namespaces)).toBe(true);
  });

  test('collisions and bad definitions throw before changing anything', () => {
    const { router } = exampleRouter();
    expect(() => router.registerTools([{ name: 'read_file', description: 'x' }])).toThrow(/already taken/);
    expect(() => router.registerTools([{ name: 'load_toolkit', description: 'x' }])).toThrow(/already taken/);
    expect(() => router.registerTools([{ name: 'a', description: 'x' }, { name: 'a', description: 'y' }])).toThrow(/already taken/);
    expect(() => router.registerNamespaces([{ name: 'file_ops', description: 'x', tools: ['get_time'] }])).toThrow(/already taken/);
    expect(() => router.registerToolkits([{ name: 'weather', description: 'x', tools: ['get_time'] }])).toThrow(/already exists/);
    expect(() => router.registerToolkits([{ name: 'K', description: 'x', tools: ['nope'] }])).toThrow(/not a tool/);
    // The spec's name rules: a name every target accepts, a non-empty group, a known encoding, no toolkit named as a tool.
    expect(() => router.registerTools([{ name: 'get weather', description: 'x' }])).toThrow(/the tool name "get weather" must match/);
    expect(() => router.registerTools([{ name: 'x'.repeat(65), description: 'x' }])).toThrow(/must match/);
    expect(() => router.registerNamespaces([{ name: 'git ops', description: 'x', tools: ['get_time'] }])).toThrow(/the namespace name "git ops" must match/);
    expect(() => router.registerNamespaces([{ name: 'git_ops', description: 'x', tools: [] }])).toThrow(/non-empty `tools` array/);
    expect(() => router.registerNamespaces([{ name: 'git_ops', description: 'x', tools: ['get_time'], encoding: 'fast' as never }])).toThrow(/encoding is 'compact' or 'schema'/);
    for (const name of ['get_time', 'file_ops', 'load_toolkit']) expect(() => router.registerToolkits([{ name, description: 'x', tools: ['get_time'] }]), name).toThrow(/already exists/);
    // Nor a tool or namespace named as a toolkit, the spec's or one of the same call (policies name all three).
    expect(() => router.registerTools([{ name: 'Weather', description: 'x' }])).toThrow(/the tool name "Weather" is already taken/);
    expect(() => router.registerNamespaces([{ name: 'Database', description: 'x', tools: ['get_time'] }])).toThrow(/the name "Database" is already taken/);
    expect(() => router.registerToolkits([{ name: 'jira', description: 'x', tools: [{ name: 'jira', description: 'x' }] }])).toThrow(/the tool name "jira" is already taken/);
    expect(() => router.registerNamespaces([{ name: 'git', description: 'x', tools: [{ name: 'git', description: 'x' }] }])).toThrow(/the tool name "git" is already taken/);
    expect(router.compile().tools.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
    expect(router.checkToolCall({ name: 'a' })).toMatchObject({ code: 'unknown_tool' });
    expect(() => router.registerToolkits([{ name: 'Time tools', description: 'x', tools: ['get_time'] }])).not.toThrow();
  });

  test("a registered tool's definition is a frozen copy: the caller's later edits change nothing the router offers", () => {
    const { router } = exampleRouter();
    const parameters = { type: 'object', properties: { host: { type: 'string' } } };
    router.registerTools([{ name: 'ping', description: 'Ping', parameters }]);
    const offered = () => JSON.stringify(router.compile({ target: 'openai', messages: [] }).tools);
    const before = offered();
    (parameters.properties as Record<string, unknown>)['extra'] = { type: 'string' };
    parameters.properties.host.type = 'number';
    expect(offered()).toBe(before);
    const definition = router.getAllTools().find((t) => t.name === 'ping')!;
    expect(Object.isFrozen(definition) && Object.isFrozen(definition.parameters)).toBe(true);
    expect(definition.parameters).toEqual({ type: 'object', properties: { host: { type: 'string' } } });
  });

  test('a schema that contains itself is refused with a TypeError naming its tool, before any tool of the call is added', () => {
    const { router } = exampleRouter();
    const loop: Record<string, unknown> = { type: 'object', properties: {} };
    (loop['properties'] as Record<string, unknown>)['self'] = loop;
    const tools = [{ name: 'fine', description: 'Fine' }, { name: 'loop', description: 'Loops', parameters: loop }];
    expect(() => router.registerTools(tools)).toThrow(/^registerTools: "loop": `parameters` is nested deeper than 64 levels \(or refers to itself\)/);
    expect(() => router.registerToolkits([{ name: 'Loops', description: 'x', tools }])).toThrow(/^registerToolkits: "loop": `parameters`/);
    expect(router.checkToolCall({ name: 'fine' })).toMatchObject({ code: 'unknown_tool' });
    expect(router.compile().tools.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
    // The same tools without the loop register as usual.
    expect(router.registerTools([tools[0]!]).checkToolCall({ name: 'fine' })).toMatchObject({ allowed: true, kind: 'tool' });
  });

  test('parameters are checked as a library tool\'s are: what a provider would refuse, or JSON cannot carry, throws and adds nothing', () => {
    const { router } = exampleRouter();
    const cases: [unknown, RegExp][] = [
      [{ type: 'array', items: { type: 'string' } }, /`parameters\.properties` must map each property name to a schema/],
      [{ a: 'string' }, /`parameters\.properties` must map each property name to a schema/],
      [{ type: 'object', properties: { a: { type: 'string' } }, required: 'a' }, /`parameters\.required` must be an array of distinct property names/],
      [{ n: { type: 'number', maximum: Infinity } }, /`parameters` holds Infinity at \/properties\/n\/maximum, which JSON cannot carry/],
      [{ s: { type: 'string', pattern: /a+/ } }, /`parameters` holds a non-plain object at \/properties\/s\/pattern/],
    ];
    for (const [parameters, message] of cases) {
      expect(() => router.registerTools([{ name: 'p1', description: 'x', parameters } as never]), JSON.stringify(parameters)).toThrow(message);
    }
    expect(() => router.registerTools([{ name: 'p1', description: 'x', deferLoading: 'yes' } as never])).toThrow(/^registerTools: "p1"\.deferLoading must be true or false\.$/);
    expect(router.checkToolCall({ name: 'p1' })).toMatchObject({ code: 'unknown_tool' });
    // A properties map with a property named `type` is still the shorthand.
    router.registerTools([{ name: 'p2', description: 'x', parameters: { type: { type: 'string' } } }]);
    expect(router.compile().tools.find((t) => t.name === 'p2')?.parameters).toEqual({ type: 'object', properties: { type: { type: 'string' } } });
  });
});

describe('compile for a target', () => {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const names = (payload: unknown) => ((payload as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

  test('stable namespaces and loader first, loaded toolkit tools appended in load order', () => {
    // The `append` toolkit-loading strategy (native loading is the default).
    const { router } = exampleRouter({ toolkitLoading: 'append' });
    // Namespaces, then the flat tool in no namespace (get_time), then the loader.
    expect(names(router.compile({ target: 'anthropic', messages }))).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
    router.extractToolkit('Database');
    router.extractToolkit('Weather');
    expect(names(router.compile({ target: 'anthropic', messages }))).toEqual([
      'file_ops', 'terminal', 'get_time', 'load_toolkit', 'run_query', 'describe_table', 'get_forecast', 'get_current_weather',
    ]);
    // The reference library's neutral compile never includes loaded toolkits.
    expect(router.compile().tools.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
  });

  test('`tools` narrows the stable set to a prune result or names; the loader always stays', () => {
    // The `append` toolkit-loading strategy (native loading is the default).
    const { router } = exampleRouter({ toolkitLoading: 'append' });
    const pruned = router.pruneByTask('read the file');
    expect(names(router.compile({ target: 'openai-responses', messages, tools: pruned }))).toEqual(['read_file', 'get_time', 'load_toolkit']);
    expect(names(router.compile({ target: 'anthropic', messages, tools: ['terminal', 'get_time'] }))).toEqual(['terminal', 'get_time', 'load_toolkit']);
  });

  test('the same state gives the same bytes; announcements are rendered into the payload', () => {
    const { router } = exampleRouter();
    const a = router.compile({ target: 'anthropic', messages });
    const b = router.compile({ target: 'anthropic', messages });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    router.announce('x', 'y');
    expect(JSON.stringify(router.compile({ target: 'anthropic', messages }))).toContain('<announcements>');
  });
});

test('the runtime exports exactly its public API', () => {
  expect(Object.keys(runtime).sort()).toEqual([
    'ANNOUNCEMENT_ANCHOR', 'ANNOUNCEMENT_CHANNELS', 'DEFAULT_LIMITS', 'LOAD_TOOLKIT_NAME', 'PORTABLE_TOOL_NAME', 'REJECTION_CODES', 'RESERVED_TOOL_NAMES', 'TARGETS',
    'TARGET_WARNING_CODES', 'TOOLKIT_DISPATCHER_NAME', 'TOOLKIT_LOADING_STRATEGIES', 'ToolCallRejectedError', 'ToolRouter',
    'ToolrouteConfigError', 'anthropicToolChanges', 'applyNullDecode', 'cacheBlocks', 'cacheKey', 'cacheReuse', 'compileForTarget',
    'createRouter', 'fromProvider', 'lazyRendered', 'libraryTool', 'nullDecodePlan', 'renderAnnouncements', 'renderTool', 'searchableTool', 'specFromData', 'stablePrefixOf',
    'toolMessage', 'toolResultErrorFlag', 'toolkitMode', 'warnOnce',
  ]);
});
