/**
 * The generated spec as shipped: packed JSON text, unpacked at import, and
 * the parts start-up does not read left as JSON text until their first read.
 *
 * A generated `spec.gen.ts` holds its data as JSON text in string literals
 * (fast to load, free to type-check). V8 keeps that text twice for the life of
 * the process (the module's source, and the string literal), so its size is
 * the module's memory: at 10,000 tools the plain `GeneratedSpec` data was
 * 5.4 MB of text, 11 MB of heap before a single object was built. The packed
 * form stores what repeats or can be derived only once:
 * - tools as columns (no key names per tool; rarer fields per tool that has them), tag lists and parameter schemas
 *   each stored once and referenced by index, `deferLoading` as the list of
 *   deferred tools, a tool's `flat` / `namespaces` / `toolkits` derived from
 *   `spec.flat`, the namespaces and the toolkits (their inverse);
 * - the neutral tool definitions rebuilt from the tool columns (same name,
 *   description and schema objects); the neutral namespace tools and the
 *   loader rendered by the same runtime functions the generator uses
 *   (runtime/neutral.ts), the namespace tools on first read;
 * - subtrees that still repeat (schema parts shared by distinct schemas)
 *   stored once, with refs that put them back (`shareSubtrees` in the
 *   generator).
 *
 * Format 3 splits that data in two. What creating a router and dispatching
 * read (the groups, the policies, the validator column, the extra fields by
 * tool, …) is one `JSON.parse('…')`, unpacked at import. What they never read
 * (`LazyParts`: the descriptions, the tag column and lists, the parameter
 * schemas and their column, the prune matcher; 80% of the text at 10,000
 * tools) ships as separate JSON texts (`LazyTexts`, string literals beside
 * it) that are parsed, unshared and deeply frozen on their first read: an
 * import then neither parses them nor allocates their tens of thousands of
 * strings and numbers, which would otherwise survive every start-up
 * scavenge. Nothing outside can tell: every value is the same, frozen when
 * first seen, and read through the same keys.
 *
 * `unpackSpec` rebuilds the exact `GeneratedSpec` (every object deeply frozen,
 * same key order, same bytes); the generator checks, for every spec it
 * writes, that unpacking its packed texts gives byte for byte the data and
 * every rendered form it would have shipped plainly (generator/emit/spec.ts),
 * so a difference can never reach an application.
 */
import type { GeneratedSpec, GeneratedTool, PruneMatcherData, RenderedTools, RenderForm, ValidateFn } from './contract.js';
import { TARGETS } from './contract.js';
import { deepFreeze } from './freeze.js';
import { checkMatcher, checkMatcherFormat } from './matcher.js';
import { neutralLoaderTool, neutralNamespaceTool } from './neutral.js';
import { renderForm } from './rendered.js';
import { renderTool, type JsonSchema, type RenderOptions } from './targets/index.js';

/** The packed format this runtime reads (`PackedSpec.packed`). */
export const PACKED_FORMAT = 3;

/**
 * The spec's plain fields, in the `GeneratedSpec`'s key order, with `tools`,
 * `rendered` and `matcher` left `null` (the first two are rebuilt from the
 * columns, the matcher is `LazyParts.matcher`); any other field is shipped as
 * it is.
 */
export type PlainSpecFields = Omit<GeneratedSpec, 'tools' | 'rendered' | 'matcher' | 'validators' | 'directoryXml' | '__registry'> & {
  readonly tools: null;
  readonly rendered: null;
  readonly matcher: null;
};

/**
 * The packed data a generated `spec.gen.ts` parses at import (inside the
 * shared-subtree envelope). Format 3: the tool names are not in it
 * (names.gen.ts ships them, `UnpackOptions.toolNames`), and neither is what
 * start-up does not read (`LazyParts`).
 */
export interface PackedSpec {
  readonly packed: 3;
  readonly spec: PlainSpecFields;
  /** Per tool (column): the validator's index. */
  readonly validator: readonly number[];
  /** Indices of the tools with `deferLoading: true`. */
  readonly deferred: readonly number[];
  /**
   * `[tool, fields]` for the tools with fields beyond the columns
   * (`nullDecode`, `keyDecode`, `fillsDefaults`, any later one), in the
   * tool's key order: they follow the column fields in every `GeneratedTool`.
   */
  readonly extra: readonly (readonly [number, Readonly<Record<string, unknown>>])[];
  /**
   * The prune matcher's format (`matcher.automaton.format`), checked at
   * import so that a folder of another version fails there, not at the
   * first prune (the matcher itself is parsed on that prune).
   */
  readonly matcherFormat: string;
}

