/** JSON helpers of the renderers. Pure: the input is never mutated, key order is kept, `__proto__` keys stay keys. */
import { isRecord } from './history.js';
import { items } from './replay.js';
import type { JsonObject } from './types.js';

/** A JSON Schema object. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool's parameters in the form every target accepts at the top: an object schema without top-level combinators. */
export const portableParameters = (schema: JsonSchema): JsonSchema => withoutTopCombinators(objectSchema(schema));

/** A copy of the schema as providers want it: `$schema` (a document annotation) dropped at the root. */
export function providerSchema(schema: JsonSchema): JsonObject {
  const copy = cloneSchema(schema);
  delete copy['$schema'];
  return copy;
}

/** The provider copy with `type: "object"` first (Anthropic's type demands it). */
export function objectSchema(schema: JsonSchema): { type: 'object'; [key: string]: unknown } {
  const copy = providerSchema(schema);
  if (copy['type'] === 'object') return copy as { type: 'object'; [key: string]: unknown };
  return Object.fromEntries([['type', 'object'], ...Object.entries(copy).filter(([k]) => k !== 'type')]) as { type: 'object'; [key: string]: unknown };
}

/** Keywords Anthropic and OpenAI refuse at the top of a tool's schema: the whole request fails with a 400. */
const TOP_REFUSED = ['anyOf', 'oneOf', 'allOf', 'not', 'enum'];

/**
 * A tool schema without `anyOf` / `oneOf` / `allOf` / `not` / `enum` at its top, for the targets that refuse them there: the
 * members' properties join the top (an `allOf` member's `required` too; a branch's properties as optional). What the model
 * sees is wider than the schema; the validator, which checks the whole schema, rejects what the branches do not allow,
 * and its reason says why.
 * @example withoutTopCombinators({ type: 'object', anyOf: [{ properties: { a: {} } }] }); // → { type: 'object', properties: { a: {} } }
 */
export function withoutTopCombinators<S extends JsonSchema>(schema: S): S {
  if (!TOP_REFUSED.some((k) => Object.hasOwn(schema, k))) return schema;
  // Entries and fromEntries, never `out[k] = v`: a key spelt `__proto__` stays a key (assigned, it sets the prototype).
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(schema).filter(([k]) => !TOP_REFUSED.includes(k)));
  const properties = new Map(isRecord(schema['properties']) ? Object.entries(schema['properties']) : []);
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  for (const [k, all] of [['allOf', true], ['anyOf', false], ['oneOf', false]] as const) {
    for (const member of items(schema[k])) {
      if (isRecord(member['properties'])) for (const [name, sub] of Object.entries(member['properties'])) if (!properties.has(name)) properties.set(name, sub);
      if (all && Array.isArray(member['required'])) for (const name of member['required']) required.add(name);
    }
  }
  out['properties'] = Object.fromEntries(properties);
  if (required.size > 0) out['required'] = [...required];
  return out as S;
}

/** A deep copy of a schema object ({} for anything that is not an object). */
export function cloneSchema(schema: JsonSchema): JsonObject {
  const copy = cloneJson(schema);
  return isRecord(copy) ? (copy as JsonObject) : {};
}

/** A key as a JSON Pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointer(key: string): string { return key.replace(/~/g, '~0').replace(/\//g, '~1'); }

/** Deep copy of a JSON value, key order kept; non-JSON leaves dropped as JSON.stringify drops them. */
export function cloneJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((v) => cloneJson(v) ?? null);
  if (typeof value !== 'object') return undefined;
  const entries = Object.keys(value).map((key) => [key, cloneJson((value as Record<string, unknown>)[key])] as const);
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}
