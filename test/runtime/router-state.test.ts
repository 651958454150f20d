/**
 * Unit behaviour of the router's state and configuration: snapshot/restore, configuration names checked against the
 * spec, the edge cases of the gate, toolkit loading and compile, the `compile:done` event, and configuration values
 * passed from JavaScript.
 */
import { describe, expect, test, vi } from 'vitest';
import * as runtime from '../../runtime/index.js';
import { createRouter } from '../../runtime/index.js';
import * as flatOnly from '../fixtures/flat-only/expected/index.js';
import { exampleRouter, generated, recordingHandlers } from './helpers.js';

const call = (name: string, args: unknown = {}) => ({ name, arguments: JSON.stringify(args) });

describe('snapshot / restore', () => {
  test('round-trips blocklist, loaded toolkits, announcements and the delta set as plain JSON', () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['delete_file', 'Database']);
    router.handleTool(call('load_toolkit', { toolkit_name: 'weather' }));
    router.announce('a', 'x', { channel: 'system' });
    router.syncToolAnnouncements(['read_file']);
    const snap = JSON.parse(JSON.stringify(router.snapshot()));
    const { router: other } = exampleRouter();
    other.restore(snap);
    expect(other.snapshot()).toEqual(router.snapshot());
    expect(other.getLoadedToolkits()).toEqual(['Weather']);
    expect(other.checkToolCall({ name: 'get_forecast' }).allowed).toBe(true);
    expect(other.checkToolCall({ name: 'run_query' })).toMatchObject({ code: 'blocked' });
  });

  test.each([
    ['undefined', undefined, /expected an object/],
    ['null', null, /expected an object/],
    ['a string', 'garbage', /expected an object/],
    ['an array', [1, 2], /expected an object/],
    ['an empty object', {}, /not a toolroute router snapshot \(format missing/],
    ['another format', { format: 'toolroute-router/0', blocked: [], loaded: [] }, /format "toolroute-router\/0"/],
    ['no blocked field', { format: 'toolroute-router/1', loaded: [] }, /`blocked` is missing/],
    ['no loaded field', { format: 'toolroute-router/1', blocked: [] }, /`loaded` is missing/],
    [
      'wrong field types',
      { format: 'toolroute-router/1', blocked: 'delete_file', loaded: { Weather: true }, announcements: 'x', announcedTools: 3 },
      /`blocked` must be an array of strings; `loaded` must be an array of strings; `announcedTools` must be an array of strings; `announcements` must be an array/,
    ],
    ['a malformed announcement', { format: 'toolroute-router/1', blocked: [], loaded: [], announcements: [{ id: 1 }] }, /`announcements\[0\]` must be/],
    ['an announcement on an unknown channel', { format: 'toolroute-router/1', blocked: [], loaded: [], announcements: [{ id: 'a', content: 'c', channel: 'weird' }] }, /`announcements\[0\]`/],
    ['a blocked name the router does not know', { format: 'toolroute-router/1', blocked: ['delete_fiel'], loaded: [] }, /restore: unknown name "delete_fiel" \(did you mean "delete_file"\?\)/],
    ['an unknown toolkit', { format: 'toolroute-router/1', blocked: [], loaded: ['Nope'] }, /loaded toolkit "Nope" that this router does not know/],
    // A misspelt key would otherwise restore as if absent: here, no announcements.
    ['a misspelt key', { format: 'toolroute-router/1', blocked: [], loaded: [], annoucements: [{ id: 'a', content: 'c' }] }, /restore: snapshot: unknown name "annoucements" \(did you mean "announcements"\?\)/],
    ['a key no snapshot has', { format: 'toolroute-router/1', blocked: [], loaded: [], announcements: [], extra: 1 }, /restore: snapshot: unknown name "extra"/],
    ['a misspelt key in an announcement', { format: 'toolroute-router/1', blocked: [], loaded: [], announcements: [{ id: 'a', content: 'c', chanel: 'system' }] }, /`announcements\[0\]` must be/],
    ['two announcements with one id', { format: 'toolroute-router/1', blocked: [], loaded: [], announcements: [{ id: 'a', content: '1', channel: 'auto' }, { id: 'a', content: '2', channel: 'auto' }] }, /`announcements\[1\]` must be .*, with an id of its own/],
    ['a firstTurn of null', { format: 'toolroute-router/1', blocked: [], loaded: [], firstTurn: null }, /`firstTurn` must map targets/],
    ['a spec that is no hash', { format: 'toolroute-router/1', blocked: [], loaded: [], spec: 5 }, /`spec` must be the hash string snapshot\(\) writes/],
    ['a throwing getter', Object.defineProperty({ format: 'toolroute-router/1', loaded: [] }, 'blocked', { get() { throw new Error('boom'); }, enumerable: true }), /could not be read \(boom\)/],
  ])('restoring %s throws a TypeError and changes nothing (never "nothing blocked")', (_label, snap, message) => {
    const { router } = exampleRouter();
    router.setBlockedTools(['read_file']);
    router.extractToolkit('Weather');
    router.announce('standing', 'still here');
    const before = JSON.stringify(router.snapshot());
    expect(() => router.restore(snap)).toThrow(TypeError);
    expect(() => router.restore(snap)).toThrow(message);
    expect(JSON.stringify(router.snapshot())).toBe(before);
    expect(router.checkToolCall({ name: 'read_file' })).toMatchObject({ code: 'blocked' });
    expect(router.checkToolCall({ name: 'get_forecast' }).allowed).toBe(true);
  });

  test("a snapshot of the reference library is refused: it cannot say what toolroute's gate blocks", async () => {
    const { ContextChef } = await import('@context-chef/core');
    // The reference library warns on the console when built without a tokenizer; that is its output, not ours.
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const chef = new ContextChef({});
    quiet.mockRestore();
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      throw new Error(`unexpected console.warn: ${args.map(String).join(' ')}`);
    });
    chef.registerTools([{ name: 'delete_file', description: 'Delete a file' }]);
    chef.getPruner().setBlockedTools(['delete_file']);
    const { router } = exampleRouter();
    router.setBlockedTools(['delete_file']);
    expect(() => router.restore(JSON.parse(JSON.stringify(chef.snapshot())))).toThrow(/not a toolroute router snapshot/);
    expect(router.getBlockedTools()).toEqual(['delete_file']);
  });

  test('a snapshot without announcements restores the rest and clears them', () => {
    const { router } = exampleRouter();
    router.announce('old', 'x');
    router.restore({ format: 'toolroute-router/1', blocked: ['run_bash'], loaded: ['database'] });
    expect(router.getBlockedTools()).toEqual(['run_bash']);
    expect(router.getLoadedToolkits()).toEqual(['Database']);
    expect(router.getAnnouncements()).toEqual([]);
  });

  test('a blocklist set with allowUnknown round-trips, unknown names included', () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['delete_file', 'remote_tool'], { allowUnknown: true });
    const snap = JSON.parse(JSON.stringify(router.snapshot()));
    expect(snap.blockedAllowUnknown).toBe(true);
    const { router: other } = exampleRouter();
    other.restore(snap);
    expect(other.getBlockedTools()).toEqual(['delete_file', 'remote_tool']);
    expect(other.checkToolCall({ name: 'remote_tool' })).toMatchObject({ code: 'blocked' });
    // Without the flag, the same list is a typo to refuse.
    const { blockedAllowUnknown: _flag, ...strict } = snap;
    expect(() => exampleRouter().router.restore(strict)).toThrow(/unknown name "remote_tool"/);
    // The fix it offers is one a snapshot can take (restore has no options), not setBlockedTools' option.
    expect(() => exampleRouter().router.restore(strict)).toThrow(/To keep blocking a name this router does not have, set the snapshot's blockedAllowUnknown: true, or remove the name\.$/);
    expect(() => exampleRouter().router.setBlockedTools(['remote_tool'] as never)).toThrow(/pass \{ allowUnknown: true \}\.$/);
  });
});

