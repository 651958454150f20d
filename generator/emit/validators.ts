/**
 * `validators.gen.ts`: ajv standalone code, one
 * validator per distinct argument schema, exported as one frozen array. The
 * runtime compiles no schema and evaluates no string: the validators are
 * plain functions in a module.
 *
 * The IR's schemas are draft 2020-12; those using no 2020-only keyword are
 * compiled by ajv's draft-07 class (same meaning, smaller code). Each dialect
 * gets its own ajv instance, and each instance's code its own function scope
 * so their generated names (`validate0`, `schema0`, …) cannot collide.
 */
import { createRequire } from 'node:module';
import type { Ajv, Options as AjvOptions } from 'ajv';
import type { JsonSchema, JsonValue } from '../ir.js';
import { bug } from '../problems.js';
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';
import { mapSchema } from './schema-walk.js';
import { withLinearNames } from './ajv-optimize.js';
import { PROTOTYPE_NAMES } from './prototype-names.js';
import { FORMATS_SPECIFIER, OwnValidators } from './own-validators.js';

const require = createRequire(import.meta.url);

/** ajv's classes, ajv-formats and the standalone builder. */
interface AjvModules {
  readonly Ajv: new (options: AjvOptions) => Ajv;
  readonly Ajv2020: new (options: AjvOptions) => Ajv;
  readonly addFormats: (ajv: Ajv) => Ajv;
  readonly standaloneCode: (ajv: Ajv, refs: Record<string, string>) => string;
}
let loaded: AjvModules | undefined;

/**
 * ajv, loaded on first use: when every schema of a spec is in toolroute's
 * own subset (own-validators.ts), ajv is not needed at all, and ajv with its
 * dependencies is about 95 CommonJS files, a visible part of a small
 * codegen. `require` (ajv is CommonJS) keeps `validatorsModule` synchronous.
 */
function ajvModules(): AjvModules {
  // Each module is CommonJS and sets `module.exports` to its main export with the named and `default` exports on it.
  loaded ??= {
    Ajv: (require('ajv') as { Ajv: AjvModules['Ajv'] }).Ajv,
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: AjvModules['Ajv2020'] }).Ajv2020,
    addFormats: (require('ajv-formats') as { default: AjvModules['addFormats'] }).default,
    standaloneCode: (require('ajv/dist/standalone/index.js') as { default: AjvModules['standaloneCode'] }).default,
  };
  return loaded;
}

const AJV_OPTIONS: AjvOptions = {
  // Only the source is used (standaloneCode reads `validate.source`, the code before `process`): the
  // function ajv would evaluate is swapped for a stub, so V8 never parses megabytes of code here.
  code: { source: true, esm: true, lines: true, process: () => 'return function unused() { return true; };' },
  allErrors: true,
  // Set per schema (see `needsOwnProperties`): own-property checks only where a property name could be
  // found on Object.prototype, since they cost about as much as the rest of the validation.
  ownProperties: false,
  // `type: "number"` / `"integer"` reject Infinity and NaN, so a schema can prove the numbers it
  // accepts finite and dispatch may skip its walk for them (see arg-bound.ts).
  strictNumbers: true,
  // The front end already reports unknown keywords and formats with positions; here they would only be noise.
  strict: false,
  logger: false,
  // The front end already validated every schema against its meta-schema; skipping it here saves time at scale.
  validateSchema: false,
};

const DIALECTS = ['draft2020', 'draft07'] as const;

/**
 * Distinct schemas per ajv instance (and per scope in the output). ajv's
 * standalone code builder copies everything it built so far for each schema
 * it adds (quadratic), and past roughly 10,000 schemas it overflows the stack;
 * a fresh instance per thousand keeps it linear. Specs with fewer distinct
 * schemas per dialect get one scope per dialect, as before.
 */
const SCHEMAS_PER_AJV = 1000;
type Dialect = (typeof DIALECTS)[number];

/** Keywords only draft 2020-12 has (the IR is 2020-12; `items` is never an array there). */
const ONLY_2020 = new Set([
  'prefixItems',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedItems',
  'unevaluatedProperties',
  'minContains',
  'maxContains',
  '$defs',
  '$dynamicRef',
  '$dynamicAnchor',
  'contentSchema',
]);


/** Keywords whose value names properties: keys of a map, or a list of names. */
const NAMING_MAPS = ['properties', 'dependencies', 'dependentRequired', 'dependentSchemas'];
const NAMING_LISTS = ['required'];

