/**
 * What `unpackSpec` leaves for first read (the lazy parts' JSON texts: the
 * descriptions, the tags, the parameter schemas, the prune matcher; the
 * neutral definitions, the loader, `spec.tools`) is, once read, exactly the
 * data the generator would have shipped plainly, deeply frozen and the same
 * object on every read; creating a router and dispatching read none of the
 * lazy texts; a router built on it prunes, compiles and dispatches with it;
 * and a folder whose matcher is of another format fails at import, naming
 * the fix, rather than at the first prune.
 */
import { describe, expect, it } from 'vitest';
import { buildEmitContext } from '../../generator/emit/context.js';
import { packedTexts, packSpec, specData } from '../../generator/emit/spec.js';
import { specColumns, unpackSpec, type LazyTexts } from '../../runtime/packed-spec.js';
import { createRouter } from '../../runtime/index.js';
import type { GeneratedModule } from '../../runtime/contract.js';
import { buildIR } from '../generator/ir-builder.js';

const options = { specDisplay: 'spec.yaml', outDisplay: 'out', runtimeImport: 'toolroute/runtime', version: '0.0.0' };
const params = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false };

function fixture() {
  const ir = buildIR({
    tools: [
      { name: 'read_file', tags: ['file', 'db'], parameters: params },
      { name: 'run_bash', tags: ['shell'], deferLoading: true },
      { name: 'get_time' },
    ],
    namespaces: [{ name: 'ops', tools: [{ name: 'ops_restart', parameters: params }] }],
    toolkits: [{ name: 'Kit', tools: [{ name: 'kit_tool', tags: ['db'] }] }],
  });
  const want = specData(buildEmitContext(ir, options));
  const texts = packedTexts(packSpec(want));
  const packed = JSON.parse(texts.data) as Parameters<typeof unpackSpec>[0];
  const unpack = (data = packed, lazy: LazyTexts = texts.lazy) =>
    unpackSpec(JSON.parse(JSON.stringify(data)), { openaiStrict: false, directoryXml: '<d/>', validators: [], toolNames: want.tools.map((t) => t.name) }, lazy);
  return { want, packed, texts, unpack };
}

function expectDeepFrozen(value: unknown, path = 'value'): void {
  if (typeof value !== 'object' || value === null) return;
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true);
  for (const [key, item] of Object.entries(value)) expectDeepFrozen(item, `${path}.${key}`);
}

