/** `validators.gen.ts`: ajv's standalone code, one validator per distinct argument schema. */
import { createRequire } from 'node:module';
import type { Ajv, Options as AjvOptions } from 'ajv';
import type { JsonSchema } from '../ir.js';
import { bug } from '../problems.js';
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';
import { schemaForAjv } from './ajv-schema.js';
import { usesDynamicScope } from '../validate/schema-refs.js';
import { mapSchema } from './schema-walk.js';
import { PROTOTYPE_NAMES } from './prototype-names.js';

const require = createRequire(import.meta.url);

/** ajv's draft 2020-12 class, ajv-formats and the standalone builder. */
interface AjvModules {
  readonly Ajv2020: new (options: AjvOptions) => Ajv;
  readonly addFormats: (ajv: Ajv) => Ajv;
  readonly standaloneCode: (ajv: Ajv, refs: Record<string, string>) => string;
}
let loaded: AjvModules | undefined;

/** ajv, loaded on first use (CommonJS: `require` keeps `validatorsModule` synchronous). */
function ajvModules(): AjvModules {
  // Each module sets `module.exports` to its main export, with the named and `default` exports on it.
  loaded ??= {
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: AjvModules['Ajv2020'] }).Ajv2020,
    addFormats: (require('ajv-formats') as { default: AjvModules['addFormats'] }).default,
    standaloneCode: (require('ajv/dist/standalone/index.js') as { default: AjvModules['standaloneCode'] }).default,
  };
  return loaded;
}

const AJV_OPTIONS: AjvOptions = {
  // standaloneCode reads the source ajv keeps; the function ajv would evaluate is never called, so it
  // evaluates a stub. The optimizer is skipped: 40 % of ajv's code generation for code a tenth shorter.
  code: { source: true, esm: true, lines: true, optimize: false, process: () => 'return function unused() { return true; };' },
  allErrors: true,
  // `type: "number"` / `"integer"` reject Infinity and NaN (which JSON cannot carry back to the model).
  strictNumbers: true,
  // `multipleOf: 0.01` accepts 19.99 (whose quotient is 1998.9999999999998 in floating point): the quotient is an
  // integer when within 1e-6 of one.
  multipleOfPrecision: 6,
  // The front end already reported unknown keywords and formats and checked the meta-schema.
  strict: false,
  logger: false,
  validateSchema: false,
};

/**
 * Schemas per ajv instance: its standalone builder is quadratic in the schemas of one instance, and a
 * new instance costs well under a millisecond. Between 5 and 20 per instance, 1,000 distinct schemas
 * generate fastest (and with the least garbage to collect).
 */
const SCHEMAS_PER_AJV = 10;

/** Keywords whose value names properties: keys of a map, or a list of names. */
const NAMING_MAPS = ['properties', 'dependencies', 'dependentRequired', 'dependentSchemas'];
const NAMING_LISTS = ['required'];

/**
 * Whether ajv must check own properties for this schema: some property it reads by name is an
 * `Object.prototype` name (otherwise a plain lookup on parsed JSON means the same).
 *
 * @example
 * needsOwnProperties({ type: 'object', required: ['toString'] }); // → true
 * needsOwnProperties({ type: 'object', properties: { path: { type: 'string' } } }); // → false
 */
export function needsOwnProperties(schema: JsonSchema): boolean {
  const named = (n: unknown) => typeof n === 'string' && PROTOTYPE_NAMES.has(n);
  let needs = false;
  mapSchema(schema, (node) => {
    for (const key of NAMING_MAPS) {
      const value = node[key];
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      // `dependencies` / `dependentRequired` values list names too.
      if (Object.keys(value).some(named) || Object.values(value).some((v) => Array.isArray(v) && v.some(named))) needs = true;
    }
    for (const key of NAMING_LISTS) {
      const value = node[key];
      if (Array.isArray(value) && value.some(named)) needs = true;
    }
    return node;
  });
  return needs;
}

/**
 * Whether ajv must track which properties and items a schema evaluated: only `unevaluatedProperties` and
 * `unevaluatedItems` read that record. Without them the bookkeeping is dead code, and in ajv 8.20 it throws on valid
 * data beside `patternProperties` (under `if` / `then` / `else`, or an `anyOf` branch with `additionalProperties`).
 *
 * @example
 * tracksEvaluated({ type: 'object', unevaluatedProperties: false }); // → true
 * tracksEvaluated({ type: 'object', patternProperties: { '^x-': { type: 'string' } } }); // → false
 */
export function tracksEvaluated(schema: JsonSchema): boolean {
  let tracks = false;
  mapSchema(schema, (node) => {
    if ('unevaluatedProperties' in node || 'unevaluatedItems' in node) tracks = true;
    return node;
  });
  return tracks;
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
}

/**
 * `validators.gen.ts` after its header line, the same on any machine. Each ajv instance's code gets
 * its own function scope, so their generated names cannot collide.
 *
 * @example
 * validatorsModule({ schemas: [{ type: 'object' }], applyDefaults: false, runtimeImport: 'toolroute/runtime' }).split('\n')[0]; // '// @ts-nocheck'
 */
