/**
 * Library-owned tools: `createRouter(…, { libraryTools })`
 * gives the router tools of its own with the guarantees `load_toolkit` has —
 * offered after everything the application chose and never pruned,
 * dispatched by `ownsTool` / `handleTool` and by `dispatch` / `checkToolCall`
 * with the same gate, validation and rejection codes, and every registration
 * mistake a `TypeError` at creation. The byte-level cache proof per target
 * is test/targets/library-tools-cache.test.ts.
 */
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { createRouter, libraryTool, REJECTION_CODES, type LibraryToolDefinition } from '../../runtime/index.js';
import { runMemoryExample } from '../../examples/memory-tools.js';
import { generated, recordingHandlers } from './helpers.js';

const ajv = new Ajv({ allErrors: true });

const noteSchema = {
  type: 'object',
  properties: { text: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['text'],
  additionalProperties: false,
} as const;

interface NoteArgs {
  text: string;
  tags?: string[];
}

/** Two library tools that log what their handlers receive, next to the example's spec tools. */
function libraryRouter(extra: { readonly libraryTools?: readonly LibraryToolDefinition<never, unknown>[] } = {}) {
  const { handlers, log } = recordingHandlers();
  const received: { tool: string; args: unknown; context: unknown }[] = [];
  const note = libraryTool({
    name: 'note',
    description: 'Write a note.',
    parameters: noteSchema,
    validate: ajv.compile<NoteArgs>(noteSchema),
    handler: (args, ctx) => {
      received.push({ tool: 'note', args, context: ctx.context });
      return `Noted: ${args.text}`;
    },
  });
  const context = libraryTool({
    name: 'new_context',
    description: 'Start a new phase of the task with a summary instead of the transcript.',
    parameters: { type: 'object', properties: {} },
    validate: ajv.compile({ type: 'object', properties: {} }),
    handler: async (args) => {
      received.push({ tool: 'new_context', args, context: undefined });
      await Promise.resolve();
      return { ok: true };
    },
  });
  const router = createRouter(generated, handlers, { libraryTools: [note, context, ...(extra.libraryTools ?? [])] });
  return { router, log, received };
}

const names = (tools: readonly { name: string }[] | undefined) => (tools ?? []).map((t) => t.name);

describe('offered after everything else, never pruned', () => {
  test('compile(): the default set, load_toolkit, then the library tools in registration order', () => {
    const { router } = libraryRouter();
    expect(names(router.compile().tools)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'note', 'new_context']);
    const note = router.compile().tools.find((t) => t.name === 'note');
    expect(note).toEqual({ name: 'note', description: 'Write a note.', parameters: noteSchema });
  });

  test('a target compile: after the chosen tools, the loader and the dispatcher, whatever is chosen', () => {
    const { router } = libraryRouter();
    expect(names(router.compile({ target: 'anthropic', messages: [] }).tools)).toEqual([
      'file_ops', 'terminal', 'get_time', 'load_toolkit', 'note', 'new_context', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table',
    ]);
    const chat = router.compile({ target: 'openai', messages: [], tools: ['get_time'] }).tools!.map((t) => (t.type === 'function' ? t.function.name : t.type));
    expect(chat).toEqual(['get_time', 'load_toolkit', 'call_toolkit_tool', 'note', 'new_context']);
    // Naming a library tool in the choice changes nothing: it keeps its own place.
    const json = JSON.stringify(router.compile({ target: 'gemini', messages: [], tools: ['get_time'] }));
    expect(JSON.stringify(router.compile({ target: 'gemini', messages: [], tools: ['note', 'get_time'] as never }))).toBe(json);
  });

  test('pruning never sees them: never removed, and a prune result compiled gets them appended', () => {
    const { router } = libraryRouter();
    for (const task of ['read the file', 'note this down', 'new_context please', '', 'run bash and note']) {
      const pruned = router.pruneByTask(task);
      expect(pruned.removed).not.toContain('note');
      expect(pruned.removed).not.toContain('new_context');
      expect(pruned.total).toBe(router.getAllTools().length);
      const tools = names(router.compile({ target: 'openai-responses', messages: [], tools: pruned }).tools as { name: string }[]);
      expect(tools.slice(-2)).toEqual(['note', 'new_context']);
      const mixed = router.pruneByTaskAndAllowlist(task, ['get_time'], 'intersection');
      expect(mixed.removed).not.toContain('note');
    }
    // An allowlist names flat tools: a library tool there is a mistake, said so.
    expect(() => router.allowOnly(['note'] as never)).toThrow(TypeError);
  });

  test('the schema is static: changing the definition object afterwards changes no byte', () => {
    const { handlers } = recordingHandlers();
    const parameters = { type: 'object', properties: { q: { type: 'string', enum: ['a', 'b'] } } };
    const router = createRouter(generated, handlers, {
      libraryTools: [libraryTool({ name: 'lookup', description: 'Look up.', parameters, validate: ajv.compile(parameters), handler: () => 'ok' })],
    });
    const before = JSON.stringify(router.compile({ target: 'anthropic', messages: [] }));
    parameters.properties.q.enum.push('c');
    (parameters as Record<string, unknown>)['required'] = ['q'];
    expect(JSON.stringify(router.compile({ target: 'anthropic', messages: [] }))).toBe(before);
    expect(Object.isFrozen(router.compile().tools.find((t) => t.name === 'lookup'))).toBe(true);
  });
});

