/**
 * Which JSON Schema `default`s the validators apply under the spec option
 * `applyDefaults` (issue 11, rule 9), written down once for the two places
 * that must agree with ajv: the argument types (a defaulted property is
 * required for the handler, arg-types.ts) and the per-tool flag that makes
 * the runtime copy the arguments before validating (spec.ts).
 *
 * ajv's `useDefaults` (ajv/lib/compile/validate/defaults.ts) assigns
 * `properties[key].default` to an object the validator reaches when the key
 * is `undefined` there, and nowhere else:
 *   - not inside `anyOf`, `oneOf`, `not`, `if`, `contains` or
 *     `propertyNames` (ajv's "composite rule": a branch that may fail must not
 *     change the data) — `allOf`, `then`, `else`, `items`, `prefixItems`,
 *     `additionalProperties`, `patternProperties`, `dependentSchemas` and
 *     `unevaluated*` subschemas do apply theirs (`then` / `else` only beside an `if`);
 *   - not a `default` of the parameters object itself, nor of a tuple
 *     position (`prefixItems`; ajv only fills draft-07 array `items`, which
 *     the IR never has);
 *   - not for a property named like an `Object.prototype` member
 *     (`toString`, `constructor`, …): ajv's test `data.toString === undefined`
 *     is false on every object, so the default never lands; nor for
 *     `__proto__` (ajv sees it through `patternProperties`, validators.ts).
 */
import type { JsonValue } from '../ir.js';
import { PROTOTYPE_NAMES } from './validators.js';

/** Applicators whose subschemas ajv validates as a composite rule: no defaults inside. */
export const NO_DEFAULTS_INSIDE = new Set(['anyOf', 'oneOf', 'not', 'if', 'contains', 'propertyNames']);

const isRecord = (v: unknown): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether ajv fills this property's default (given that its object is
 * reached outside any composite rule).
 *
 * @example
 * defaultApplies('limit', { type: 'integer', default: 10 }); // true
 * defaultApplies('toString', { default: 'x' });              // false
 */
export function defaultApplies(key: string, property: JsonValue): boolean {
  return isRecord(property) && 'default' in property && !PROTOTYPE_NAMES.has(key);
}

/**
 * Whether a parameters schema has a default the validator applies (so a
 * validation may write into the arguments).
 *
 * @example
 * hasAppliedDefault({ type: 'object', properties: { n: { default: 1 } } });           // true
 * hasAppliedDefault({ anyOf: [{ type: 'object', properties: { n: { default: 1 } } }] }); // false
 */
export function hasAppliedDefault(schema: JsonValue): boolean {
  if (!isRecord(schema)) return false;
  if (isRecord(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (defaultApplies(key, sub) || hasAppliedDefault(sub)) return true;
    }
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' || NO_DEFAULTS_INSIDE.has(keyword)) continue;
    if (keyword === 'allOf' || keyword === 'prefixItems') {
      if (Array.isArray(value) && value.some(hasAppliedDefault)) return true;
    } else if (keyword === 'patternProperties' || keyword === 'dependentSchemas') {
      if (isRecord(value) && Object.values(value).some(hasAppliedDefault)) return true;
    } else if (['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems'].includes(keyword)) {
      if (hasAppliedDefault(value)) return true;
    } else if ((keyword === 'then' || keyword === 'else') && 'if' in schema) {
      // ajv runs `then` / `else` only from `if` (one of them, after `if` decided).
      if (hasAppliedDefault(value)) return true;
    }
  }
  return false;
}
