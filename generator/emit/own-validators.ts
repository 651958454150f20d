/**
 * toolroute's own validator code for the JSON Schema that real tool schemas
 * use, so that ajv — about half of a codegen's time when every tool has its
 * own schema, and megabytes of generated code — runs only for the rest.
 *
 * The contract: for every schema this module accepts, the validator it
 * emits behaves exactly like the ajv standalone validator validators.ts
 * would emit for it (allErrors, strictNumbers, ajv-formats, draft-07): the
 * same return value and the same `validate.errors` — the same error
 * objects, keys in ajv's order, in ajv's order, `null` when valid.
 * test/generator/own-validators.test.ts holds it to that, differentially,
 * on the JSON Schema Test Suite, the MCP corpus and random schemas.
 *
 * Each validator is two parts:
 *
 * - a tight check, compiled per schema: plain comparisons that leave a
 *   labelled block (`break c`) at the first failure, with no error
 *   bookkeeping. A valid call runs only this, and sets `errors = null`.
 * - on a failure, one error collector shared by the whole module
 *   (`COLLECTOR`): it walks the schema (shipped as JSON text, parsed on the
 *   first rejection) in ajv's keyword order and reports ajv's errors. Its
 *   answer decides: the tight check only chooses when it is needed.
 *
 * ajv's order, which the collector follows: ajv groups keywords by the data
 * type they apply to (its `RULES`): first the untyped ones (`const`,
 * `enum`, `not`, `anyOf`, `oneOf`, `allOf`), then number (`maximum`,
 * `minimum`, `exclusiveMaximum`, `exclusiveMinimum`, `multipleOf`,
 * `format`), string (`maxLength`, `minLength`, `pattern`, `format`), array
 * (`maxItems`, `minItems`, `items`, `uniqueItems`) and object
 * (`maxProperties`, `minProperties`, `required`, `additionalProperties`,
 * `properties`),
 * each group guarded by a check of the data's type. (`uniqueItems` comes
 * after `items`: items.ts registers itself `before` it.) The `type` keyword is
 * checked before everything, except when it names exactly one of those
 * four types and the schema has a keyword of that group: then its error is
 * the group's `else` branch (ajv's `coerceAndCheckDataType`).
 *
 * Outside the subset (`ownValidatorCode` returns `undefined`, and the schema
 * goes to ajv as before): every other keyword (`if`/`then`/`else`,
 * `patternProperties`, `dependencies`, `contains`, `propertyNames`,
 * `nullable`, `$id`, …), `uniqueItems` on items not all of primitive types
 * (ajv compares those with fast-deep-equal), `const` or
 * `enum` with an object or array value (ajv compares those with
 * fast-deep-equal, which calls a data object's own `valueOf`), a property
 * named like an `Object.prototype` member (ajv's `ownProperties`), a
 * `default` when the spec fills defaults (ajv's `useDefaults` writes into
 * the data), a format name found on `Object.prototype`, and a pattern
 * JavaScript cannot compile with the `u` flag.
 */
import { createRequire } from 'node:module';
import type { JsonSchema, JsonValue } from '../ir.js';
import { jsonTextLiteral, tsString } from './code.js';
import { PROTOTYPE_NAMES } from './prototype-names.js';

let fullFormats: Record<string, unknown> | undefined;

/**
 * ajv-formats' full formats (what `addFormats(ajv)` adds), read at codegen to
 * know each format's kind; the generated code imports the same module.
 * Loaded on first use (CommonJS, through `require`): most schemas have no
 * `format`.
 */
