/** The spec rules after the shape: passes 2 and 3 of validate.ts. */
import { type Context, isRecord } from './context.js';
import { checkDefinedOnce, checkDescription, checkGroups, checkName, checkTags } from './names.js';
import { expandToolParameters } from './parameters.js';
import { checkPolicies, checkReach, checkToolkitToolsInNamespaces } from './policies.js';
import { checkUnfilledDefaults } from './defaults.js';
import { checkOpenAiStrict } from './openai-strict.js';
import { checkReferences, toolEntries } from './references.js';
import type { ToolEntry } from './references.js';
import { TARGETS, type Target } from '../../runtime/contract.js';
import { adapterFor } from '../../runtime/targets/index.js';

/**
 * Pass 2 and 3: the spec rules, in an order that keeps problems at one position in a fixed order.
 *
 * @example
 * checkRules(ctx); // adds positioned problems to ctx
 */
export function checkRules(ctx: Context): void {
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
  checkToolkitToolsInNamespaces(ctx, root, entries);
  checkUnfilledDefaults(ctx, root, entries);
  checkOpenAiStrict(ctx, root, defined);
  checkToolkitLoading(ctx, root);
}

/**
 * `options.toolkitLoading` per target: `tool-changes` only where the target's adapter has mid-conversation tool changes
 * (`createRouter` would throw at the application's start otherwise). As the one value for every target it means
 * `native` where there are none, so only the mapping form can be wrong.
 */
function checkToolkitLoading(ctx: Context, root: Record<string, unknown>): void {
  const option = isRecord(root.options) ? root.options.toolkitLoading : undefined;
  if (!isRecord(option)) return;
  for (const [target, strategy] of Object.entries(option)) {
    if (strategy !== 'tool-changes' || !(TARGETS as readonly string[]).includes(target) || adapterFor(target as Target).toolChangeModels !== undefined) continue;
    ctx.add('invalid_value', ['options', 'toolkitLoading', target], `'tool-changes' is not available on ${target}: mid-conversation tool changes are Anthropic's, so the router would refuse this spec when it is created.`,
      `Use native for ${target} (its own mechanism), or dispatcher or append; 'tool-changes' as the one value for every target means native on the others.`);
  }
}
