/**
 * The catalog (runtime/router/catalog.ts): one entry per tool that agrees
 * with `spec.tools`, names mapped to refs, registrations that replace a
 * tool's group lists, and a handler table that fails closed.
 */
import { describe, expect, test } from 'vitest';
import { createRouter } from '../../runtime/index.js';
import { Catalog } from '../../runtime/router/catalog.js';
import type { GeneratedModule, RegistryShape } from '../../runtime/contract.js';
import { generated, recordingHandlers } from './helpers.js';

const { NAMESPACE_NAMES } = generated;
const module = generated as unknown as GeneratedModule<RegistryShape>;

describe('the catalog', () => {
  test('every tool has one entry that agrees with spec.tools, and a registration replaces its group lists', () => {
    const { handlers } = recordingHandlers();
    const catalog = new Catalog(module, handlers);
    const tools = module.spec.tools;
    expect(catalog.toolCount).toBe(tools.length);
    expect(catalog.specCount).toBe(tools.length);
    const reads = (t: number) => [catalog.toolName(t), catalog.tool(t).flat, catalog.tool(t).library, catalog.tool(t).namespaces, catalog.tool(t).toolkits, catalog.definition(t)];
    for (let t = 0; t < tools.length; t++) {
      const spec = tools[t]!;
      expect(reads(t)).toEqual([spec.name, spec.flat, false, spec.namespaces, spec.toolkits, module.spec.rendered.neutral.tools[t]]);
      const entry = catalog.tool(t);
      expect(catalog.tool(t)).toBe(entry);
      expect(entry).toMatchObject({ name: spec.name, flat: spec.flat, library: false, specIndex: t, description: spec.description, tags: spec.tags, deferLoading: spec.deferLoading });
      expect(entry.handler).toBe(handlers[spec.name as keyof typeof handlers]);
      expect(entry.validate).toBe(module.spec.validators[spec.validator]);
      // The neutral definition is the spec's own object, read when asked rather than copied into the entry.
      expect(catalog.definition(t)).toBe(module.spec.rendered.neutral.tools[t]);
      expect(catalog.byName.get(spec.name)).toEqual({ kind: 'tool', index: t });
    }
    // A registration replaces a spec tool's group list; the per-tool reads follow it.
    const getTime = tools.findIndex((tool) => tool.name === 'get_time');
    const readFile = tools.findIndex((tool) => tool.name === 'read_file');
    const fresh = new Catalog(module, handlers);
    fresh.registerGroups([{ name: 'git', description: 'Git', tools: ['get_time'] }], 'namespace');
    expect(fresh.tool(getTime).namespaces).toEqual([...tools[getTime]!.namespaces, NAMESPACE_NAMES.length]);
    expect(fresh.tool(readFile).namespaces).toBe(tools[readFile]!.namespaces);
  });

  test('names map to records: tools and namespaces by index, and the loader', () => {
    const catalog = new Catalog(module, recordingHandlers().handlers);
    NAMESPACE_NAMES.forEach((name, k) => expect(catalog.byName.get(name)).toEqual({ kind: 'namespace', index: k }));
    expect(catalog.byName.get('load_toolkit')).toEqual({ kind: 'loader' });
    expect(catalog.byName.get('__proto__')).toBeUndefined();
  });

  test('a run-time tool with a key no tool has is refused before any change, naming the key it meant', () => {
    const router = createRouter(generated, recordingHandlers().handlers);
    const before = router.getAllTools().length;
    expect(() => router.registerTools([{ name: 'ping', description: 'Ping', tag: ['net'] } as never])).toThrow(
      'registerTools: "ping": unknown name "tag" (did you mean "tags"?). A tool takes name, description, parameters, tags, deferLoading, handler, validate.',
    );
    expect(() => router.registerToolkits([{ name: 'Net', description: 'N', tools: [{ name: 'pong', description: 'P', handlr: () => 1 } as never] }])).toThrow(/^registerToolkits: "pong": unknown name "handlr" \(did you mean "handler"\?\)/);
    expect(router.getAllTools()).toHaveLength(before);
    // Every key a tool has is taken.
    router.registerTools([{ name: 'ping', description: 'Ping', tags: ['net'], deferLoading: false, parameters: {}, handler: () => 'pong', validate: Object.assign(() => true, { errors: null }) }]);
    expect(router.getAllTools()).toHaveLength(before + 1);
  });
});

describe('the handler table fails closed', () => {
  test('an inherited function is no handler, nor is a non-function', () => {
    const { handlers } = recordingHandlers();
    const { read_file, ...rest } = handlers;
    const inherited = Object.assign(Object.create({ read_file }) as object, rest);
    expect(() => createRouter(generated, inherited as typeof handlers)).toThrow(/^createRouter: no handler for "read_file"\. Pass one function per tool name\.$/);
    expect(() => createRouter(generated, { ...handlers, run_bash: 'ls' } as never)).toThrow(/^createRouter: no handler for "run_bash"\./);
    expect(() => createRouter(generated, { ...rest, read_file: undefined } as never)).toThrow(/^createRouter: no handler for "read_file"\./);
  });

  test('every key that is no tool is refused, namespace names included, with the closest tool names', () => {
    const { handlers } = recordingHandlers();
    const table = { ...handlers, file_ops: () => 1, read_fle: () => 2 };
    expect(() => createRouter(generated, table as typeof handlers)).toThrow(/^createRouter: handlers: unknown names? "file_ops".*"read_fle" \(did you mean "read_file"\?\)/s);
    // A missing handler is reported first.
    const { get_time: _, ...missing } = table;
    expect(() => createRouter(generated, missing as never)).toThrow(/^createRouter: no handler for "get_time"/);
    // A table keyed the wrong way throughout names ten keys and counts the rest.
    const stray = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`tool_${i}`, () => i]));
    expect(() => createRouter(generated, { ...handlers, ...stray } as never)).toThrow(/^createRouter: handlers: unknown names "tool_0", "tool_1", .*"tool_9", … \(4 more\)\. Handlers are keyed/);
  });

  test('a non-enumerable own handler, a getter, a null prototype and symbol keys are accepted', async () => {
    const { handlers, log } = recordingHandlers();
    const table = Object.assign(Object.create(null) as Record<string | symbol, unknown>, handlers);
    Object.defineProperty(table, 'get_time', { value: handlers.get_time, enumerable: false });
    Object.defineProperty(table, 'read_file', { get: () => handlers.read_file, enumerable: true });
    table[Symbol('meta')] = 'not a handler';
    const router = createRouter(generated, table as typeof handlers);
    expect(await router.dispatch({ name: 'get_time', arguments: '{}' })).toMatchObject({ ok: true, tool: 'get_time' });
    expect(await router.dispatch({ name: 'read_file', arguments: '{"path":"a"}' })).toMatchObject({ ok: true, tool: 'read_file' });
    expect(log.map((c) => c.tool)).toEqual(['get_time', 'read_file']);
  });
});
