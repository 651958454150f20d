/**
 * The copy of a normalized schema that ajv compiles: the emitted validators compile it, and the spec check
 * compiles the same copy (validate/parameters.ts), so a schema the check accepts always compiles in the emitter.
 */
import type { JsonSchema, JsonValue } from '../ir.js';
import { usesDynamicScope } from '../validate/schema-refs.js';
import { mapSchema } from './schema-walk.js';
import { PROTOTYPE_NAMES } from './prototype-names.js';

/**
 * The copy ajv compiles: `$schema` and every `$id` dropped (refs are inlined; two tools reusing an id
 * must not collide) unless the schema needs a dynamic scope (then it has an ajv of its own), a
 * `__proto__` property moved to `patternProperties: { "^__proto__$": … }` and a `__proto__` pattern spelt `(?:__proto__)` (ajv
 * skips that name under `properties` and `patternProperties`), and under `applyDefaults` no `default` on a property named
 * like an `Object.prototype` member (ajv would validate the inherited member and refuse the call).
 *
 * @example
 * schemaForAjv({ type: 'object', properties: JSON.parse('{"__proto__":{"type":"number"}}') });
 * // { type: 'object', properties: {}, patternProperties: { '^__proto__$': { type: 'number' } } }
 */
export function schemaForAjv(schema: JsonSchema, applyDefaults = false): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  void _dialect;
  const ids = usesDynamicScope(schema);
  return mapSchema(rest, (node) => {
    let out = '$id' in node && !ids ? Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$id')) : node;
    const declared = out['properties'];
    if (applyDefaults && typeof declared === 'object' && declared !== null && !Array.isArray(declared)) {
      const entries = Object.entries(declared);
      if (entries.some(([k, v]) => PROTOTYPE_NAMES.has(k) && typeof v === 'object' && v !== null && !Array.isArray(v) && 'default' in v)) {
        const kept = entries.map(([k, v]): [string, JsonValue] =>
          PROTOTYPE_NAMES.has(k) && typeof v === 'object' && v !== null && !Array.isArray(v) ? [k, Object.fromEntries(Object.entries(v).filter(([kw]) => kw !== 'default'))] : [k, v],
        );
        out = { ...out, properties: Object.fromEntries(kept) };
      }
    }
    const props = out['properties'];
    if (typeof props === 'object' && props !== null && !Array.isArray(props) && Object.hasOwn(props, '__proto__')) {
      const proto = (props as Record<string, JsonSchema>)['__proto__'] as JsonSchema;
      const patterns = (out['patternProperties'] ?? {}) as Record<string, JsonSchema>;
      const same = patterns['^__proto__$'];
      out = {
        ...out,
        properties: Object.fromEntries(Object.entries(props).filter(([k]) => k !== '__proto__')),
        patternProperties: { ...patterns, '^__proto__$': same === undefined ? proto : { allOf: [same, proto] } },
      };
    }
    const patterns = out['patternProperties'];
    if (typeof patterns === 'object' && patterns !== null && !Array.isArray(patterns) && Object.hasOwn(patterns, '__proto__')) {
      // ajv skips that key under `patternProperties` too: the same regular expression, spelt so that ajv reads it.
      const proto = (patterns as Record<string, JsonSchema>)['__proto__'] as JsonSchema;
      const same = (patterns as Record<string, JsonSchema>)['(?:__proto__)'];
      const others = Object.entries(patterns).filter(([k]) => k !== '__proto__');
      out = { ...out, patternProperties: { ...Object.fromEntries(others), '(?:__proto__)': same === undefined ? proto : { allOf: [same, proto] } } };
    }
    return out;
  });
}