/**
 * Whether ajv must check own properties for this schema: some property it
 * reads by name (`properties`, `required`, `dependencies`, …) is an
 * `Object.prototype` name. Without one, a property lookup on parsed JSON (or
 * any plain data the runtime lets through) can only find an own property, and
 * the cheaper plain lookups mean the same.
 *
 * @example
 * needsOwnProperties({ type: 'object', required: ['toString'] }); // → true
 * needsOwnProperties({ type: 'object', properties: { path: { type: 'string' } } }); // → false
 */
export function needsOwnProperties(schema: JsonSchema): boolean {
  let needs = false;
  mapSchema(schema, (node) => {
    if (needs) return node;
    for (const key of NAMING_MAPS) {
      const value = node[key];
      if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).some((n) => PROTOTYPE_NAMES.has(n))) needs = true;
      // `dependencies` / `dependentRequired` values list names too.
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const v of Object.values(value)) if (Array.isArray(v) && v.some((n) => typeof n === 'string' && PROTOTYPE_NAMES.has(n))) needs = true;
      }
    }
    for (const key of NAMING_LISTS) {
      const value = node[key];
      if (Array.isArray(value) && value.some((n) => typeof n === 'string' && PROTOTYPE_NAMES.has(n))) needs = true;
    }
    return node;
  });
  return needs;
}

/**
 * Which ajv compiles a schema. The IR is draft 2020-12, but a schema that uses
 * none of 2020's own keywords means the same under draft-07, and ajv's draft-07
 * code is smaller and faster to build (no `unevaluated*` bookkeeping) — at
 * 1,000 tools that is megabytes less to load.
 *
 * @example
 * dialectOf({ type: 'object', properties: { a: { type: 'string' } } }); // → 'draft07'
 * dialectOf({ type: 'object', unevaluatedProperties: false });          // → 'draft2020'
 */
export function dialectOf(schema: JsonSchema): Dialect {
  let uses2020 = false;
  mapSchema(schema, (node) => {
    if (!uses2020) for (const key of Object.keys(node)) if (ONLY_2020.has(key)) uses2020 = true;
    return node;
  });
  return uses2020 ? 'draft2020' : 'draft07';
}

/** The validators' file name. */
export const VALIDATORS_FILE = 'validators.gen.ts';

/**
 * Emits `validators.gen.ts`.
 *
 * @example
 * const [file] = emitValidators(ctx); // file.path === 'validators.gen.ts'
 */
export function emitValidators(ctx: EmitContext): GeneratedFile[] {
  const body = validatorsModule({ schemas: ctx.validators.map((s) => s.schema), applyDefaults: ctx.ir.options.applyDefaults, runtimeImport: ctx.options.runtimeImport });
  return [{ path: VALIDATORS_FILE, content: `${ctx.header}\n${body}` }];
}

/** What `validatorsModule` builds from: the distinct schemas in order, and the options that change the code. */
export interface ValidatorsInput {
  readonly schemas: readonly JsonSchema[];
  readonly applyDefaults: boolean;
  readonly runtimeImport: string;
  /**
   * `false`: every schema goes to ajv, none to toolroute's own emitter
   * (own-validators.ts). The differential tests build their reference this
   * way; codegen always leaves it on.
   */
  readonly ownValidators?: boolean;
}

/**
 * `validators.gen.ts` after its header line. Pure: the same input gives the
 * same text on any machine.
 *
 * @example
 * validatorsModule({ schemas: [{ type: 'object' }], applyDefaults: false, runtimeImport: 'toolroute/runtime' }).split('\n')[0]; // '// @ts-nocheck'
 */
