/**
 * Validate a loaded spec: every problem at once, in source order, each with
 * file, line, column, spec path, what is wrong and how to fix it.
 *
 * This file is the entry point and the order of the rules; each rule lives in
 * generator/validate/ next to the error codes it reports (and the fixtures in
 * test/fixtures/invalid/ that pin them):
 *   - context.ts         — `Context` (collects positioned problems) and shared readers;
 *   - shape.ts           — pass 1: the zod shape (unknown keys, missing keys, types, version);
 *   - rules.ts           — passes 2 and 3 in order;
 *   - names.ts           — tool/namespace/toolkit names, descriptions, tags, one definition
 *                          per name, name collisions, empty groups;
 *   - references.ts      — the tool lists and their by-name entries;
 *   - policies.ts        — policy targets, no tools, everything deferred, tools no model reaches;
 *   - defaults.ts        — `applyDefaults` defaults that are never filled (a warning);
 *   - parameters.ts      — a tool's `parameters` end to end (shorthand, dialect,
 *                          meta-schema, strict compile) and the expansion cache;
 *   - schema-keywords.ts — the JSON Schema vocabulary (tables);
 *   - schema-rules.ts    — per-keyword rules walked over every subschema;
 *   - schema-refs.ts     — local `$ref`: resolution, inlining, recursion, draft-07 → 2020-12.
 *
 * Passes are tolerant of what earlier ones found wrong, so that one mistake
 * does not hide the others. `expandParameters` is shared with normalize.ts, so
 * what is validated is exactly what gets normalized.
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
  return { problems: sortProblems(ctx.unique()), warnings: sortProblems(ctx.unique('warnings')) };
}

