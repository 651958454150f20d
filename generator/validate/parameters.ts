/**
 * A tool's `parameters` end to end: shorthand or JSON Schema, dialect, keyword rules, meta-schema,
 * `$ref` inlining, "arguments are an object" and ajv's strict compile; plus the per-spec cache that
 * lets validate and normalize share one expansion per distinct schema.
 */
import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv';
import type { JsonSchema } from '../ir.js';
import type { LoadedSpec } from '../load.js';
import { formatPath } from '../problems.js';
import { describe, isRecord } from './context.js';
import { DIALECT_URIS, knownKeywords } from './schema-keywords.js';
import type { SchemaDialect, SchemaProblem } from './schema-keywords.js';
import { inlineSchema, pointerToPath, usesDynamicScope } from './schema-refs.js';
import { checkEngineLimits } from './schema-engine.js';
import { patternError, walkSchema } from './schema-rules.js';
import { schemaForAjv } from '../emit/ajv-schema.js';
import { STRICT } from './meta-schema.js';
import { metaValidators } from './meta-validators.gen.js';

type AjvLike = {
  errorsText(errors?: ErrorObject[] | null): string;
  compile(schema: unknown): unknown;
  removeSchema(schema: unknown): unknown;
};
/**
 * The ajv for the strict compile check: only whether the schema compiles matters (strict-mode errors
 * and bad patterns are raised while ajv generates code), so the optimizer is skipped and a stub is
 * evaluated in place of the code. The stub would also stand in for the meta-schema's validator, so
 * the meta-schema check is done by the compiled meta validators.
 */
const COMPILE_CHECK = {
  ...STRICT,
  allErrors: false,
  validateSchema: false,
  code: { optimize: false, process: () => 'return function unused() { return true; };' },
} as const;
const require = createRequire(import.meta.url);
/** A new ajv for the compile check, with ajv-formats as the emitter's (CommonJS: `require` keeps the check synchronous). */
function newCompileChecker(): AjvLike {
  const instance = new (require('ajv/dist/2020.js') as (typeof import('ajv/dist/2020.js'))['default'])(COMPILE_CHECK);
  (require('ajv-formats') as (typeof import('ajv-formats'))['default'])(instance);
  return instance as unknown as AjvLike;
}
let compileCheckAjv: AjvLike | undefined;
/** The shared ajv of the compile check, created on first use (creating one costs milliseconds). */
const compileChecker = (): AjvLike => (compileCheckAjv ??= newCompileChecker());

/**
 * Every way `schema` breaks the meta-schema of `dialect` (a keyword with a value of the wrong type, a negative
 * `maxLength`…) as ajv reports it, or an empty list. The dialect is the caller's (any spelling of `$schema`
 * toolroute accepts), not looked up by the `$schema` URI.
 *
 * @example
 * metaSchemaErrors('2020-12', { type: 'object' }); // → []
 * metaSchemaErrors('2020-12', { minLength: -1 })[0].instancePath; // → '/minLength'
 */
export function metaSchemaErrors(dialect: SchemaDialect, schema: unknown): ErrorObject[] {
  const validate = metaValidators[dialect];
  return validate(schema) ? [] : [...(validate.errors ?? [])];
}

/** What `expandParameters` returns. */
export interface ExpandedParameters {
  /** The full schema: shorthand expanded, local refs inlined, `$defs` and `$schema` removed, in draft 2020-12 form. */
  readonly schema: JsonSchema;
  readonly shorthand: boolean;
  readonly problems: SchemaProblem[];
  /** What does not stop generation (an unknown `format`): reported as warnings. */
  readonly warnings: SchemaProblem[];
}

/**
 * Whether `parameters` is the shorthand properties map (schema/README.md): a JSON Schema has a
 * `type` key, a `properties` key or a key starting with `$`. The shorthand means
 * `{ type: object, properties: <map> }`, every property optional, as the reference library reads it.
 *
 * @example
 * isShorthand({ path: { type: 'string' } }); // true
 * isShorthand({ type: 'object', properties: {} }); // false
 */
export function isShorthand(parameters: Record<string, unknown>): boolean {
  return !('type' in parameters) && !('properties' in parameters) && !Object.keys(parameters).some((k) => k.startsWith('$'));
}

/**
 * Checks a tool's `parameters` and produces its normalized form (meaningful only without problems).
 * Problem paths are relative to `parameters`.
 *
 * @example
 * expandParameters({ path: { type: 'string' } }).schema;
 * // { type: 'object', properties: { path: { type: 'string' } } }
 */
