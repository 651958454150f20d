/**
 * Validate a loaded spec: every problem at once, in source order, each with file, line, column,
 * spec path, what is wrong and how to fix it. Each rule lives in generator/validate/ next to the
 * codes it reports; passes tolerate what earlier ones found wrong, so one mistake hides no other.
 */
import type { LoadedSpec } from './load.js';
import { sortProblems, type Problem } from './problems.js';
import { Context } from './validate/context.js';
import { checkRules } from './validate/rules.js';
import { checkShape } from './validate/shape.js';

export { contentKey, expandParameters, expandToolParameters, isShorthand } from './validate/parameters.js';
export type { ExpandedParameters } from './validate/parameters.js';
export { toolEntries } from './validate/references.js';
export type { GroupRef, ToolEntry } from './validate/references.js';
export { SCHEMA_DIALECTS } from './validate/schema-keywords.js';
export type { SchemaDialect, SchemaProblem } from './validate/schema-keywords.js';

/**
 * Checks a loaded spec and returns every problem in it (empty = valid), in
 * source order. Never throws for a user mistake.
 *
 * @example
 * const loaded = await loadSpec('examples/tools.spec.yaml');
 * if (loaded.ok) validateSpec(loaded.spec); // []
 */
export function validateSpec(spec: LoadedSpec): Problem[] {
  return checkSpec(spec).problems;
}

/** What `checkSpec` returns: problems and warnings, each in source order. */
export interface CheckedSpec {
  readonly problems: Problem[];
  readonly warnings: Problem[];
}

/**
 * `validateSpec` plus the warnings: problems that do not stop generation
 * (each with `severity: 'warning'`), also in source order.
 *
 * @example
 * const { problems, warnings } = checkSpec(loaded.spec);
 * // warnings: [{ code: 'unknown_format', severity: 'warning', … }] for `format: json`
 */
export function checkSpec(spec: LoadedSpec): CheckedSpec {
  const ctx = new Context(spec);
  checkShape(ctx);
  checkRules(ctx);
  return { problems: sortProblems(ctx.unique()), warnings: sortProblems([...(spec.warnings ?? []), ...ctx.unique('warnings')]) };
}