function formats(): Record<string, unknown> {
  fullFormats ??= (createRequire(import.meta.url)('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> }).fullFormats;
  return fullFormats;
}

/** The module the generated code imports ajv-formats' formats from (the same file ajv's own code requires). */
export const FORMATS_SPECIFIER = 'ajv-formats/dist/formats.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
/** Keywords that do nothing in ajv (annotations), accepted anywhere. `default` only while defaults are not applied. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const NUMBER_LIMITS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const;
const COUNTS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties']);

type SchemaNode = JsonSchema | boolean;

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Whether `schema` (as validators.ts hands it to ajv: after `schemaForAjv`)
 * is in the own emitter's subset. Pure.
 *
 * @example
 * inOwnSubset({ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } }, false); // → true
 * inOwnSubset({ type: 'object', allOf: [{ required: ['a'] }] }, false);                      // → false (allOf: ajv)
 */
export function inOwnSubset(schema: JsonSchema, applyDefaults: boolean): boolean {
  return isObject(schema) && nodeInSubset(schema, applyDefaults);
}

function nodeInSubset(node: SchemaNode, applyDefaults: boolean): boolean {
  if (typeof node === 'boolean') return true;
  if (!isObject(node)) return false;
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    switch (key) {
      case 'default':
        if (applyDefaults) return false;
        continue;
      case 'type':
        if (typeof value === 'string') {
          if (!TYPES.has(value)) return false;
        } else if (!Array.isArray(value) || value.length === 0 || new Set(value).size !== value.length || !value.every((t) => typeof t === 'string' && TYPES.has(t))) return false;
        continue;
      case 'properties':
        if (!isObject(value)) return false;
        for (const [name, sub] of Object.entries(value)) {
          if (PROTOTYPE_NAMES.has(name) || !pathSafe(name) || !nodeInSubset(sub as SchemaNode, applyDefaults)) return false;
        }
        continue;
      case 'required':
        if (!Array.isArray(value) || !value.every((n) => typeof n === 'string' && !PROTOTYPE_NAMES.has(n))) return false;
        continue;
      case 'additionalProperties':
      case 'items':
      case 'not':
        if (!nodeInSubset(value as SchemaNode, applyDefaults)) return false;
        continue;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        if (!Array.isArray(value) || value.length === 0 || !value.every((s) => nodeInSubset(s as SchemaNode, applyDefaults))) return false;
        continue;
      case 'enum':
        if (!Array.isArray(value) || value.length === 0 || !value.every(isPrimitive)) return false;
        continue;
      case 'const':
        if (!isPrimitive(value)) return false;
        continue;
      case 'format':
        // A name found on Object.prototype would be "known" to ajv's format table by inheritance.
        if (typeof value !== 'string' || (value in {} && !Object.hasOwn(formats(), value))) return false;
        continue;
      case 'uniqueItems': {
        // ajv compares items by a key in a plain object when `items` names only primitive types
        // (uniqueItems.ts loopN), which is reproduced here; otherwise with fast-deep-equal, which stays ajv's.
        if (typeof value !== 'boolean') return false;
        if (value && primitiveItemTypes(node['items']) === undefined) return false;
        continue;
      }
      case 'pattern':
        if (typeof value !== 'string' || !compiles(value)) return false;
        continue;
      case 'multipleOf':
        if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return false;
        continue;
      default:
        if (COUNTS.has(key)) {
          if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return false;
          continue;
        }
        if ((NUMBER_LIMITS as readonly string[]).includes(key)) {
          if (typeof value !== 'number' || !Number.isFinite(value)) return false;
          continue;
        }
        return false;
    }
  }
  return true;
}

/**
 * Whether a `format` keyword occurs at a schema position of `node`, walking
 * exactly the keywords the own subset has subschemas under (the ones the
 * collector descends into): `properties`, `additionalProperties`, `items`,
 * `not`, `anyOf`, `oneOf`, `allOf`. A key named `format` elsewhere (a
 * property name, inside `enum`, `const`, `default` or `examples`) is data.
 *
 * @example
 * hasFormatKeyword({ type: 'object', properties: { format: { enum: ['csv'] } } }); // → false
 * hasFormatKeyword({ anyOf: [{ type: 'string', format: 'date' }] });               // → true
 */
export function hasFormatKeyword(node: JsonValue | undefined): boolean {
  if (!isObject(node)) return false;
  if (node['format'] !== undefined) return true;
  const properties = node['properties'];
  if (isObject(properties)) for (const key of Object.keys(properties)) if (hasFormatKeyword(properties[key])) return true;
  for (const key of ['additionalProperties', 'items', 'not'] as const) if (hasFormatKeyword(node[key])) return true;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list) && list.some((s) => hasFormatKeyword(s))) return true;
  }
  return false;
}

