/**
 * `spec.gen.ts`: everything the runtime reads, as data — tools, groups,
 * policies, the prune matcher, the neutral tool definitions — shipped as
 * packed data (runtime/packed-spec.ts: columns, shared tag lists and
 * schemas, derived fields left out) that the runtime's `unpackSpec` turns
 * back into the deeply frozen `GeneratedSpec`: one `JSON.parse('…')` of what
 * creating a router and dispatching read, and one JSON text (a string
 * literal) per part they never read (descriptions, tags, parameter schemas,
 * the prune matcher), parsed on first read; plus the validators, the
 * directory XML and the tool names (names.gen.ts ships them). The per-target
 * forms are not shipped: they are rendered from the neutral definitions on
 * first use. For every spec it writes, `packedSpecText` checks that unpacking
 * gives exactly the bytes of the plain data and of every rendered form; a
 * difference is a bug and nothing is written.
 */
import type { IRSpec } from '../ir.js';
import { RENDER_FORMS, type GeneratedSpec, type GeneratedTool, type RenderedTools } from '../../runtime/contract.js';
import type { JsonSchema, NeutralTool } from '../../runtime/targets/index.js';
import { renderForm } from '../../runtime/rendered.js';
import { cloneSchema } from '../../runtime/targets/schema.js';
import { LAZY_PARTS, PACKED_FORMAT, specColumns, unpackSpec, type LazyParts, type LazyTexts, type PackedSpec, type SharedPackedSpec } from '../../runtime/packed-spec.js';
import { bug } from '../problems.js';
import { buildPruneMatcher } from '../../runtime/matcher.js';
import { renderTool } from '../../runtime/targets/index.js';
import { anthropicKeyPlan } from '../../runtime/targets/property-keys.js';
import { nullDecodePlan } from '../../runtime/targets/strict.js';
import { acceptedDepth } from './arg-bound.js';
import { jsonStringLiteral, jsonTextLiteral, tsString } from './code.js';
import { hasAppliedDefault } from './defaults.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/** The part of `GeneratedSpec` that is plain JSON (everything but functions and the directory constant). */
export type SpecData = Omit<GeneratedSpec, 'validators' | 'directoryXml' | '__registry'>;

/**
 * The runtime data of a spec. Pure; exported for tests and benchmarks.
 *
 * @example
 * specData(ctx).tools[0]; // { name: 'read_file', validator: 0, flat: true, … }
 */
export function specData(ctx: EmitContext): SpecData {
  const { neutral } = ctx;
  const renderOptions = { openaiStrict: ctx.ir.options.openaiStrict };
  const rendered = Object.fromEntries(
    RENDER_FORMS.map((form): [string, RenderedTools] => [
      form,
      {
        tools: neutral.tools.map((t) => renderTool(form, t, renderOptions)),
        namespaces: neutral.namespaces.map((t) => renderTool(form, t, renderOptions)),
        loader: neutral.loader === null ? null : renderTool(form, neutral.loader, renderOptions),
      },
    ]),
  ) as SpecData['rendered'];
  return plainData(ctx, rendered);
}

/**
 * `specData` with `rendered` as given (in its place in the key order): the
 * packed path never renders the target forms (the runtime does, on first use).
 */
