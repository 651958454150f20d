/**
 * A schema as its validator sees it: annotation keywords removed, so tools whose schemas differ only
 * in annotations share one validator (ajv compiles annotations to no code).
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
