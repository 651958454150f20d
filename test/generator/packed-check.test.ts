/**
 * `checkPackedSpec`, the generator's self-check of the packed spec data: it
 * must accept the packing the generator makes and refuse, as a bug, any
 * packed text that unpacks to other bytes than the plain data and the
 * generator's own rendering — whether the packed data is wrong (tampered
 * text) or the unpacker builds something else from right data (a wrapped
 * `unpackSpec` that alters its result).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildEmitContext, type EmitContext } from '../../generator/emit/context.js';
import { checkPackedSpec, packedSpecText, packedTexts, packSpec, specData, type PackedTexts } from '../../generator/emit/spec.js';
import type { SpecColumns } from '../../runtime/packed-spec.js';
import { TARGETS, type GeneratedSpec, type RenderedTools } from '../../runtime/contract.js';
import { buildIR } from './ir-builder.js';

/** Set by a test: rewrites what `unpackSpec` returns to the generator (a wrong unpacker). */
let alter: ((spec: GeneratedSpec) => GeneratedSpec) | undefined;
vi.mock('../../runtime/packed-spec.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../runtime/packed-spec.js')>();
  return {
    ...real,
    unpackSpec: (...args: Parameters<typeof real.unpackSpec>) => (alter ?? ((s: GeneratedSpec) => s))(real.unpackSpec(...args)),
    specColumns: (spec: GeneratedSpec) => (alterColumns ?? ((c: SpecColumns) => c))(real.specColumns(spec)),
  };
});
/** Set by a test: rewrites the tool columns a router would read (a wrong `specColumns`). */
let alterColumns: ((columns: SpecColumns) => SpecColumns) | undefined;
/** Set by a test: rewrites what the runtime's `renderForm` returns (a wrong target rendering). */
let alterForm: ((form: string, out: RenderedTools) => RenderedTools) | undefined;
vi.mock('../../runtime/rendered.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../runtime/rendered.js')>();
  return { ...real, renderForm: (...args: Parameters<typeof real.renderForm>) => (alterForm ?? ((_f: string, s: RenderedTools) => s))(args[1], real.renderForm(...args)) };
});
beforeEach(() => {
  alter = undefined;
  alterForm = undefined;
  alterColumns = undefined;
});

const options = { specDisplay: 'spec.yaml', outDisplay: 'out', runtimeImport: 'toolroute/runtime', version: '0.0.0' };
const schema = (description: string) => ({
  type: 'object',
  properties: { path: { type: 'string', description }, mode: { type: 'string', enum: ['r', 'w'] } },
  required: ['path'],
  additionalProperties: false,
});