function plainData<R>(ctx: EmitContext, rendered: R): Omit<SpecData, 'rendered'> & { rendered: R } {
  const { ir } = ctx;
  return {
    formatVersion: 1,
    hash: ir.hash,
    tools: ir.tools.map((t, i): GeneratedTool => {
      const nullDecode = ir.options.openaiStrict ? nullDecodePlan(t.parameters) : undefined;
      const keyDecode = anthropicKeyPlan(t.parameters);
      return {
        name: t.name,
        description: t.description,
        tags: t.tags,
        deferLoading: t.deferLoading,
        validator: ctx.validatorOf[i] ?? 0,
        flat: t.flat,
        namespaces: t.namespaces,
        toolkits: t.toolkits,
        ...(nullDecode === undefined ? {} : { nullDecode }),
        ...(keyDecode === undefined ? {} : { keyDecode }),
        // Only where the validator may write into the arguments, so the runtime copies them for these tools alone.
        ...(ir.options.applyDefaults && hasAppliedDefault(t.parameters) ? { fillsDefaults: true as const } : {}),
      };
    }),
    flat: ir.flat,
    namespaces: ir.namespaces.map((ns) => ({ name: ns.name, description: ns.description, encoding: ns.encoding, tools: ns.tools })),
    toolkits: ir.toolkits.map((k) => ({ name: k.name, description: k.description, tools: k.tools })),
    // Object.fromEntries keeps any policy name, `__proto__` included, as an own key.
    policies: Object.fromEntries(ir.policies.map((p) => [p.name, p.block])),
    matcher: buildPruneMatcher(flatTools(ir)),
    validatorDepths: ctx.validators.map((s) => acceptedDepth(s.schema) ?? 0),
    rendered,
    // Only when not the default, so specs that do not set it keep their bytes.
    ...(ir.options.offerUngroupedTools ? {} : { offerUngroupedTools: false as const }),
    ...(ir.options.toolkitLoading === undefined ? {} : { toolkitLoading: ir.options.toolkitLoading }),
  };
}

function flatTools(ir: IRSpec): { name: string; tags: readonly string[] }[] {
  return ir.flat.map((i) => {
    const tool = ir.tools[i];
    return { name: tool?.name ?? '', tags: tool?.tags ?? [] };
  });
}

/** The packed data (runtime/packed-spec.ts) before subtree sharing: what `spec.gen.ts` parses at import, and the parts it leaves for first read. */
export interface Packed {
  readonly data: PackedSpec;
  readonly lazy: LazyParts;
}

/** The packed texts `spec.gen.ts` ships: the JSON text parsed at import, and each lazy part's JSON text. */
export interface PackedTexts {
  readonly data: string;
  readonly lazy: LazyTexts;
}

/**
 * The packed form of `specData` (runtime/packed-spec.ts), before subtree
 * sharing. Pure.
 *
 * @example
 * packSpec(specData(ctx)).lazy.descriptions[0]; // 'Read a file from the workspace'
 */
export function packSpec(full: SpecData): Packed {
  const definitions = full.rendered.neutral.tools as readonly { readonly parameters: JsonSchema }[];
  return packColumns(full, definitions.map((d) => JSON.stringify(d.parameters)), (i) => definitions[i]!.parameters);
}

/**
 * `packSpec` from the plain fields, each tool's schema text (the key schemas
 * are shared by) and the schema to store for the first tool with that text.
 */
function packColumns(full: Omit<SpecData, 'rendered'> & { rendered: unknown }, paramTexts: readonly string[], schemaOf: (tool: number) => JsonSchema): Packed {
  const tagIndex = new Map<string, number>();
  const tagLists: (readonly string[])[] = [];
  const schemaIndex = new Map<string, number>();
  const schemas: JsonSchema[] = [];
  const intern = <T>(value: T, index: Map<string, number>, list: T[], key = JSON.stringify(value)): number => {
    let i = index.get(key);
    if (i === undefined) {
      i = list.length;
      index.set(key, i);
      list.push(value);
    }
    return i;
  };
  // Fields beyond the columns (nullDecode, keyDecode, fillsDefaults, any later one), per tool that has them.
  const extra: [number, Record<string, unknown>][] = [];
  full.tools.forEach((t, i) => {
    const rest = Object.entries(t).filter(([key]) => !COLUMN_FIELDS.has(key));
    if (rest.length > 0) extra.push([i, Object.fromEntries(rest)]);
  });
  // Every plain field in its place (fields added to the contract later ship as they are); the matcher is a lazy part.
  const spec = Object.fromEntries(Object.entries(full).map(([key, value]) => [key, key === 'tools' || key === 'rendered' || key === 'matcher' ? null : value]));
  const tags = full.tools.map((t) => intern(t.tags, tagIndex, tagLists));
  const params = paramTexts.map((key, i) => schemaIndex.get(key) ?? intern(schemaOf(i), schemaIndex, schemas, key));
  return {
    data: {
      packed: PACKED_FORMAT,
      spec: spec as PackedSpec['spec'],
      validator: full.tools.map((t) => t.validator),
      deferred: full.tools.flatMap((t, i) => (t.deferLoading ? [i] : [])),
      extra,
      matcherFormat: (full.matcher.automaton as { readonly format: string }).format,
    },
    lazy: {
      descriptions: full.tools.map((t) => t.description),
      tags: { tags, tagLists },
      params: { params, schemas },
      matcher: full.matcher,
    },
  };
}

