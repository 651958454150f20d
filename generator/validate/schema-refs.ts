/** Local `$ref`s in `parameters`, resolved and inlined into one self-contained draft 2020-12 schema. */
import type { JsonSchema, JsonValue } from '../ir.js';
import { bug, didYouMean, formatPath } from '../problems.js';
import type { ProblemCode } from '../problems.js';
import { isRecord, listAt, setOwn } from './context.js';
import { SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, SUBSCHEMA_KEYWORDS } from './schema-keywords.js';
import type { SchemaDialect, SchemaProblem } from './schema-keywords.js';
import { MAX_SPEC_DEPTH } from '../load/json-data.js';

export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => {
    const seg = s.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : seg;
  });
}

/**
 * Resolves a local ref's JSON pointer against the root. Returns the path
 * (segments) and target, or undefined when it points nowhere.
 */
export function resolvePointer(root: unknown, ref: string): { path: (string | number)[]; target: unknown } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (decoded !== '' && !decoded.startsWith('/')) return undefined;
  const path: (string | number)[] = [];
  let v: unknown = root;
  for (const raw of decoded === '' ? [] : decoded.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(seg) && Number(seg) < v.length) {
      v = v[Number(seg)];
      path.push(Number(seg));
    } else if (isRecord(v) && Object.hasOwn(v, seg)) {
      v = v[seg];
      path.push(seg);
    } else return undefined;
  }
  return { path, target: v };
}


/** The URI `parameters` has when it declares no `$id`: refs resolve against it as against any document. */
const BASE = 'toolroute:/parameters';
type Path = (string | number)[];
/** The identifiers of one `parameters` schema: resource URIs and anchors (`uri#name`) → their paths; each schema object's base URI. */
interface Identifiers { readonly ids: Map<string, Path>; readonly bases: Map<string, string>; readonly dynamic: boolean }
const identifiersOf = new WeakMap<object, Identifiers>();