export function validatorsModule(input: ValidatorsInput): string {
  const imports = new Map<string, string>();
  /** Helpers copied into the module instead of imported (see `UCS2_LENGTH`), once each. */
  const inlined = new Set<string>();
  const scopes: string[] = [];
  // toolroute's own code first, for every schema in its subset (own-validators.ts): ajv's code generation
  // is most of a codegen's time and its code most of this module, and real tool schemas rarely need more.
  const ownEmitter = new OwnValidators();
  const ownCode: string[] = [];
  const mine = input.schemas.map((schema, index) => {
    if (input.ownValidators === false) return false;
    // `schemaForAjv` would only drop the root `$schema` here: the subset has no `$id`, no `__proto__` and no
    // Object.prototype names, which are what else it rewrites.
    const { $schema: _dialect, ...body } = schema;
    void _dialect;
    const code = ownEmitter.validator(body, `o${index}`, input.applyDefaults);
    if (code !== undefined) ownCode.push(code);
    return code !== undefined;
  });
  const dialects = input.schemas.map((s, i) => (mine[i] ? 'draft07' : dialectOf(s)));
  const owns = input.schemas.map((s, i) => !mine[i] && needsOwnProperties(s));
  /** Per distinct schema, the scope constant that holds its validator. */
  const scopeOf: string[] = [];
  for (const [dialect, own] of DIALECTS.flatMap((d) => [[d, false], [d, true]] as const)) {
    const all = input.schemas.map((schema, index) => ({ schema, index })).filter((m) => !mine[m.index] && dialects[m.index] === dialect && owns[m.index] === own);
    for (let start = 0; start < all.length; start += SCHEMAS_PER_AJV) {
      const members = all.slice(start, start + SCHEMAS_PER_AJV);
      const base = own ? `${dialect}_own` : dialect;
      const scope = start === 0 ? base : `${base}_${start / SCHEMAS_PER_AJV + 1}`;
      // `applyDefaults`: ajv fills `default`s into the arguments (which the runtime copies first,
      // for tools whose schema has one: emit/defaults.ts). Absent otherwise, so the code is unchanged.
      const options: AjvOptions = { ...AJV_OPTIONS, ownProperties: own, ...(input.applyDefaults ? { useDefaults: true } : {}) };
      const { Ajv, Ajv2020, addFormats, standaloneCode } = ajvModules();
      const ajv = dialect === 'draft07' ? new Ajv(options) : new Ajv2020(options);
      addFormats(ajv);
      const refs: Record<string, string> = {};
      for (const { schema, index } of members) {
        const key = `v${index}`;
        ajv.addSchema(schemaForAjv(schema, input.applyDefaults), key);
        refs[key] = key;
        scopeOf[index] = scope;
      }
      // ajv's code, with its optimize pass counting names in one walk (same bytes, see ajv-optimize.ts).
      // One split into lines for both rewrites (megabytes of code at scale), one join.
      const code = checkedModuleCode(compactErrorLines(esmImportLines(withLinearNames(() => standaloneCode(ajv, refs)), imports, inlined)).join('\n'));
      scopes.push(`const ${scope} = (() => {\n${code}\nreturn { ${members.map((m) => `v${m.index}`).join(', ')} };\n})();`);
    }
  }

  const ownHelpers = ownEmitter.helpers(() => {
    let binding = imports.get(FORMATS_SPECIFIER);
    if (binding === undefined) {
      binding = `__ajvRuntime${imports.size}`;
      imports.set(FORMATS_SPECIFIER, binding);
    }
    return binding;
  });
  // The collector counts code points with ajv's helper, copied in as ajv's own code gets it.
  if (ownEmitter.count > 0) inlined.add(UCS2_LENGTH);
  const refsBySchema = input.schemas.map((_, index) => (mine[index] ? `o${index}` : `${scopeOf[index] ?? ''}.v${index}`));
  // A .ts file, not .js + .d.ts: `tsc --outDir` emits it like every other generated file (a .js
  // file is only copied with allowJs), and bundlers and tsx take it as it is. The body is ajv's
  // plain JavaScript; @ts-nocheck keeps the application's compiler flags (noUnusedLocals,
  // noImplicitAny, …) off it and keeps tsc fast on megabytes of it. The export is typed.
  const content = [
    '// @ts-nocheck',
    `import type { ValidateFn } from ${tsString(input.runtimeImport)};`,
    ...[...imports].map(([specifier, local]) => `import ${local} from ${tsString(specifier)};`),
    '',
    ERROR_HELPERS,
    ...inlined,
    ...(ownHelpers === '' ? [] : [ownHelpers]),
    ...ownCode,
    ...scopes,
    '',
    '/** One validator per distinct argument schema (toolroute\'s own or ajv\'s standalone code); `spec.tools[i].validator` indexes this array. */',
    `export const validators: readonly ValidateFn[] = Object.freeze([${refsBySchema.join(', ')}]);`,
  ].join('\n');
  return `${content}\n`;
}

/**
 * The copy ajv compiles: `$schema` dropped (the dialect already chose the
 * instance), `$id` dropped everywhere (refs are inlined, and two tools
 * reusing an id must not collide in one ajv instance), and a property named
 * `__proto__` moved to `patternProperties: { "^__proto__$": … }` — ajv skips
 * that name under `properties` (it would never be checked), while a pattern
 * matching exactly that key means the same, also to `additionalProperties`
 * and `unevaluatedProperties`. With `applyDefaults`, a property named like an
 * `Object.prototype` member loses its `default`: ajv would then validate the
 * inherited member (`data.toString`, a function) in place of the absent
 * property and refuse every call without it, and it never fills such a
 * default anyway (emit/defaults.ts).
 *
 * @example
 * schemaForAjv({ type: 'object', properties: JSON.parse('{"__proto__":{"type":"number"}}') });
 * // { type: 'object', properties: {}, patternProperties: { '^__proto__$': { type: 'number' } } }
 */