/** The `GeneratedTool` fields `packSpec` stores as columns (or derives); they come first in every tool. */
const COLUMN_FIELDS = new Set(['name', 'description', 'tags', 'deferLoading', 'validator', 'flat', 'namespaces', 'toolkits']);

/**
 * The JSON texts of packed data, each (the data parsed at import, every lazy
 * part) with its repeated subtrees shared (`shareSubtrees`). Deterministic.
 *
 * @example
 * packedTexts(packSpec(specData(ctx))).lazy.descriptions; // '{"data":["Read a file",…],"pool":[],"refs":[]}'
 */
export function packedTexts(packed: Packed, minLength?: number): PackedTexts {
  const lazy = Object.fromEntries(LAZY_PARTS.map((k) => [k, JSON.stringify(shareSubtrees(packed.lazy[k], minLength))])) as unknown as LazyTexts;
  return { data: JSON.stringify(shareSubtrees(packed.data, minLength)), lazy };
}

/**
 * The arguments `spec.gen.ts` passes `unpackSpec` for its data: the
 * `JSON.parse('…')` expression of the packed data and a string literal of
 * each lazy part's JSON text, after `checkPackedSpec` made sure that
 * unpacking them (as the runtime will, from the JSON texts) gives exactly the
 * bytes of the plain data and of every rendered form. A difference is a bug,
 * never a spec problem: nothing is written.
 *
 * @example
 * packedSpecText(ctx).data; // "JSON.parse('{\"data\":{\"packed\":3,…')"
 * packedSpecText(ctx).lazy.descriptions; // "'{\"data\":[\"Read a file\",…],\"pool\":[],\"refs\":[]}'"
 */
export function packedSpecText(ctx: EmitContext): { readonly data: string; readonly lazy: LazyTexts } {
  // The target forms are not rendered here: the runtime renders them on first use, and
  // `checkPackedSpec` proves it will get the generator's bytes without rendering every tool.
  const full = plainData(ctx, null);
  // The stored schema is the neutral rendering's copy (`renderTool('neutral', …)` clones it), once per distinct text.
  const texts = packedTexts(packColumns(full, ctx.parameterTexts, (i) => cloneSchema(ctx.ir.tools[i]!.parameters)));
  checkPackedSpec(ctx, full, texts);
  const lazy = Object.fromEntries(LAZY_PARTS.map((k) => [k, jsonStringLiteral(texts.lazy[k])])) as unknown as LazyTexts;
  return { data: jsonTextLiteral(texts.data), lazy };
}

/**
 * Throws a bug unless the packed JSON texts `texts` (the data parsed at
 * import and every lazy part, `LazyTexts`) unpack (with the runtime's
 * `unpackSpec`) to exactly what the generator would have shipped plainly:
 * every plain field byte for byte (the lazy ones read through the spec, as an
 * application reads them), the tool columns a router reads instead of
 * `spec.tools` (`specColumns`) field for field, and every rendered form.
 *
 * Rendered forms, without rendering every tool in every form (five deep
 * copies of every schema at 30,000 tools was most of a codegen's time):
 * - tools, in every form: the runtime renders each target form from the
 *   neutral definitions it unpacked (runtime/rendered.ts `renderForm`), with
 *   the same `renderTool` the generator uses. Renderers are pure functions of
 *   their input's JSON value (test/targets/render-pure.test.ts), so equal
 *   inputs give equal bytes. Compared for every tool: the definition's JSON
 *   with its schema set aside (name, description, `deferLoading`, key order)
 *   against the generator's neutral rendering, and the schema's JSON text
 *   against the generator's (`ctx.parameterTexts`), once per distinct schema
 *   object. The neutral form is rendered in full once per distinct schema,
 *   and every target form in full for the first tool and the first deferred
 *   one (through `renderForm`, as the runtime does).
 * - namespaces and the loader (which the runtime rebuilds from the packed
 *   groups): every form rendered in full on both sides.
 *
 * @example
 * checkPackedSpec(ctx, data, packedTexts(packSpec(specData(ctx)))); // throws on any difference
 */
