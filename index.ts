/**
 * toolroute: compile a declarative spec of LLM tools into a typed router.
 *
 * The package root carries what an application needs at run time (the
 * router, from `toolroute/runtime`) and `defineSpec` for specs written in
 * TypeScript. The generator is a separate entry point, `toolroute/generator`,
 * so an application never loads the code generator's dependencies.
 *
 * @example
 * import { createRouter, defineSpec } from 'toolroute';
 */
export * from './runtime/index.js';
export { defineSpec, type ParametersInput, type SpecInput, type ToolEntryInput, type ToolInput } from './generator/define-spec.js';