export function validatorsModule(input: ValidatorsInput): string {
  const imports = new Map<string, string>();
  const scopes: string[] = [];
  const refs: string[] = [];
  // ajv's `ownProperties` and `unevaluated` are per instance: schemas that need them (see needsOwnProperties,
  // tracksEvaluated) get instances of their own.
  const kinds = input.schemas.map((schema) => ({ own: needsOwnProperties(schema), tracks: tracksEvaluated(schema) }));
  for (const [own, tracks] of [[false, false], [true, false], [false, true], [true, true]] as const) {
    const ofKind = (index: number) => kinds[index]!.own === own && kinds[index]!.tracks === tracks;
    const all = input.schemas.flatMap((schema, index) => (ofKind(index) && !usesDynamicScope(schema) ? [{ schema, index }] : []));
    const chunks = Array.from({ length: Math.ceil(all.length / SCHEMAS_PER_AJV) }, (_, i) => all.slice(i * SCHEMAS_PER_AJV, (i + 1) * SCHEMAS_PER_AJV));
    // A schema that keeps its `$id`s gets an ajv of its own: another may declare the same ids.
    for (const [index, schema] of input.schemas.entries()) if (ofKind(index) && usesDynamicScope(schema)) chunks.push([{ schema, index }]);
    for (const [n, members] of chunks.entries()) {
      const scope = `${own ? 'ownProperties' : 'plain'}${tracks ? 'Tracked' : ''}${n + 1}`;
      // `applyDefaults`: ajv fills `default`s into the arguments (which the runtime copies first,
      // for tools whose schema has one: emit/defaults.ts).
      const options: AjvOptions = { ...AJV_OPTIONS, ownProperties: own, ...(input.applyDefaults ? { useDefaults: true } : {}) };
      const { Ajv2020, addFormats, standaloneCode } = ajvModules();
      const ajv = new Ajv2020(options);
      // Ajv2020 turns `unevaluated` on whatever it is given; ajv reads the option when it compiles, so it is turned off
      // here for schemas that do not need it (tracksEvaluated).
      (ajv.opts as { unevaluated?: boolean }).unevaluated = tracks;
      addFormats(ajv);
      const names: Record<string, string> = {};
      for (const { schema, index } of members) {
        ajv.addSchema(schemaForAjv(schema, input.applyDefaults), `v${index}`);
        names[`v${index}`] = `v${index}`;
        refs[index] = `${scope}.v${index}`;
      }
      const code = esmCode(standaloneCode(ajv, names), imports);
      const exported = members.map((m) => `v${m.index}`).join(', ');
      scopes.push(`// ajv's standalone code of one instance, for ${exported}; ajv numbers the names inside (validate0, schema0 and so on) from 0.\nconst ${scope} = (() => {\n${code}\nreturn { ${exported} };\n})();`);
    }
  }
  // A .ts file, emitted by `tsc --outDir` like the others; @ts-nocheck keeps the application's flags off ajv's JavaScript.
  const content = [
    '// @ts-nocheck',
    `import type { ValidateFn } from ${tsString(input.runtimeImport)};`,
    ...[...imports].map(([specifier, local]) => `import ${local} from ${tsString(specifier)};`),
    '',
    ...scopes,
    '',
    '/** One validator per distinct argument schema (ajv standalone code); `spec.tools[i].validator` indexes this array. */',
    `export const validators: readonly ValidateFn[] = Object.freeze([${refs.join(', ')}]);`,
  ].join('\n');
  return `${content}\n`;
}

/**
 * ajv's code as a function body of an ES module: its ESM mode still writes `require(…)` for runtime
 * helpers (ajv-validator/ajv#2209), made default imports with a `.js` extension (ajv has no exports
 * map); its `export const` lines become constants the enclosing scope returns.
 *
 * @example
 * const imports = new Map<string, string>();
 * esmCode('const func0 = require("ajv/dist/runtime/equal").default;\nexport const v0 = validate0;', imports);
 * // 'const func0 = ajvRuntime0.default ?? ajvRuntime0;\nconst v0 = validate0;' (imports: equal.js → ajvRuntime0)
 */
export function esmCode(code: string, imports: Map<string, string>): string {
  // A slice, not `/^"use strict";\n/`: V8 tries that regex at every offset of the code.
  const out = (code.startsWith('"use strict";\n') ? code.slice('"use strict";\n'.length) : code)
    .replace(/^export const /gm, 'const ')
    .replace(/^const ([\w$]+) = require\("([^"\\]+)"\)(.*);$/gm, (_line, local: string, specifier: string, rest: string) => {
      const file = /\.[cm]?js$/.test(specifier) ? specifier : `${specifier}.js`;
      let binding = imports.get(file);
      if (binding === undefined) {
        binding = `ajvRuntime${imports.size}`;
        imports.set(file, binding);
      }
      // Node's default import of a CommonJS module marked `__esModule` is `module.exports` (so
      // `.default` is the function); bundlers and vitest unwrap it to the function already.
      return rest === '.default' ? `const ${local} = ${binding}.default ?? ${binding};` : `const ${local} = ${binding}${rest};`;
    });
  // String literals in ajv's code escape `"`, so an unescaped `require("` can only be code left unconverted.
  if (/(^|[^\w$.\\])require\("/m.test(out)) throw bug('ajv standalone code kept a require() call');
  return out;
}
