/** The tool lists of a spec and their by-name entries: each names a defined tool, once per list. */
import { didYouMean } from '../problems.js';
import { isRecord, listAt } from './context.js';
import type { Context } from './context.js';

/** Where a tool list entry sits. */
export type GroupRef = { kind: 'flat' } | { kind: 'namespace' | 'toolkit'; index: number };

/** One entry of a tool list, as written. */
export interface ToolEntry {
  readonly group: GroupRef;
  readonly path: readonly (string | number)[];
  /** The tool name (the entry itself for a reference, `name` for a definition). */
  readonly name: string;
  /** The definition object, or undefined for a by-name reference. */
  readonly definition?: Record<string, unknown>;
}

/**
 * Every tool list entry in the fixed section order (flat `tools`, then each
 * namespace, then each toolkit), skipping entries too malformed to name a tool.
 * That order is the IR's "order of first definition".
 *
 * @example
 * toolEntries({ version: 1, tools: ['a'] }); // [{ group: { kind: 'flat' }, path: ['tools', 0], name: 'a' }]
 */
export function toolEntries(spec: unknown): ToolEntry[] {
  const root = isRecord(spec) ? spec : {};
  const out: ToolEntry[] = [];
  const scan = (list: unknown, group: GroupRef, base: (string | number)[]) => {
    listAt(list).forEach((item, i) => {
      const path = [...base, i];
      if (typeof item === 'string') out.push({ group, path, name: item });
      else if (isRecord(item) && typeof item.name === 'string') out.push({ group, path, name: item.name, definition: item });
    });
  };
  scan(root.tools, { kind: 'flat' }, ['tools']);
  listAt(root.namespaces).forEach((ns, i) => scan(isRecord(ns) ? ns.tools : undefined, { kind: 'namespace', index: i }, ['namespaces', i, 'tools']));
  listAt(root.toolkits).forEach((tk, i) => scan(isRecord(tk) ? tk.tools : undefined, { kind: 'toolkit', index: i }, ['toolkits', i, 'tools']));
  return out;
}
/**
 * Reports by-name entries that name no tool defined in the spec, and a tool
 * listed twice in one list. `defined` maps each tool name to its first definition.
 *
 * @example
 * checkReferences(ctx, toolEntries(root), defined); // unknown_tool for `- raed_file`
 */
export function checkReferences(ctx: Context, entries: readonly ToolEntry[], defined: ReadonlyMap<string, ToolEntry>): void {
  const toolNames = [...defined.keys()];
  const groupKey = (g: GroupRef) => (g.kind === 'flat' ? 'flat' : `${g.kind}:${g.index}`);
  const inGroup = new Map<string, Set<string>>();
  for (const e of entries) {
    if (!e.definition && !defined.has(e.name)) {
      const suggestion = didYouMean(e.name, toolNames);
      ctx.add('unknown_tool', e.path, `no tool named ${JSON.stringify(e.name)} is defined in this spec.`,
        `${suggestion ? `${suggestion} ` : ''}A string in a tool list refers to a tool defined (with name and description) elsewhere in the spec; define it or fix the name.`);
    }
    const seen = inGroup.get(groupKey(e.group)) ?? new Set<string>();
    if (seen.has(e.name) && !(e.definition && defined.get(e.name) !== e)) {
      ctx.add('duplicate_entry', e.path, `the tool ${JSON.stringify(e.name)} is listed twice in this list.`, 'Remove one of the two entries.');
    }
    seen.add(e.name);
    inGroup.set(groupKey(e.group), seen);
  }
}
