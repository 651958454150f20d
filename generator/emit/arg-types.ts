/**
 * JSON Schema → TypeScript type, for the argument types in `types.gen.ts`. The type accepts every
 * value the validator accepts: what TypeScript cannot say (ranges, patterns, `not`, `oneOf`'s
 * "exactly one", …) widens the type, never narrows it. Spec text never becomes code unescaped.
 */
import { isJsonObject, type JsonValue } from '../ir.js';
import { declaredTypes, hasType, type JsonType } from '../validate/schema-keywords.js';
import { jsdoc, propertyKey, tsString } from './code.js';
import { defaultApplies, fillsDefaultsIn } from './defaults.js';

/** A TypeScript type, small enough to simplify and print with the right parentheses. */
type T =
  | { readonly k: 'unknown' | 'never' | 'string' | 'number' | 'boolean' | 'null' | 'undefined' }
  /** `{}`: a closed object with no members of its own, inside an intersection (its partners declare the members). */
  | { readonly k: 'empty' }
  | { readonly k: 'literal'; readonly text: string }
  | { readonly k: 'union' | 'intersection'; readonly members: readonly T[] }
  | { readonly k: 'array'; readonly element: T }
  | { readonly k: 'tuple'; readonly elements: readonly { readonly type: T; readonly optional: boolean }[]; readonly rest?: T }
  | { readonly k: 'object'; readonly members: readonly Member[]; readonly index?: T };

interface Member {
  readonly key: string;
  readonly optional: boolean;
  readonly type: T;
  readonly description?: string;
}

const UNKNOWN: T = { k: 'unknown' };
const NEVER: T = { k: 'never' };
const PRIMITIVES = ['string', 'number', 'boolean', 'null'] as const;
/** One shared node per primitive type (types are never mutated; printing does not care about identity). */
const PRIMITIVE_TYPES: ReadonlyMap<string, T> = new Map(PRIMITIVES.map((k): [string, T] => [k, Object.freeze({ k })]));

const ALL_TYPES: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];

/** The members TypeScript's `Object` interface declares (lib.es5.d.ts): every object has them, for its type checks. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set(['constructor', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']);

/** Keywords that only constrain objects / arrays: with no `type`, they decide whether those branches need a shape. */
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'unevaluatedProperties'];
const ARRAY_KEYWORDS = ['prefixItems', 'items', 'unevaluatedItems'];
/** In-place applicators whose members add properties the intersection declares (so `unevaluatedProperties: false` may still close). */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else'];
/** References kept in a schema (dynamic scope): what they evaluate is typed `unknown`, so `unevaluated*` cannot close. */
const KEPT_REFS = ['$ref', '$dynamicRef'];

/**
 * The TypeScript type of the values a schema accepts, printed at `indent`
 * (the indentation of the line it starts on).
 *
 * @example
 * schemaToType({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
 * // '{\n  a: string;\n  [k: string]: unknown;\n}'
 * schemaToType({ prefixItems: [{ type: 'string' }], items: false, type: 'array' }); // '[string?]'
 * schemaToType({ type: 'object', properties: { n: { type: 'number', default: 1 } } }, '', { applyDefaults: true });
 * // '{\n  n: number;\n  [k: string]: unknown;\n}' (the validator fills `n`)
 */
export function schemaToType(schema: JsonValue, indent = '', options: { readonly applyDefaults?: boolean } = {}): string {
  return print(typeOf(schema, options.applyDefaults === true), indent);
}

/**
 * Whether the schema's type prints as an object literal type (`{ … }`), so
 * it can be declared as an `interface`.
 *
 * @example
 * isObjectLiteralType({ type: 'object', properties: {} }); // true
 */
export function isObjectLiteralType(schema: JsonValue): boolean {
  return typeOf(schema, false).k === 'object';
}

/**
 * `d`: defaults are filled here (`applyDefaults`, and only subschemas ajv fills defaults in above: emit/defaults.ts).
 * `within`: the types an enclosing schema allows, for the members of its in-place applicators.
 */