/** Indexes `$id`, `$anchor` and `$dynamicAnchor` (with JSON Schema's base URI rules) and the base URI each ref is read against. */
function identifiers(root: Record<string, unknown>): Identifiers {
  const known = identifiersOf.get(root);
  if (known) return known;
  const ids = new Map<string, Path>([[BASE, []]]);
  const bases = new Map<string, string>();
  let dynamic = false;
  const draft07 = typeof root.$schema === 'string' && root.$schema.includes('draft-07');
  const visit = (node: unknown, path: Path, base: string): void => {
    if (Array.isArray(node)) node.forEach((s, i) => visit(s, [...path, i], base));
    if (!isRecord(node)) return;
    // draft-07 ignores a `$ref`'s siblings, `$id` included, and spells an anchor `$id: "#name"`.
    const id = typeof node.$id === 'string' && !(draft07 && '$ref' in node) ? toUri(node.$id, base) : undefined;
    if (id !== undefined && /#./.test(id)) ids.set(id, path);
    else if (id !== undefined) ids.set((base = id.replace(/#$/, '')), path);
    for (const k of ['$anchor', '$dynamicAnchor']) if (typeof node[k] === 'string') ids.set(`${base}#${node[k] as string}`, path);
    dynamic ||= '$dynamicRef' in node || '$dynamicAnchor' in node;
    bases.set(formatPath(path), base);
    for (const [k, v] of Object.entries(node)) {
      if (SUBSCHEMA_KEYWORDS.one.has(k) || SUBSCHEMA_KEYWORDS.list.has(k)) visit(v, [...path, k], base);
      else if (SUBSCHEMA_KEYWORDS.map.has(k) && isRecord(v)) for (const [name, s] of Object.entries(v)) visit(s, [...path, k, name], base);
    }
  };
  visit(root, [], BASE);
  const found = { ids, bases, dynamic };
  identifiersOf.set(root, found);
  return found;
}

function toUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

/**
 * Where the ref at `at` (the path of the schema object holding it) points in `root`: a path, `'remote'`
 * for another document, or undefined for nothing. Pointers, `#name` anchors and refs relative to an
 * enclosing `$id` resolve as JSON Schema 2020-12 says.
 *
 * @example
 * locateRef({ $defs: { a: { $anchor: 'A' } } }, '#A', []); // ['$defs', 'a']
 */
export function locateRef(root: Record<string, unknown>, ref: string, at: Path): Path | 'remote' | undefined {
  const { ids, bases } = identifiers(root);
  const uri = toUri(ref, bases.get(formatPath(at)) ?? BASE);
  if (uri === undefined) return undefined;
  const hash = uri.indexOf('#');
  const doc = ids.get(hash < 0 ? uri : uri.slice(0, hash));
  if (doc === undefined) return 'remote';
  const fragment = hash < 0 ? '' : uri.slice(hash + 1);
  if (fragment !== '' && !fragment.startsWith('/')) return ids.get(uri);
  const inner = resolvePointer(nodeAt(root, doc), `#${fragment}`);
  return inner === undefined ? undefined : [...doc, ...inner.path];
}

function nodeAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, s) => (v as Record<string | number, unknown>)[s], root);
}

/** Whether the schema needs a dynamic scope (`$dynamicRef`, `$dynamicAnchor`): then it is kept as written, for ajv to resolve. */
export function usesDynamicScope(root: Record<string, unknown>): boolean {
  return identifiers(root).dynamic;
}

/**
 * Reports a `$ref` (or `$dynamicRef`) that is remote or points nowhere in `root`.
 *
 * @example
 * checkRef('#/$defs/Nope', ['$ref'], { $defs: {} }, add); // unresolved_ref
 */
export function checkRef(ref: string, path: Path, root: Record<string, unknown>, add: (code: ProblemCode, p: Path, message: string, hint: string) => void): void {
  const target = locateRef(root, ref, path.slice(0, -1));
  if (target === 'remote') {
    add('remote_ref', path, `${JSON.stringify(ref)} refers to another document; only refs inside this schema are supported.`,
      'Copy the referenced schema under `$defs` in this schema and write `$ref: "#/$defs/Name"`. toolroute never fetches schemas: the build must not depend on the network.');
  } else if (target === undefined) {
    const defs = [...Object.keys(isRecord(root.$defs) ? root.$defs : {}).map((k) => `#/$defs/${k}`), ...Object.keys(isRecord(root.definitions) ? root.definitions : {}).map((k) => `#/definitions/${k}`)];
    const suggestion = didYouMean(ref, defs);
    add('unresolved_ref', path, `${JSON.stringify(ref)} points to nothing in this schema.`,
      `${suggestion ? `${suggestion} ` : ''}${defs.length > 0 ? `Defined here: ${defs.join(', ')}.` : 'Add the target under `$defs` at the top of `parameters`, or an `$anchor` with that name.'}`);
  }
}

/** Node budget for inlining: refs can multiply a schema's size (a ref used twice in a def used twice…). */
/**
 * `full`, with each `$dynamicRef` that JSON Schema 2020-12 reads as a plain `$ref` written as one: its initial target
 * declares no `$dynamicAnchor` of the fragment's name (a JSON pointer, a plain `$anchor`). ajv would resolve those
 * against the resource's root instead; as `$ref`s they are inlined like any other.
 */
function staticDynamicRefs(full: Record<string, unknown>): Record<string, unknown> {
  if (!usesDynamicScope(full)) return full;
  const copy = structuredClone(full);
  let changed = false;
  const visit = (node: unknown, path: Path): void => {
    if (Array.isArray(node)) node.forEach((s, i) => visit(s, [...path, i]));
    if (!isRecord(node)) return;
    const ref = node.$dynamicRef;
    const at = typeof ref === 'string' && !('$ref' in node) ? locateRef(full, ref, path) : undefined;
    const target = Array.isArray(at) ? nodeAt(full, at) : undefined;
    if (typeof ref === 'string' && isRecord(target) && (!ref.includes('#') || target.$dynamicAnchor !== ref.slice(ref.indexOf('#') + 1))) {
      node.$ref = ref;
      delete node.$dynamicRef;
      changed = true;
    }
    for (const [k, v] of Object.entries(node)) {
      if (SUBSCHEMA_KEYWORDS.one.has(k) || SUBSCHEMA_KEYWORDS.list.has(k)) visit(v, [...path, k]);
      else if (SUBSCHEMA_KEYWORDS.map.has(k) && isRecord(v)) for (const [name, sub] of Object.entries(v)) visit(sub, [...path, k, name]);
    }
  };
  visit(copy, []);
  return changed ? copy : full;
}

const INLINE_BUDGET = 100_000;
const DROPPED = new Set(['$defs', 'definitions', '$ref', '$id', '$anchor', '$vocabulary']);
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/**
 * Inlines every local `$ref`, refusing recursion; removes `$defs`,
 * `definitions` and the root `$schema`; rewrites draft-07 keywords into their
 * 2020-12 forms, so the IR has one dialect. Problems use spec paths.
 *
 * @example
 * inlineSchema({ type: 'object', $defs: { S: { type: 'string' } }, properties: { a: { $ref: '#/$defs/S' } } }, '2020-12', [], (p) => p);
 * // { type: 'object', properties: { a: { type: 'string' } } }
 */
export function inlineSchema(written: Record<string, unknown>, dialect: SchemaDialect, problems: SchemaProblem[], toSpec: (p: (string | number)[]) => (string | number)[]): JsonSchema {
  const full = staticDynamicRefs(written);
  if (usesDynamicScope(full)) {
    // A dynamic ref's target depends on the path the validator took: no inlining can say it; ajv does.
    const { $schema: _dialect, $vocabulary: _vocabulary, ...kept } = structuredClone(full) as Record<string, JsonValue>;
    return kept as JsonSchema;
  }
  let budget = INLINE_BUDGET;
  let exhausted = false;
  // Nesting plus refs followed in a row (a chain of thousands would overflow the stack): bounded like a spec's nesting.
  let depth = 0;
  let tooDeep = false;

  const expand = (node: unknown, path: (string | number)[], stack: readonly string[]): JsonValue => {
    if (--budget < 0) {
      exhausted = true;
      return {};
    }
    if (!isRecord(node)) return node as JsonValue;
    if (depth >= MAX_SPEC_DEPTH) {
      tooDeep = true;
      return {};
    }
    depth++;
    try {
      return expandObject(node, path, stack);
    } finally {
      depth--;
    }
  };
  const expandObject = (node: Record<string, unknown>, path: (string | number)[], stack: readonly string[]): JsonValue => {
    let own: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(node)) {
      // Identifiers go with the refs they served: an inlined copy must not declare its `$id` or anchor twice.
      if (DROPPED.has(key) || (key === '$schema' && path.length === 0)) continue;
      const here = [...path, key];
      if (SCHEMA_KEYWORDS.has(key)) own[key] = expand(value, here, stack);
      else if (SCHEMA_LIST_KEYWORDS.has(key)) own[key] = listAt(value).map((s, i) => expand(s, [...here, i], stack));
      else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
        const map: Record<string, JsonValue> = {};
        for (const [k, s] of Object.entries(value)) setOwn(map, k, expand(s, [...here, k], stack));
        own[key] = map;
      } else if (key === 'items' || key === 'additionalItems') {
        own[key] = Array.isArray(value) ? value.map((s, i) => expand(s, [...here, i], stack)) : expand(value, here, stack);
      } else if (key === 'dependencies' && isRecord(value)) {
        const map: Record<string, JsonValue> = {};
        for (const [k, s] of Object.entries(value)) setOwn(map, k, Array.isArray(s) ? (s as JsonValue) : expand(s, [...here, k], stack));
        own[key] = map;
      } else own[key] = structuredClone(value) as JsonValue;
    }
    if (dialect === 'draft-07') own = toDraft2020(own);

    const ref = node.$ref;
    if (typeof ref !== 'string') return own;
    const located = locateRef(full, ref, path);
    const resolved = Array.isArray(located) ? { path: located, target: nodeAt(full, located) } : undefined;
    if (!resolved) throw bug(`unresolved $ref ${ref} survived validation`);
    const key = formatPath(resolved.path);
    if (stack.includes(key) || isPrefix(resolved.path, path)) {
      problems.push({ code: 'recursive_ref', path: toSpec([...path, '$ref']), at: 'value',
        message: `${JSON.stringify(ref)} makes the schema recursive.`,
        hint: 'Recursive schemas are refused: not every target accepts them (Anthropic strict mode and Gemini do not). Limit the nesting to a fixed depth by writing each level out.' });
      return {};
    }
    const target = expand(resolved.target, resolved.path, [...stack, key]);
    // draft-07 ignores a $ref's siblings; 2020-12 applies both.
    if (dialect === 'draft-07' || Object.keys(own).length === 0) return target;
    return applyRef(target, own);
  };

  const out = expand(full, [], []);
  if (tooDeep) {
    problems.push({ code: 'invalid_schema', path: toSpec([]), at: 'value',
      message: `with its $refs inlined, this schema nests deeper than ${MAX_SPEC_DEPTH} levels.`,
      hint: 'Shorten the chain of $refs (a ref whose target is a ref, and so on) or the nesting they lead to.' });
  }
  if (exhausted) {
    problems.push({ code: 'invalid_schema', path: toSpec([]), at: 'value',
      message: `inlining this schema's $refs produces more than ${INLINE_BUDGET} schema nodes.`,
      hint: 'Simplify the schema: refs to refs multiply its size when inlined.' });
  }
  return isRecord(out) ? (out as JsonSchema) : {};
}