describe('unpackSpec: what is built on first read', () => {
  it('the matcher, the neutral definitions and the loader are the shipped data, deeply frozen, one object per read', () => {
    const { want, unpack } = fixture();
    const spec = unpack();
    expect(JSON.stringify(spec.matcher)).toBe(JSON.stringify(want.matcher));
    expect(spec.matcher).toBe(spec.matcher);
    expectDeepFrozen(spec.matcher, 'matcher');
    const neutral = spec.rendered.neutral;
    expect(JSON.stringify(neutral.tools)).toBe(JSON.stringify(want.rendered.neutral.tools));
    expect(neutral.tools).toBe(neutral.tools);
    expectDeepFrozen(neutral.tools, 'neutral.tools');
    expect(JSON.stringify(neutral.loader)).toBe(JSON.stringify(want.rendered.neutral.loader));
    expect(neutral.loader).not.toBeNull();
    expect(neutral.loader).toBe(neutral.loader);
    expectDeepFrozen(neutral.loader, 'neutral.loader');
    // Same key order as the plain data (the bytes of JSON.stringify), the lazy keys included.
    expect(Object.keys(spec)).toEqual([...Object.keys(want).filter((k) => k !== 'directoryXml' && k !== 'validators'), 'directoryXml', 'validators']);
    expect(Object.keys(neutral)).toEqual(['tools', 'namespaces', 'loader']);
  });

  it('a router over it prunes with the spec\'s own definitions, lists toolkits and dispatches', async () => {
    const { unpack } = fixture();
    const spec = unpack();
    const generated = { spec } as unknown as GeneratedModule;
    const handlers = { read_file: () => 'r', run_bash: () => 'b', get_time: () => 't', ops_restart: () => 'o', kit_tool: () => 'k' };
    const router = createRouter(generated, handlers);
    expect(await router.dispatch({ name: 'ops', arguments: { action: 'ops_restart', args: { q: 'x' } } })).toMatchObject({ ok: true, result: 'o' });
    const pruned = router.pruneByTask('check the DB');
    expect(pruned.tools.map((t) => t.name)).toEqual(['read_file', 'get_time']);
    expect(pruned.tools[0]).toBe(spec.rendered.neutral.tools[0]);
    expect(pruned.removed).toEqual(['run_bash']);
    expect(router.getAllTools()[1]).toBe(spec.rendered.neutral.tools[1]);
  });

  it('spec.tools, built on first read, is the shipped data, deeply frozen, and what the columns createRouter reads say', () => {
    const { want, unpack } = fixture();
    const spec = unpack();
    const descriptor = Object.getOwnPropertyDescriptor(spec, 'tools');
    expect(descriptor?.get).toBeTypeOf('function');
    expect(descriptor?.enumerable).toBe(true);
    const columns = specColumns(spec);
    expect(JSON.stringify(spec.tools)).toBe(JSON.stringify(want.tools));
    expect(spec.tools).toBe(spec.tools);
    expectDeepFrozen(spec.tools, 'tools');
    // Field for field, the same frozen arrays (a router's entries and spec.tools share them).
    expect(columns.count).toBe(spec.tools.length);
    spec.tools.forEach((t, i) => {
      expect(columns.names[i]).toBe(t.name);
      expect(columns.descriptions[i]).toBe(t.description);
      expect(columns.tagLists[columns.tags[i]!]).toBe(t.tags);
      expect(columns.validator[i]).toBe(t.validator);
      expect(columns.flat[i] === 1).toBe(t.flat);
      expect(columns.deferred[i] === 1).toBe(t.deferLoading);
      expect(columns.namespacesOf[i]).toBe(t.namespaces);
      expect(columns.toolkitsOf[i]).toBe(t.toolkits);
    });
    // A spec object that is not a packed one (a plain copy) is read through its tools, to the same columns.
    const copy = specColumns({ ...spec, tools: JSON.parse(JSON.stringify(spec.tools)) } as typeof spec);
    expect({ ...copy, flat: [...copy.flat], deferred: [...copy.deferred], tagLists: copy.tags.map((k) => copy.tagLists[k]), tags: [] }).toEqual({
      ...columns,
      flat: [...columns.flat],
      deferred: [...columns.deferred],
      tagLists: columns.tags.map((k) => columns.tagLists[k]),
      tags: [],
      extra: new Map(),
    });
  });

  it('a router over a plain copy of the spec (not unpacked) dispatches, prunes and lists like one over the packed spec', async () => {
    const { unpack } = fixture();
    const spec = unpack();
    const plain = { ...spec, tools: spec.tools } as typeof spec;
    const handlers = { read_file: () => 'r', run_bash: () => 'b', get_time: () => 't', ops_restart: () => 'o', kit_tool: () => 'k' };
    const a = createRouter({ spec } as unknown as GeneratedModule, handlers);
    const b = createRouter({ spec: plain } as unknown as GeneratedModule, handlers);
    for (const call of [{ name: 'ops', arguments: { action: 'ops_restart', args: { q: 'x' } } }, { name: 'run_bash', arguments: {} }, { name: 'nope', arguments: {} }]) {
      expect(await b.dispatch(call)).toEqual(await a.dispatch(call));
    }
    expect(b.pruneByTask('check the DB')).toEqual(a.pruneByTask('check the DB'));
    expect(b.compile({ target: 'anthropic', messages: [] })).toEqual(a.compile({ target: 'anthropic', messages: [] }));
    expect(() => createRouter({ spec: plain } as unknown as GeneratedModule, { ...handlers, read_fil: () => 'x' })).toThrow(/read_fil/);
  });

  it('a matcher of another format fails at unpack (import), naming the fix', () => {
    const { packed, texts, unpack } = fixture();
    const data = JSON.parse(JSON.stringify(packed)) as { data: { matcherFormat?: string } };
    data.data.matcherFormat = 'aho-corasick/0';
    expect(() => unpack(data as unknown as typeof packed)).toThrow(/prune matcher .* unknown format; regenerate/);
    delete data.data.matcherFormat;
    expect(() => unpack(data as unknown as typeof packed)).toThrow(/regenerate/);
    // The matcher data itself is checked again on its first read.
    const other = JSON.parse(texts.lazy.matcher) as { data: { automaton: { format: string } } };
    other.data.automaton.format = 'aho-corasick/0';
    const spec = unpack(packed, { ...texts.lazy, matcher: JSON.stringify(other) });
    expect(() => spec.matcher).toThrow(/prune matcher .* unknown format; regenerate/);
  });

  it('creating a router and dispatching parse none of the lazy texts; each is parsed on the first read that needs it', async () => {
    const { texts, want, unpack } = fixture();
    // Texts that are no JSON: any parse of them throws, so a successful step proves it did not read them.
    const broken = (keep: readonly (keyof LazyTexts)[]) => Object.fromEntries(Object.entries(texts.lazy).map(([k, v]) => [k, keep.includes(k as keyof LazyTexts) ? v : '{'])) as unknown as LazyTexts;
    const handlers = { read_file: () => 'r', run_bash: () => 'b', get_time: () => 't', ops_restart: () => 'o', kit_tool: () => 'k' };
    const spec = unpack(undefined, broken([]));
    const router = createRouter({ spec } as unknown as GeneratedModule, handlers);
    expect(await router.dispatch({ name: 'ops', arguments: { action: 'ops_restart', args: { q: 'x' } } })).toMatchObject({ ok: true, result: 'o' });
    expect(await router.dispatch({ name: 'run_bash', arguments: {} })).toMatchObject({ ok: true, result: 'b' });
    expect(JSON.stringify([spec.flat, spec.namespaces, spec.toolkits, spec.policies, spec.validatorDepths])).toBe(JSON.stringify([want.flat, want.namespaces, want.toolkits, want.policies, want.validatorDepths]));
    expect(() => spec.tools).toThrow(SyntaxError);
    expect(() => spec.matcher).toThrow(SyntaxError);
    expect(() => spec.rendered.neutral.tools).toThrow(SyntaxError);
    // spec.tools needs the descriptions and the tags, nothing else; the neutral definitions the descriptions and the schemas.
    expect(JSON.stringify(unpack(undefined, broken(['descriptions', 'tags'])).tools)).toBe(JSON.stringify(want.tools));
    expect(JSON.stringify(unpack(undefined, broken(['descriptions', 'params'])).rendered.neutral.tools)).toBe(JSON.stringify(want.rendered.neutral.tools));
    expect(JSON.stringify(unpack(undefined, broken(['matcher'])).matcher)).toBe(JSON.stringify(want.matcher));
  });

  it('the lazy parts, once read, are the eager data: same values, same order, deeply frozen, one object per read', () => {
    const { want, unpack } = fixture();
    const spec = unpack();
    const columns = specColumns(spec);
    expect(Object.getOwnPropertyDescriptor(spec, 'matcher')?.get).toBeTypeOf('function');
    expect(JSON.stringify(spec)).toBe(JSON.stringify({ ...want, directoryXml: '<d/>', validators: [] }));
    expect(columns.descriptions).toEqual(want.tools.map((t) => t.description));
    expect(columns.descriptions).toBe(columns.descriptions);
    expect(columns.tags.map((k) => columns.tagLists[k])).toEqual(want.tools.map((t) => t.tags));
    for (const [what, value] of [['descriptions', columns.descriptions], ['tags', columns.tags], ['tagLists', columns.tagLists], ['matcher', spec.matcher], ['neutral', spec.rendered.neutral.tools]] as const) {
      expectDeepFrozen(value, what);
    }
    // The tool objects share the columns' tag lists, and the neutral definitions one schema object per distinct schema.
    spec.tools.forEach((t, i) => expect(t.tags).toBe(columns.tagLists[columns.tags[i]!]));
    expect(spec.rendered.neutral.tools[0]).not.toBe(spec.rendered.neutral.tools[3]);
    expect((spec.rendered.neutral.tools[0] as { parameters: unknown }).parameters).toBe((spec.rendered.neutral.tools[3] as { parameters: unknown }).parameters);
  });
});