export function checkPackedSpec(ctx: EmitContext, full: Omit<SpecData, 'rendered'> & { rendered: unknown }, texts: PackedTexts): void {
  const renderOptions = { openaiStrict: ctx.ir.options.openaiStrict };
  const toolNames = JSON.parse(JSON.stringify(full.tools.map((t) => t.name))) as string[];
  const unpacked = unpackSpec(JSON.parse(texts.data) as SharedPackedSpec, { ...renderOptions, directoryXml: '', validators: [], toolNames }, texts.lazy);
  if (JSON.stringify(Object.keys(unpacked)) !== JSON.stringify([...Object.keys(full), 'directoryXml', 'validators'])) throw bug('the packed spec data unpacks to other fields');
  for (const key of Object.keys(full) as (keyof SpecData)[]) {
    if (key === 'rendered') continue;
    if (JSON.stringify(unpacked[key]) !== JSON.stringify(full[key])) throw bug(`the packed spec data differs from the plain data in \`${key}\``);
  }
  // What createRouter reads instead of spec.tools: the same values, tool by tool.
  const columns = specColumns(unpacked);
  const fromColumns = Array.from({ length: columns.count }, (_, i) => ({
    name: columns.names[i],
    description: columns.descriptions[i],
    tags: columns.tagLists[columns.tags[i]!],
    deferLoading: columns.deferred[i] === 1,
    validator: columns.validator[i],
    flat: columns.flat[i] === 1,
    namespaces: columns.namespacesOf[i],
    toolkits: columns.toolkitsOf[i],
    ...columns.extra?.get(i),
  }));
  if (JSON.stringify(fromColumns) !== JSON.stringify(full.tools)) throw bug('the packed spec data\'s tool columns differ from the plain data in `tools`');
  const rendered = unpacked.rendered;
  if (JSON.stringify(Object.keys(rendered)) !== JSON.stringify(RENDER_FORMS)) throw bug('the packed spec data unpacks to other render forms');
  const differs = (form: string, what: string): Error => bug(`rendering ${form} from the packed spec data differs from the generator's own rendering (${what})`);

  const { neutral } = ctx;
  const definitions = rendered.neutral.tools as readonly { readonly parameters?: unknown; readonly deferLoading?: unknown }[];
  if (definitions.length !== neutral.tools.length) throw differs('neutral', 'tool count');
  const textOf = new Map<unknown, string | undefined>();
  const renderedInFull = new Set<string>();
  for (let i = 0; i < definitions.length; i++) {
    const d = definitions[i]!;
    const n = neutral.tools[i]!;
    const want = ctx.parameterTexts[i];
    let got = textOf.get(d.parameters);
    if (got === undefined) textOf.set(d.parameters, (got = JSON.stringify(d.parameters)));
    if (got !== want) throw differs('neutral', `the schema of tool ${i}`);
    if (JSON.stringify({ ...d, parameters: SCHEMA_SET_ASIDE }) !== JSON.stringify(renderTool('neutral', { ...n, parameters: SCHEMA_SET_ASIDE }, renderOptions))) {
      throw differs('neutral', `tool ${i}`);
    }
    if (!renderedInFull.has(got)) {
      renderedInFull.add(got);
      if (JSON.stringify(d) !== JSON.stringify(renderTool('neutral', n, renderOptions))) throw differs('neutral', `tool ${i}`);
    }
  }
  // Every target form in full through the runtime's own path (`renderForm` over the unpacked neutral
  // definitions), for the namespaces, the loader, the first tool and the first deferred one.
  const sample = [0, neutral.tools.findIndex((t) => t.deferLoading)].filter((i, k, all) => i >= 0 && i < definitions.length && all.indexOf(i) === k);
  const source = { rendered: { neutral: { tools: sample.map((i) => definitions[i]), namespaces: rendered.neutral.namespaces, loader: rendered.neutral.loader } } };
  for (const form of RENDER_FORMS) {
    const eager = (t: NeutralTool) => renderTool(form, t, renderOptions);
    const got: RenderedTools = form === 'neutral' ? source.rendered.neutral : renderForm(source, form, renderOptions);
    if (JSON.stringify(got.namespaces) !== JSON.stringify(neutral.namespaces.map(eager))) throw differs(form, 'namespaces');
    if (JSON.stringify(got.loader) !== JSON.stringify(neutral.loader === null ? null : eager(neutral.loader))) throw differs(form, 'the loader');
    if (JSON.stringify(got.tools) !== JSON.stringify(sample.map((i) => eager(neutral.tools[i]!)))) throw differs(form, 'tools');
  }
}