export function schemaForAjv(schema: JsonSchema, applyDefaults = false): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  void _dialect;
  return mapSchema(rest, (node) => {
    let out = '$id' in node ? Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$id')) : node;
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
    return out;
  });
}

/**
 * ajv's ESM mode still writes `const func2 = require("ajv/dist/runtime/equal").default;`
 * for its runtime helpers and ajv-formats. Turn each into an ESM default
 * import (Node gives a CommonJS module's `module.exports` as the default) with
 * an explicit `.js` extension (ajv has no exports map), except `ucs2length`,
 * which is copied into the module (`UCS2_LENGTH`, added to `inlined`), and
 * drop the per-export `export` so only `validators` is public.
 */
function esmImportLines(code: string, imports: Map<string, string>, inlined: Set<string>): string[] {
  const lines = code.split('\n').map((line) => {
    // Most lines are validator code: a prefix test first keeps the regexes off them (megabytes at scale).
    if (!line.startsWith('const ') && !line.startsWith('export ') && !line.startsWith('"use strict"')) return line;
    if (line === '"use strict";') return '';
    const required = /^const ([\w$]+) = require\("([^"\\]+)"\)(.*);$/.exec(line);
    if (required !== null) {
      const [, local, specifier = '', rest] = required;
      // ajv's string-length helper is copied into the module (UCS2_LENGTH): importing it, a CommonJS
      // file, would make Node set up its CommonJS loader for an otherwise all-ESM start-up.
      if (specifier === 'ajv/dist/runtime/ucs2length' && rest === '.default') {
        inlined.add(UCS2_LENGTH);
        return `const ${local} = ${UCS2_LENGTH_NAME};`;
      }
      const file = /\.[cm]?js$/.test(specifier) ? specifier : `${specifier}.js`;
      let binding = imports.get(file);
      if (binding === undefined) {
        binding = `__ajvRuntime${imports.size}`;
        imports.set(file, binding);
      }
      // `.default` of a CommonJS module marked `__esModule`: Node's default import is `module.exports`
      // (so `.default` is the function), while bundlers and vitest unwrap it to `exports.default`
      // already (the function itself, which has no `.default`). `?? binding` serves both.
      return rest === '.default' ? `const ${local} = ${binding}.default ?? ${binding};` : `const ${local} = ${binding}${rest};`;
    }
    const exported = /^export const (v\d+) = ([\w$]+);$/.exec(line);
    if (exported !== null) return `const ${exported[1]} = ${exported[2]};`;
    return line;
  });
  return lines.filter((l) => l !== '');
}

