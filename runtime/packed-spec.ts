/**
 * The generated spec as shipped: packed JSON text, unpacked once at import.
 *
 * A generated `spec.gen.ts` holds its data as one `JSON.parse('…')` string
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
 * `unpackSpec` rebuilds the exact `GeneratedSpec` (every object deeply frozen,
 * same key order, same bytes); the generator checks, for every spec it
 * writes, that unpacking its packed text gives byte for byte the data and
 * every rendered form it would have shipped plainly (generator/emit/spec.ts),
 * so a difference can never reach an application.
 */
import type { GeneratedSpec, GeneratedTool, RenderedTools, RenderForm, ValidateFn } from './contract.js';
import { TARGETS } from './contract.js';
import { deepFreeze } from './freeze.js';
import { checkMatcher } from './matcher.js';
import { neutralLoaderTool, neutralNamespaceTool } from './neutral.js';
import { renderForm } from './rendered.js';
import { renderTool, type JsonSchema, type RenderOptions } from './targets/index.js';

/**
 * The spec's plain fields, in the `GeneratedSpec`'s key order, with `tools`
 * and `rendered` left `null` (they are rebuilt from the columns); any other
 * field is shipped as it is.
 */
export type PlainSpecFields = Omit<GeneratedSpec, 'tools' | 'rendered' | 'validators' | 'directoryXml' | '__registry'> & {
  readonly tools: null;
  readonly rendered: null;
};

/**
 * The packed data a generated `spec.gen.ts` ships (inside the shared-subtree
 * envelope). Format 2: the tool names are not in it (names.gen.ts ships them,
 * `UnpackOptions.toolNames`).
 */
export interface PackedSpec {
  readonly packed: 2;
  readonly spec: PlainSpecFields;
  /** Per tool (columns): description, index into `tagLists`, validator, index into `schemas`. */
  readonly descriptions: readonly string[];
  readonly tags: readonly number[];
  readonly validator: readonly number[];
  readonly params: readonly number[];
  readonly tagLists: readonly (readonly string[])[];
  /** Distinct parameter schemas, byte for byte as written (not canonicalized: key order is payload). */
  readonly schemas: readonly JsonSchema[];
  /** Indices of the tools with `deferLoading: true`. */
  readonly deferred: readonly number[];
  /**
   * `[tool, fields]` for the tools with fields beyond the columns above
   * (`nullDecode`, `keyDecode`, `fillsDefaults`, any later one), in the
   * tool's key order: they follow the column fields in every `GeneratedTool`.
   */
  readonly extra: readonly (readonly [number, Readonly<Record<string, unknown>>])[];
}

/** JSON with repeated subtrees stored once: each ref puts `pool[index]` at `path` (from the root `{ data, pool }`). */
export interface SharedPackedSpec {
  readonly data: PackedSpec;
  readonly pool: readonly unknown[];
  readonly refs: readonly (readonly [path: readonly (string | number)[], index: number])[];
}

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
function unshare(shared: SharedPackedSpec): PackedSpec {
  const root: Record<string, unknown> = { data: shared.data, pool: shared.pool };
  for (const [path, index] of shared.refs) {
    let parent = root as Record<string | number, unknown>;
    for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]!] as Record<string | number, unknown>;
    Object.defineProperty(parent, path[path.length - 1]!, { value: shared.pool[index], writable: true, enumerable: true, configurable: true });
  }
  return root['data'] as PackedSpec;
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
 * The `GeneratedSpec` of a generated folder from its packed data (see the
 * module comment). Called once by the generated `spec.gen.ts`; the result and
 * everything in it is frozen. Not for hand-written data: the generator checks
 * every packed text it writes against the plain data.
 *
 * @example
 * export const spec = unpackSpec(JSON.parse('{"data":{"packed":2,…},"pool":[],"refs":[]}'), { openaiStrict: false, directoryXml, validators, toolNames: TOOL_NAMES });
 */
export function unpackSpec<S extends GeneratedSpec = GeneratedSpec>(shared: SharedPackedSpec, options: UnpackOptions): S {
  const p = unshare(shared);
  if (p.packed !== 2 || p.spec === null || typeof p.spec !== 'object') throw new TypeError(`toolroute: unknown packed spec format ${String(p.packed)}; regenerate the folder with this runtime's toolroute.`);
  const names = options.toolNames;
  if (!Array.isArray(names) || names.length !== p.descriptions.length) {
    throw new TypeError(`toolroute: the folder's names.gen.ts lists ${Array.isArray(names) ? names.length : 'no'} tool names for ${p.descriptions.length} tools; regenerate the folder.`);
  }
  const plain = p.spec;
  // The matcher's format is checked now, so a folder of another version fails at import; its data (tens of
  // thousands of numbers at 10,000 tools) is frozen on first read (`spec.matcher`), which only a prune makes.
  checkMatcher(plain.matcher);
  const matcher = plain.matcher;
  (plain as { matcher: unknown }).matcher = null;
  for (const part of [p.schemas, p.tagLists, p.extra, plain]) deepFreeze(part);
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
    const out: GeneratedTool[] = [];
    for (let i = 0; i < count; i++) {
      const tool: Record<string, unknown> = {
        name: names[i]!,
        description: p.descriptions[i]!,
        tags: p.tagLists[p.tags[i]!]!,
        deferLoading: deferred[i] === 1,
        validator: p.validator[i]!,
        flat: flat[i] === 1,
        namespaces: namespacesOf[i]!,
        toolkits: toolkitsOf[i]!,
      };
      const more = extra?.get(i);
      if (more !== undefined) {
        for (const key of Object.keys(more)) Object.defineProperty(tool, key, { value: more[key], enumerable: true, writable: true, configurable: true });
      }
      out.push(Object.freeze(tool) as unknown as GeneratedTool);
    }
    return Object.freeze(out);
  };
  const columns: SpecColumns = {
    count,
    names,
    descriptions: p.descriptions,
    tagLists: p.tagLists,
    tags: p.tags,
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
      const out: unknown[] = new Array<unknown>(count);
      for (let i = 0; i < count; i++) {
        const name = names[i]!;
        const description = p.descriptions[i]!;
        const parameters = p.schemas[p.params[i]!]!;
        out[i] = Object.freeze(deferred[i] === 1 ? { name, description, parameters, deferLoading: true } : { name, description, parameters });
      }
      definitions = Object.freeze(out);
    }
    return definitions;
  };

  const renderOptions = Object.freeze({ openaiStrict: options.openaiStrict });
  const actionInput = (t: number) => ({ name: names[t]!, description: p.descriptions[t]!, parameters: p.schemas[p.params[t]!]!, deferLoading: deferred[t] === 1 });
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
  // The plain fields in their order, with the rebuilt ones in their places.
  const out: Record<string, unknown> = {};
  let matcherFrozen = false;
  for (const key of Object.keys(plain)) {
    if (key === 'tools') {
      Object.defineProperty(out, key, { enumerable: true, configurable: true, get: () => (tools ??= buildTools()) });
      continue;
    }
    if (key === 'matcher') {
      Object.defineProperty(out, key, {
        enumerable: true,
        configurable: true,
        get: () => {
          if (!matcherFrozen) {
            deepFreeze(matcher);
            matcherFrozen = true;
          }
          return matcher;
        },
      });
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
