/**
 * The spec rules after the shape (passes 2 and 3 of validate.ts), and the
 * whole check for a spec whose shape needs no zod: everything here loads
 * without zod, so `generate` runs a valid spec's checks without it (shape-fast.ts).
 */
import type { LoadedSpec } from '../load.js';
import { sortProblems } from '../problems.js';
import type { Problem } from '../problems.js';
import { Context, isRecord } from './context.js';
import { checkDefinedOnce, checkDescription, checkGroups, checkName, checkTags } from './names.js';
import { expandToolParameters } from './parameters.js';
import { checkPolicies, checkReach } from './policies.js';
import { checkUnfilledDefaults } from './defaults.js';
import { checkReferences, toolEntries } from './references.js';
import type { ToolEntry } from './references.js';
import { specShapeIsValid } from './shape-fast.js';

/** What `checkSpec` returns: problems and warnings, each in source order. */
export interface CheckedSpec {
  readonly problems: Problem[];
  readonly warnings: Problem[];
}

/**
 * The checks of `checkSpec` with `shape` as pass 1 (validate.ts passes the zod shape check).
 *
 * @example
 * runChecks(loaded.spec, checkShape); // { problems: [], warnings: [] }
 */
export function runChecks(spec: LoadedSpec, shape: (ctx: Context) => void): CheckedSpec {
  const ctx = new Context(spec);
  if (!specShapeIsValid(spec.value)) shape(ctx);
  checkRules(ctx);
  return { problems: sortProblems(ctx.unique()), warnings: sortProblems(ctx.unique('warnings')) };
}

/**
 * `checkSpec(spec)` when the spec's shape is certainly valid (no zod needed),
 * else undefined: then `checkSpec` (validate.ts, which loads zod) words the
 * shape problems.
 *
 * @example
 * const checked = checkSpecWithoutZod(loaded.spec) ?? (await import('./validate.js')).checkSpec(loaded.spec);
 */
export function checkSpecWithoutZod(spec: LoadedSpec): CheckedSpec | undefined {
  return specShapeIsValid(spec.value) ? runChecks(spec, () => {}) : undefined;
}

/** Pass 2 and 3: the spec rules, in an order that keeps problems at one position in a fixed order. */
function checkRules(ctx: Context): void {
  const root = ctx.spec.value;
  if (!isRecord(root)) return;
  const entries = toolEntries(root);

  // Definitions: names, descriptions, tags, parameters; one definition per name.
  const defined = new Map<string, ToolEntry>();
  for (const e of entries) {
    if (!e.definition) continue;
    checkName(ctx, 'tool', e.name, [...e.path, 'name']);
    checkDescription(ctx, e.definition, e.path, 'tool');
    checkTags(ctx, e);
    if (isRecord(e.definition.parameters)) {
      const expanded = expandToolParameters(ctx.spec, e.definition.parameters);
      for (const p of [...expanded.problems, ...expanded.warnings]) ctx.add(p.code, [...e.path, 'parameters', ...p.path], p.message, p.hint, p.at, p.severity);
    }
    // `returns` follows the rules of `parameters` (an object schema), checked the same way.
    if (isRecord(e.definition.returns)) {
      for (const p of expandToolParameters(ctx.spec, e.definition.returns).problems) {
        const hint = p.code === 'parameters_not_object' ? 'A result schema is an object schema (as an MCP output schema always is): write `type: object` and list the fields under `properties:`.' : p.hint;
        ctx.add(p.code, [...e.path, 'returns', ...p.path], p.message.replace(/^parameters\b/, 'returns'), hint, p.at);
      }
    }
    checkDefinedOnce(ctx, e, defined);
  }
  checkReferences(ctx, entries, defined);
  const { namespaceNames, toolkitNames } = checkGroups(ctx, root, defined);
  checkPolicies(ctx, root, entries, defined, [...defined.keys(), ...namespaceNames.keys(), ...[...toolkitNames.values()].map((t) => t.name)]);
  checkReach(ctx, root, entries);
  checkUnfilledDefaults(ctx, root, entries);
}
