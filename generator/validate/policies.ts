/** Policies name tools, namespaces or toolkits of the spec; the spec has tools; the first list is not all deferred. */
import { didYouMean } from '../problems.js';
import { isRecord, listAt } from './context.js';
import type { Context } from './context.js';
import type { ToolEntry } from './references.js';

/**
 * Reports policy entries naming nothing, an empty spec, and an initial tool
 * list in which every tool is deferred. `targets` are the names a policy may
 * block: tools, namespaces and toolkits.
 *
 * @example
 * checkPolicies(ctx, root, entries, defined, ['read_file', 'fs']); // unknown_policy_target for `prod: [raed_file]`
 */
export function checkPolicies(ctx: Context, root: Record<string, unknown>, entries: readonly ToolEntry[], defined: ReadonlyMap<string, ToolEntry>, policyTargets: readonly string[]): void {
  // Policies: every entry names something that exists.
  const targetSet = new Set(policyTargets);
  if (isRecord(root.policies)) {
    for (const [policy, list] of Object.entries(root.policies)) {
      if (policy.trim() === '') ctx.add('empty_name', ['policies', policy], 'the policy name is empty.', 'Give the policy a name, e.g. `prod`.', 'key');
      // zod's records skip this key, so the shape check never saw its value.
      if (policy === '__proto__') {
        ctx.add('invalid_name', ['policies', policy], 'a policy cannot be named "__proto__": JavaScript gives that name to every object\'s prototype.', 'Rename the policy, e.g. `proto`.', 'key');
        continue;
      }
      listAt(list).forEach((target, i) => {
        if (typeof target !== 'string' || targetSet.has(target)) return;
        const suggestion = didYouMean(target, policyTargets);
        ctx.add('unknown_policy_target', ['policies', policy, i], `the policy ${JSON.stringify(policy)} blocks ${JSON.stringify(target)}, which is not a tool, namespace or toolkit of this spec.`,
          `${suggestion ? `${suggestion} ` : ''}A policy lists names of tools, namespaces or toolkits defined in this spec.`);
      });
    }
  }

  // The tool list the model sees must not be empty, nor entirely deferred. A namespace's tool and load_toolkit are never
  // deferred (an action's `deferLoading` defers it only inside a native namespace on Responses, which still sends the
  // namespace itself), so only a spec of flat tools alone can be.
  const grouped = listAt(root.namespaces).length > 0 || listAt(root.toolkits).length > 0;
  const deferred = entries.filter((e) => e.group.kind === 'flat' && defined.get(e.name)?.definition?.deferLoading === true);
  // A `tools:` (or group list) that is not a list is the shape check's problem already: no second one for it.
  const misshapen = ['tools', 'namespaces', 'toolkits'].some((k) => root[k] !== undefined && root[k] !== null && !Array.isArray(root[k]));
  if (entries.length === 0 && !grouped && !misshapen) {
    ctx.add('no_tools', [], 'the spec defines no tools.', 'Add a `tools:` list (or `namespaces:` / `toolkits:`) with at least one tool.');
  } else if (!grouped && entries.length > 0 && deferred.length === entries.length) {
    ctx.add('all_tools_deferred', ['tools'], `every tool the model sees is deferred (${deferred.map((e) => e.name).join(', ')}).`,
      'Anthropic rejects a request in which every tool has defer_loading ("At least one tool must be non-deferred"): set `deferLoading: false` (or leave it out) on at least one tool, or add a namespace or toolkit.');
  }
}

/**
 * With `options.offerUngroupedTools: false`, a spec that has namespaces or
 * toolkits offers only those by default, so a flat tool in no namespace and
 * no toolkit reaches no model unless the application passes it in compile's
 * `tools`: a warning per such tool (it is still generated and callable),
 * at its first flat entry.
 *
 * @example
 * checkReach(ctx, root, entries); // warning unreachable_tool for `get_time` when offerUngroupedTools is false
 */
export function checkReach(ctx: Context, root: Record<string, unknown>, entries: readonly ToolEntry[]): void {
  if (!isRecord(root.options) || root.options.offerUngroupedTools !== false) return;
  if (listAt(root.namespaces).length === 0 && listAt(root.toolkits).length === 0) return;
  const grouped = new Set(entries.filter((e) => e.group.kind !== 'flat').map((e) => e.name));
  const reported = new Set<string>();
  for (const e of entries) {
    if (e.group.kind !== 'flat' || grouped.has(e.name) || reported.has(e.name)) continue;
    reported.add(e.name);
    ctx.add(
      'unreachable_tool',
      e.path,
      `the tool ${JSON.stringify(e.name)} reaches no model: it is in no namespace and no toolkit, and \`options.offerUngroupedTools: false\` keeps it out of the default tool set.`,
      'Put it in a namespace or toolkit, offer it yourself (compile\'s `tools`: a prune result or names), or remove `offerUngroupedTools: false`. It is still generated and callable.',
      'value',
      'warning',
      e.name,
    );
  }
}

/**
 * A toolkit's tool that a namespace lists too is offered by that namespace from the first turn: the toolkit's load
 * changes nothing for it, and blocking `load_toolkit` does not keep it away (blocking the toolkit or the tool does). A
 * warning per such namespace entry, naming the toolkit.
 *
 * @example
 * checkToolkitToolsInNamespaces(ctx, root, entries); // warning toolkit_tool_in_namespace for `run_query` in namespace `db`
 */
export function checkToolkitToolsInNamespaces(ctx: Context, root: Record<string, unknown>, entries: readonly ToolEntry[]): void {
  const kitOf = new Map<string, string>();
  for (const e of entries) {
    const kit = e.group.kind === 'toolkit' ? listAt(root.toolkits)[e.group.index] : undefined;
    if (isRecord(kit) && typeof kit.name === 'string' && !kitOf.has(e.name)) kitOf.set(e.name, kit.name);
  }
  for (const e of entries) {
    const ns = e.group.kind === 'namespace' ? listAt(root.namespaces)[e.group.index] : undefined;
    const kit = kitOf.get(e.name);
    if (kit === undefined || !isRecord(ns) || typeof ns.name !== 'string') continue;
    ctx.add(
      'toolkit_tool_in_namespace',
      e.path,
      `the tool ${JSON.stringify(e.name)} of toolkit ${JSON.stringify(kit)} is also an action of namespace ${JSON.stringify(ns.name)}, which offers it from the first turn: loading ${JSON.stringify(kit)} changes nothing for it, and a blocked \`load_toolkit\` does not keep it away.`,
      `Keep it in one of them: in the toolkit to offer it once loaded, in the namespace to offer it always. Blocking ${JSON.stringify(kit)} or the tool still blocks it everywhere.`,
      'value',
      'warning',
      e.name,
    );
  }
}