function typeOf(schema: JsonValue | undefined, d: boolean, within?: readonly JsonType[]): T {
  if (schema === undefined || schema === true) return UNKNOWN;
  if (schema === false) return NEVER;
  if (!isJsonObject(schema)) return UNKNOWN;
  // Once per schema object and arguments: `evaluatesUntyped` types the members of every level again, which without this
  // doubles the work per level of nesting (a chain of derived types never finished).
  const key = `${d}|${within?.join(',') ?? ''}`;
  let known = typesOf.get(schema);
  if (known === undefined) typesOf.set(schema, (known = new Map()));
  let t = known.get(key);
  if (t === undefined) known.set(key, (t = typeOfNode(schema, d, within)));
  return t;
}
const typesOf = new WeakMap<Record<string, JsonValue>, Map<string, T>>();

function typeOfNode(schema: Record<string, JsonValue>, d: boolean, within?: readonly JsonType[]): T {
  const mine = own(schema, d, within);
  // Most schema nodes have no in-place applicator: their type is their own, which is never an
  // intersection, so `intersection([mine])` would return it as it is — without the arrays and closures.
  if (!('allOf' in schema) && !('anyOf' in schema) && !('oneOf' in schema) && !('if' in schema)) return mine;
  const parts: T[] = [mine];
  const list = (key: string): JsonValue[] => (Array.isArray(schema[key]) ? (schema[key] as JsonValue[]) : []);
  // ajv fills defaults in allOf members, then and else, never in anyOf / oneOf branches or `if`.
  const under = (keyword: string) => d && fillsDefaultsIn(keyword, schema);
  // A member without a `type` of its own is typed as the types this schema allows, not as any JSON value: the
  // intersection would narrow it anyway, and unnarrowed, a few `anyOf: [{ required: [a] }, …]` multiply into a union
  // TypeScript refuses (TS2590).
  const here = declaredTypes(schema) ?? within;
  const typed = (keyword: string) => (s: JsonValue) => typeOf(s, under(keyword), here);
  for (const s of list('allOf')) parts.push(typed('allOf')(s));
  if (Array.isArray(schema.anyOf)) parts.push(union(list('anyOf').map(typed('anyOf'))));
  if (Array.isArray(schema.oneOf)) parts.push(union(list('oneOf').map(typed('oneOf'))));
  if ('if' in schema && ('then' in schema || 'else' in schema)) {
    parts.push(union([intersection([typed('if')(schema.if ?? true), typed('then')(schema.then ?? true)]), typed('else')(schema.else ?? true)]));
  }
  return intersection(parts);
}


/** The type from the schema's own keywords (`const`, `enum`, `type` and the object/array ones); `within` as in `typeOf`. */
function own(s: Record<string, JsonValue>, d: boolean, within?: readonly JsonType[]): T {
  const written = declaredTypes(s);
  const declared = written ?? within;
  const allowed = declared ?? ALL_TYPES;
  if ('const' in s) return allowed.some((t) => hasType(s.const as JsonValue, t)) ? literal(s.const as JsonValue) : NEVER;
  if (Array.isArray(s.enum)) return union(s.enum.filter((v) => allowed.some((t) => hasType(v, t))).map(literal));
  const has = (keys: readonly string[]) => keys.some((k) => k in s);
  if (written === undefined && !has(OBJECT_KEYWORDS) && !has(ARRAY_KEYWORDS)) return UNKNOWN;
  // One declared type (the common case): its branch alone, which `union` of one non-union member returns as it is.
  if (declared !== undefined && declared.length === 1) {
    const only = declared[0];
    if (only === 'object') return objectType(s, d);
    if (only === 'array') return arrayType(s, d);
    const primitive = only === 'integer' ? 'number' : only;
    const known = primitive === undefined ? undefined : PRIMITIVE_TYPES.get(primitive);
    if (known !== undefined) return known;
  }
  const branches: T[] = [];
  for (const p of PRIMITIVES) if (allowed.includes(p) || (p === 'number' && allowed.includes('integer'))) branches.push(PRIMITIVE_TYPES.get(p)!);
  if (allowed.includes('array')) branches.push(arrayType(s, d));
  if (allowed.includes('object')) branches.push(objectType(s, d));
  return union(branches);
}