/**
 * Keywords whose meaning depends on the other keywords of the same schema
 * object (`additionalProperties` on `properties`, `items` on `prefixItems`,
 * `unevaluated*` on every adjacent applicator…). A `$ref` target holding one of
 * these cannot be merged into the `$ref`'s siblings, nor the reverse.
 */
const SIBLING_DEPENDENT = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'items', 'prefixItems', 'contains', 'minContains', 'maxContains', 'if', 'then', 'else']);

/**
 * A `$ref` (its inlined target) beside sibling keywords, in 2020-12, where
 * `$ref` is an in-place applicator: the result means `{ ...siblings, allOf:
 * [target] }`. That form is what it returns, unless the two merge into one
 * object with the same meaning — siblings that are only annotations, or two
 * sides with no keyword in common and none whose meaning depends on its
 * neighbours (merging `{ properties: {a} }` into `{ additionalProperties:
 * false }` would let `a` through, for one).
 *
 * @example
 * applyRef({ type: 'string' }, { description: 'A name' }); // { type: 'string', description: 'A name' }
 * applyRef({ properties: { a: {} } }, { additionalProperties: false }); // { additionalProperties: false, allOf: [{ properties: { a: {} } }] }
 */
function applyRef(target: JsonValue, own: Record<string, JsonValue>): JsonValue {
  if (isRecord(target)) {
    const ownKeys = Object.keys(own);
    const annotationsOnly = ownKeys.every((k) => ANNOTATIONS.has(k));
    const independent = !annotationsOnly
      && ownKeys.every((k) => ANNOTATIONS.has(k) || (!Object.hasOwn(target, k) && !SIBLING_DEPENDENT.has(k)))
      && Object.keys(target).every((k) => !SIBLING_DEPENDENT.has(k));
    if (annotationsOnly || independent) {
      const merged: Record<string, JsonValue> = { ...(target as Record<string, JsonValue>) };
      for (const [k, v] of Object.entries(own)) merged[k] = v;
      return merged;
    }
  }
  const siblings = own.allOf;
  return { ...own, allOf: [target, ...(Array.isArray(siblings) ? siblings : [])] };
}

function isPrefix(prefix: readonly (string | number)[], path: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => s === path[i]);
}

/** draft-07 `items: [..]` / `additionalItems` / `dependencies` in their 2020-12 forms (keys are keywords; only the `dependencies` map holds property names). */
function toDraft2020(s: Record<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'items' && Array.isArray(v)) out.prefixItems = v;
    else if (k === 'additionalItems') {
      if (Array.isArray(s.items)) out.items = v;
      // with a single-schema `items`, draft-07 ignores additionalItems
    } else if (k === 'dependencies' && isRecord(v)) {
      const req: Record<string, JsonValue> = {};
      const schemas: Record<string, JsonValue> = {};
      for (const [name, d] of Object.entries(v)) setOwn(Array.isArray(d) ? req : schemas, name, d);
      if (Object.keys(req).length > 0) out.dependentRequired = req;
      if (Object.keys(schemas).length > 0) out.dependentSchemas = schemas;
    } else out[k] = v;
  }
  return out;
}