describe('dispatched like any tool, through the same gate and validation', () => {
  test('ownsTool / handleTool (the reference library loop), dispatch and checkToolCall', async () => {
    const { router, received, log } = libraryRouter();
    expect(router.ownsTool('note')).toBe(true);
    expect(router.ownsTool('new_context')).toBe(true);
    expect(router.ownsTool('load_toolkit')).toBe(true);
    expect(router.ownsTool('read_file')).toBe(false);
    expect(router.ownsTool('call_toolkit_tool')).toBe(false);

    const text = router.handleTool({ name: 'note', arguments: '{"text":"ship it"}' });
    expect(text).toBeInstanceOf(Promise);
    expect(await text).toBe('Noted: ship it');
    // A non-string result comes back as JSON.
    expect(await router.handleTool({ type: 'tool_use', id: 't1', name: 'new_context', input: {} })).toBe('{"ok":true}');

    const dispatched = await router.dispatch({ id: 'c1', type: 'function', function: { name: 'note', arguments: '{"text":"a","tags":["x"]}' } }, { context: 'ctx' });
    expect(dispatched).toEqual({ ok: true, tool: 'note', result: 'Noted: a', callId: 'c1' });
    expect(received.at(-1)).toEqual({ tool: 'note', args: { text: 'a', tags: ['x'] }, context: 'ctx' });

    expect(router.checkToolCall({ name: 'note', arguments: { text: 'b' } })).toEqual({
      allowed: true,
      call: { tool: 'note', args: { text: 'b' }, via: 'library', group: null },
    });
    expect(router.checkToolCall({ name: 'note' })).toEqual({ allowed: true, name: 'note', kind: 'library' });
    // No application handler ran for any of it.
    expect(log).toEqual([]);
  });

  test('rejections carry the closed code set and a reason for the model; nothing throws', async () => {
    const { router, received } = libraryRouter();
    const cases: Array<[unknown, string, RegExp]> = [
      [{ name: 'note', arguments: '{"text":""}' }, 'invalid_arguments', /Invalid arguments for "note":\n- \/text: .*\nFix them and call note again\./],
      [{ name: 'note', arguments: '{"text":"a","color":"red"}' }, 'invalid_arguments', /"color"/],
      [{ name: 'note', arguments: '{"text":' }, 'malformed_arguments', /"note"/],
      [{ name: 'note', arguments: '[1]' }, 'malformed_arguments', /"note"/],
      [{ name: 'noet', arguments: '{}' }, 'unknown_tool', /Did you mean: note\b/],
      // The toolkit dispatcher routes toolkit tools only.
      [{ name: 'call_toolkit_tool', arguments: '{"tool":"note","args":{"text":"a"}}' }, 'unknown_action', /is not a tool of any toolkit/],
    ];
    for (const [call, code, reason] of cases) {
      const r = await router.dispatch(call);
      expect(r, JSON.stringify(call)).toMatchObject({ ok: false, code });
      expect(REJECTION_CODES).toContain(code);
      if (!r.ok) expect(r.reason).toMatch(reason);
      const check = router.checkToolCall(call as never);
      expect(check).toMatchObject({ allowed: false, code });
      const text = await router.handleTool(call);
      expect(text).toMatch(/^Error: /);
    }
    expect(received).toEqual([]);
  });

  test('the gate applies: blocked by name, checked like every blocklist name, kept in snapshots', async () => {
    const { router, received } = libraryRouter();
    router.setBlockedTools(['note']);
    expect(router.getBlockedTools()).toEqual(['note']);
    expect(await router.dispatch({ name: 'note', arguments: '{"text":"a"}' })).toMatchObject({ ok: false, code: 'blocked', reason: 'Tool "note" is currently blocked.' });
    expect(router.checkToolCall({ name: 'note' })).toMatchObject({ allowed: false, code: 'blocked' });
    expect(await router.handleTool({ name: 'note', arguments: '{"text":"a"}' })).toBe('Error: Tool "note" is currently blocked.');
    expect(received).toEqual([]);
    // Blocking never changes what is offered.
    const { router: open } = libraryRouter();
    for (const target of ['anthropic', 'openai', 'openai-responses', 'gemini'] as const) {
      expect(JSON.stringify(router.compile({ target, messages: [] }))).toBe(JSON.stringify(open.compile({ target, messages: [] })));
    }
    // A typo is a TypeError naming the closest names, as for any blocklist name.
    expect(() => router.setBlockedTools(['noet'] as never)).toThrow(/unknown name "noet" \(did you mean "note"\?\)/);
    expect(router.getBlockedTools()).toEqual(['note']);
    const fresh = libraryRouter().router;
    fresh.restore(JSON.parse(JSON.stringify(router.snapshot())));
    expect(await fresh.dispatch({ name: 'note', arguments: '{"text":"a"}' })).toMatchObject({ code: 'blocked' });
    // A snapshot blocking a library tool restores only where that tool exists.
    const plain = createRouter(generated, recordingHandlers().handlers);
    expect(() => plain.restore(router.snapshot())).toThrow(/unknown name "note"/);
  });

  test('handler failures, time limits and the reason hook are the dispatch ones', async () => {
    const { handlers } = recordingHandlers();
    const boom = new Error('disk /var/secret full');
    const router = createRouter(generated, handlers, {
      handlerErrorReason: (_error, { tool }) => `${tool} failed; try later.`,
      libraryTools: [
        libraryTool({ name: 'fails', description: 'Fails.', parameters: { type: 'object' }, validate: () => true, handler: () => { throw boom; } }),
        libraryTool({ name: 'slow', description: 'Never ends.', parameters: { type: 'object' }, validate: () => true, handler: () => new Promise(() => {}) }),
      ],
    });
    expect(await router.dispatch({ name: 'fails' })).toEqual({ ok: false, code: 'handler_error', reason: 'fails failed; try later.', callId: undefined, tool: 'fails', error: boom });
    expect(await router.handleTool({ name: 'fails' })).toBe('Error: fails failed; try later.');
    expect(await router.dispatch({ name: 'slow' }, { timeoutMs: 5 })).toMatchObject({ ok: false, code: 'timeout', tool: 'slow' });
  });

  test('a hand-written validator that reports malformed errors, or throws, still gives a rejection', async () => {
    const { handlers } = recordingHandlers();
    const bad = Object.assign(() => false, { errors: [{ nonsense: true }, 'text', null] as never });
    const throwing = () => {
      throw new Error('validator bug');
    };
    const router = createRouter(generated, handlers, {
      libraryTools: [
        libraryTool({ name: 'odd', description: 'Odd.', parameters: { type: 'object' }, validate: bad, handler: () => 'ran' }),
        libraryTool({ name: 'buggy', description: 'Buggy.', parameters: { type: 'object' }, validate: throwing, handler: () => 'ran' }),
      ],
    });
    expect(await router.dispatch({ name: 'odd', arguments: '{}' })).toMatchObject({ ok: false, code: 'invalid_arguments', reason: expect.stringContaining('do not match') });
    expect(await router.dispatch({ name: 'buggy', arguments: '{}' })).toMatchObject({ ok: false, code: 'invalid_arguments' });
  });

  test('a __proto__ key reaches the handler as a key', async () => {
    const { handlers } = recordingHandlers();
    const seen: unknown[] = [];
    const router = createRouter(generated, handlers, {
      libraryTools: [libraryTool({ name: 'echo', description: 'Echo.', parameters: { type: 'object' }, validate: () => true, handler: (args) => seen.push(args) })],
    });
    expect(await router.dispatch({ name: 'echo', arguments: '{"__proto__":{"x":1},"a":2}' })).toMatchObject({ ok: true });
    expect(Object.keys(seen[0] as object).sort()).toEqual(['__proto__', 'a']);
  });
});