/**
 * What a packed spec leaves for first read, each part shipped as its own
 * JSON text (`LazyTexts`).
 */
export interface LazyParts {
  /** Per tool (column): the description. */
  readonly descriptions: readonly string[];
  /** Per tool (column) the index into `tagLists`; the distinct tag lists. */
  readonly tags: { readonly tags: readonly number[]; readonly tagLists: readonly (readonly string[])[] };
  /** Per tool (column) the index into `schemas`; the distinct parameter schemas, byte for byte as written (not canonicalized: key order is payload). */
  readonly params: { readonly params: readonly number[]; readonly schemas: readonly JsonSchema[] };
  /** `spec.matcher`. */
  readonly matcher: PruneMatcherData;
}

/** The part names of `LazyParts`, in the order the generator writes them. */
export const LAZY_PARTS = ['descriptions', 'tags', 'params', 'matcher'] as const satisfies readonly (keyof LazyParts)[];

/**
 * Each `LazyParts` part as the JSON text of its shared-subtree envelope
 * (`SharedJson` of the part: `{ data, pool, refs }`), parsed on first read.
 */
export type LazyTexts = { readonly [K in keyof LazyParts]: string };

/** JSON with repeated subtrees stored once: each ref puts `pool[index]` at `path` (from the root `{ data, pool }`). */
export interface SharedJson<T> {
  readonly data: T;
  readonly pool: readonly unknown[];
  readonly refs: readonly (readonly [path: readonly (string | number)[], index: number])[];
}

/** The packed data as `spec.gen.ts` parses it: `PackedSpec` in its shared-subtree envelope. */
export type SharedPackedSpec = SharedJson<PackedSpec>;

/** What `unpackSpec` adds to the data: the spec's options and the folder's other modules. */
export interface UnpackOptions {
  readonly openaiStrict: boolean;
  readonly directoryXml: string;
  readonly validators: readonly ValidateFn[];
  /** Every tool's name, in tool order: names.gen.ts's `TOOL_NAMES`. */
  readonly toolNames: readonly string[];
}

/**
 * A packed spec's tools as columns, the fields `createRouter` reads per tool,
 * so that creating a router does not build `spec.tools` (one frozen object
 * per tool). Internal to the runtime: same values as `spec.tools[i]`'s
 * (`name`, `description`, `tags`, `deferLoading`, `validator`, `flat`,
 * `namespaces`, `toolkits`, and the extra fields by tool), the very same
 * frozen arrays for `tags`, `namespaces` and `toolkits`.
 */
export interface SpecColumns {
  readonly count: number;
  readonly names: readonly string[];
  /** A packed spec's `descriptions`, `tagLists` and `tags` are getters: their part is parsed on first read (`LazyParts`). */
  readonly descriptions: readonly string[];
  /** Tool `i`'s tags: `tagLists[tags[i]]`. */
  readonly tagLists: readonly (readonly string[])[];
  readonly tags: readonly number[];
  readonly validator: readonly number[];
  /** 1 where the tool is flat / has `deferLoading`. */
  readonly flat: Uint8Array;
  readonly deferred: Uint8Array;
  readonly namespacesOf: readonly (readonly number[])[];
  readonly toolkitsOf: readonly (readonly number[])[];
  /** The fields beyond the columns (`nullDecode`, `keyDecode`, `fillsDefaults`, …) of the tools that have them. */
  readonly extra: ReadonlyMap<number, Readonly<Record<string, unknown>>> | undefined;
}

const packedColumns = new WeakMap<object, SpecColumns>();

/**
 * The columns of a generated spec: a packed one's own (`unpackSpec` keeps
 * them), any other spec object's (hand-written data, a copy) read from its
 * `tools`, field for field, the same arrays.
 *
 * @example
 * specColumns(generated.spec).names[0]; // 'read_file', without building spec.tools
 */
export function specColumns(spec: GeneratedSpec): SpecColumns {
  return packedColumns.get(spec) ?? columnsOf(spec.tools);
}

