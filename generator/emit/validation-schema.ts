/**
 * A schema as its validator sees it: the annotation keywords, which ajv
 * compiles to no code at all, removed at every schema position. Two tools
 * whose schemas differ only in what the model reads (a `description` of the
 * arguments, a property's `title`, `examples`) validate the same values with
 * the same errors, so they share one validator: ajv's code generation, most
 * of a codegen, runs once for them, and validators.gen.ts (parsed at every
 * start) holds it once. Their argument types stay apart (types.gen.ts keeps
 * each description in its doc comments).
 *
 * Removed: `title`, `description`, `examples`, `$comment`, `deprecated`,
 * `readOnly`, `writeOnly` (JSON Schema's meta-data and core annotation
 * keywords; ajv validates none of them and reports none in an error), and
 * `default` unless the spec fills defaults (`applyDefaults`: then ajv's
 * `useDefaults` writes it). Everything else is kept as written, unknown
 * keywords and the content keywords included.
 */
import type { JsonSchema } from '../ir.js';
import { mapSchema } from './schema-walk.js';

const ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * A copy of `schema` without the keywords its validator ignores.
 *
 * @example
 * validationSchema({ type: 'object', description: 'Args', properties: { a: { type: 'string', title: 'A' } } }, false);
 * // → { type: 'object', properties: { a: { type: 'string' } } }
 */
export function validationSchema(schema: JsonSchema, applyDefaults: boolean): JsonSchema {
  const ignored = (key: string): boolean => ANNOTATIONS.has(key) || (!applyDefaults && key === 'default');
  // A boolean schema has nothing to drop (and mapSchema reads objects only).
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  return mapSchema(schema, (node) => (Object.keys(node).some(ignored) ? Object.fromEntries(Object.entries(node).filter(([k]) => !ignored(k))) : node));
}