function objectType(s: Record<string, JsonValue>, d: boolean): T {
  const typeOfIn = (keyword: string) => (v: JsonValue | undefined) => typeOf(v, d && fillsDefaultsIn(keyword, s));
  const props = isJsonObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
  const patterns = isJsonObject(s.patternProperties) ? Object.values(s.patternProperties) : [];
  const ap = s.additionalProperties;
  const up = s.unevaluatedProperties;

  // What a key not listed under `properties` may hold, or undefined when no such key is allowed.
  let extra: T[] | undefined;
  const open = (v: JsonValue | undefined) => v === undefined || v === true || (isJsonObject(v) && Object.keys(v).length === 0);
  if (ap !== undefined && !open(ap)) extra = ap === false ? [] : [typeOfIn('additionalProperties')(ap)];
  else if (ap === undefined && up !== undefined && !open(up) && !('dependentSchemas' in s) && !KEPT_REFS.some((k) => k in s) && !openBeside(s, up, patterns.length > 0)) {
    // `unevaluatedProperties` sees what the in-place applicators evaluate; their members are
    // intersected with this type, so the keys they declare stay allowed. An applicator's index
    // signature (or a dependent schema or a kept reference, which are not typed) would not be: stay open then.
    extra = up === false ? [] : [typeOfIn('unevaluatedProperties')(up)];
  }
  if (extra !== undefined) extra = [...extra, ...patterns.map(typeOfIn('patternProperties'))];

  const members: Member[] = [];
  for (const [key, sub] of Object.entries(props)) {
    const description = isJsonObject(sub) && typeof sub.description === 'string' ? sub.description : undefined;
    // A property the validator fills from its `default` is always present for the handler.
    const optional = !required.has(key) && !(d && defaultApplies(key, sub));
    // Left out, `toString` (and the other members TypeScript's `Object` declares) is still there, inherited: an object
    // without its own must fit the member's type too, or no object that omits it could be typed.
    const inherited: T[] = optional && OBJECT_MEMBERS.has(key) ? [{ k: 'literal', text: `Object[${tsString(key)}]` }] : [];
    members.push({ key, optional, type: union([typeOfIn('properties')(sub), ...inherited]), ...(description === undefined ? {} : { description }) });
  }
  for (const key of required) {
    if (Object.hasOwn(props, key)) continue;
    // A required key without a property schema holds what extra keys may hold.
    members.push({ key, optional: false, type: extra === undefined ? UNKNOWN : union(extra) });
  }
  if (extra !== undefined && extra.length === 0) {
    // Closed with no members of its own beside in-place applicators: their members are the allowed
    // keys, and `{ [k: string]: never }` would make each of them `never`. `{}` leaves them to the partners.
    if (members.length === 0 && IN_PLACE.some((k) => k in s)) return { k: 'empty' };
    return { k: 'object', members };
  }
  // The index signature covers the declared members too; an optional one is `T | undefined` to tsc unless
  // exactOptionalPropertyTypes is on (TS2411 otherwise). JSON never holds undefined, so nothing is widened in practice.
  const optional: T[] = members.some((m) => m.optional) ? [{ k: 'undefined' }] : [];
  const index = extra === undefined ? UNKNOWN : union([...extra, ...members.map((m) => m.type), ...optional]);
  return { k: 'object', members, index };
}

/**
 * Whether `unevaluatedProperties` must leave an object with in-place applicators open: the keys its partners evaluate
 * must then fit an index type (a schema, or `patternProperties` beside it), which they need not; or a partner evaluates
 * keys its type does not declare (see {@link evaluatesUntyped}).
 */
function openBeside(s: Record<string, JsonValue>, up: JsonValue, patterns: boolean): boolean {
  return IN_PLACE.some((k) => k in s) && (up !== false || patterns || evaluatesUntyped(s));
}