/** `code` (a scope's rewritten code), after the checks that the ESM rewrite missed nothing. */
function checkedModuleCode(code: string): string {
  // String literals in ajv output escape `"`, so an unescaped `require("` can only be code we failed to convert.
  if (code.includes('require("') && /(^|[^\w$.\\])require\("/m.test(code)) throw bug('ajv standalone code kept a require() call');
  if (code.startsWith('export ') || code.includes('\nexport ')) throw bug('ajv standalone code kept an export');
  return code;
}

/**
 * The helpers `compactErrors` calls, once per module. `__ajvError` builds
 * ajv's error object (same keys, same order) and appends it exactly as ajv's
 * inline code does: a new array for the first error, a push after that.
 */
export const ERROR_HELPERS = [
  'const __ajvPush = (vErrors, err) => {',
  'if (vErrors === null) return [err];',
  'vErrors.push(err);',
  'return vErrors;',
  '};',
  'const __ajvError = (vErrors, instancePath, schemaPath, keyword, params, message) => __ajvPush(vErrors, {instancePath, schemaPath, keyword, params, message});',
].join('\n');

const UCS2_LENGTH_NAME = '__ajvUcs2length';

/**
 * ajv's `ucs2length` (ajv/dist/runtime/ucs2length.js, ajv 8, MIT; itself
 * from punycode.js), the length in code points that `minLength` and
 * `maxLength` count, copied statement for statement. A test runs it against
 * ajv's own on strings with lone and paired surrogates.
 */
export const UCS2_LENGTH = [
  `const ${UCS2_LENGTH_NAME} = (str) => {`,
  'const len = str.length;',
  'let length = 0;',
  'let pos = 0;',
  'let value;',
  'while (pos < len) {',
  'length++;',
  'value = str.charCodeAt(pos++);',
  'if (value >= 0xd800 && value <= 0xdbff && pos < len) {',
  'value = str.charCodeAt(pos);',
  'if ((value & 0xfc00) === 0xdc00) pos++;',
  '}',
  '}',
  'return length;',
  '};',
].join('\n');

/** ajv's own error-object keys, in its order (errors.ts `errorObject` with `messages` on and `verbose` off). */
const ERROR_KEYS = ['instancePath', 'schemaPath', 'keyword', 'params', 'message'];

/**
 * ajv reports each error with eight lines of code (errors.ts `addError`):
 *
 *     const err3 = {instancePath:…,schemaPath:"…",keyword:"…",params:{…},message:"…"};
 *     if(vErrors === null){
 *     vErrors = [err3];
 *     }
 *     else {
 *     vErrors.push(err3);
 *     }
 *     errors++;
 *
 * which is two thirds of a validator module, and a module's load time grows
 * with its code (every function body is pre-parsed on import). Each such block
 * becomes one call to a helper emitted once (`ERROR_HELPERS`) plus `errors++`:
 * the same object with the same keys in the same order, appended the same way,
 * and its expressions evaluated in the same order (none of them can touch
 * `vErrors`). The error object's members are split by a scanner that skips
 * string literals, so no text inside a message or a schema value is read as
 * code. A block that does not match exactly (other keys, another shape) is
 * left as ajv wrote it: correct, only longer. Only the rejection path runs
 * this code; an accepted call never reaches it.
 *
 * @example
 * compactErrors('const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};\nif(vErrors === null){\nvErrors = [err0];\n}\nelse {\nvErrors.push(err0);\n}\nerrors++;');
 * // → 'vErrors = __ajvError(vErrors, instancePath, "#/type", "type", {type: "object"}, "must be object");\nerrors++;'
 */
export function compactErrors(code: string): string {
  return compactErrorLines(code.split('\n')).join('\n');
}

/** `compactErrors` on code already split into lines. */
function compactErrorLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const head = line.startsWith('const err') ? /^const (err\d+) = \{/.exec(line) : null;
    const name = head?.[1];
    if (
      name === undefined ||
      lines[i + 1] !== 'if(vErrors === null){' ||
      lines[i + 2] !== `vErrors = [${name}];` ||
      lines[i + 3] !== '}' ||
      lines[i + 4] !== 'else {' ||
      lines[i + 5] !== `vErrors.push(${name});` ||
      lines[i + 6] !== '}' ||
      lines[i + 7] !== 'errors++;'
    ) {
      out.push(line);
      continue;
    }
    const open = line.indexOf('{');
    const members = line.endsWith('};') ? topLevelMembers(line.slice(open + 1, -2)) : undefined;
    if (members === undefined) {
      out.push(line);
      continue;
    }
    const values = members.map((member, k) => {
      const key = ERROR_KEYS[k];
      if (key === undefined) return undefined;
      if (member === key) return key; // shorthand: the variable of that name
      return member.startsWith(`${key}:`) ? member.slice(key.length + 1) : undefined;
    });
    if (values.length === ERROR_KEYS.length && values.every((v) => v !== undefined && v !== '')) {
      out.push(`vErrors = __ajvError(vErrors, ${values.join(', ')});`);
    } else {
      out.push(`vErrors = __ajvPush(vErrors, ${line.slice(open, -1)});`);
    }
    out.push('errors++;');
    i += 7;
  }
  return out;
}

/**
 * The members of an object literal's body, split at its top-level commas
 * (brackets nest; string literals, with their escapes, are skipped), or
 * undefined when the brackets or quotes do not balance.
 */
function topLevelMembers(body: string): string[] | undefined {
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '"' || c === "'" || c === '`') {
      // ajv writes no template literals; one here is code it did not expect, so leave the block alone.
      if (c === '`') return undefined;
      i++;
      while (i < body.length && body[i] !== c) i += body[i] === '\\' ? 2 : 1;
      if (i >= body.length) return undefined;
    } else if (c === '{' || c === '[' || c === '(') {
      depth++;
    } else if (c === '}' || c === ']' || c === ')') {
      if (--depth < 0) return undefined;
    } else if (c === ',' && depth === 0) {
      members.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return undefined;
  members.push(body.slice(start));
  return members;
}
