/**
 * Which `default`s the validators apply under `applyDefaults`, written once for the two places
 * that must agree with ajv's `useDefaults`: the argument types (a defaulted property is required
 * for the handler) and the per-tool flag that makes the runtime copy the arguments first.
 * ajv fills `properties[key].default` only outside its "composite rule" branches (`anyOf`, `oneOf`,
 * `not`, `if`, `contains`, `propertyNames`), never for the root or a tuple position, and never for a
 * property named like an `Object.prototype` member (`data.toString === undefined` is always false).
 */
import { isJsonObject, type JsonValue } from '../ir.js';
import { resolvePointer } from '../validate/schema-refs.js';
import { PROTOTYPE_NAMES } from './prototype-names.js';

/**
 * The subschemas ajv fills defaults in, by keyword, with the shape of the keyword's value: the one
 * statement of ajv's rule. A keyword not listed fills nothing (a composite rule, or no subschema
 * ajv validates in place).
 */
const FILLED_INSIDE: ReadonlyMap<string, 'one' | 'list' | 'map'> = new Map([
  ['properties', 'map'], ['patternProperties', 'map'], ['dependentSchemas', 'map'], ['allOf', 'list'], ['prefixItems', 'list'],
  ['items', 'one'], ['additionalProperties', 'one'], ['unevaluatedProperties', 'one'], ['unevaluatedItems', 'one'], ['then', 'one'], ['else', 'one'],
]);

/**
 * Whether ajv fills defaults inside the subschema(s) of `keyword` of `schema`; `then` / `else` only
 * beside an `if` (ajv runs them only from `if`).
 *
 * @example
 * fillsDefaultsIn('allOf', { allOf: [] });          // true
 * fillsDefaultsIn('anyOf', { anyOf: [] });          // false
 * fillsDefaultsIn('then', { then: {} });            // false (no `if`)
 */
export function fillsDefaultsIn(keyword: string, schema: Readonly<Record<string, JsonValue>>): boolean {
  if (!FILLED_INSIDE.has(keyword)) return false;
  return (keyword !== 'then' && keyword !== 'else') || 'if' in schema;
}

/**
 * Whether ajv fills this property's default (its object reached outside any composite rule).
 *
 * @example
 * defaultApplies('limit', { type: 'integer', default: 10 }); // true
 * defaultApplies('toString', { default: 'x' });              // false
 */
export function defaultApplies(key: string, property: JsonValue): boolean {
  return isJsonObject(property) && 'default' in property && !PROTOTYPE_NAMES.has(key);
}

/**
 * Whether a parameters schema has a default the validator applies (it may write into the arguments).
 *
 * @example
 * hasAppliedDefault({ type: 'object', properties: { n: { default: 1 } } });           // true
 * hasAppliedDefault({ anyOf: [{ type: 'object', properties: { n: { default: 1 } } }] }); // false
 */
export function hasAppliedDefault(schema: JsonValue): boolean {
  if (!isJsonObject(schema)) return false;
  if (isJsonObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (defaultApplies(key, sub)) return true;
    }
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (!fillsDefaultsIn(keyword, schema)) continue;
    const shape = FILLED_INSIDE.get(keyword);
    if (shape === 'list') {
      if (Array.isArray(value) && value.some(hasAppliedDefault)) return true;
    } else if (shape === 'map') {
      if (isJsonObject(value) && Object.values(value).some(hasAppliedDefault)) return true;
    } else if (hasAppliedDefault(value)) return true;
  }
  return false;
}

/** One property's `default` as written (see {@link propertyDefaults}). */
export interface UnfilledDefault {
  /** Path of the `default` keyword in the schema walked (`['properties', 'toString', 'default']`). */
  readonly path: readonly (string | number)[];
  /** The property's name (`toString`, `constructor`, `__proto__`, …). */
  readonly property: string;
  /** The default as written. */
  readonly value: JsonValue;
}

/** Keywords whose value is one subschema, a list of them, or a map of them (the walk below). */
const ONE_SCHEMA = new Set(['additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'items', 'additionalItems']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies']);

/**
 * Every `default` of a property named like an `Object.prototype` member in a parameters schema as
 * written: the defaults `schemaForAjv` removes under `applyDefaults`, reported as `default_not_applied`.
 *
 * @example
 * unfilledDefaults({ type: 'object', properties: { toString: { type: 'string', default: 'x' } } });
 * // [{ path: ['properties', 'toString', 'default'], property: 'toString', value: 'x' }]
 */
export function unfilledDefaults(schema: JsonValue): UnfilledDefault[] {
  return propertyDefaults(schema).flatMap(({ path, property, value }) => (PROTOTYPE_NAMES.has(property) ? [{ path, property, value }] : []));
}

/**
 * Every property's `default` in a parameters schema as written (local `$ref`s followed, unreferenced `$defs` left
 * out), once each where it is written, with the property's schema.
 *
 * @example
 * propertyDefaults({ type: 'object', properties: { n: { type: 'integer', default: 'ten' } } })[0].schema.type; // 'integer'
 */
export function propertyDefaults(schema: JsonValue): (UnfilledDefault & { readonly schema: Readonly<Record<string, JsonValue>> })[] {
  const found: (UnfilledDefault & { readonly schema: Readonly<Record<string, JsonValue>> })[] = [];
  const seen = new Set<string>();
  const visited = new Set<JsonValue>();
  const walk = (node: JsonValue | undefined, path: (string | number)[]): void => {
    // A schema reached twice (two refs to one definition) is reported once; a ref cycle ends here.
    if (!isJsonObject(node) || visited.has(node)) return;
    visited.add(node);
    for (const [keyword, value] of Object.entries(node)) {
      const here = [...path, keyword];
      if (keyword === 'properties' && isJsonObject(value)) {
        for (const [key, sub] of Object.entries(value)) {
          if (!isJsonObject(sub) || !('default' in sub)) continue;
          const at = [...here, key, 'default'];
          const id = JSON.stringify(at);
          if (!seen.has(id)) {
            seen.add(id);
            found.push({ path: at, property: key, value: sub.default as JsonValue, schema: sub });
          }
        }
      }
      if (keyword === '$ref' && typeof value === 'string') {
        // The pointer rules the inliner follows (RFC 6901: `01` is no array index); anchors are refused by validation.
        const target = value === '#' || value.startsWith('#/') ? resolvePointer(schema, value) : undefined;
        if (target !== undefined) walk(target.target as JsonValue | undefined, target.path);
      } else if (Array.isArray(value) && SCHEMA_LIST.has(keyword)) {
        value.forEach((sub, i) => walk(sub, [...here, i]));
      } else if (isJsonObject(value) && SCHEMA_MAP.has(keyword)) {
        for (const [key, sub] of Object.entries(value)) walk(sub, [...here, key]);
      } else if (ONE_SCHEMA.has(keyword)) {
        walk(value, here);
      }
    }
  };
  walk(schema, []);
  return found;
}
