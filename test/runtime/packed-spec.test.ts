/**
 * What `unpackSpec` leaves for first read (the neutral definitions, the
 * loader, freezing the prune matcher) is, once read, exactly the data the
 * generator would have shipped plainly, deeply frozen and the same object on
 * every read; a router built on it prunes, compiles and dispatches with it;
 * and a folder whose matcher is of another format fails at import, naming
 * the fix, rather than at the first prune.
 */
import { describe, expect, it } from 'vitest';
import { buildEmitContext } from '../../generator/emit/context.js';
import { packSpec, shareSubtrees, specData } from '../../generator/emit/spec.js';
import { unpackSpec } from '../../runtime/packed-spec.js';
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
  const packed = shareSubtrees(packSpec(want)) as Parameters<typeof unpackSpec>[0];
  const unpack = (data = packed) =>
    unpackSpec(JSON.parse(JSON.stringify(data)), { openaiStrict: false, directoryXml: '<d/>', validators: [], toolNames: want.tools.map((t) => t.name) });
  return { want, packed, unpack };
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

  it('a matcher of another format fails at unpack (import), naming the fix', () => {
    const { packed, unpack } = fixture();
    const data = JSON.parse(JSON.stringify(packed)) as { data: { spec: { matcher: { automaton: { format: string } } } } };
    data.data.spec.matcher.automaton.format = 'aho-corasick/0';
    expect(() => unpack(data as unknown as typeof packed)).toThrow(/prune matcher .* unknown format; regenerate/);
    delete (data.data.spec as { matcher?: unknown }).matcher;
    expect(() => unpack(data as unknown as typeof packed)).toThrow(/regenerate/);
  });
});