/** Stands in for a tool's schema where `checkPackedSpec` compares everything around it (the schema's text is compared on its own). */
const SCHEMA_SET_ASIDE: JsonSchema = Object.freeze({});

/** A path from the root `{ data, pool }` to the place a pooled subtree goes. */
export type SharePath = readonly (string | number)[];

/** JSON with repeated subtrees stored once: each `refs` entry puts `pool[index]` at `path`. */
export interface SharedJson {
  readonly data: unknown;
  readonly pool: readonly unknown[];
  readonly refs: readonly (readonly [path: SharePath, index: number])[];
}

/**
 * Stores every subtree that occurs more than once (and is at least
 * `minLength` characters of JSON) once, in `pool`, leaving `null` where it
 * was and a ref that puts it back. The rendered payloads repeat each tool's
 * schema once per target; sharing makes the data several times smaller to
 * ship, parse and freeze, and the decoded copies are one frozen object.
 * Refs live beside the data, never in it, so no spec value can be mistaken
 * for one. Pool order is first-encounter order: deterministic.
 *
 * @example
 * const big = { long: 'x'.repeat(200) };
 * shareSubtrees({ a: big, b: { ...big } }, 64);
 * // → { data: { a: null, b: null }, pool: [{ long: 'xxx…' }], refs: [[['data', 'a'], 0], [['data', 'b'], 0]] }
 */