/** The types `items` declares when they are all primitive (ajv's `canOptimize` for uniqueItems), else undefined. */
function primitiveItemTypes(items: JsonValue | undefined): string[] | undefined {
  if (!isObject(items)) return undefined;
  const t = items['type'];
  const types = typeof t === 'string' ? [t] : Array.isArray(t) ? (t as string[]) : [];
  return types.length > 0 && !types.some((x) => x === 'object' || x === 'array') ? types : undefined;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** ajv writes a property's schema path with `encodeURIComponent`, which throws on a lone surrogate: such names stay with ajv. */
function pathSafe(name: string): boolean {
  try {
    encodeURIComponent(name);
    return true;
  } catch {
    return false;
  }
}

/** What the own validators of one module share: module-level declarations, in order of first use. */
export class OwnValidators {
  /** Validators emitted so far. */
  count = 0;
  readonly #regexps = new Map<string, string>();
  readonly #formats = new Map<string, string>();
  readonly #declarations: string[] = [];
  #usesFormats = false;

  /**
   * The code of validator `name` for `schema`, or `undefined` when the
   * schema is outside the subset (it then goes to ajv).
   *
   * @example
   * const own = new OwnValidators();
   * own.validator({ type: 'object', required: ['a'] }, 'o0', false); // 'let o0s;\nfunction o0(data) {…}'
   */
  validator(schema: JsonSchema, name: string, applyDefaults: boolean): string | undefined {
    if (!inOwnSubset(schema, applyDefaults)) return undefined;
    this.count++;
    const gen = new TightGen(this);
    gen.node(schema, 'data', 'break c;');
    const body = gen.out;
    const json = JSON.stringify(schema);
    // The collector reads ajv-formats' table for any `format` keyword, also one the tight check skipped (an
    // unknown name, a later anyOf branch). Found by walking the schema positions the collector visits, not by
    // searching the text: a property named "format" (common in tool schemas: an export's file format) is no
    // keyword, and the import it used to add cost every process ~7 ms at start-up (a CommonJS module loaded
    // from ESM, cjs-module-lexer over ajv-formats' long regular expressions) for a table nothing reads.
    if (!this.#usesFormats && hasFormatKeyword(schema)) this.#usesFormats = true;
    const text = jsonTextLiteral(json);
    return [
      `let ${name}s;`,
      `function ${name}(data) {`,
      'c: {',
      ...body,
      `${name}.errors = null;`,
      'return true;',
      '}',
      `return __ownReject(${name}, data, ${name}s ??= ${text});`,
      '}',
    ].join('\n');
  }

  /** A module-level RegExp for `pattern` (one per distinct pattern in the module). */
  regexp(pattern: string): string {
    let name = this.#regexps.get(pattern);
    if (name === undefined) {
      name = `__ownRe${this.#regexps.size}`;
      this.#regexps.set(pattern, name);
      // ajv compiles patterns with `new RegExp(pattern, "u")` (its unicodeRegExp default).
      this.#declarations.push(`const ${name} = new RegExp(${tsString(pattern)}, "u");`);
    }
    return name;
  }

  /** A module-level binding of ajv-formats' definition of `format`. */
  format(format: string): string {
    let name = this.#formats.get(format);
    if (name === undefined) {
      name = `__ownFormat${this.#formats.size}`;
      this.#formats.set(format, name);
      this.#declarations.push(`const ${name} = __ownFormats[${tsString(format)}];`);
      // Set by the walk in `validator` too; here as well so that no binding can read an undeclared table.
      this.#usesFormats = true;
    }
    return name;
  }

  /** A module-level constant (a Set of names or values). */
  declare(prefix: string, code: string): string {
    const name = `${prefix}${this.#declarations.length}`;
    this.#declarations.push(`const ${name} = ${code};`);
    return name;
  }

  /**
   * The module-level code the validators need (the collector, the format
   * table, patterns and sets), to be placed before them; '' when none was
   * emitted. `formatsBinding` names the import of `FORMATS_SPECIFIER`.
   *
   * @example
   * own.helpers(() => '__ajvRuntime0'); // 'const __ownFormats = __ajvRuntime0.fullFormats;\n…'
   */
  helpers(formatsBinding: () => string): string {
    if (this.count === 0) return '';
    const formats = this.#usesFormats ? [`const __ownFormats = ${formatsBinding()}.fullFormats;`] : [];
    return [...formats, COLLECTOR, ...this.#declarations].join('\n');
  }
}

/**
 * `tsString`, remembered: property names and enum values repeat across a
 * spec's schemas (a thousand tools with `name`, `owner`, …). Bounded so a
 * huge spec cannot grow it without limit.
 */
const stringLiterals = new Map<string, string>();
function stringLiteral(text: string): string {
  let literal = stringLiterals.get(text);
  if (literal === undefined) {
    literal = tsString(text);
    if (stringLiterals.size >= 50_000) stringLiterals.clear();
    stringLiterals.set(text, literal);
  }
  return literal;
}

/** A JS literal for a JSON primitive (strings through `tsString`; numbers as JS prints them, the way ajv writes them into code). */
function literal(value: string | number | boolean | null): string {
  return typeof value === 'string' ? stringLiteral(value) : String(value);
}

/** `v.name` for identifier names, `v["…"]` otherwise. */
function member(v: string, name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${v}.${name}` : `${v}[${stringLiteral(name)}]`;
}

/** A boolean expression: `v` is one of `types`, as ajv's `checkDataTypes` with `strictNumbers` decides it. */
function typeTest(types: readonly string[], v: string): string {
  const set = new Set(types);
  if (set.has('number')) set.delete('integer');
  const parts = [...set].map((t) => {
    switch (t) {
      case 'null':
        return `${v} === null`;
      case 'array':
        return `Array.isArray(${v})`;
      case 'object':
        return `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`;
      case 'number':
        return `Number.isFinite(${v})`;
      case 'integer':
        return `Number.isInteger(${v})`;
      default:
        return `typeof ${v} === ${stringLiteral(t)}`;
    }
  });
  return parts.join(' || ');
}

/** The data types a value can still have once `type` passed, by ajv's keyword group. */
const GROUP_TYPES = { number: ['number', 'integer'], string: ['string'], array: ['array'], object: ['object'] } as const;

/**
 * Generates one validator's tight check into one list of lines (`out`):
 * each method appends, and a block that turned out empty is taken back, so
 * no line is copied twice however deep the schema.
 */
class TightGen {
  #n = 0;
  readonly #own: OwnValidators;
  readonly out: string[] = [];

  constructor(own: OwnValidators) {
    this.#own = own;
  }

  #name(prefix: string): string {
    return `${prefix}${this.#n++}`;
  }

  /** Appends `open`, then what `body` appends, then `close`; nothing at all when `body` appends nothing. Answers whether it did. */
  #block(open: string, body: () => void, close = '}'): boolean {
    const out = this.out;
    const start = out.length;
    out.push(open);
    body();
    if (out.length === start + 1) {
      out.pop();
      return false;
    }
    out.push(close);
    return true;
  }

  /** Appends statements that run `fail` when `v` is invalid against `node` and fall through when it is valid. */
  node(node: SchemaNode, v: string, fail: string): void {
    const out = this.out;
    if (node === true) return;
    if (node === false) {
      out.push(fail);
      return;
    }
    const s = node as Record<string, JsonValue>;
    const declared = s['type'];
    const types = declared === undefined ? undefined : typeof declared === 'string' ? [declared] : (declared as string[]);
    if (types !== undefined) out.push(`if (!(${typeTest(types, v)})) ${fail}`);
    /** Whether, once `type` passed, the data can be of a group's type, and whether it is sure to be. */
    const can = (group: keyof typeof GROUP_TYPES) => types === undefined || types.some((t) => (GROUP_TYPES[group] as readonly string[]).includes(t));
    const sure = (group: keyof typeof GROUP_TYPES) => types !== undefined && types.every((t) => (GROUP_TYPES[group] as readonly string[]).includes(t));

    const constValue = s['const'];
    if (constValue !== undefined) out.push(`if (${v} !== ${literal(constValue as string)}) ${fail}`);
    const values = s['enum'] as (string | number | boolean | null)[] | undefined;
    if (values !== undefined) {
      if (values.length <= 8) out.push(`if (${values.map((x) => `${v} !== ${literal(x)}`).join(' && ')}) ${fail}`);
      else out.push(`if (!${this.#own.declare('__ownSet', `new Set(${jsonTextLiteral(JSON.stringify(values))})`)}.has(${v})) ${fail}`);
    }
    const not = s['not'] as SchemaNode | undefined;
    if (not !== undefined) {
      // Passing the subschema fails the keyword.
      const b = this.#name('b');
      if (!this.#block(`${b}: {`, () => this.node(not, v, `break ${b};`), `${fail}\n}`)) out.push(fail);
    }
    const anyOf = s['anyOf'] as SchemaNode[] | undefined;
    if (anyOf !== undefined) this.#anyOf(anyOf, v, fail);
    const oneOf = s['oneOf'] as SchemaNode[] | undefined;
    if (oneOf !== undefined) this.#oneOf(oneOf, v, fail);
    const allOf = s['allOf'] as SchemaNode[] | undefined;
    if (allOf !== undefined) for (const branch of allOf) this.node(branch, v, fail);

    const group = (name: keyof typeof GROUP_TYPES, guard: string, body: () => void) => {
      if (!can(name)) return;
      if (sure(name)) body();
      else this.#block(`if (${guard}) {`, body);
    };
    group('number', `Number.isFinite(${v})`, () => this.#number(s, v, fail));
    group('string', `typeof ${v} === "string"`, () => this.#string(s, v, fail));
    group('array', `Array.isArray(${v})`, () => this.#array(s, v, fail));
    group('object', `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`, () => this.#object(s, v, fail));
  }

  /** `format`'s check for data of `type` ('number' or 'string'), as ajv calls the format: undefined when it checks nothing there. */
  #format(format: JsonValue | undefined, type: 'number' | 'string', v: string): string | undefined {
    if (typeof format !== 'string' || !Object.hasOwn(formats(), format)) return undefined; // unknown formats: ajv ignores them (strict off)
    const def = formats()[format];
    if (def === true) return undefined;
    if (def instanceof RegExp) return type === 'string' ? `${this.#own.format(format)}.test(${v})` : undefined;
    if (typeof def === 'function') return type === 'string' ? `${this.#own.format(format)}(${v})` : undefined;
    const { type: own = 'string', validate } = def as { type?: string; validate: unknown };
    if (own !== type) return undefined;
    const f = this.#own.format(format);
    return validate instanceof RegExp ? `${f}.validate.test(${v})` : `${f}.validate(${v})`;
  }

  #number(s: Record<string, JsonValue>, v: string, fail: string): void {
    const ops = { maximum: '>', minimum: '<', exclusiveMaximum: '>=', exclusiveMinimum: '<=' } as const;
    for (const k of NUMBER_LIMITS) if (s[k] !== undefined) this.out.push(`if (${v} ${ops[k]} ${String(s[k])}) ${fail}`);
    // ajv's test, parseInt and all (1e21 / 1 is "not a multiple": parseInt reads "1e+21" as 1).
    const step = s['multipleOf'];
    if (step !== undefined) this.out.push(`if (${v} / ${String(step)} !== parseInt(${v} / ${String(step)})) ${fail}`);
    const format = this.#format(s['format'], 'number', v);
    if (format !== undefined) this.out.push(`if (!${format}) ${fail}`);
  }

  #string(s: Record<string, JsonValue>, v: string, fail: string): void {
    const out = this.out;
    // Lengths count code points (ajv's ucs2length); a string has at least length/2 and at most length of them, so most strings are decided without counting.
    const max = s['maxLength'] as number | undefined;
    if (max !== undefined) out.push(`if (${v}.length > ${max} && __ajvUcs2length(${v}) > ${max}) ${fail}`);
    const min = s['minLength'] as number | undefined;
    if (min !== undefined && min > 0) out.push(`if (${v}.length < ${2 * min} && __ajvUcs2length(${v}) < ${min}) ${fail}`);
    const pattern = s['pattern'];
    if (typeof pattern === 'string') out.push(`if (!${this.#own.regexp(pattern)}.test(${v})) ${fail}`);
    const format = this.#format(s['format'], 'string', v);
    if (format !== undefined) out.push(`if (!${format}) ${fail}`);
  }

  #array(s: Record<string, JsonValue>, v: string, fail: string): void {
    const out = this.out;
    const max = s['maxItems'] as number | undefined;
    if (max !== undefined) out.push(`if (${v}.length > ${max}) ${fail}`);
    const min = s['minItems'] as number | undefined;
    if (min !== undefined && min > 0) out.push(`if (${v}.length < ${min}) ${fail}`);
    if (s['uniqueItems'] === true) {
      // ajv's loopN, statement for statement (same keys, so the same verdicts, quirks included).
      const types = primitiveItemTypes(s['items'])!;
      const i = this.#name('i');
      const seen = this.#name('u');
      const x = this.#name('x');
      out.push(
        `if (${v}.length > 1) {`,
        `const ${seen} = {};`,
        `for (let ${i} = ${v}.length; ${i}--;) {`,
        `let ${x} = ${v}[${i}];`,
        `if (!(${typeTest(types, x)})) continue;`,
      );
      if (types.length > 1) out.push(`if (typeof ${x} == "string") ${x} += "_";`);
      out.push(`if (typeof ${seen}[${x}] == "number") ${fail}`, `${seen}[${x}] = ${i};`, '}', '}');
    }
    const items = s['items'] as SchemaNode | undefined;
    if (items !== undefined) {
      const i = this.#name('i');
      const x = this.#name('x');
      this.#block(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, () => {
        const start = out.length;
        out.push(`const ${x} = ${v}[${i}];`);
        this.node(items, x, fail);
        if (out.length === start + 1) out.pop();
      });
    }
  }

  #object(s: Record<string, JsonValue>, v: string, fail: string): void {
    const out = this.out;
    const properties = (s['properties'] ?? {}) as Record<string, SchemaNode>;
    const names = Object.keys(properties);
    const maxProps = s['maxProperties'];
    const minProps = s['minProperties'];
    if (maxProps !== undefined) out.push(`if (Object.keys(${v}).length > ${String(maxProps)}) ${fail}`);
    if (minProps !== undefined && minProps !== 0) out.push(`if (Object.keys(${v}).length < ${String(minProps)}) ${fail}`);
    const required = new Set((s['required'] ?? []) as string[]);
    for (const name of required) if (!Object.hasOwn(properties, name)) out.push(`if (${member(v, name)} === undefined) ${fail}`);
    for (const name of names) {
      const x = this.#name('x');
      if (required.has(name)) {
        out.push(`const ${x} = ${member(v, name)};`, `if (${x} === undefined) ${fail}`);
        this.node(properties[name]!, x, fail);
      } else {
        const start = out.length;
        out.push(`const ${x} = ${member(v, name)};`);
        if (!this.#block(`if (${x} !== undefined) {`, () => this.node(properties[name]!, x, fail))) out.length = start;
      }
    }
    const additional = s['additionalProperties'] as SchemaNode | undefined;
    if (additional !== undefined && additional !== true) {
      const k = this.#name('k');
      // A key is additional when `properties` does not have it as its own (ajv: `===` for up to 8 names, hasOwnProperty beyond).
      const known =
        names.length === 0
          ? undefined
          : names.length <= 8
            ? names.map((n) => `${k} === ${stringLiteral(n)}`).join(' || ')
            : `${this.#own.declare('__ownKeys', `new Set(${jsonTextLiteral(JSON.stringify(names))})`)}.has(${k})`;
      if (additional === false) {
        out.push(`for (const ${k} in ${v}) {`, known === undefined ? fail : `if (!(${known})) ${fail}`, '}');
      } else {
        const x = this.#name('x');
        const check = () => {
          const start = out.length;
          out.push(`const ${x} = ${v}[${k}];`);
          this.node(additional, x, fail);
          if (out.length === start + 1) out.pop();
        };
        this.#block(`for (const ${k} in ${v}) {`, known === undefined ? check : () => this.#block(`if (!(${known})) {`, check));
      }
    }
  }

  /** anyOf: the first branch that passes leaves the block; falling out of the last one fails. A branch that always passes makes the keyword pass. */
  #anyOf(branches: readonly SchemaNode[], v: string, fail: string): void {
    const out = this.out;
    const start = out.length;
    const label = this.#name('a');
    out.push(`${label}: {`);
    for (const branch of branches) {
      const b = this.#name('b');
      if (!this.#block(`${b}: {`, () => this.node(branch, v, `break ${b};`), `break ${label};\n}`)) {
        out.length = start; // this branch always passes: so does the anyOf
        return;
      }
    }
    out.push(fail, '}');
  }

  /** oneOf: counts the branches that pass; exactly one must. */
  #oneOf(branches: readonly SchemaNode[], v: string, fail: string): void {
    const out = this.out;
    const n = this.#name('n');
    out.push(`let ${n} = 0;`);
    for (const branch of branches) {
      const b = this.#name('b');
      if (!this.#block(`${b}: {`, () => this.node(branch, v, `break ${b};`), `${n}++;\n}`)) out.push(`${n}++;`);
    }
    out.push(`if (${n} !== 1) ${fail}`);
  }
}