function columnsOf(tools: readonly GeneratedTool[]): SpecColumns {
  const count = tools.length;
  const flat = new Uint8Array(count);
  const deferred = new Uint8Array(count);
  const extra = new Map<number, Readonly<Record<string, unknown>>>();
  for (let i = 0; i < count; i++) {
    const t = tools[i]!;
    if (t.flat) flat[i] = 1;
    if (t.deferLoading) deferred[i] = 1;
    if (t.nullDecode !== undefined || t.keyDecode !== undefined || t.fillsDefaults !== undefined) extra.set(i, t as unknown as Readonly<Record<string, unknown>>);
  }
  return {
    count,
    names: tools.map((t) => t.name),
    descriptions: tools.map((t) => t.description),
    tagLists: tools.map((t) => t.tags),
    tags: tools.map((_, i) => i),
    validator: tools.map((t) => t.validator),
    flat,
    deferred,
    namespacesOf: tools.map((t) => t.namespaces),
    toolkitsOf: tools.map((t) => t.toolkits),
    extra,
  };
}

/** Puts each pooled subtree back where it occurs; `defineProperty`, so a `__proto__` key stays data. */
function unshare<T>(shared: SharedJson<T>): T {
  const root: Record<string, unknown> = { data: shared.data, pool: shared.pool };
  for (const [path, index] of shared.refs) {
    let parent = root as Record<string | number, unknown>;
    for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]!] as Record<string | number, unknown>;
    Object.defineProperty(parent, path[path.length - 1]!, { value: shared.pool[index], writable: true, enumerable: true, configurable: true });
  }
  return root['data'] as T;
}

/**
 * Reads a lazy part on first call: parsed from its text, unshared, deeply
 * frozen, then kept. The text itself lives on as the module's string literal
 * (V8 keeps it either way), so parsing it later costs no extra memory before
 * the first read.
 */
function lazyPart<K extends keyof LazyParts>(texts: LazyTexts, key: K): () => LazyParts[K] {
  let text: string | undefined = texts[key];
  let value: LazyParts[K] | undefined;
  return () => {
    if (text !== undefined) {
      value = deepFreeze(unshare(JSON.parse(text) as SharedJson<LazyParts[K]>));
      text = undefined;
    }
    return value!;
  };
}

/** Throws, naming the fix, unless `shared` and `lazy` are packed data of the format this runtime reads. */
function checkFormat(shared: SharedPackedSpec, lazy: LazyTexts | undefined): asserts lazy is LazyTexts {
  const format = (shared?.data as { packed?: unknown } | undefined)?.packed;
  if (format === 2) {
    throw new TypeError(
      `toolroute: this generated folder's spec.gen.ts is packed in format 2 (written by an older toolroute); this runtime reads format ${PACKED_FORMAT}. Regenerate the folder with this runtime's toolroute (npx toolroute codegen).`,
    );
  }
  if (format !== PACKED_FORMAT || shared.data.spec === null || typeof shared.data.spec !== 'object') {
    throw new TypeError(`toolroute: unknown packed spec format ${String(format)}; regenerate the folder with this runtime's toolroute.`);
  }
  const missing = LAZY_PARTS.filter((k) => typeof (lazy as Partial<LazyTexts> | null | undefined)?.[k] !== 'string');
  if (missing.length > 0) {
    throw new TypeError(`toolroute: packed spec format ${PACKED_FORMAT} without its lazy parts (${missing.join(', ')}); regenerate the folder with this runtime's toolroute.`);
  }
}

const EMPTY: readonly number[] = Object.freeze([]);

/**
 * Per tool, the group indices listing it (ascending), as frozen arrays.
 * Tools in no group share one empty array and tools in exactly one group
 * share that group's one-element array, so a 10,000-tool spec (where most
 * tools are in at most one namespace and one toolkit) allocates one array per
 * group, not one per tool; only tools in several groups get their own.
 */
