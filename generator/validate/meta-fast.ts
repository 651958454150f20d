/**
 * A schema's meta-schema check without compiling the meta-schema. ajv checks
 * a schema against its dialect's meta-schema by first compiling that
 * meta-schema into a validator (2020-12: eight vocabulary schemas; about a
 * fifth of a second at every codegen start, more than the checks it then
 * runs), and toolroute asks it twice per distinct schema (as written, and
 * inlined: parameters.ts).
 *
 * `metaSchemaAccepts(schema, dialect)` is a plain walk over the keywords
 * almost every tool schema is made of, with the meta-schema's own rules for
 * their values (a non-negative integer, a non-empty list of schemas, a regex
 * ajv-formats accepts…). It answers true only where the meta-schema
 * certainly accepts the schema, and false for anything else (a keyword
 * outside its table, any `$` keyword, a value it does not vouch for): the
 * caller then runs ajv's check as before, with its messages. A false answer
 * is never a problem by itself. test/spec/meta-fast.test.ts holds it to
 * ajv's `validateSchema` on the JSON Schema Test Suite, the bench templates
 * and random mutations of them.
 */
import formatsModule from 'ajv-formats/dist/formats.js';
import type { SchemaDialect } from './schema-keywords.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const { fullFormats } = ((formatsModule as { default?: unknown }).default ?? formatsModule) as { fullFormats: { regex: (s: string) => boolean } };
/** The `regex` format exactly as the meta-schema check applies it (ajv-formats' full set, which parameters.ts adds). */
const isRegex = fullFormats.regex;

type Check = (value: unknown, dialect: SchemaDialect) => boolean;

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** ajv's "object": not null, not an array. Only a `{}` object is vouched for here. */
const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const anything: Check = () => true;
const string: Check = (v) => typeof v === 'string';
const boolean: Check = (v) => typeof v === 'boolean';
/** `type: number` under `strictNumbers` (the check's ajv is strict): finite. */
const number: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const nonNegativeInteger: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const positiveNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
const list: Check = (v) => Array.isArray(v);
const regex: Check = (v) => typeof v === 'string' && isRegex(v);

/** Strings, none twice (the meta-schema's `stringArray`, `uniqueItems: true`). */
const uniqueStrings: Check = (v) => Array.isArray(v) && v.every((s) => typeof s === 'string') && new Set(v).size === v.length;

const type: Check = (v) =>
  (typeof v === 'string' && SIMPLE_TYPES.has(v)) ||
  (Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === 'string' && SIMPLE_TYPES.has(t)) && new Set(v).size === v.length);

const schema: Check = (v, dialect) => typeof v === 'boolean' || (record(v) && schemaObject(v, dialect));
/** A non-empty list of schemas (`schemaArray`, `minItems: 1`). */
const schemas: Check = (v, dialect) => Array.isArray(v) && v.length > 0 && v.every((s) => schema(s, dialect));
const schemaMap: Check = (v, dialect) => record(v) && Object.keys(v).every((k) => schema(v[k], dialect));
const patternMap: Check = (v, dialect) => record(v) && Object.keys(v).every((k) => isRegex(k) && schema(v[k], dialect));

/** Keywords both dialects' meta-schemas constrain the same way (draft-07 `items` may also be a list: not vouched for). */
const COMMON: Record<string, Check> = {
  type,
  properties: schemaMap,
  patternProperties: patternMap,
  additionalProperties: schema,
  required: uniqueStrings,
  items: schema,
  contains: schema,
  propertyNames: schema,
  not: schema,
  if: schema,
  then: schema,
  else: schema,
  anyOf: schemas,
  oneOf: schemas,
  allOf: schemas,
  enum: list,
  const: anything,
  default: anything,
  examples: list,
  title: string,
  description: string,
  $comment: string,
  format: string,
  pattern: regex,
  minLength: nonNegativeInteger,
  maxLength: nonNegativeInteger,
  minItems: nonNegativeInteger,
  maxItems: nonNegativeInteger,
  minProperties: nonNegativeInteger,
  maxProperties: nonNegativeInteger,
  uniqueItems: boolean,
  minimum: number,
  maximum: number,
  exclusiveMinimum: number,
  exclusiveMaximum: number,
  multipleOf: positiveNumber,
  readOnly: boolean,
  writeOnly: boolean,
};

/**
 * draft-07's `enum` is a non-empty list of distinct values (2020-12 dropped both rules). Vouched for
 * when its values are primitives, where "distinct" is what a Set sees (ajv's deep equality agrees on those).
 */
const draft07Enum: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)) && new Set(v).size === v.length;

const KEYWORDS: Record<SchemaDialect, Readonly<Record<string, Check>>> = {
  '2020-12': { ...COMMON, prefixItems: schemas, minContains: nonNegativeInteger, maxContains: nonNegativeInteger, deprecated: boolean, unevaluatedProperties: schema, unevaluatedItems: schema },
  'draft-07': { ...COMMON, enum: draft07Enum },
};

function schemaObject(node: Record<string, unknown>, dialect: SchemaDialect): boolean {
  const table = KEYWORDS[dialect];
  for (const key of Object.keys(node)) {
    const check = Object.hasOwn(table, key) ? table[key] : undefined;
    if (check === undefined || !check(node[key], dialect)) return false;
  }
  return true;
}

/**
 * True only when the dialect's meta-schema (as ajv checks it, ajv-formats
 * added) certainly accepts `schema`; false means "ask ajv", never "invalid".
 *
 * @example
 * metaSchemaAccepts({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } }, '2020-12'); // true
 * metaSchemaAccepts({ type: 'object', properties: { a: { minLength: -1 } } }, '2020-12');                // false: ajv words it
 */
export function metaSchemaAccepts(value: unknown, dialect: SchemaDialect): boolean {
  return schema(value, dialect);
}