/**
 * The error collector every own validator of a module shares (plain
 * JavaScript, emitted once). `__ownCollect(schema, data, instancePath,
 * schemaPath, errors)` appends ajv's errors for `data` against `schema` to
 * `errors` (null for none) and returns the list; `__ownReject` stores it on
 * the validator and answers from it. It needs `__ajvError` (ERROR_HELPERS in
 * validators.ts), `__ajvUcs2length` (UCS2_LENGTH) and, for schemas with a
 * `format`, `__ownFormats`. Each branch names the ajv source it follows.
 */
export const COLLECTOR = String.raw`const __ownLength = (E) => E === null ? 0 : E.length;
// ajv's resetErrorsCount: drop the errors a passing anyOf/oneOf branch search added.
const __ownReset = (E, n) => {
if (E === null) return E;
if (n === 0) return null;
E.length = n;
return E;
};
const __ownRegExps = new Map();
const __ownRegExp = (pattern) => {
let re = __ownRegExps.get(pattern);
if (re === undefined) {
re = new RegExp(pattern, "u");
__ownRegExps.set(pattern, re);
}
return re;
};
// dataType.ts checkDataType with strictNumbers.
const __ownIs = (t, d) => t === "object" ? d !== null && typeof d == "object" && !Array.isArray(d) : t === "array" ? Array.isArray(d) : t === "null" ? d === null : t === "number" ? typeof d == "number" && isFinite(d) : t === "integer" ? typeof d == "number" && !(d % 1) && !isNaN(d) && isFinite(d) : typeof d == t;
// dataType.ts reportTypeError: params.type is the schema's type value, the message its text ("string,null").
const __ownTypeError = (E, s, ip, sp) => __ajvError(E, ip, sp + "/type", "type", {type: s.type}, "must be " + s.type);
const __ownPointer = (key) => key.replace(/~/g, "~0").replace(/\//g, "~1");
// format/format.ts: unknown formats are ignored (strict off), true formats check nothing, a format checks only data of its own type.
const __ownFormat = (E, name, type, d, ip, sp) => {
if (!Object.prototype.hasOwnProperty.call(__ownFormats, name)) return E;
const f = __ownFormats[name];
if (f === true) return E;
const def = typeof f == "object" && !(f instanceof RegExp);
if ((def ? f.type || "string" : "string") !== type) return E;
const fn = def ? f.validate : f;
const ok = typeof fn == "function" ? (def ? f.validate(d) : f(d)) : (def ? f.validate.test(d) : f.test(d));
return ok ? E : __ajvError(E, ip, sp + "/format", "format", {format: name}, "must match format \"" + name + "\"");
};
function __ownCollect(s, d, ip, sp, E) {
if (s === true) return E;
if (s === false) return __ajvError(E, ip, sp + "/false schema", "false schema", {}, "boolean schema is false");
const t = s.type;
const T = t === undefined ? [] : typeof t == "string" ? [t] : t;
const num = s.maximum !== undefined || s.minimum !== undefined || s.exclusiveMaximum !== undefined || s.exclusiveMinimum !== undefined || s.multipleOf !== undefined || s.format !== undefined;
const str = s.maxLength !== undefined || s.minLength !== undefined || s.pattern !== undefined || s.format !== undefined;
const arr = s.maxItems !== undefined || s.minItems !== undefined || s.uniqueItems !== undefined || s.items !== undefined;
const obj = s.maxProperties !== undefined || s.minProperties !== undefined || s.required !== undefined || s.additionalProperties !== undefined || s.properties !== undefined;
const one = T.length === 1 ? T[0] : undefined;
// validate/dataType.ts coerceAndCheckDataType: type first, unless one group type whose keywords are present reports it.
const inGroup = one === "number" ? num : one === "string" ? str : one === "array" ? arr : one === "object" ? obj : false;
if (T.length > 0 && !inGroup && !T.some((x) => __ownIs(x, d))) E = __ownTypeError(E, s, ip, sp);
// validation/const.ts, enum.ts (primitive values: ===).
if (s.const !== undefined && s.const !== d) E = __ajvError(E, ip, sp + "/const", "const", {allowedValue: s.const}, "must be equal to constant");
if (s.enum !== undefined && s.enum.indexOf(d) < 0) E = __ajvError(E, ip, sp + "/enum", "enum", {allowedValues: s.enum}, "must be equal to one of the allowed values");
// applicator/not.ts: the subschema's own errors are dropped; passing it is the error.
if (s.not !== undefined) {
const n = __ownLength(E);
E = __ownCollect(s.not, d, ip, sp + "/not", E);
const passed = __ownLength(E) === n;
E = __ownReset(E, n);
if (passed) E = __ajvError(E, ip, sp + "/not", "not", {}, "must NOT be valid");
}
// vocabularies/code.ts validateUnion: branches until one passes; its failures are dropped when one does.
if (s.anyOf !== undefined) {
const n = __ownLength(E);
let valid = false;
for (let i = 0; i < s.anyOf.length && !valid; i++) {
const m = __ownLength(E);
E = __ownCollect(s.anyOf[i], d, ip, sp + "/anyOf/" + i, E);
valid = __ownLength(E) === m;
}
E = valid ? __ownReset(E, n) : __ajvError(E, ip, sp + "/anyOf", "anyOf", {}, "must match a schema in anyOf");
}
// applicator/oneOf.ts: stops at the second passing branch; passingSchemas is null, or the two that passed.
if (s.oneOf !== undefined) {
const n = __ownLength(E);
let valid = false;
let passing = null;
for (let i = 0; i < s.oneOf.length; i++) {
const m = __ownLength(E);
E = __ownCollect(s.oneOf[i], d, ip, sp + "/oneOf/" + i, E);
if (__ownLength(E) !== m) continue;
if (valid) {
valid = false;
passing = [passing, i];
break;
}
valid = true;
passing = i;
}
E = valid ? __ownReset(E, n) : __ajvError(E, ip, sp + "/oneOf", "oneOf", {passingSchemas: passing}, "must match exactly one schema in oneOf");
}
// applicator/allOf.ts: every subschema's errors, in order, none of its own.
if (s.allOf !== undefined) for (let i = 0; i < s.allOf.length; i++) E = __ownCollect(s.allOf[i], d, ip, sp + "/allOf/" + i, E);
// validation/limitNumber.ts, multipleOf.ts, format.
if (num) {
if (typeof d == "number" && isFinite(d)) {
if (s.maximum !== undefined && (d > s.maximum || isNaN(d))) E = __ajvError(E, ip, sp + "/maximum", "maximum", {comparison: "<=", limit: s.maximum}, "must be <= " + s.maximum);
if (s.minimum !== undefined && (d < s.minimum || isNaN(d))) E = __ajvError(E, ip, sp + "/minimum", "minimum", {comparison: ">=", limit: s.minimum}, "must be >= " + s.minimum);
if (s.exclusiveMaximum !== undefined && (d >= s.exclusiveMaximum || isNaN(d))) E = __ajvError(E, ip, sp + "/exclusiveMaximum", "exclusiveMaximum", {comparison: "<", limit: s.exclusiveMaximum}, "must be < " + s.exclusiveMaximum);
if (s.exclusiveMinimum !== undefined && (d <= s.exclusiveMinimum || isNaN(d))) E = __ajvError(E, ip, sp + "/exclusiveMinimum", "exclusiveMinimum", {comparison: ">", limit: s.exclusiveMinimum}, "must be > " + s.exclusiveMinimum);
if (s.multipleOf !== undefined && (s.multipleOf === 0 || d / s.multipleOf !== parseInt(d / s.multipleOf))) E = __ajvError(E, ip, sp + "/multipleOf", "multipleOf", {multipleOf: s.multipleOf}, "must be multiple of " + s.multipleOf);
if (s.format !== undefined) E = __ownFormat(E, s.format, "number", d, ip, sp);
} else if (one === "number") E = __ownTypeError(E, s, ip, sp);
}
// validation/limitLength.ts (code points), pattern.ts, format.
if (str) {
if (typeof d == "string") {
if (s.maxLength !== undefined && __ajvUcs2length(d) > s.maxLength) E = __ajvError(E, ip, sp + "/maxLength", "maxLength", {limit: s.maxLength}, "must NOT have more than " + s.maxLength + " characters");
if (s.minLength !== undefined && __ajvUcs2length(d) < s.minLength) E = __ajvError(E, ip, sp + "/minLength", "minLength", {limit: s.minLength}, "must NOT have fewer than " + s.minLength + " characters");
if (s.pattern !== undefined && !__ownRegExp(s.pattern).test(d)) E = __ajvError(E, ip, sp + "/pattern", "pattern", {pattern: s.pattern}, "must match pattern \"" + s.pattern + "\"");
if (s.format !== undefined) E = __ownFormat(E, s.format, "string", d, ip, sp);
} else if (one === "string") E = __ownTypeError(E, s, ip, sp);
}
// validation/limitItems.ts, applicator/items.ts.
if (arr) {
if (Array.isArray(d)) {
if (s.maxItems !== undefined && d.length > s.maxItems) E = __ajvError(E, ip, sp + "/maxItems", "maxItems", {limit: s.maxItems}, "must NOT have more than " + s.maxItems + " items");
if (s.minItems !== undefined && d.length < s.minItems) E = __ajvError(E, ip, sp + "/minItems", "minItems", {limit: s.minItems}, "must NOT have fewer than " + s.minItems + " items");
if (s.items !== undefined) {
const len = d.length;
for (let i = 0; i < len; i++) E = __ownCollect(s.items, d[i], ip + "/" + i, sp + "/items", E);
}
// validation/uniqueItems.ts loopN, after items (items.ts registers itself before it), items of primitive types only: the first duplicate from the end, one error.
if (s.uniqueItems === true && d.length > 1) {
const IT = typeof s.items.type == "string" ? [s.items.type] : s.items.type;
const seen = {};
for (let i = d.length; i--;) {
let x = d[i];
if (!IT.some((y) => __ownIs(y, x))) continue;
if (IT.length > 1 && typeof x == "string") x += "_";
if (typeof seen[x] == "number") {
const j = seen[x];
E = __ajvError(E, ip, sp + "/uniqueItems", "uniqueItems", {i: i, j: j}, "must NOT have duplicate items (items ## " + j + " and " + i + " are identical)");
break;
}
seen[x] = i;
}
}
} else if (one === "array") E = __ownTypeError(E, s, ip, sp);
}
// validation/required.ts, applicator/additionalProperties.ts (for-in, as ajv without ownProperties), properties.ts.
if (obj) {
if (d && typeof d == "object" && !Array.isArray(d)) {
const P = s.properties;
// validation/limitProperties.ts
if (s.maxProperties !== undefined && Object.keys(d).length > s.maxProperties) E = __ajvError(E, ip, sp + "/maxProperties", "maxProperties", {limit: s.maxProperties}, "must NOT have more than " + s.maxProperties + " properties");
if (s.minProperties !== undefined && Object.keys(d).length < s.minProperties) E = __ajvError(E, ip, sp + "/minProperties", "minProperties", {limit: s.minProperties}, "must NOT have fewer than " + s.minProperties + " properties");
if (s.required !== undefined) for (const p of s.required) if (d[p] === undefined) E = __ajvError(E, ip, sp + "/required", "required", {missingProperty: p}, "must have required property '" + p + "'");
const ap = s.additionalProperties;
if (ap !== undefined && ap !== true) {
for (const k in d) {
if (P !== undefined && Object.prototype.hasOwnProperty.call(P, k)) continue;
if (ap === false) E = __ajvError(E, ip, sp + "/additionalProperties", "additionalProperties", {additionalProperty: k}, "must NOT have additional properties");
else E = __ownCollect(ap, d[k], ip + "/" + __ownPointer(k), sp + "/additionalProperties", E);
}
}
if (P !== undefined) {
for (const p of Object.keys(P)) {
const x = d[p];
if (x !== undefined) E = __ownCollect(P[p], x, ip + "/" + __ownPointer(p), sp + "/properties/" + encodeURIComponent(__ownPointer(p)), E);
}
}
} else if (one === "object") E = __ownTypeError(E, s, ip, sp);
}
return E;
}
const __ownReject = (validate, data, schema) => {
const errors = __ownCollect(schema, data, "", "#", null);
validate.errors = errors;
return errors === null;
};`;