function inverse(count: number, groups: readonly { readonly tools: readonly number[] }[]): (readonly number[])[] {
  const out: (readonly number[])[] = new Array<readonly number[]>(count).fill(EMPTY);
  let own: Map<number, number[]> | undefined;
  for (let k = 0; k < groups.length; k++) {
    const members = groups[k]!.tools;
    let single: readonly number[] | undefined;
    for (let j = 0; j < members.length; j++) {
      const t = members[j]!;
      const current = out[t]!;
      if (current === EMPTY) {
        out[t] = single ??= Object.freeze([k]);
        continue;
      }
      // Listed twice in one group: once in the result (as before).
      if (current[current.length - 1] === k) continue;
      own ??= new Map();
      let list = own.get(t);
      if (list === undefined) own.set(t, (list = [...current]));
      list.push(k);
      out[t] = list;
    }
  }
  if (own !== undefined) for (const [t, list] of own) out[t] = Object.freeze(list);
  return out;
}

/** `1` at each listed index below `count` (the listed indices come from the generator: always in range). */
function marks(count: number, indices: readonly number[]): Uint8Array {
  const out = new Uint8Array(count);
  for (let i = 0; i < indices.length; i++) out[indices[i]!] = 1;
  return out;
}

/**
 * The `GeneratedSpec` of a generated folder from its packed data and lazy
 * texts (see the module comment). Called once by the generated
 * `spec.gen.ts`; the result and everything in it is frozen (a lazy part when
 * it is first read). Not for hand-written data: the generator checks every
 * packed text it writes against the plain data. Throws, naming the fix, on a
 * folder packed in another format (format 2: written by an older toolroute).
 *
 * @example
 * export const spec = unpackSpec(JSON.parse('{"data":{"packed":3,…},"pool":[],"refs":[]}'), { openaiStrict: false, directoryXml, validators, toolNames: TOOL_NAMES },
 *   { descriptions: '{"data":["Read a file",…],"pool":[],"refs":[]}', tags: '…', params: '…', matcher: '…' });
 */
