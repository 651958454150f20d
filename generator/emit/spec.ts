/**
 * `spec.gen.ts`: everything the runtime reads, as data — tools, groups,
 * policies, the prune matcher, the tool definitions rendered for every form —
 * shipped as one `JSON.parse('…')` (fast to load, free to type-check) and
 * deeply frozen, plus the validators and the directory XML.
 */
import type { IRSpec } from '../ir.js';
import { RENDER_FORMS, type GeneratedSpec, type GeneratedTool, type RenderedTools } from '../../runtime/contract.js';
import { buildPruneMatcher } from '../../runtime/matcher.js';
import { nullDecodePlan, renderTool } from '../../runtime/render.js';
import { jsonParseLiteral, tsString } from './code.js';
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
  const { ir, neutral } = ctx;
  const renderOptions = { openaiStrict: ir.options.openaiStrict };
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
  return {
    formatVersion: 1,
    hash: ir.hash,
    tools: ir.tools.map((t, i): GeneratedTool => {
      const nullDecode = ir.options.openaiStrict ? nullDecodePlan(t.parameters) : undefined;
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
      };
    }),
    flat: ir.flat,
    namespaces: ir.namespaces.map((ns) => ({ name: ns.name, description: ns.description, encoding: ns.encoding, tools: ns.tools })),
    toolkits: ir.toolkits.map((k) => ({ name: k.name, description: k.description, tools: k.tools })),
    // Object.fromEntries keeps any policy name, `__proto__` included, as an own key.
    policies: Object.fromEntries(ir.policies.map((p) => [p.name, p.block])),
    matcher: buildPruneMatcher(flatTools(ir)),
    rendered,
  };
}

function flatTools(ir: IRSpec): { name: string; tags: readonly string[] }[] {
  return ir.flat.map((i) => {
    const tool = ir.tools[i];
    return { name: tool?.name ?? '', tags: tool?.tags ?? [] };
  });
}

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
  const ids = new Map<string, number>();
  const idOf = new Map<object, number>();
  const sizes: number[] = [];
  const counts: number[] = [];
  const intern = (key: string, size: number): number => {
    let id = ids.get(key);
    if (id === undefined) {
      id = sizes.length;
      ids.set(key, id);
      sizes.push(size);
      counts.push(0);
    }
    counts[id] = (counts[id] ?? 0) + 1;
    return id;
  };
  const measure = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) {
      const json = JSON.stringify(node) ?? 'null';
      return intern(`p${json}`, json.length);
    }
    const known = idOf.get(node);
    if (known !== undefined) {
      counts[known] = (counts[known] ?? 0) + 1;
      return known;
    }
    let size = 2;
    let key: string;
    if (Array.isArray(node)) {
      key = `a${node.map((item) => {
        const id = measure(item);
        size += (sizes[id] ?? 0) + 1;
        return id;
      }).join(',')}`;
    } else {
      key = `o${Object.entries(node).map(([k, v]) => {
        const id = measure(v);
        const name = JSON.stringify(k);
        size += name.length + (sizes[id] ?? 0) + 2;
        return `${name}:${id}`;
      }).join(',')}`;
    }
    // Separators: one fewer comma than members.
    if ((Array.isArray(node) ? node.length : Object.keys(node).length) > 0) size -= 1;
    const id = intern(key, size);
    idOf.set(node, id);
    return id;
  };
  measure(value);

  const pool: unknown[] = [];
  const poolIndex = new Map<number, number>();
  const refs: [SharePath, number][] = [];
  const encode = (node: unknown, path: (string | number)[], isEntry: boolean): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    const id = idOf.get(node) ?? -1;
    if (!isEntry && (sizes[id] ?? 0) >= minLength && (counts[id] ?? 0) > 1) {
      let index = poolIndex.get(id);
      if (index === undefined) {
        index = pool.length;
        poolIndex.set(id, index);
        pool.push(null);
        pool[index] = encode(node, ['pool', index], true);
      }
      refs.push([[...path], index]);
      return null;
    }
    if (Array.isArray(node)) return node.map((item, i) => encode(item, [...path, i], false));
    // Object.fromEntries keeps a `__proto__` key as an own property.
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, encode(v, [...path, k], false)]));
  };
  const data = encode(value, ['data'], false);
  return { data, pool, refs };
}

/**
 * Emits `spec.gen.ts`.
 *
 * @example
 * emitSpec(ctx)[0].path; // 'spec.gen.ts'
 */
export function emitSpec(ctx: EmitContext): GeneratedFile[] {
  const content = [
    ctx.header,
    `import type { GeneratedSpec } from ${tsString(ctx.options.runtimeImport)};`,
    `import type { Registry } from './types.gen.js';`,
    `import { directoryXml } from './directory.gen.js';`,
    `import { validators } from './validators.gen.js';`,
    '',
    '/** Freezes a JSON value and everything in it, once (pooled subtrees are shared). */',
    'function deepFreeze<T>(value: T): T {',
    "  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;",
    '  Object.freeze(value);',
    '  if (Array.isArray(value)) for (const item of value) deepFreeze(item);',
    '  else for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);',
    '  return value;',
    '}',
    '',
    '/** Puts each pooled subtree back where it occurs (see `shareSubtrees` in toolroute\'s generator/emit/spec.ts). */',
    'function unshare(shared: { data: unknown; pool: unknown[]; refs: [(string | number)[], number][] }): unknown {',
    '  const root: Record<string, unknown> = { data: shared.data, pool: shared.pool };',
    '  for (const [path, index] of shared.refs) {',
    '    let parent = root as Record<string | number, unknown>;',
    '    for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]!] as Record<string | number, unknown>;',
    '    // defineProperty, not assignment: a `__proto__` key stays data.',
    '    Object.defineProperty(parent, path[path.length - 1]!, { value: shared.pool[index], writable: true, enumerable: true, configurable: true });',
    '  }',
    '  return root.data;',
    '}',
    '',
    "const data = unshare(",
    `  ${jsonParseLiteral(shareSubtrees(specData(ctx)))},`,
    ") as Omit<GeneratedSpec<Registry>, 'validators' | 'directoryXml'>;",
    '',
    '/** Everything the runtime reads, deeply frozen: `createRouter(gen, handlers)` takes it from `gen.spec`. */',
    'export const spec: GeneratedSpec<Registry> = Object.freeze({ ...deepFreeze(data), directoryXml, validators });',
  ].join('\n');
  return [{ path: 'spec.gen.ts', content: `${content}\n` }];
}