describe('registration mistakes throw a TypeError at createRouter, naming the tool', () => {
  const ok = { description: 'A tool.', parameters: { type: 'object', properties: {} }, validate: () => true, handler: () => 'ok' };
  const attempt = (...defs: unknown[]) => () => createRouter(generated, recordingHandlers().handlers, { libraryTools: defs as never });

  test.each([
    ['a duplicate name', [{ ...ok, name: 'mem' }, { ...ok, name: 'mem' }], /"mem": the name is already taken by another library tool/],
    ['a spec tool', [{ ...ok, name: 'read_file' }], /"read_file": the name is already taken by a tool of the spec/],
    ['a namespace', [{ ...ok, name: 'file_ops' }], /taken by a namespace of the spec/],
    ['a toolkit, ignoring case', [{ ...ok, name: 'weather' }], /taken by a toolkit of the spec/],
    ['load_toolkit', [{ ...ok, name: 'load_toolkit' }], /taken by the router itself/],
    ['the toolkit dispatcher', [{ ...ok, name: 'call_toolkit_tool' }], /taken by the router itself/],
    ['a name no target accepts', [{ ...ok, name: 'my tool' }], /the name must match/],
    ['a name over 64 characters', [{ ...ok, name: 'x'.repeat(65) }], /the name must match/],
    ['no validate', [{ ...ok, name: 'm', validate: undefined }], /"m": missing `validate`/],
    ['a validate that is no function', [{ ...ok, name: 'm', validate: { type: 'object' } }], /`validate` must be a function/],
    ['no handler', [{ ...ok, name: 'm', handler: undefined }], /missing `handler`/],
    ['an empty description', [{ ...ok, name: 'm', description: '' }], /`description` must be a non-empty string/],
    ['an unknown key (not dropped)', [{ ...ok, name: 'm', deferLoading: true, tags: ['x'] }], /unknown keys "deferLoading", "tags"/],
    ['the reference library shorthand', [{ ...ok, name: 'm', parameters: { q: { type: 'string' } } }], /type "object" at the top/],
    ['a non-object schema', [{ ...ok, name: 'm', parameters: 'object' }], /type "object" at the top/],
    ['properties that are no schemas', [{ ...ok, name: 'm', parameters: { type: 'object', properties: { q: 'string' } } }], /parameters.properties/],
    ['a duplicated required name', [{ ...ok, name: 'm', parameters: { type: 'object', required: ['a', 'a'] } }], /parameters.required/],
    ['a function in the schema', [{ ...ok, name: 'm', parameters: { type: 'object', default: () => 1 } }], /a function at \/default/],
    ['NaN in the schema', [{ ...ok, name: 'm', parameters: { type: 'object', properties: { n: { maximum: Number.NaN } } } }], /NaN at \/properties\/n\/maximum/],
    ['a Date in the schema', [{ ...ok, name: 'm', parameters: { type: 'object', examples: [new Date(0)] } }], /a non-plain object at \/examples\/0/],
    ['a schema that refers to itself', [{ ...ok, name: 'm', parameters: (() => { const s: Record<string, unknown> = { type: 'object' }; s['self'] = s; return s; })() }], /deeper than 64 levels/],
    ['a definition that is no object', ['remember'], /libraryTools\[0\] must be an object/],
  ])('%s', (_label, defs, message) => {
    expect(attempt(...defs)).toThrow(TypeError);
    expect(attempt(...defs)).toThrow(message);
  });

  test('libraryTools that is no array', () => {
    expect(() => createRouter(generated, recordingHandlers().handlers, { libraryTools: {} as never })).toThrow(/libraryTools must be an array/);
  });

  test('later registrations cannot take a library tool name or group one', () => {
    const { router } = libraryRouter();
    expect(() => router.registerTools([{ name: 'note', description: 'x' }])).toThrow(/already taken/);
    expect(() => router.registerNamespaces([{ name: 'note', description: 'x', tools: ['get_time'] }])).toThrow(/already taken/);
    expect(() => router.registerToolkits([{ name: 'Note', description: 'x', tools: [] }])).toThrow(TypeError);
    expect(() => router.registerNamespaces([{ name: 'notes', description: 'x', tools: ['note'] }])).toThrow(/library tools are never grouped/);
    // Nothing changed.
    expect(names(router.compile().tools)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'note', 'new_context']);
  });
});

describe('examples/memory-tools.ts', () => {
  test('remember / recall through the reference library loop: stored, rejected by schema, recalled, then blocked; the tools never move', async () => {
    const { results, toolsBefore, toolsAfter, store } = await runMemoryExample();
    expect(results[0]).toBe('Remembered "deploy-target".');
    expect(results[1]).toMatch(/^Error: Invalid arguments for "remember":\n- \/value: /);
    expect(results[2]).toMatch(/^Toolkit "Weather" loaded\./);
    expect(JSON.parse(results[3]!)).toEqual({ key: 'deploy-target', value: 'staging' });
    expect(results[4]).toBe('Error: Tool "recall" is currently blocked.');
    expect([...store]).toEqual([['deploy-target', 'staging']]);
    expect(toolsAfter).toEqual(toolsBefore);
    expect(toolsBefore.slice(0, 6)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'remember', 'recall']);
  });
});
