/**
 * The OpenAI strict-mode schema rewrite and its inverse, the null decode: used by both OpenAI renderers, the generator
 * (each tool's `nullDecode` plan) and the router (a strict call's `null`s back into absent arguments). Pure; keyword
 * lists from OpenAI Structured Outputs, "Supported keywords".
 */
import type { NullDecodePlan } from '../contract.js';
import type { NeutralTool, RenderOptions } from './adapter.js';
import { isRecord, jsonText } from './history.js';
import { cloneJson, escapePointer, portableParameters, providerSchema, withoutTopCombinators, type JsonSchema } from './schema.js';
import type { JsonObject } from './types.js';

/** The outcome of the strict rewrite: the schema, or why strict mode cannot express it. */
export type StrictSchemaResult =
  | { readonly ok: true; readonly schema: JsonObject; readonly plan: NullDecodePlan | undefined }
  | { readonly ok: false; readonly reason: string; readonly path: string };

/** Options of {@link toOpenAIStrictSchema}. */
export interface StrictSchemaOptions {
  /** Accept optional properties inside `anyOf` members: only sound when something else decodes their nulls (namespace `args`). */
  readonly anyOfDecodedElsewhere?: boolean;
}

// Supported keywords copied as is; strictNode rebuilds the structure (`properties`, `required`, `additionalProperties`, `items`, `anyOf`).
const STRICT_KEEP = new Set([
  'type', 'enum', 'const', 'description', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems',
]);
// Formats strict mode documents; any other `format` moves into the description.
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
// Structure strict mode cannot express at all: the tool falls back to non-strict.
const STRICT_UNSUPPORTED = [
  '$ref', 'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies',
  'patternProperties', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'prefixItems',
  'contains', '$defs', 'definitions',
];
// Constraints strict mode rejects but a reader can use: kept as text in the description (the validator still enforces them).
const STRICT_AS_TEXT = ['default', 'minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'examples', 'format'];

/**
 * A tool's parameter schema for OpenAI strict mode, with its null decode plan: every object closed, every property
 * required, optional ones made nullable, unsupported constraints moved into the description. What strict mode cannot
 * express (`$ref`, `allOf`, open maps, untyped values, tuples) gives `{ ok: false, reason, path }`.
 * @example
 * toOpenAIStrictSchema({ type: 'object', properties: { a: { type: 'string' } } });
 * // → { ok: true, plan: { optional: ['a'] }, schema: { type: 'object',
 * //     properties: { a: { type: ['string', 'null'] } }, required: ['a'], additionalProperties: false } }
 */
export function toOpenAIStrictSchema(parameters: JsonSchema, options: StrictSchemaOptions = {}): StrictSchemaResult {
  try {
    // The root is an object whatever the schema says (a tool's arguments are always an object).
    return strictNode(portableParameters(parameters), '', true, 1, { ...options, tally: { properties: 0, enumValues: 0, text: 0 } });
  } catch (error) {
    // Only reachable for pathological input (a cyclic or exotic object): fall back to non-strict.
    return { ok: false, reason: `the schema could not be read (${String(error)})`, path: '' };
  }
}

/** A tool's strict rewrite as OpenAI targets send it: a namespace's `args` members are decoded by their action's plan after routing. @example strictForOpenAi(tool).ok */
export const strictForOpenAi = (tool: NeutralTool): StrictSchemaResult => toOpenAIStrictSchema(tool.parameters, { anyOfDecodedElsewhere: tool.kind === 'namespace' });

/**
 * The parameters an OpenAI target sends and its `strict` flag (undefined without `openaiStrict`): the strict rewrite
 * (`strictForOpenAi`), or the schema as-is with `strict: false` when strict mode cannot express it.
 * @example openaiParameters(tool, { openaiStrict: false }); // → { parameters: { type: 'object', … }, strict: undefined }
 */
export function openaiParameters(tool: NeutralTool, options: RenderOptions): { parameters: JsonObject; strict: boolean | undefined } {
  const result = options.openaiStrict ? strictForOpenAi(tool) : undefined;
  return { parameters: result?.ok ? result.schema : withoutTopCombinators(providerSchema(tool.parameters)), strict: result?.ok };
}

/**
 * Which properties' `null`s the router turns back into absent arguments for a tool rendered with OpenAI strict mode;
 * `undefined` when there is nothing to decode or the schema is sent non-strict. Descends into object properties
 * (`nested`) and array elements (`items`).
 * @example
 * nullDecodePlan({ type: 'object', properties: { path: { type: 'string' },
 *   opts: { type: 'object', properties: { depth: { type: 'integer' } } } }, required: ['path'] });
 * // → { optional: ['opts'], nested: { opts: { optional: ['depth'] } } }
 */
export function nullDecodePlan(parameters: JsonSchema): NullDecodePlan | undefined {
  const result = toOpenAIStrictSchema(parameters);
  return result.ok ? result.plan : undefined;
}

const MAX_DECODE_DEPTH = 64;

/**
 * Turn strict-mode `null`s back into absent properties, as `plan` says. Pure and total: never throws or mutates `value`
 * (changed containers are copied); returns `value` itself when nothing changes.
 * @example applyNullDecode({ path: 'a', encoding: null }, { optional: ['encoding'] }); // → { path: 'a' }
 */
export function applyNullDecode(value: unknown, plan: NullDecodePlan | undefined): unknown {
  if (plan === undefined) return value;
  try {
    return decodeNode(value, plan, 0);
  } catch {
    // Exotic input (a throwing getter, a proxy): leave it to the validator to reject.
    return value;
  }
}

function decodeNode(value: unknown, plan: unknown, depth: number): unknown {
  if (depth > MAX_DECODE_DEPTH || !isRecord(plan) || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = ownField(plan, 'items');
    if (items === undefined) return value;
    const out = value.map((element) => decodeNode(element, items, depth + 1));
    return out.some((next, i) => next !== value[i]) ? out : value;
  }
  const record = value as Record<string, unknown>;
  const optional = ownField(plan, 'optional');
  const isNull = (key: unknown): key is string => typeof key === 'string' && Object.hasOwn(record, key) && record[key] === null;
  const drop = new Set(Array.isArray(optional) ? optional.filter(isNull) : []);
  const replaced = new Map<string, unknown>();
  const nested = ownField(plan, 'nested');
  for (const [key, inner] of isRecord(nested) ? Object.entries(nested) : []) {
    if (drop.has(key) || !Object.hasOwn(record, key)) continue;
    const before = record[key];
    const after = decodeNode(before, inner, depth + 1);
    if (after !== before) replaced.set(key, after);
  }
  if (drop.size === 0 && replaced.size === 0) return value;
  // fromEntries defines own data properties, so a `__proto__` key stays a key.
  const kept = Object.keys(record).filter((key) => !drop.has(key));
  return Object.fromEntries(kept.map((key) => [key, replaced.has(key) ? replaced.get(key) : record[key]]));
}

function unsupported(path: string, reason: string): StrictSchemaResult { return { ok: false, reason, path }; }

/** The rewrite's options, and what it has counted so far against OpenAI's size limits on the whole schema. */
type Walk = StrictSchemaOptions & { readonly tally: { properties: number; enumValues: number; text: number } };

/**
 * OpenAI refuses a strict schema past its size limits (Structured Outputs: "Objects have limitations on nesting depth and
 * size"), and the whole request with it: such a tool is sent non-strict. `depth` counts objects and arrays, the root 1.
 */
function overLimits(node: JsonObject, names: readonly string[], depth: number, path: string, { tally }: Walk): StrictSchemaResult | undefined {
  const values = Array.isArray(node['enum']) ? node['enum'] : [];
  if (names.length > 0 && depth > 10) return unsupported(path, 'strict mode allows objects nested 10 deep at most');
  if (values.length > 250 && values.filter((v) => typeof v === 'string').join('').length > 15_000) {
    return unsupported(path, 'strict mode allows 15,000 characters at most in an enum of more than 250 values');
  }
  tally.properties += names.length;
  tally.enumValues += values.length;
  tally.text += [...names, ...values, node['const']].filter((v): v is string => typeof v === 'string').join('').length;
  if (tally.properties <= 5000 && tally.enumValues <= 1000 && tally.text <= 120_000) return undefined;
  return unsupported(path, 'strict mode allows 5,000 properties, 1,000 enum values and 120,000 characters of names and values in a schema at most');
}

function strictNode(schema: unknown, path: string, root: boolean, depth: number, options: Walk): StrictSchemaResult {
  if (!isRecord(schema)) return unsupported(path, 'a boolean or non-object schema has no strict-mode form');
  const refused = STRICT_UNSUPPORTED.find((keyword) => Object.hasOwn(schema, keyword));
  if (refused !== undefined) return unsupported(path, `\`${refused}\` is not supported in strict mode`);
  const out: JsonObject = {};
  const notes: string[] = [];
  // The plan while it is built: `optional` first and always present.
  let plan: { optional: string[]; nested?: Record<string, NullDecodePlan>; items?: NullDecodePlan } | undefined;
  const type = schema['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  const isObject = root || types.includes('object') || (types.length === 0 && isRecord(schema['properties']));
  const isArray = types.includes('array') || (types.length === 0 && Object.hasOwn(schema, 'items'));
  const alternatives = Object.hasOwn(schema, 'anyOf') ? schema['anyOf'] : schema['oneOf'];
  if (types.length === 0 && !isObject && !isArray && alternatives === undefined
    && !Object.hasOwn(schema, 'enum') && !Object.hasOwn(schema, 'const')) {
    return unsupported(path, 'a value without `type`, `enum`, `const` or `anyOf` has no strict-mode form');
  }
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === 'format' && typeof value === 'string' && STRICT_FORMATS.has(value)) out[key] = value;
    else if (STRICT_AS_TEXT.includes(key)) notes.push(`${key === 'default' ? 'Default' : key}: ${jsonText(value) ?? String(value)}`);
    else if (STRICT_KEEP.has(key)) out[key] = cloneJson(value);
    // Anything else is dropped: the structure (rebuilt below) and annotations ($schema, $id, title, $comment, vendor keys…).
  }
  const over = overLimits(out, isObject && isRecord(schema['properties']) ? Object.keys(schema['properties']) : [], depth, path, options);
  if (over !== undefined) return over;
  if (Array.isArray(alternatives)) {
    const members: JsonObject[] = [];
    for (let i = 0; i < alternatives.length; i++) {
      const member = strictNode(alternatives[i], `${path}/anyOf/${i}`, false, depth, options);
      if (!member.ok) return member;
      if (member.plan !== undefined && !options.anyOfDecodedElsewhere) {
        return unsupported(`${path}/anyOf/${i}`, 'optional properties inside `anyOf` cannot be decoded back (which member the model meant is unknown)');
      }
      members.push(member.schema);
    }
    out['anyOf'] = members;
  } else if (alternatives !== undefined) return unsupported(path, '`anyOf` must be an array');
  if (isObject) {
    const additional = schema['additionalProperties'];
    if (additional !== undefined && additional !== false) return unsupported(path, 'an open map (`additionalProperties` other than false) has no strict-mode form');
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    const names = Object.keys(properties);
    if (!root && names.length === 0 && additional !== false) return unsupported(path, 'a free-form object (no `properties`) has no strict-mode form');
    const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((r) => typeof r === 'string') : []);
    const props: Array<[string, unknown]> = [];
    for (const name of names) {
      const prop = strictNode(properties[name], `${path}/properties/${escapePointer(name)}`, false, depth + 1, options);
      if (!prop.ok) return prop;
      let propSchema: JsonObject = prop.schema;
      if (!required.has(name) && !admitsNull(properties[name])) {
        propSchema = nullable(propSchema);
        (plan ??= { optional: [] }).optional.push(name);
      }
      if (prop.plan !== undefined) {
        // defineProperty: a `__proto__` property name stays a key of the plan.
        Object.defineProperty(((plan ??= { optional: [] }).nested ??= {}), name, { value: prop.plan, enumerable: true, writable: true, configurable: true });
      }
      props.push([name, propSchema]);
    }
    out['properties'] = Object.fromEntries(props);
    out['required'] = names;
    out['additionalProperties'] = false;
  }
  if (isArray) {
    const items = schema['items'];
    if (!isRecord(items)) return unsupported(path, Array.isArray(items) ? 'tuples (`items` as an array) have no strict-mode form' : 'an array without `items` has no strict-mode form');
    const element = strictNode(items, `${path}/items`, false, depth + 1, options);
    if (!element.ok) return element;
    out['items'] = element.schema;
    if (element.plan !== undefined) (plan ??= { optional: [] }).items = element.plan;
  }
  if (notes.length > 0) out['description'] = [out['description'], ...notes].filter((line) => typeof line === 'string' && line !== '').join('\n');
  return { ok: true, schema: out, plan };
}

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** The schema with `null` admitted, in the form strict mode documents. */
function nullable(schema: JsonObject): JsonObject {
  const type = schema['type'];
  const constrained = Object.hasOwn(schema, 'enum') || Object.hasOwn(schema, 'const') || Object.hasOwn(schema, 'anyOf');
  if (!constrained && typeof type === 'string' && PRIMITIVE_TYPES.has(type)) return replaceKey(schema, 'type', [type, 'null']);
  if (!constrained && Array.isArray(type) && type.every((t) => typeof t === 'string' && PRIMITIVE_TYPES.has(t))) return replaceKey(schema, 'type', [...type, 'null']);
  if (!Object.hasOwn(schema, 'type') && Array.isArray(schema['anyOf'])) return replaceKey(schema, 'anyOf', [...(schema['anyOf'] as unknown[]), { type: 'null' }]);
  return { anyOf: [schema, { type: 'null' }] };
}

/** Whether a (source) schema accepts `null`: decides whether a `null` can mean "absent". */
function admitsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  if (Object.hasOwn(schema, 'const') && schema['const'] !== null) return false;
  const en = schema['enum'];
  if (Array.isArray(en) && !en.includes(null)) return false;
  const type = schema['type'];
  if (typeof type === 'string' && type !== 'null') return false;
  if (Array.isArray(type) && !type.includes('null')) return false;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members) && !members.some(admitsNull)) return false;
  }
  const all = schema['allOf'];
  if (Array.isArray(all) && !all.every(admitsNull)) return false;
  return true;
}

function replaceKey(schema: JsonObject, key: string, value: unknown): JsonObject { return Object.fromEntries(Object.keys(schema).map((k) => [k, k === key ? value : schema[k]])); }

function ownField(record: { readonly [key: string]: unknown }, key: string): unknown { return Object.hasOwn(record, key) ? record[key] : undefined; }