/** Tools 0, 2 and 4 share one schema (as separate objects), 1 and 3 have their own; 3 is deferred; a namespace, a toolkit. */
function context(openaiStrict = false): EmitContext {
  const ir = buildIR({
    tools: [
      { name: 'read_file', parameters: schema('Where to read') },
      { name: 'stat_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'list_dir', parameters: schema('Where to read') },
    ],
    namespaces: [{ name: 'file_ops', tools: [{ name: 'read_file' }, { name: 'write_file', deferLoading: true, parameters: schema('Where to write') }] }],
    toolkits: [{ name: 'Extra', tools: [{ name: 'tail_file', parameters: schema('Where to read') }] }],
    options: { openaiStrict },
  });
  return buildEmitContext(ir, options);
}

type Envelope = { data: unknown; pool: unknown[]; refs: unknown[] };
/** The packed data of a context as parsed JSON (the data parsed at import, each lazy part), so a test can edit it in place; unshared (`minLength` Infinity) unless asked. */
interface Editable {
  data: { data: Record<string, unknown[]> & { spec: Record<string, unknown> }; pool: unknown[]; refs: unknown[] };
  lazy: {
    descriptions: { data: string[]; pool: unknown[]; refs: unknown[] };
    tags: { data: { tags: number[]; tagLists: string[][] }; pool: unknown[]; refs: unknown[] };
    params: { data: { params: number[]; schemas: Record<string, unknown>[] }; pool: unknown[]; refs: unknown[] };
    matcher: { data: { always: number[] }; pool: unknown[]; refs: unknown[] };
  };
}
function packed(ctx: EmitContext, minLength = Infinity): Editable {
  const texts = packedTexts(packSpec(specData(ctx)), minLength);
  return { data: JSON.parse(texts.data), lazy: Object.fromEntries(Object.entries(texts.lazy).map(([k, v]) => [k, JSON.parse(v) as Envelope])) } as Editable;
}
/** An `Editable` (or packed texts) as the texts `checkPackedSpec` reads. */
const asTexts = (p: Editable | PackedTexts): PackedTexts =>
  typeof p.data === 'string' ? (p as PackedTexts) : { data: JSON.stringify(p.data), lazy: Object.fromEntries(Object.entries(p.lazy).map(([k, v]) => [k, JSON.stringify(v)])) as unknown as PackedTexts['lazy'] };

const check = (ctx: EmitContext, p: Editable | PackedTexts) => checkPackedSpec(ctx, specData(ctx), asTexts(p));

describe('checkPackedSpec', () => {
  it('accepts the packed text the generator writes, with and without openaiStrict', () => {
    for (const strict of [false, true]) {
      const ctx = context(strict);
      expect(() => check(ctx, packed(ctx))).not.toThrow();
      expect(() => check(ctx, packed(ctx, 16))).not.toThrow();
      const literals = packedSpecText(ctx);
      expect(literals.data).toMatch(/^JSON\.parse\('\{"data":\{"packed":3,/);
      expect(Object.keys(literals.lazy)).toEqual(['descriptions', 'tags', 'params', 'matcher']);
      for (const literal of Object.values(literals.lazy)) expect(literal).toMatch(/^'\{"data":.*\}'$/s);
    }
  });

  it('refuses packed data that unpacks to another schema, description, deferral or group', () => {
    const ctx = context();
    const cases: [string, (p: Editable) => void, RegExp][] = [
      // Same keys, other order: the same value to a deep-equal, other bytes to a provider.
      ['schema key order', (p) => {
        const s = p.lazy.params.data.schemas[0]!;
        p.lazy.params.data.schemas[0] = Object.fromEntries(Object.entries(s).reverse());
      }, /schema of tool 0/],
      ['a tool on another schema', (p) => {
        p.lazy.params.data.params[2] = p.lazy.params.data.params[1]!;
      }, /schema of tool 2/],
      ['a description', (p) => {
        p.lazy.descriptions.data[4] = 'Tail it';
      }, /plain data in `tools`/],
      ['a tool\'s tags', (p) => {
        p.lazy.tags.data.tagLists.push(['other']);
        p.lazy.tags.data.tags[1] = p.lazy.tags.data.tagLists.length - 1;
      }, /plain data in `tools`/],
      ['a validator', (p) => {
        p.data.data['validator']![0] = 1;
      }, /plain data in `tools`/],
      ['a deferral', (p) => {
        p.data.data['deferred'] = [];
      }, /plain data in `tools`/],
      ['the matcher', (p) => {
        p.lazy.matcher.data.always.push(0);
      }, /plain data in `matcher`/],
      ['a namespace member', (p) => {
        const spec = p.data.data.spec as unknown as { namespaces: { tools: number[] }[] };
        spec.namespaces[0]!.tools.reverse();
      }, /plain data in `namespaces`/],
    ];
    for (const [what, edit, message] of cases) {
      const p = packed(ctx);
      edit(p);
      expect(() => check(ctx, p), what).toThrow(message);
      expect(() => check(ctx, p), what).toThrow(/bug in toolroute/);
    }
  });

  it('refuses a pooled subtree that no longer matches, and a ref that is missing', () => {
    const ctx = context();
    const p = packed(ctx, 16);
    expect(p.lazy.params.pool.length).toBeGreaterThan(0);
    const withPool = structuredClone(p);
    withPool.lazy.params.pool[0] = { changed: true };
    expect(() => check(ctx, withPool)).toThrow(/bug in toolroute/);
    const withoutRef = structuredClone(p);
    withoutRef.lazy.params.refs.pop();
    expect(() => check(ctx, withoutRef)).toThrow(/bug in toolroute/);
  });

  it('refuses tool columns (what a router reads instead of spec.tools) that differ from the plain tools', () => {
    const ctx = context();
    const text = asTexts(packed(ctx));
    expect(() => check(ctx, text)).not.toThrow();
    const edits: [string, (c: SpecColumns) => SpecColumns][] = [
      ['a description', (c) => ({ ...c, descriptions: c.descriptions.map((d, i) => (i === 1 ? `${d}!` : d)) })],
      ['a tag list', (c) => ({ ...c, tagLists: [...c.tagLists, ['x']], tags: c.tags.map(() => c.tagLists.length) })],
      ['a validator', (c) => ({ ...c, validator: c.validator.map(() => 3) })],
      ['a flat mark', (c) => ({ ...c, flat: new Uint8Array(c.count) })],
      ['a deferral', (c) => ({ ...c, deferred: new Uint8Array(c.count) })],
      ['a namespace list', (c) => ({ ...c, namespacesOf: c.namespacesOf.map(() => []) })],
    ];
    for (const [what, edit] of edits) {
      alterColumns = edit;
      expect(() => check(ctx, text), what).toThrow(/tool columns differ from the plain data in `tools`/);
    }
  });

  it('refuses an unpacker whose definitions differ from the eager rendering while the plain fields agree', () => {
    const ctx = context();
    const text = asTexts(packed(ctx));
    const withNeutral = (edit: (n: { tools: Record<string, unknown>[]; namespaces: unknown[]; loader: unknown }) => void) => (spec: GeneratedSpec): GeneratedSpec => {
      const neutral = { tools: spec.rendered.neutral.tools.map((t) => ({ ...(t as object) })), namespaces: [...spec.rendered.neutral.namespaces], loader: spec.rendered.neutral.loader };
      edit(neutral);
      return { ...spec, rendered: { ...spec.rendered, neutral } } as GeneratedSpec;
    };
    const cases: [string, (n: { tools: Record<string, unknown>[]; namespaces: unknown[]; loader: unknown }) => void, RegExp][] = [
      // Tool 4 shares tool 0's schema and is not in the target sample: only the per-tool comparison sees it.
      ['an extra key on a tool', (n) => {
        n.tools[4] = { ...n.tools[4], deferLoading: false };
      }, /neutral from the packed spec data differs .*\(tool 4\)/],
      ['another description', (n) => {
        n.tools[2] = { ...n.tools[2], description: 'List it' };
      }, /neutral .*\(tool 2\)/],
      ['a schema copy in another key order', (n) => {
        const s = n.tools[4]!['parameters'] as Record<string, unknown>;
        n.tools[4] = { ...n.tools[4], parameters: Object.fromEntries(Object.entries(s).reverse()) };
      }, /schema of tool 4/],
      ['a namespace tool', (n) => {
        n.namespaces[0] = { ...(n.namespaces[0] as object), description: 'other' };
      }, /neutral .*\(namespaces\)/],
      ['the loader', (n) => {
        n.loader = null;
      }, /neutral .*\(the loader\)/],
    ];
    expect(() => check(ctx, text)).not.toThrow();
    for (const [what, edit, message] of cases) {
      alter = withNeutral(edit);
      expect(() => check(ctx, text), what).toThrow(message);
    }
  });

  it('renders every target form of the sampled tools, namespaces and loader through the runtime and compares the bytes', () => {
    const ctx = context(true);
    const text = asTexts(packed(ctx));
    for (const form of TARGETS) {
      for (const part of ['tools', 'namespaces', 'loader'] as const) {
        // A runtime rendering that differs in one form and one part only.
        alterForm = (f, out) => (f !== form ? out : { ...out, [part]: part === 'loader' ? { ...(out.loader as object), extra: 1 } : [...out[part], {}] });
        expect(() => check(ctx, text), `${form} ${part}`).toThrow(new RegExp(`rendering ${form} from the packed spec data differs`));
      }
    }
    alterForm = undefined;
    expect(() => check(ctx, text)).not.toThrow();
  });
});