describe('configuration names are checked (a typo never leaves a tool open)', () => {
  test('setBlockedTools throws on an unknown name, naming it and the closest known names, and changes nothing', () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['run_bash']);
    const names: string[] = JSON.parse('["delete_fiel", "weather", "file_ops"]'); // as read from a config file
    expect(() => router.setBlockedTools(names as never)).toThrow(
      /^setBlockedTools: unknown names "delete_fiel" \(did you mean "delete_file"\?\), "weather" \(did you mean "Weather"\?\)\. .*allowUnknown: true/,
    );
    expect(router.getBlockedTools()).toEqual(['run_bash']);
    expect(router.checkToolCall({ name: 'run_bash' })).toMatchObject({ code: 'blocked' });
    expect(() => router.setBlockedTools([42, null] as never)).toThrow(/42 is not a string, null is not a string/);
    // A list read from configuration can be wrong throughout: ten names are listed, with suggestions, and the rest counted.
    const many = Array.from({ length: 25 }, (_, i) => `delete_fiel_${i}`);
    const message = (() => { try { router.setBlockedTools(many as never); } catch (err) { return (err as Error).message; } return ''; })();
    expect(message).toMatch(/^setBlockedTools: unknown names "delete_fiel_0" .*"delete_fiel_9" \(did you mean "delete_file"\?\), … \(15 more\)\. A blocklist names/);
    expect(message.match(/"delete_fiel_\d+"/g)).toHaveLength(10);
    expect(router.getBlockedTools()).toEqual(['run_bash']);
    expect(() => router.setBlockedTools('delete_file' as never)).toThrow(/expected an array of names/);
  });

  test("setBlockedTools refuses options it does not know or values it cannot read, and changes nothing", () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['run_bash']);
    expect(() => router.setBlockedTools(['remote_tool'] as never, JSON.parse('{"allowunknown": true}'))).toThrow(
      /^setBlockedTools options: unknown name "allowunknown" \(did you mean "allowUnknown"\?\)\. Options are allowUnknown\.$/,
    );
    expect(() => router.setBlockedTools(['remote_tool'] as never, { allowUnknown: 'yes' } as never)).toThrow(/^setBlockedTools: options\.allowUnknown takes true or false; got "yes"\.$/);
    expect(() => router.setBlockedTools(['delete_file'], null as never)).toThrow(/^setBlockedTools: options must be an object; got null\.$/);
    expect(router.getBlockedTools()).toEqual(['run_bash']);
    router.setBlockedTools(['delete_file'], { allowUnknown: false });
    expect(router.getBlockedTools()).toEqual(['delete_file']);
  });

  test('allowUnknown blocks names that do not exist yet, and they block once registered', async () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['ping'], { allowUnknown: true });
    const r2 = router.registerTools([{ name: 'ping', description: 'Ping', handler: () => 'pong' }]);
    expect(await r2.dispatch({ name: 'ping', arguments: '{}' })).toMatchObject({ ok: false, code: 'blocked' });
  });

  test('call_toolkit_tool, the dispatcher, can be blocked like load_toolkit: its calls are rejected and no provider list allows it', async () => {
    const router = createRouter(generated, recordingHandlers().handlers, { toolkitLoading: 'dispatcher' });
    router.setBlockedTools(['call_toolkit_tool']);
    expect(router.getBlockedTools()).toEqual(['call_toolkit_tool']);
    expect(await router.dispatch(call('load_toolkit', { toolkit_name: 'Weather' }))).toMatchObject({ ok: true });
    expect(await router.dispatch(call('call_toolkit_tool', { tool: 'get_forecast', args: { city: 'Lisbon' } }))).toMatchObject({ ok: false, code: 'blocked' });
    expect(router.checkToolCall({ name: 'call_toolkit_tool' })).toMatchObject({ allowed: false, code: 'blocked' });
    const offered = router.allowedToolNames({ target: 'openai' });
    expect(offered).toContain('load_toolkit');
    expect(offered).not.toContain('call_toolkit_tool');
    router.setBlockedTools([]);
    expect(await router.dispatch(call('call_toolkit_tool', { tool: 'get_forecast', args: { city: 'Lisbon' } }))).toMatchObject({ ok: true });
  });

  test('allowOnly and pruneByTaskAndAllowlist throw on a name that is no flat tool', () => {
    const { router } = exampleRouter();
    expect(() => router.allowOnly(['raed_file'] as never)).toThrow(/^allowOnly: unknown name "raed_file" \(did you mean "read_file"\?\)/);
    expect(() => router.pruneByTaskAndAllowlist('x', ['write_file'] as never)).toThrow(/^pruneByTaskAndAllowlist: unknown name "write_file"/);
    // Case-insensitive, as the reference library matches.
    expect(router.allowOnly(['READ_FILE'] as never).tools.map((t) => t.name)).toEqual(['read_file']);
  });

  test('applyPolicy goes through the same check (and an unknown policy throws)', () => {
    const { router } = exampleRouter();
    expect(() => router.applyPolicy('production' as never)).toThrow(/unknown policy "production"/);
    // A typo gets the closest policy, as a misspelt blocklist name gets the closest names.
    expect(() => router.applyPolicy('prd' as never)).toThrow(/^applyPolicy: unknown policy "prd" \(did you mean "prod"\?\)\. Policies: prod/);
    router.applyPolicy('prod');
    expect(router.getBlockedTools().length).toBeGreaterThan(0);
  });
});