export function unpackSpec<S extends GeneratedSpec = GeneratedSpec>(shared: SharedPackedSpec, options: UnpackOptions, lazy?: LazyTexts): S {
  checkFormat(shared, lazy);
  const p = unshare(shared);
  const names = options.toolNames;
  if (!Array.isArray(names) || names.length !== p.validator.length) {
    throw new TypeError(`toolroute: the folder's names.gen.ts lists ${Array.isArray(names) ? names.length : 'no'} tool names for ${p.validator.length} tools; regenerate the folder.`);
  }
  const plain = p.spec;
  // The matcher's format is checked now, so a folder of another version fails at import; its data (tens of
  // thousands of numbers at 10,000 tools) is parsed and frozen on first read (`spec.matcher`), which only a prune makes.
  checkMatcherFormat(p.matcherFormat);
  for (const part of [p.extra, plain]) deepFreeze(part);
  const descriptionsOf = lazyPart(lazy, 'descriptions');
  const tagsOf = lazyPart(lazy, 'tags');
  const paramsOf = lazyPart(lazy, 'params');
  const matcherOf = lazyPart(lazy, 'matcher');
  const count = names.length;
  // Per-tool marks as bytes: one allocation each, read by index (a Set of 10,000 numbers costs more to build than the loop it serves).
  const flat = marks(count, plain.flat);
  const deferred = marks(count, p.deferred);
  const namespacesOf = inverse(count, plain.namespaces);
  const toolkitsOf = inverse(count, plain.toolkits);
  const extra = p.extra.length === 0 ? undefined : new Map(p.extra);
  // `spec.tools` (one frozen object per tool, 10,000 of them in a large spec) is built on first read:
  // `createRouter` reads the same fields from these columns (`specColumns`), so a process that only
  // creates a router and dispatches never builds them.
  let tools: readonly GeneratedTool[] | undefined;
  const buildTools = (): readonly GeneratedTool[] => {
    const descriptions = descriptionsOf();
    const { tags, tagLists } = tagsOf();
    const validator = p.validator;
    const out = new Array<GeneratedTool>(count);
    for (let i = 0; i < count; i++) {
      const more = extra?.get(i);
      const base = {
        name: names[i]!,
        description: descriptions[i]!,
        tags: tagLists[tags[i]!]!,
        deferLoading: deferred[i] === 1,
        validator: validator[i]!,
        flat: flat[i] === 1,
        namespaces: namespacesOf[i]!,
        toolkits: toolkitsOf[i]!,
      };
      // Spread defines each extra field as an own data property, in order (a `__proto__` key stays data).
      out[i] = Object.freeze(more === undefined ? base : { ...base, ...more }) as unknown as GeneratedTool;
    }
    return Object.freeze(out);
  };
  const columns: SpecColumns = {
    count,
    names,
    get descriptions() {
      return descriptionsOf();
    },
    get tagLists() {
      return tagsOf().tagLists;
    },
    get tags() {
      return tagsOf().tags;
    },
    validator: p.validator,
    flat,
    deferred,
    namespacesOf,
    toolkitsOf,
    extra,
  };
  // The neutral render form (targets/index.ts `renderNeutral`): same fields, same order. Built on first read,
  // like everything in `rendered`: a router reads it to prune, compile or list a toolkit, never to dispatch.
  let definitions: readonly unknown[] | undefined;
  const neutralTools = (): readonly unknown[] => {
    if (definitions === undefined) {
      const descriptions = descriptionsOf();
      const { params, schemas } = paramsOf();
      const out: unknown[] = new Array<unknown>(count);
      for (let i = 0; i < count; i++) {
        const name = names[i]!;
        const description = descriptions[i]!;
        const parameters = schemas[params[i]!]!;
        out[i] = Object.freeze(deferred[i] === 1 ? { name, description, parameters, deferLoading: true } : { name, description, parameters });
      }
      definitions = Object.freeze(out);
    }
    return definitions;
  };

  const renderOptions = Object.freeze({ openaiStrict: options.openaiStrict });
  const actionInput = (t: number) => {
    const { params, schemas } = paramsOf();
    return { name: names[t]!, description: descriptionsOf()[t]!, parameters: schemas[params[t]!]!, deferLoading: deferred[t] === 1 };
  };
  let namespaceTools: readonly unknown[] | undefined;
  let loader: unknown;
  let loaderRendered = false;
  const neutral = {} as RenderedTools;
  Object.defineProperties(neutral, {
    tools: { enumerable: true, get: neutralTools },
    // Rendered on first read (compile, a target form): createRouter and dispatch never need them.
    namespaces: {
      enumerable: true,
      get: () =>
        (namespaceTools ??= deepFreeze(plain.namespaces.map((ns) => renderTool('neutral', neutralNamespaceTool(ns, ns.tools.map(actionInput), ns.encoding), renderOptions)))),
    },
    loader: {
      enumerable: true,
      get: () => {
        if (!loaderRendered) {
          loader = plain.toolkits.length === 0 ? null : deepFreeze(renderTool('neutral', neutralLoaderTool(plain.toolkits.map((k) => k.name)), renderOptions));
          loaderRendered = true;
        }
        return loader;
      },
    },
  });
  Object.freeze(neutral);
  const rendered = lazyForms(neutral, renderOptions);
  // The matcher as first read: its format is checked again on the data itself (the generator wrote both).
  let matcher: PruneMatcherData | undefined;
  const readMatcher = (): PruneMatcherData => {
    if (matcher === undefined) {
      const data = matcherOf();
      checkMatcher(data);
      matcher = data;
    }
    return matcher;
  };
  // The plain fields in their order, with the rebuilt ones in their places.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(plain)) {
    if (key === 'tools') {
      Object.defineProperty(out, key, { enumerable: true, configurable: true, get: () => (tools ??= buildTools()) });
      continue;
    }
    if (key === 'matcher') {
      Object.defineProperty(out, key, { enumerable: true, configurable: true, get: readMatcher });
      continue;
    }
    const value = key === 'rendered' ? rendered : (plain as Record<string, unknown>)[key];
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  out['directoryXml'] = options.directoryXml;
  out['validators'] = options.validators;
  Object.freeze(out);
  packedColumns.set(out, columns);
  return out as unknown as S;
}

/** `spec.rendered`: `neutral` as given, each target form rendered from it on first read, frozen, then kept. */
function lazyForms(neutral: RenderedTools, options: RenderOptions): { readonly [F in RenderForm]: RenderedTools } {
  const out: Record<string, unknown> = { neutral };
  const source = { rendered: { neutral } };
  for (const form of TARGETS) {
    let cached: RenderedTools | undefined;
    Object.defineProperty(out, form, { enumerable: true, get: () => (cached ??= deepFreeze(renderForm(source, form, options))) });
  }
  return Object.freeze(out) as { readonly [F in RenderForm]: RenderedTools };
}
