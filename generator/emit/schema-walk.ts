/** A walk over every subschema, never over data positions (`enum`, `const`, `default`, …) or property names. */
import type { JsonSchema, JsonValue } from '../ir.js';
import { SUBSCHEMA_KEYWORDS } from '../validate/schema-keywords.js';

const { one: ONE, list: LIST, map: MAP } = SUBSCHEMA_KEYWORDS;

/**
 * A copy of `schema` where every schema node, deepest first, went through
 * `fn`. Objects are built with `Object.fromEntries`, so a `__proto__`
 * property name stays an own key.
 *
 * @example
 * mapSchema({ type: 'object', title: 'T', properties: { a: { title: 'A' } } },
 *   (node) => Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'title')));
 * // → { type: 'object', properties: { a: {} } }
 */
export function mapSchema(schema: JsonSchema, fn: (node: JsonSchema) => JsonSchema): JsonSchema {
  const walk = (node: JsonValue): JsonValue => (isSchemaObject(node) ? mapSchema(node, fn) : node);
  const entries = Object.entries(schema).map(([key, value]): [string, JsonValue] => {
    if (key === 'items') return [key, Array.isArray(value) ? value.map(walk) : walk(value)];
    if (ONE.has(key)) return [key, walk(value)];
    if (LIST.has(key) && Array.isArray(value)) return [key, value.map(walk)];
    if (MAP.has(key) && isSchemaObject(value)) return [key, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))];
    return [key, value];
  });
  return fn(Object.fromEntries(entries));
}

function isSchemaObject(value: JsonValue | undefined): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