describe('gate, loading and compile edge cases', () => {
  test('without toolkits, load_toolkit is a tool the model was never offered: unknown_tool, as call_toolkit_tool is', async () => {
    const handlers = Object.fromEntries(flatOnly.spec.tools.map((t) => [t.name, () => 'ok'])) as never;
    const router = createRouter(flatOnly, handlers);
    expect(JSON.stringify(router.compile())).not.toContain('load_toolkit');
    for (const name of ['load_toolkit', 'call_toolkit_tool']) {
      expect(router.checkToolCall({ name })).toMatchObject({ allowed: false, code: 'unknown_tool' });
      expect(await router.dispatch({ name, arguments: { toolkit_name: 'Weather' } })).toMatchObject({ ok: false, code: 'unknown_tool', reason: expect.stringContaining('get_time') });
    }
    expect(await router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' })).toMatch(/^Error: Unknown tool "load_toolkit"/);
  });

  test('dispatch accepts every SDK call shape, with arguments as a JSON string or an object', async () => {
    const args = { path: 'a.ts', encoding: 'utf8' };
    const shapes: Array<[string, unknown]> = [
      ['generic, string', { name: 'read_file', arguments: JSON.stringify(args) }],
      ['generic, object', { name: 'read_file', arguments: args }],
      ['OpenAI Chat', { id: 'c1', type: 'function', function: { name: 'read_file', arguments: JSON.stringify(args) } }],
      ['OpenAI Chat, object arguments', { id: 'c1', type: 'function', function: { name: 'read_file', arguments: args } }],
      ['OpenAI Responses', { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'read_file', arguments: JSON.stringify(args) }],
      ['Anthropic', { type: 'tool_use', id: 'c1', name: 'read_file', input: args }],
      ['Gemini', { id: 'c1', name: 'read_file', args }],
    ];
    for (const [label, shape] of shapes) {
      const { router, log } = exampleRouter();
      const r = await router.dispatch(shape);
      expect(r, label).toMatchObject({ ok: true, tool: 'read_file' });
      expect(log.map((c) => c.args), label).toEqual([args]);
      expect(router.checkToolCall(shape), label).toMatchObject({ allowed: true, call: { tool: 'read_file', args, via: 'flat', group: null } });
    }
  });

  test.each([
    ['a near-miss name: the closest real names', { name: 'reed_file', arguments: '{}' }, 'unknown_tool', 'Unknown tool "reed_file". Did you mean: read_file?'],
    ['a namespace action called by its bare name', { name: 'write_file', arguments: '{}' }, 'unknown_tool',
      'Unknown tool "write_file". "write_file" is an action of "file_ops": call file_ops with {"action":"write_file","args":{…}}.'],
    ['a namespace action called by a joined name', { name: 'file_ops__delete_file', arguments: '{}' }, 'unknown_tool',
      'Unknown tool "file_ops__delete_file". "delete_file" is an action of "file_ops": call file_ops with {"action":"delete_file","args":{…}}.'],
    ['an unknown action: the closest actions and the valid ones', { name: 'file_ops', arguments: '{"action":"read_fil","args":{}}' }, 'unknown_action',
      'Unknown action "read_fil" for "file_ops". Did you mean: read_file? Valid actions: read_file, write_file, delete_file.'],
    ['a toolkit tool before load_toolkit: the call to make', { name: 'describe_table', input: { table: 't' } }, 'not_loaded',
      'Tool "describe_table" belongs to toolkit "Database", which is not loaded. Call load_toolkit with {"toolkit_name":"Database"} first, then call describe_table again.'],
    ['a missing name: what can be called', { arguments: '{}' }, 'empty_name',
      'Tool call rejected: missing or empty tool name. Call one of: read_file, run_bash, get_time, file_ops, terminal, load_toolkit.'],
    ['a non-string name', { name: 42, arguments: '{}' }, 'empty_name', undefined],
    ['`__proto__` as a name', { name: '__proto__', arguments: '{}' }, 'unknown_tool', undefined],
    ['`constructor` as a name', { name: 'constructor', arguments: '{}' }, 'unknown_tool', undefined],
    ['`constructor` as an action', { name: 'file_ops', arguments: '{"action":"constructor","args":{}}' }, 'unknown_action', undefined],
    ['`__proto__` as a toolkit', { name: 'load_toolkit', arguments: '{"toolkit_name":"__proto__"}' }, 'invalid_arguments', undefined],
    ['arguments that are not an object', { name: 'get_time', arguments: '[1,2]' }, 'malformed_arguments', 'Arguments for "get_time" must be a JSON object; got array.'],
    ['a huge name', { name: 'x'.repeat(1_000_000), arguments: '{}' }, 'unknown_tool', `Unknown tool ${JSON.stringify(`${'x'.repeat(64)}…`)}. Available tools: read_file, run_bash, get_time, file_ops, terminal, load_toolkit.`],
  ])('%s', async (_label, call, code, reason) => {
    const { router, log } = exampleRouter();
    const r = await router.dispatch(call);
    expect(r).toMatchObject({ ok: false, code });
    if (reason !== undefined) expect((r as { reason: string }).reason).toBe(reason);
    expect((r as { reason: string }).reason.length).toBeLessThan(400);
    expect(router.checkToolCall(call)).toMatchObject({ allowed: false, code });
    expect(log).toEqual([]);
  });

  test('`__proto__` / `constructor` argument keys stay data: rejected by a closed schema, plain own keys for an open one', async () => {
    const { router } = exampleRouter();
    const r = await router.dispatch({ name: 'get_time', arguments: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}' });
    expect(r).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect((r as { reason: string }).reason).toContain('/__proto__: unexpected property "__proto__"');
    const seen: Record<string, unknown>[] = [];
    const open = router.registerTools([{ name: 'echo', description: 'Echo', handler: (a) => seen.push(a) }]);
    expect(await open.dispatch({ name: 'echo', arguments: '{"__proto__":{"polluted":true}}' })).toMatchObject({ ok: true });
    expect(Object.hasOwn(seen[0]!, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(seen[0]!)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('a handler that throws anything (no string form, a throwing getter) still resolves to handler_error', async () => {
    const { handlers } = recordingHandlers();
    const throwers: Array<() => never> = [
      () => { throw Object.create(null); },
      () => { throw { toString() { throw new Error('no'); } }; },
      () => { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('getter'); } }); throw e; },
      () => { throw undefined; },
    ];
    for (const thrower of throwers) {
      const router = createRouter(generated, { ...handlers, get_time: thrower });
      const r = await router.dispatch(call('get_time'));
      expect(r).toMatchObject({ ok: false, code: 'handler_error' });
      expect((r as { reason: string }).reason).toMatch(/^Tool "get_time" failed: (unknown error|undefined)$/);
    }
  });

  test("a toolkit's name called as a tool says it is a toolkit and gives the calls to make; its native namespace call still runs", async () => {
    const { router } = exampleRouter();
    for (const name of ['Weather', 'weather']) {
      expect(await router.dispatch({ name, arguments: '{"city":"Lisbon"}' })).toMatchObject({
        ok: false, code: 'unknown_tool',
        reason: '"Weather" is a toolkit, not a tool. Call load_toolkit with {"toolkit_name":"Weather"} first, then call one of its tools by its own name: get_forecast, get_current_weather.',
      });
    }
    router.extractToolkit('Weather');
    expect(await router.dispatch({ name: 'Weather', arguments: '{}' })).toMatchObject({ reason: '"Weather" is a toolkit, not a tool. Call one of its tools by its own name: get_forecast, get_current_weather.' });
    // A name-only check of the toolkit's name gives the same reason as the call.
    expect(router.checkToolCall({ name: 'Weather' })).toMatchObject({ allowed: false, code: 'unknown_tool', reason: '"Weather" is a toolkit, not a tool. Call one of its tools by its own name: get_forecast, get_current_weather.' });
    // A Responses native namespace call under the toolkit's name (fromProvider's `{ action, args }`) runs the tool.
    expect(await router.dispatch({ name: 'Weather', arguments: '{"action":"get_forecast","args":{"city":"Lisbon"}}' })).toMatchObject({ ok: true, tool: 'get_forecast' });
  });

  test('compile refuses to offer a tool the model could not call by that name (`tools` narrowing)', () => {
    const { router } = exampleRouter();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect(() => router.compile({ target: 'openai', messages, tools: ['write_file'] })).toThrow(
      'compile: "write_file" in `tools` is not a flat tool, so the model could not call it by that name: it is an action of namespace "file_ops"; offer the namespace instead.',
    );
    // A toolkit tool: the text says what the active strategy does with it on that target.
    expect(() => router.compile({ target: 'openai', messages, tools: ['get_forecast'] })).toThrow(
      'compile: "get_forecast" in `tools` is not a flat tool, so the model could not call it by that name: it belongs to toolkit "Weather"; leave it out: on openai (dispatcher) a loaded toolkit\'s tools are called through call_toolkit_tool.',
    );
    expect(() => router.compile({ target: 'anthropic', messages, tools: ['run_query'] })).toThrow(/"run_query" .*belongs to toolkit "Database"; leave it out: on anthropic \(deferred\) every toolkit tool is sent with defer_loading/);
    expect(() => router.compile({ target: 'openai-responses', messages, tools: ['run_query'] })).toThrow(/on openai-responses \(tool-search\) load_toolkit's result brings/);
    const { router: appending } = exampleRouter({ toolkitLoading: 'append' });
    expect(() => appending.compile({ target: 'openai', messages, tools: ['run_query'] })).toThrow(/on openai \(append\) a loaded toolkit's tools are appended after the stable tools\.$/);
    // Flat tools, namespaces, prune results and the loader name are fine.
    expect(() => router.compile({ target: 'gemini', messages, tools: ['read_file', 'terminal'] })).not.toThrow();
    expect(() => router.compile({ target: 'gemini', messages, tools: router.pruneByTask('run the shell') })).not.toThrow();
  });

  test('the hoist warning is given once per router, even with a fresh onWarning closure on every compile', () => {
    const { router } = exampleRouter();
    const heard: string[] = [];
    router.announce('s', 'Toolkit Weather is loaded', { channel: 'system' });
    for (let i = 0; i < 3; i++) {
      // No user or tool message: a system-channel announcement would lead the conversation.
      router.compile({ target: 'anthropic', messages: [], options: { onWarning: (_m, code) => heard.push(code) } });
    }
    expect(heard).toEqual(['anthropic-announcement-hoist']);
    // Another router warns on its own.
    const { router: other } = exampleRouter();
    other.announce('s', 'x', { channel: 'system' });
    other.compile({ target: 'anthropic', messages: [], options: { onWarning: (_m, code) => heard.push(code) } });
    expect(heard).toEqual(['anthropic-announcement-hoist', 'anthropic-announcement-hoist']);
  });

  test('announcements survive a history reset and a snapshot round trip, on every target', () => {
    const { router } = exampleRouter();
    router.announce('tools:blocked', 'delete_file is disabled in this environment');
    router.announce('sys', 'Toolkit Weather is loaded', { channel: 'system' });
    const long = [{ role: 'user' as const, content: 'a' }, { role: 'assistant' as const, content: 'b' }, { role: 'user' as const, content: 'c' }];
    const reset = [{ role: 'user' as const, content: 'fresh start' }];
    for (const target of ['anthropic', 'openai', 'openai-responses', 'gemini'] as const) {
      for (const messages of [long, reset]) {
        const json = JSON.stringify(router.compile({ target, messages }));
        expect(json).toContain('delete_file is disabled in this environment');
        expect(json).toContain('Toolkit Weather is loaded');
      }
    }
    const { router: restored } = exampleRouter();
    restored.restore(JSON.parse(JSON.stringify(router.snapshot())));
    for (const target of ['anthropic', 'openai', 'openai-responses', 'gemini'] as const) {
      expect(JSON.stringify(restored.compile({ target, messages: reset }))).toBe(JSON.stringify(router.compile({ target, messages: reset })));
    }
  });

  test('announcement rendering follows every upsert and retraction (no stale render between turns)', () => {
    const { router } = exampleRouter();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const tail = (target: 'openai' | 'anthropic') => JSON.stringify(router.compile({ target, messages }).messages.slice(-1));
    const before = { openai: tail('openai'), anthropic: tail('anthropic') };
    router.announce('a', 'first');
    router.announce('b', 'second', { channel: 'user_tail' });
    expect(tail('openai')).toContain('first');
    expect(tail('anthropic')).toContain('first');
    router.announce('a', 'updated');
    expect(tail('openai')).toMatch(/updated[^]*second/);
    expect(tail('openai')).not.toContain('first');
    expect(tail('anthropic')).toContain('updated');
    router.retractAnnouncement('a');
    router.retractAnnouncement('b');
    expect({ openai: tail('openai'), anthropic: tail('anthropic') }).toEqual(before);
  });

  test('deferLoading becomes defer_loading on Anthropic and Responses only, after load_toolkit', () => {
    // The `append` toolkit-loading strategy (native loading is the default).
    const { router } = exampleRouter({ toolkitLoading: 'append' });
    router.handleTool(call('load_toolkit', { toolkit_name: 'Weather' }));
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const anthropic = router.compile({ target: 'anthropic', messages, options: { toolSearch: true } });
    expect(anthropic.tools?.find((t) => t.name === 'get_forecast')).toMatchObject({ defer_loading: true });
    expect(anthropic.tools?.find((t) => t.name === 'get_current_weather')).not.toHaveProperty('defer_loading');
    const responses = router.compile({ target: 'openai-responses', messages, options: { toolSearch: true } });
    expect(JSON.stringify(responses.tools)).toContain('"name":"get_forecast","description":"Forecast for a city","parameters"');
    expect(responses.tools?.filter((t) => (t as { defer_loading?: boolean }).defer_loading).map((t) => (t as { name: string }).name)).toEqual(['get_forecast']);
    expect(JSON.stringify(router.compile({ target: 'openai', messages }))).not.toContain('defer');
    expect(JSON.stringify(router.compile({ target: 'gemini', messages }))).not.toContain('defer');
  });
});

describe('configuration from JavaScript: a wrong value fails at the call that takes it', () => {
  test('createRouter refuses options that are not an object', () => {
    for (const options of [null, 'strict', 5]) {
      expect(() => createRouter(generated, recordingHandlers().handlers, options as never)).toThrow(/createRouter: options must be an object/);
    }
  });

  test('createRouter refuses an unknown option name (a typo would switch the option off) and a value of the wrong type', () => {
    const { handlers } = recordingHandlers();
    expect(() => createRouter(generated, handlers, { timeOutMs: 5 } as never)).toThrow(/createRouter options: unknown name "timeOutMs" \(did you mean "timeoutMs"\?\)/);
    expect(() => createRouter(generated, handlers, { unknownOpt: 1 } as never)).toThrow(/unknown name "unknownOpt"/);
    expect(() => createRouter(generated, handlers, { propagateHandlerErrors: 'yes' } as never)).toThrow(/createRouter: options.propagateHandlerErrors takes true or false; got "yes"/);
    expect(() => createRouter(generated, handlers, { handlerErrorReason: 'x' } as never)).toThrow(/options.handlerErrorReason takes a function/);
    expect(() => createRouter(generated, handlers, { model: 5 } as never)).toThrow(/options.model takes a model name/);
    expect(() => createRouter(generated, handlers, { timeoutMs: 5, model: 'claude-opus-4-8', propagateHandlerErrors: false, handlerErrorReason: () => 'x' })).not.toThrow();
  });

  test('a limit or prune strategy that is mistyped throws, never switching the check off', async () => {
    const { handlers } = recordingHandlers();
    for (const key of ['maxArgumentsLength', 'maxDepth', 'maxNodes']) {
      for (const bad of [NaN, -1, 1.5, '64', Infinity]) {
        expect(() => createRouter(generated, handlers, { [key]: bad } as never), `${key} ${String(bad)}`).toThrow(new RegExp(`createRouter: ${key} must be a whole number`));
      }
    }
    expect(await createRouter(generated, handlers, { maxArgumentsLength: 10 }).dispatch({ name: 'get_time', arguments: '{"timezone":"Europe/Lisbon"}' })).toMatchObject({ ok: false, code: 'malformed_arguments' });
    expect(() => createRouter(generated, handlers, { strategy: 'intersect' as never })).toThrow(/createRouter: strategy is 'union' or 'intersection'; got "intersect"/);
    expect(() => createRouter(generated, handlers, { strategy: 5n as never })).toThrow(/strategy is 'union' or 'intersection'; got 5\./);
    expect(() => createRouter(generated, handlers, 5n as never)).toThrow(/options must be an object; got 5\./);
    const router = createRouter(generated, handlers, { strategy: 'intersection' });
    expect(() => router.pruneByTaskAndAllowlist('run it', ['get_time'], 'Intersection' as never)).toThrow(/pruneByTaskAndAllowlist: strategy/);
    expect(router.pruneByTaskAndAllowlist('run it', ['get_time']).tools.map((t) => t.name)).toEqual(router.pruneByTaskAndAllowlist('run it', ['get_time'], 'intersection').tools.map((t) => t.name));
  });

  test('announce refuses an id or content that is not a string, and every later compile still works', () => {
    const { router } = exampleRouter();
    expect(() => router.announce('note', [] as never)).toThrow(/announce: id and content must be strings; got string and object/);
    expect(() => router.announce(7 as never, 'text')).toThrow(TypeError);
    expect(router.getAnnouncements()).toEqual([]);
    for (const target of runtime.TARGETS) expect(() => router.compile({ target, messages: [{ role: 'user', content: 'hi' }] })).not.toThrow();
  });
});
