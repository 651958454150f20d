/**
 * ajv, ajv-formats and ajv's standalone code builder, loaded on first use.
 * Most specs never need them: meta-fast.ts and `compileCannotFail` vouch for
 * ordinary schemas in the front end, and toolroute's own validator emitter
 * (emit/own-validators.ts) takes the schemas real tools use. ajv with its
 * dependencies is about 95 CommonJS files, a visible part of a small codegen.
 * `require` (ajv is CommonJS) keeps the callers synchronous.
 */
import { createRequire } from 'node:module';
import type { Ajv, Options as AjvOptions } from 'ajv';

const require = createRequire(import.meta.url);

/** ajv's two classes, ajv-formats and the standalone builder. */
export interface AjvModules {
  readonly Ajv: new (options?: AjvOptions) => Ajv;
  readonly Ajv2020: new (options?: AjvOptions) => Ajv;
  readonly addFormats: (ajv: Ajv) => Ajv;
  readonly standaloneCode: (ajv: Ajv, refs: Record<string, string>) => string;
}
let loaded: AjvModules | undefined;

/**
 * The ajv modules, required on the first call and kept.
 *
 * @example
 * const { Ajv2020, addFormats } = ajvModules();
 * const ajv = addFormats(new Ajv2020({ allErrors: true }));
 */
export function ajvModules(): AjvModules {
  // Each module is CommonJS and sets `module.exports` to its main export with the named and `default` exports on it.
  loaded ??= {
    Ajv: (require('ajv') as { Ajv: AjvModules['Ajv'] }).Ajv,
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: AjvModules['Ajv2020'] }).Ajv2020,
    addFormats: (require('ajv-formats') as { default: AjvModules['addFormats'] }).default,
    standaloneCode: (require('ajv/dist/standalone/index.js') as { default: AjvModules['standaloneCode'] }).default,
  };
  return loaded;
}
