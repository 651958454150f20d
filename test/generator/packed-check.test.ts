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
import { checkPackedSpec, packedSpecText, packSpec, shareSubtrees, specData } from '../../generator/emit/spec.js';
import { TARGETS, type GeneratedSpec, type RenderedTools } from '../../runtime/contract.js';
import { buildIR } from './ir-builder.js';

/** Set by a test: rewrites what `unpackSpec` returns to the generator (a wrong unpacker). */
let alter: ((spec: GeneratedSpec) => GeneratedSpec) | undefined;
vi.mock('../../runtime/packed-spec.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../runtime/packed-spec.js')>();
  return { ...real, unpackSpec: (...args: Parameters<typeof real.unpackSpec>) => (alter ?? ((s: GeneratedSpec) => s))(real.unpackSpec(...args)) };
});
/** Set by a test: rewrites what the runtime's `renderForm` returns (a wrong target rendering). */
let alterForm: ((form: string, out: RenderedTools) => RenderedTools) | undefined;
vi.mock('../../runtime/rendered.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../runtime/rendered.js')>();
  return { ...real, renderForm: (...args: Parameters<typeof real.renderForm>) => (alterForm ?? ((_f: string, s: RenderedTools) => s))(args[1], real.renderForm(...args)) };
});
beforeEach(() => {
  alter = undefined;
  alterForm = undefined;
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

/** The packed text of a context, unshared (`minLength` Infinity) so a test can edit the data in place. */
function packed(ctx: EmitContext, minLength = Infinity): { data: Record<string, unknown[]>; pool: unknown[]; refs: unknown[] } {
  return JSON.parse(JSON.stringify(shareSubtrees(packSpec(specData(ctx)), minLength))) as { data: Record<string, unknown[]>; pool: unknown[]; refs: unknown[] };
}

const check = (ctx: EmitContext, text: unknown) => checkPackedSpec(ctx, specData(ctx), typeof text === 'string' ? text : JSON.stringify(text));

describe('checkPackedSpec', () => {
  it('accepts the packed text the generator writes, with and without openaiStrict', () => {
    for (const strict of [false, true]) {
      const ctx = context(strict);
      expect(() => check(ctx, packed(ctx))).not.toThrow();
      expect(() => check(ctx, packed(ctx, 16))).not.toThrow();
      expect(packedSpecText(ctx)).toMatch(/^JSON\.parse\('\{"data":\{"packed":2,/);
    }
  });

  it('refuses packed data that unpacks to another schema, description, deferral or group', () => {
    const ctx = context();
    const cases: [string, (p: ReturnType<typeof packed>) => void, RegExp][] = [
      // Same keys, other order: the same value to a deep-equal, other bytes to a provider.
      ['schema key order', (p) => {
        const s = p.data['schemas']![0] as Record<string, unknown>;
        p.data['schemas']![0] = Object.fromEntries(Object.entries(s).reverse());
      }, /schema of tool 0/],
      ['a tool on another schema', (p) => {
        p.data['params']![2] = p.data['params']![1];
      }, /schema of tool 2/],
      ['a description', (p) => {
        p.data['descriptions']![4] = 'Tail it';
      }, /plain data in `tools`/],
      ['a deferral', (p) => {
        p.data['deferred'] = [];
      }, /plain data in `tools`/],
      ['a namespace member', (p) => {
        const spec = p.data['spec'] as unknown as { namespaces: { tools: number[] }[] };
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
    expect(p.pool.length).toBeGreaterThan(0);
    const withPool = structuredClone(p);
    withPool.pool[0] = { changed: true };
    expect(() => check(ctx, withPool)).toThrow(/bug in toolroute/);
    const withoutRef = structuredClone(p);
    withoutRef.refs.pop();
    expect(() => check(ctx, withoutRef)).toThrow(/bug in toolroute/);
  });

  it('refuses an unpacker whose definitions differ from the eager rendering while the plain fields agree', () => {
    const ctx = context();
    const text = JSON.stringify(packed(ctx));
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
    const text = JSON.stringify(packed(ctx));
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