export function expandParameters(parameters: Record<string, unknown>): ExpandedParameters {
  const problems: SchemaProblem[] = [];
  const warnings: SchemaProblem[] = [];
  const shorthand = isShorthand(parameters);
  let full: Record<string, unknown>;
  /** Maps a path in `full` back to a path in what the user wrote. */
  let toSpec: (p: (string | number)[]) => (string | number)[] = (p) => p;

  if (shorthand) {
    for (const [key, value] of Object.entries(parameters)) {
      if (!isRecord(value)) {
        const keywordLike = knownKeywords('2020-12').has(key) || key === 'items';
        problems.push({
          code: 'invalid_shorthand', path: [key], at: 'value',
          message: `in the shorthand form, ${JSON.stringify(key)} must be the schema of a property (a mapping), but it is ${describe(value)}.`,
          hint: keywordLike
            ? `${JSON.stringify(key)} looks like a JSON Schema keyword: write a full schema instead, with \`type: object\` and the arguments under \`properties:\`.`
            : 'Each key of the shorthand is an argument name and its value that argument\'s schema, e.g. `path: { type: string }`. For a full JSON Schema add `type: object` and put the arguments under `properties:`.',
        });
      }
    }
    if (problems.length > 0) return { schema: { type: 'object', properties: {} }, shorthand, problems, warnings };
    full = { type: 'object', properties: parameters };
    toSpec = (p) => (p[0] === 'properties' ? p.slice(1) : p);
  } else {
    full = parameters;
  }

  // Dialect.
  let dialect: SchemaDialect = '2020-12';
  if ('$schema' in full) {
    const uri = full.$schema;
    const found = dialectOfSchema(full);
    if (!found) {
      problems.push({ code: 'unsupported_schema_dialect', path: ['$schema'], at: 'value',
        message: `${JSON.stringify(uri)} is not a JSON Schema dialect toolroute supports.`,
        hint: 'Use "https://json-schema.org/draft/2020-12/schema" (the default when `$schema` is absent) or "http://json-schema.org/draft-07/schema#".' });
      return { schema: {}, shorthand, problems, warnings };
    }
    dialect = found;
  }

  // Keywords, types, formats, required, refs — our own checks say more than the meta-schema would.
  const found: SchemaProblem[] = [];
  walkSchema(full, [], dialect, full, found, toSpec);
  // A `$` key makes a map of properties a full schema (see isShorthand): its property names then read as unknown keywords.
  const dollar = !shorthand && !('type' in full) && !('properties' in full) ? Object.keys(full).find((k) => k.startsWith('$')) : undefined;
  for (const p of found) {
    const hint = dollar !== undefined && p.code === 'unknown_schema_keyword' && p.path.length === 1 ? `\`parameters\` has a key starting with \`$\` (${JSON.stringify(dollar)}), so it is read as a full JSON Schema, not as the shorthand map of properties: write \`type: object\` and put the names under \`properties:\` (where a name may start with \`$\`).` : p.hint;
    (p.severity === 'warning' ? warnings : problems).push({ ...p, hint });
  }

  // The meta-schema catches the rest (a keyword with a value of the wrong type, a negative maxLength…).
  const metaErrors = metaSchemaErrors(dialect, full);
  if (metaErrors.length > 0) {
    const reported = problems.map((p) => formatPath(p.path));
    const byPath = new Map<string, ErrorObject[]>();
    for (const e of metaErrors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
    for (const [pointer, errors] of byPath) {
      const path = toSpec(pointerToPath(pointer));
      const p = formatPath(path);
      if (reported.some((r) => r === p || p.startsWith(`${r}.`) || p.startsWith(`${r}[`) || r.startsWith(`${p}.`) || r.startsWith(`${p}[`))) continue;
      const messages = [...new Set(errors.filter((e) => !['anyOf', 'oneOf', 'allOf', 'if', '$ref', '$dynamicRef'].includes(e.keyword)).map((e) => (e.message ?? e.keyword).replace(/^must be ([a-z]+),([a-z]+)$/, 'must be $1 or $2')))];
      problems.push({ code: 'invalid_schema', path, at: 'value',
        message: `not a valid JSON Schema here: ${messages.join('; ') || 'does not match the meta-schema'}.`,
        hint: `Fix this keyword's value (JSON Schema ${dialect}); see https://json-schema.org/understanding-json-schema/reference.` });
    }
  }
  if (problems.length > 0) return { schema: {}, shorthand, problems, warnings };

  // Inline local refs (refusing recursion), convert draft-07 to 2020-12, drop $defs and $schema.
  const inlined = inlineSchema(full, dialect, problems, toSpec);
  if (problems.length > 0) return { schema: {}, shorthand, problems, warnings };
  // What ajv, which compiles the validators, would evaluate differently from the spec.
  checkEngineLimits(inlined, [], problems, toSpec);
  if (problems.length > 0) return { schema: {}, shorthand, problems, warnings };

  // Tool arguments are always an object.
  if (inlined.type !== 'object') {
    const written = full.type;
    problems.push({ code: 'parameters_not_object', path: 'type' in full ? ['type'] : [], at: 'value',
      message: written === undefined
        ? 'parameters is a JSON Schema without `type: object`.'
        : `parameters must be a JSON Schema of type "object", but its type is ${JSON.stringify(inlined.type ?? written)}.`,
      hint: 'Tool arguments are always an object: write `type: object` and list the arguments under `properties:`.' });
    return { schema: {}, shorthand, problems, warnings };
  }

  // Last line of defence: the normalized schema (always 2020-12 form) must compile under ajv's strict
  // mode, as the emitted validators do.
  try {
    strictCompileCheck(inlined, { skipProvable: true });
  } catch (err) {
    problems.push({ code: 'invalid_schema', path: [], at: 'value',
      message: `this schema does not compile: ${err instanceof Error ? err.message : String(err)}.`,
      hint: 'Fix the schema; toolroute compiles argument validators with ajv in strict mode.' });
  }
  return { schema: inlined, shorthand, problems, warnings };
}

/** The dialect a schema's `$schema` names (2020-12 without one), or undefined for one toolroute does not support. */
function dialectOfSchema(full: Record<string, unknown>): SchemaDialect | undefined {
  if (!('$schema' in full)) return '2020-12';
  const uri = full.$schema;
  return typeof uri === 'string' ? DIALECT_URIS[uri.replace(/#$/, '').replace(/^http:\/\/json-schema\.org\/draft\/2020-12/, 'https://json-schema.org/draft/2020-12').replace(/^https:\/\/json-schema\.org\/draft-07/, 'http://json-schema.org/draft-07')] : undefined;
}

/**
 * The strict compile check of a normalized (2020-12) schema: throws what ajv throws. With
 * `skipProvable`, the compile is skipped where `compileCannotFail` proves it succeeds.
 *
 * @example
 * strictCompileCheck({ type: 'object', properties: { a: { pattern: '(' } } }); // throws: Invalid regular expression…
 */
export function strictCompileCheck(schema: JsonSchema, options: { skipProvable?: boolean } = {}): void {
  // A `$ref` may have pulled data (an enum value) into a schema position: the inlined form against the meta-schema.
  const metaErrors = metaSchemaErrors('2020-12', schema);
  if (metaErrors.length > 0) throw new Error(`schema is invalid: ${compileChecker().errorsText(metaErrors)}`);
  // The copy the emitter gives ajv (a `__proto__` property becomes a pattern ajv does compile, for one).
  const copy = schemaForAjv(schema);
  if (options.skipProvable === true && compileCannotFail(copy)) return;
  // A schema kept with its `$id`s gets an ajv of its own: another tool may declare the same ids.
  const ajv2020 = usesDynamicScope(schema) ? newCompileChecker() : compileChecker();
  try {
    ajv2020.compile(copy);
  } finally {
    // ajv caches every schema it compiled by object; this one is never compiled again here.
    ajv2020.removeSchema(copy);
  }
}

/** Keywords whose value is one subschema. */
const ONE_SUBSCHEMA = new Set(['additionalProperties', 'items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems']);
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/**
 * Keywords ajv compiles (with the compile check's options) without throwing once the meta-schema
 * accepted them, read off ajv's sources: `enum` throws only when empty, `pattern` and
 * `patternProperties` only for a pattern `new RegExp(p, 'u')` refuses. Anything else is compiled.
 */
const CANNOT_THROW = new Set([
  'type', 'enum', 'const', 'required', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains',
  'minProperties', 'maxProperties', 'format', 'title', 'description', 'default', 'examples', 'deprecated',
  'readOnly', 'writeOnly', '$comment', 'properties', 'patternProperties', ...ONE_SUBSCHEMA, ...SUBSCHEMA_LISTS,
]);

/** Whether ajv's regular expression engine accepts `pattern`. */
const compilesAsPattern = (pattern: unknown): boolean => typeof pattern === 'string' && patternError(pattern) === undefined;

/**
 * True when ajv's strict compile of `schema` (normalized, meta-schema accepted) provably succeeds:
 * every keyword at every depth is in CANNOT_THROW. False means "compile it and see".
 *
 * @example
 * compileCannotFail({ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } }); // true
 * compileCannotFail({ type: 'object', properties: { a: { enum: [] } } });                      // false
 */
export function compileCannotFail(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isRecord(schema)) return false;
  for (const [key, value] of Object.entries(schema)) {
    if (!CANNOT_THROW.has(key)) return false;
    if (ONE_SUBSCHEMA.has(key)) {
      if (!compileCannotFail(value)) return false;
    } else if (SUBSCHEMA_LISTS.has(key)) {
      if (!Array.isArray(value) || !value.every(compileCannotFail)) return false;
    } else if (key === 'properties' || key === 'patternProperties') {
      if (!isRecord(value)) return false;
      for (const [name, sub] of Object.entries(value)) if ((key === 'patternProperties' && !compilesAsPattern(name)) || !compileCannotFail(sub)) return false;
    } else if (key === 'enum') {
      if (!Array.isArray(value) || value.length === 0) return false;
    } else if (key === 'pattern') {
      if (!compilesAsPattern(value)) return false;
    }
  }
  return true;
}

/** Expansions computed for each loaded spec, by parameters content (see `expandToolParameters`). */
const expansions = new WeakMap<LoadedSpec, Map<string, ExpandedParameters>>();

/**
 * `expandParameters`, once per distinct content in `spec`: validate and normalize both need it, and
 * large specs reuse a few schemas across many tools. Keyed by content, so an edited value is never
 * served a stale result. The result may be shared: read it, never change it.
 *
 * @example
 * expandToolParameters(loaded.spec, { path: { type: 'string' } }).schema;
 * // { type: 'object', properties: { path: { type: 'string' } } }
 */
export function expandToolParameters(spec: LoadedSpec, parameters: Record<string, unknown>): ExpandedParameters {
  const key = contentKey(parameters);
  if (key === undefined) return expandParameters(parameters);
  let cache = expansions.get(spec);
  if (cache === undefined) {
    cache = new Map();
    expansions.set(spec, cache);
  }
  let expanded = cache.get(key);
  if (expanded === undefined) {
    expanded = expandParameters(parameters);
    cache.set(key, expanded);
  }
  return expanded;
}

/**
 * A string equal for two values exactly when they are the same JSON data (key order included;
 * `-0`, `NaN` and infinities kept apart), or undefined for what is not plain data (a TS spec may
 * hold functions or zod schemas). Plain JSON is keyed by its JSON text.
 *
 * @example
 * contentKey({ a: [1, 'x'] });  // '{"a":[1,"x"]}'
 * contentKey({ a: [-0] });      // '\u0000{"a":[n-0,],}'
 */
export function contentKey(value: unknown): string | undefined {
  const kind = plainKind(value);
  if (kind === NOT_PLAIN) return undefined;
  return kind === PLAIN_JSON ? JSON.stringify(value) : `\u0000${specialKey(value)}`;
}

const NOT_PLAIN = 0;
const PLAIN_JSON = 1;
/** Plain data JSON.stringify would not keep apart: -0, NaN, ±Infinity. */
const PLAIN_SPECIAL = 2;

/** Whether a value is plain data, and whether JSON text alone says all of it. */
function plainKind(v: unknown): number {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return PLAIN_JSON;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) ? PLAIN_JSON : PLAIN_SPECIAL;
    case 'object': {
      if (v === null) return PLAIN_JSON;
      let kind = PLAIN_JSON;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const k = plainKind(v[i]); // a hole reads as undefined: not plain
          if (k === NOT_PLAIN) return NOT_PLAIN;
          if (k === PLAIN_SPECIAL) kind = PLAIN_SPECIAL;
        }
        return kind;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        const c = plainKind((v as Record<string, unknown>)[k]);
        if (c === NOT_PLAIN) return NOT_PLAIN;
        if (c === PLAIN_SPECIAL) kind = PLAIN_SPECIAL;
      }
      return kind;
    }
    default:
      return NOT_PLAIN;
  }
}

/** The encoding of plain data holding special numbers: every item ends in a comma, so no two values run together. */
function specialKey(value: unknown): string {
  const parts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'number') parts.push(Object.is(v, -0) ? 'n-0' : `n${v}`);
    else if (typeof v !== 'object' || v === null) parts.push(JSON.stringify(v));
    else if (Array.isArray(v)) {
      parts.push('[');
      for (const item of v) {
        walk(item);
        parts.push(',');
      }
      parts.push(']');
    } else {
      parts.push('{');
      for (const [k, item] of Object.entries(v)) {
        parts.push(JSON.stringify(k), ':');
        walk(item);
        parts.push(',');
      }
      parts.push('}');
    }
  };
  walk(value);
  return parts.join('');
}