/**
 * Whether a member of the in-place applicators (theirs too, at any depth) evaluates keys its type does not declare: it is
 * typed `unknown` (a `true` branch, `{ minProperties: 1 }`, a kept ref) or holds a dependent schema.
 * @example evaluatesUntyped({ anyOf: [{ properties: { b: {} } }, true] }); // → true
 */
function evaluatesUntyped(s: Record<string, JsonValue>): boolean {
  const members = IN_PLACE.flatMap((k): JsonValue[] => (Array.isArray(s[k]) ? s[k] : k in s ? [s[k]!] : []));
  return members.some((m) => (isJsonObject(m) ? 'dependentSchemas' in m || typeOf(m, false).k === 'unknown' || evaluatesUntyped(m) : m === true));
}

function arrayType(s: Record<string, JsonValue>, d: boolean): T {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
  // `unevaluatedItems` stands in for `items` only where nothing else evaluates items.
  const restKeyword = 'items' in s ? 'items' : 'unevaluatedItems';
  const restSchema = 'items' in s ? s.items : ['contains', ...IN_PLACE, ...KEPT_REFS].some((k) => k in s) ? undefined : s.unevaluatedItems;
  const rest = restSchema === false ? undefined : typeOf(restSchema, d && fillsDefaultsIn(restKeyword, s));
  if (prefix.length === 0) return rest === undefined ? { k: 'tuple', elements: [] } : { k: 'array', element: rest };
  const elements = prefix.map((p, i) => ({ type: typeOf(p, d && fillsDefaultsIn('prefixItems', s)), optional: i >= minItems }));
  return rest === undefined ? { k: 'tuple', elements } : { k: 'tuple', elements, rest };
}

/** The literal type of a JSON value: `"a"`, `1`, `[1, "x"]`, `{ "a": true }`. */
function literal(v: JsonValue): T {
  if (v === null) return { k: 'null' };
  if (Array.isArray(v)) return { k: 'tuple', elements: v.map((item) => ({ type: literal(item), optional: false })) };
  if (isJsonObject(v)) return { k: 'object', members: Object.entries(v).map(([key, item]) => ({ key, optional: false, type: literal(item) })) };
  if (typeof v === 'string') return { k: 'literal', text: tsString(v) };
  if (typeof v === 'number') return { k: 'literal', text: Object.is(v, -0) ? '0' : String(v) };
  return { k: 'literal', text: v ? 'true' : 'false' };
}

/** A union, flattened and deduplicated; `never` members dropped; `unknown` absorbs everything. */
function union(members: readonly T[]): T {
  const flat = flatMembers('union', members);
  if (flat === undefined) return UNKNOWN;
  // A literal next to its primitive adds nothing: `string | "a"` is `string`.
  const primitives = new Set<string>(flat.map((x) => x.k));
  // (`Object["valueOf"]`, an inherited member's type, is a literal of none of them.)
  const kept = flat.filter((x) => x.k !== 'literal' || !primitives.has(x.text.startsWith('"') ? 'string' : x.text === 'true' || x.text === 'false' ? 'boolean' : /^-?\d/.test(x.text) ? 'number' : 'other'));
  if (kept.length === 0) return NEVER;
  return kept.length === 1 ? kept[0]! : { k: 'union', members: kept };
}

/**
 * TypeScript multiplies an intersection of unions out into one union, and refuses one of more than 100,000 members
 * (TS2590); this bound leaves room for the unions inside the members.
 */
const MAX_MULTIPLIED = 10_000;

/**
 * An intersection, flattened; `unknown` members dropped; `never` absorbs everything. Past `MAX_MULTIPLIED`, its largest
 * unions are left out, largest first: the type then accepts more than the validator, never less, and always compiles.
 */
