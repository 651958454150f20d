/**
 * What `createRouter` does per tool, made cheap at 10,000 tools
 * (runtime/router/catalog.ts, entries.ts): a spec tool's entry is built on
 * its first use, names map to small-integer refs, and the handler table is
 * checked by a lookup per tool plus a count of its keys. These tests hold
 * the cheap forms to what they replaced: a router whose entries were never
 * built answers exactly like one whose entries were all built before the
 * same registrations, blocklists and loads; the catalog's per-tool reads
 * agree with the built entries and with `spec.tools`; and the handler table
 * fails closed, with the same messages, however it is built.
 */
import { describe, expect, test } from 'vitest';
import { createRouter, type ToolRouter } from '../../runtime/index.js';
import { Catalog } from '../../runtime/router/catalog.js';
import type { GeneratedModule, RegistryShape } from '../../runtime/contract.js';
import { generated, recordingHandlers } from './helpers.js';

const { TOOL_NAMES, NAMESPACE_NAMES } = generated;
const module = generated as unknown as GeneratedModule<RegistryShape>;

type AnyRouter = ToolRouter<RegistryShape, unknown, string>;

/** Every name-level and argument-level check a router answers, plus its compiles, for comparing two routers. */
function probe(router: AnyRouter): unknown[] {
  const out: unknown[] = [];
  const names = [...TOOL_NAMES, ...NAMESPACE_NAMES, 'load_toolkit', 'git', 'git_status', 'Jira', 'jira_get', 'ping', 'nope'];
  for (const name of names) {
    out.push(router.checkToolCall({ name }));
    out.push(router.checkToolCall({ name, arguments: '{}' }));
    out.push(router.checkToolCall({ name, arguments: '{"path":"a","city":"Lisbon","sql":"select 1","table":"t","command":"ls"}' }));
  }
  for (const ns of [...NAMESPACE_NAMES, 'git']) {
    for (const action of [...TOOL_NAMES, 'git_status']) out.push(router.checkToolCall({ name: ns, arguments: JSON.stringify({ action, args: {} }) }));
  }
  out.push(router.compile(), router.getAllTools(), router.pruneByTask('read the file'));
  out.push(router.compile({ target: 'anthropic', messages: [{ role: 'user', content: 'hi' }] }));
  out.push(router.getLoadedToolkits(), router.snapshot());
  return out;
}

/** The same registrations, blocklists and loads, probed after each step. */
async function script(router: AnyRouter): Promise<unknown[]> {
  const out: unknown[] = [probe(router)];
  router.registerTools([{ name: 'ping', description: 'Ping', tags: ['net'], handler: () => 'pong' }]);
  // Spec tools as string members: their group lists change (a built entry's field, a column otherwise).
  router.registerNamespaces([{ name: 'git', description: 'Git', tools: [{ name: 'git_status', description: 'Status', handler: () => 'clean' }, 'get_time', 'write_file'] }]);
  router.registerToolkits([{ name: 'Jira', description: 'Issues', tools: ['run_query', 'delete_file', { name: 'jira_get', description: 'Get an issue' }] }]);
  out.push(probe(router));
  router.setBlockedTools(['git']);
  out.push(probe(router), await router.dispatch({ name: 'get_time', arguments: '{}' }));
  router.setBlockedTools(['Jira', 'file_ops']);
  out.push(probe(router), await router.dispatch({ name: 'git', arguments: '{"action":"write_file","args":{"path":"a","content":"b"}}' }));
  router.setBlockedTools([]);
  out.push(router.extractToolkit('jira'), probe(router));
  out.push(router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' }), probe(router));
  out.push(await router.dispatch({ name: 'run_query', arguments: '{"sql":"select 1"}' }), await router.dispatch({ name: 'get_forecast', arguments: '{"city":"Lisbon"}' }));
  return out;
}

describe('tool entries built on first use', () => {
  test('a router that never built its entries answers like one that built them all first, through registrations, blocklists and loads', async () => {
    const lazy = createRouter(generated, recordingHandlers().handlers) as unknown as AnyRouter;
    const built = createRouter(generated, recordingHandlers().handlers) as unknown as AnyRouter;
    // Every spec tool's entry is read by a check of a call to it (directly, or as a namespace action).
    for (const name of TOOL_NAMES) built.checkToolCall({ name, arguments: '{}' });
    for (const ns of NAMESPACE_NAMES) for (const action of TOOL_NAMES) built.checkToolCall({ name: ns, arguments: JSON.stringify({ action, args: {} }) });
    const a = await script(lazy);
    const b = await script(built);
    expect(a).toEqual(b);
    // And the script exercised what it claims: a spec tool in a registered namespace is blocked with it.
    expect(a[3]).toMatchObject({ ok: false, code: 'blocked' });
  });

  test('the catalog reads every tool the same before and after its entry is built, and builds each once', () => {
    const { handlers } = recordingHandlers();
    const catalog = new Catalog(module, handlers);
    const tools = module.spec.tools;
    expect(catalog.toolCount).toBe(tools.length);
    expect(catalog.specCount).toBe(tools.length);
    const reads = (t: number) => [catalog.toolName(t), catalog.toolFlat(t), catalog.toolLibrary(t), catalog.toolNamespaces(t), catalog.toolToolkits(t), catalog.toolDefinition(t)];
    for (let t = 0; t < tools.length; t++) {
      const before = reads(t);
      const spec = tools[t]!;
      expect(before).toEqual([spec.name, spec.flat, false, spec.namespaces, spec.toolkits, module.spec.rendered.neutral.tools[t]]);
      const entry = catalog.tool(t);
      expect(catalog.tool(t)).toBe(entry);
      expect(reads(t)).toEqual(before);
      expect(entry).toMatchObject({ name: spec.name, flat: spec.flat, library: false, specIndex: t, description: spec.description, tags: spec.tags, deferLoading: spec.deferLoading });
      expect(entry.handler).toBe(handlers[spec.name as keyof typeof handlers]);
      expect(entry.validate).toBe(module.spec.validators[spec.validator]);
      expect(catalog.byName.get(spec.name)).toEqual({ kind: 'tool', index: t });
    }
    // A registration replaces a spec tool's group list; the per-tool reads follow it, built entry or not.
    const getTime = (catalog.byName.get('get_time') as { index: number }).index;
    const readFile = (catalog.byName.get('read_file') as { index: number }).index;
    const fresh = new Catalog(module, handlers);
    fresh.registerGroups([{ name: 'git', description: 'Git', tools: ['get_time'] }], 'namespace');
    expect(fresh.toolNamespaces(getTime)).toEqual([...tools[getTime]!.namespaces, NAMESPACE_NAMES.length]);
    expect(fresh.tool(getTime).namespaces).toEqual(fresh.toolNamespaces(getTime));
    expect(fresh.toolNamespaces(readFile)).toBe(tools[readFile]!.namespaces);
    expect(() => catalog.tool(tools.length)).toThrow(RangeError);
  });

  test('names map to refs: tools and namespaces by index, and the loader', () => {
    const catalog = new Catalog(module, recordingHandlers().handlers);
    NAMESPACE_NAMES.forEach((name, k) => expect(catalog.byName.get(name)).toEqual({ kind: 'namespace', index: k }));
    expect(catalog.byName.get('load_toolkit')).toEqual({ kind: 'loader' });
    expect(catalog.byName.get('__proto__')).toBeUndefined();
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
    // A missing handler is reported first, as before.
    const { get_time: _, ...missing } = table;
    expect(() => createRouter(generated, missing as never)).toThrow(/^createRouter: no handler for "get_time"/);
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
