/** The JSON Schema vocabulary toolroute reads in `parameters`, as tables. */
import { createRequire } from 'node:module';
import { isJsonObject } from '../ir.js';
import type { ProblemCode } from '../problems.js';

/** A problem inside `parameters`, with a path relative to `parameters`. */
export interface SchemaProblem {
  code: ProblemCode;
  path: (string | number)[];
  message: string;
  hint: string;
  at: 'value' | 'key';
  /** `'warning'`: reported, but the schema is still used (see `Problem.severity`). */
  severity?: 'warning';
}

/** The JSON Schema dialects a `parameters` schema may use. */
export const SCHEMA_DIALECTS = ['2020-12', 'draft-07'] as const;
export type SchemaDialect = (typeof SCHEMA_DIALECTS)[number];

/** `$schema` URIs (normalized: no trailing `#`) and the dialect each names. */
export const DIALECT_URIS: Readonly<Record<string, SchemaDialect>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft-07/schema': 'draft-07',
};

/** Schema keywords by what their value is. */
const KEYWORDS = {
  /** Value is one subschema. */
  schema: ['additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'],
  /** Value is a list of subschemas. */
  schemaList: ['allOf', 'anyOf', 'oneOf', 'prefixItems'],
  /** Value is a map of name → subschema. */
  schemaMap: ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'],
  /** Value is data (or a plain value): never walked as a schema. */
  data: [
    '$schema', '$ref', '$comment', '$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', 'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
    'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties',
    'minProperties', 'required', 'dependentRequired', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly',
    'examples', 'format', 'contentEncoding', 'contentMediaType',
  ],
} as const;
// `$defs` and `definitions` are accepted in both (ajv does; the 2020-12 meta-schema keeps `definitions` for compatibility).
const DRAFT07_ONLY = new Set(['additionalItems', 'dependencies']);
const DRAFT2020_ONLY = new Set(['$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', 'prefixItems', 'dependentSchemas', 'dependentRequired', 'unevaluatedItems', 'unevaluatedProperties', 'maxContains', 'minContains', 'deprecated', 'contentSchema']);
/** draft 2019-09's recursive refs: neither dialect toolroute reads has them (2020-12 replaced them with `$dynamicRef`). */
export const UNSUPPORTED_KEYWORDS = new Set(['$recursiveRef', '$recursiveAnchor']);
export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** The JSON types a schema's `type` names (one or a list; a name that is no type left out), or undefined without `type`. */
export function declaredTypes(schema: Readonly<Record<string, unknown>>): JsonType[] | undefined {
  if (schema.type === undefined) return undefined;
  return (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is JsonType => (JSON_TYPES as readonly unknown[]).includes(t));
}

/** Whether a JSON value is of a JSON Schema type (`integer`: a number with no fraction, as JSON Schema counts 1.0). */
export function hasType(v: unknown, t: JsonType): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isJsonObject(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    default:
      return typeof v === t;
  }
}

const ALL_KEYWORDS = [...KEYWORDS.schema, ...KEYWORDS.schemaList, ...KEYWORDS.schemaMap, ...KEYWORDS.data, 'items', 'additionalItems', 'dependencies'];
/** Built once: `walkSchema` asks for them at every schema node. */
const KNOWN_KEYWORDS: Readonly<Record<SchemaDialect, ReadonlySet<string>>> = {
  '2020-12': new Set(ALL_KEYWORDS.filter((k) => !DRAFT07_ONLY.has(k))),
  'draft-07': new Set(ALL_KEYWORDS.filter((k) => !DRAFT2020_ONLY.has(k))),
};
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(KEYWORDS.schema);
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(KEYWORDS.schemaList);
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(KEYWORDS.schemaMap);
/**
 * Every keyword holding subschemas in either dialect, for walks over any
 * schema form: one subschema (or draft-07's `items` list), a list, a map
 * (draft-07's `dependencies` may map to a name list instead).
 */
export const SUBSCHEMA_KEYWORDS = {
  one: new Set([...KEYWORDS.schema, 'items', 'additionalItems']),
  list: SCHEMA_LIST_KEYWORDS,
  map: new Set([...KEYWORDS.schemaMap, 'dependencies']),
} as const;

export function knownKeywords(dialect: SchemaDialect): ReadonlySet<string> {
  return KNOWN_KEYWORDS[dialect];
}

const require = createRequire(import.meta.url);
/** ajv-formats' format names: what the generated validators can check. */
export const KNOWN_FORMATS: readonly string[] = (require('ajv-formats/dist/formats.js') as { formatNames: string[] }).formatNames;