export function shareSubtrees(value: unknown, minLength = 128): SharedJson {
  // Hash-consing: each distinct subtree gets an id from its children's ids, so equal
  // subtrees are found in one pass without building their JSON text at every depth.
  // Ids come from one counter; `sizes[id]` is the subtree's JSON length, `counts[id]`
  // how often it occurs. Primitives and key names are interned by value, so a
  // container's key is short ("o" + name id:value id pairs) and cheap to build.
  const sizes: number[] = [];
  const counts: number[] = [];
  const newId = (size: number): number => {
    sizes.push(size);
    counts.push(0);
    return sizes.length - 1;
  };
  const stringIds = new Map<string, number>();
  /** Other primitives by their JSON text (`undefined` writes as `null`, like NaN). */
  const otherIds = new Map<string, number>();
  const containerIds = new Map<string, number>();
  const nameIds = new Map<string, number>();
  const nameSizes: number[] = [];
  const idOf = new Map<object, number>();
  const primitiveId = (node: unknown): number => {
    if (typeof node === 'string') {
      let id = stringIds.get(node);
      if (id === undefined) {
        id = newId(JSON.stringify(node).length);
        stringIds.set(node, id);
      }
      return id;
    }
    const json = JSON.stringify(node) ?? 'null';
    let id = otherIds.get(json);
    if (id === undefined) {
      id = newId(json.length);
      otherIds.set(json, id);
    }
    return id;
  };
  const nameId = (name: string): number => {
    let id = nameIds.get(name);
    if (id === undefined) {
      id = nameSizes.length;
      nameSizes.push(JSON.stringify(name).length);
      nameIds.set(name, id);
    }
    return id;
  };
  const measure = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return primitiveId(node);
    const known = idOf.get(node);
    if (known !== undefined) {
      counts[known] = (counts[known] ?? 0) + 1;
      return known;
    }
    let size = 2;
    let key: string;
    let members: number;
    if (Array.isArray(node)) {
      key = 'a';
      members = node.length;
      for (const item of node) {
        const id = measure(item);
        size += (sizes[id] ?? 0) + 1;
        key += `${id},`;
      }
    } else {
      key = 'o';
      members = 0;
      for (const name in node) {
        if (!Object.hasOwn(node, name)) continue;
        members++;
        const n = nameId(name);
        const id = measure((node as Record<string, unknown>)[name]);
        size += (nameSizes[n] ?? 0) + (sizes[id] ?? 0) + 2;
        key += `${n}:${id},`;
      }
    }
    // Separators: one fewer comma than members.
    if (members > 0) size -= 1;
    let id = containerIds.get(key);
    if (id === undefined) {
      id = newId(size);
      containerIds.set(key, id);
    }
    counts[id] = (counts[id] ?? 0) + 1;
    idOf.set(node, id);
    return id;
  };
  measure(value);

  const pool: unknown[] = [];
  const poolIndex = new Map<number, number>();
  const refs: [SharePath, number][] = [];
  /** The path of the node being encoded; copied only when a ref records it. */
  let path: (string | number)[] = ['data'];
  const encode = (node: unknown, isEntry: boolean): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    const id = idOf.get(node) ?? -1;
    if (!isEntry && (sizes[id] ?? 0) >= minLength && (counts[id] ?? 0) > 1) {
      let index = poolIndex.get(id);
      if (index === undefined) {
        index = pool.length;
        poolIndex.set(id, index);
        pool.push(null);
        const outer = path;
        path = ['pool', index];
        pool[index] = encode(node, true);
        path = outer;
      }
      refs.push([[...path], index]);
      return null;
    }
    if (Array.isArray(node)) {
      return node.map((item, i) => {
        path.push(i);
        const out = encode(item, false);
        path.pop();
        return out;
      });
    }
    // Object.fromEntries keeps a `__proto__` key as an own property.
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => {
        path.push(k);
        const out = encode(v, false);
        path.pop();
        return [k, out];
      }),
    );
  };
  const data = encode(value, false);
  return { data, pool, refs };
}

/**
 * Emits `spec.gen.ts`.
 *
 * @example
 * emitSpec(ctx)[0].path; // 'spec.gen.ts'
 */
export function emitSpec(ctx: EmitContext): GeneratedFile[] {
  const packed = packedSpecText(ctx);
  const content = [
    ctx.header,
    `import { unpackSpec, type GeneratedSpec } from ${tsString(ctx.options.runtimeImport)};`,
    `import type { Registry } from './types.gen.js';`,
    `import { directoryXml } from './directory.gen.js';`,
    `import { validators } from './validators.gen.js';`,
    `import { TOOL_NAMES } from './names.gen.js';`,
    '',
    '/**',
    ' * Everything the runtime reads, deeply frozen: `createRouter(gen, handlers)` takes it from `gen.spec`.',
    ' * Shipped packed (see `unpackSpec` in toolroute\'s runtime/packed-spec.ts); `rendered` holds the neutral',
    ' * tool definitions, and each target form is rendered from them on first use.',
    ' */',
    'export const spec: GeneratedSpec<Registry> = unpackSpec<GeneratedSpec<Registry>>(',
    `  ${packed.data},`,
    `  { openaiStrict: ${ctx.ir.options.openaiStrict ? 'true' : 'false'}, directoryXml, validators, toolNames: TOOL_NAMES },`,
    '  // JSON text parsed on first read (descriptions, tags, parameter schemas, the prune matcher): creating a router and dispatching never read them.',
    '  {',
    ...LAZY_PARTS.map((k) => `    ${k}: ${packed.lazy[k]},`),
    '  },',
    ');',
  ].join('\n');
  return [{ path: 'spec.gen.ts', content: `${content}\n` }];
}