function intersection(members: readonly T[]): T {
  const flat = flatMembers('intersection', members);
  if (flat === undefined) return NEVER;
  let multiplied = flat.reduce((n, m) => n * multipliedSize(m), 1);
  while (multiplied > MAX_MULTIPLIED) {
    const largest = flat.reduce((best, m, i) => (multipliedSize(m) > multipliedSize(flat[best]!) ? i : best), 0);
    multiplied /= multipliedSize(flat[largest]!);
    flat.splice(largest, 1);
  }
  if (flat.length === 0) return UNKNOWN;
  return flat.length === 1 ? flat[0]! : { k: 'intersection', members: flat };
}

const sizes = new WeakMap<T, number>();
/**
 * How many members TypeScript multiplies `t` out into: a union's members' counts added, an intersection's multiplied
 * (a union of intersections of unions is counted as TypeScript distributes it, not by its direct members).
 * @example multipliedSize({ k: 'union', members: [{ k: 'intersection', members: [u20, u20] }, obj] }); // → 401
 */
function multipliedSize(t: T): number {
  if (t.k !== 'union' && t.k !== 'intersection') return 1;
  let n = sizes.get(t);
  if (n === undefined) {
    n = t.k === 'union' ? t.members.reduce((sum, m) => sum + multipliedSize(m), 0) : t.members.reduce((product, m) => product * multipliedSize(m), 1);
    sizes.set(t, n);
  }
  return n;
}

/**
 * The members of a union or intersection, nested ones of the same kind flattened and repeats dropped, the members that
 * change nothing (`never` in a union, `unknown` in an intersection) left out; undefined when one absorbs the whole.
 * @example flatMembers('union', [{ k: 'string' }, NEVER]); // → [{ k: 'string' }]
 */
function flatMembers(kind: 'union' | 'intersection', members: readonly T[]): T[] | undefined {
  const [identity, absorbing] = kind === 'union' ? ['never', 'unknown'] : ['unknown', 'never'];
  const candidates: T[] = [];
  for (const m of members) {
    for (const x of (m.k === 'union' || m.k === 'intersection') && m.k === kind ? m.members : [m]) {
      if (x.k === identity) continue;
      if (x.k === absorbing) return undefined;
      candidates.push(x);
    }
  }
  return distinct(candidates);
}

/**
 * `types` without repeats (equal when they print the same), first occurrence kept. A single type is
 * not printed: each nesting level would print its whole subtree again.
 */
function distinct(types: T[]): T[] {
  if (types.length < 2) return types;
  const seen = new Set<string>();
  return types.filter((x) => {
    const key = print(x, '');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Binding strength, for parentheses: union < intersection < array element. */
function precedence(t: T): number {
  return t.k === 'union' ? 0 : t.k === 'intersection' ? 1 : 2;
}

function print(t: T, indent: string): string {
  const inner = `${indent}  `;
  const wrap = (x: T, min: number) => (precedence(x) < min ? `(${print(x, indent)})` : print(x, indent));
  switch (t.k) {
    case 'literal':
      return t.text;
    case 'empty':
      return '{}';
    case 'union':
      return t.members.map((m) => wrap(m, 1)).join(' | ');
    case 'intersection':
      return t.members.map((m) => wrap(m, 2)).join(' & ');
    case 'array':
      return `${wrap(t.element, 2)}[]`;
    case 'tuple': {
      const items = t.elements.map((e) => `${wrap(e.type, e.optional ? 2 : 0)}${e.optional ? '?' : ''}`);
      if (t.rest !== undefined) items.push(`...${wrap(t.rest, 2)}[]`);
      return `[${items.join(', ')}]`;
    }
    case 'object': {
      // A closed object with no members: `{}` would also accept strings and numbers; this accepts only `{}`.
      if (t.members.length === 0 && t.index === undefined) return `{\n${inner}[k: string]: never;\n${indent}}`;
      const lines = t.members.map((m) => `${m.description === undefined ? '' : jsdoc(m.description, inner)}${inner}${propertyKey(m.key)}${m.optional ? '?' : ''}: ${print(m.type, inner)};`);
      if (t.index !== undefined) lines.push(`${inner}[k: string]: ${print(t.index, inner)};`);
      return `{\n${lines.join('\n')}\n${indent}}`;
    }
    default:
      return t.k;
  }
}
