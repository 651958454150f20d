/**
 * Names: portable and not reserved, descriptions that say something, no empty tag, one definition
 * per tool name, group names distinct from each other and from tool names, no empty group.
 */
import { PORTABLE_TOOL_NAME, RESERVED_TOOL_NAMES } from '../ir.js';
import type { SpecPath } from '../load.js';
import { isRecord, listAt } from './context.js';
import type { Context } from './context.js';
import type { ToolEntry } from './references.js';

const NAME_RULE =
  'Tool and namespace names must start with a letter or `_`, then use only letters, digits, `_` and `-`, 64 characters at most: ' +
  'the rule every target accepts (Anthropic allows [A-Za-z0-9_-]{1,128}, OpenAI [A-Za-z0-9_-]{1,64}, Gemini must start with a letter or `_`).';

/** A name the rule accepts, close to `name`: invalid characters become `_`. */
function portableForm(name: string): string {
  let s = name.replace(/[^A-Za-z0-9_-]/g, '_');
  if (!/^[A-Za-z_]/.test(s)) s = `_${s}`;
  return s.slice(0, 64);
}

/**
 * Reports an empty, reserved or non-portable name.
 *
 * @example
 * checkName(ctx, 'tool', 'read file', ['tools', 0, 'name']); // invalid_name, hint: "read_file"
 */
export function checkName(ctx: Context, what: 'tool' | 'namespace' | 'toolkit', name: string, path: SpecPath): void {
  if (name.trim() === '') {
    ctx.add('empty_name', path, `the ${what} name is empty.`, `Give the ${what} a name${what === 'toolkit' ? '' : ' such as `read_file`'}.`);
    return;
  }
  if ((RESERVED_TOOL_NAMES as readonly string[]).includes(name)) {
    ctx.add('reserved_name', path, `${JSON.stringify(name)} is reserved: the library owns a tool with that name.`,
      `Rename the ${what}. Reserved names: ${RESERVED_TOOL_NAMES.join(', ')}.`);
    return;
  }
  if (what !== 'toolkit' && !PORTABLE_TOOL_NAME.test(name)) {
    const fixed = portableForm(name);
    ctx.add('invalid_name', path, `${JSON.stringify(name)} is not a valid ${what} name.`,
      `${NAME_RULE}${fixed !== name && PORTABLE_TOOL_NAME.test(fixed) ? ` For example: ${JSON.stringify(fixed)}.` : ''}`);
  }
}

const DESCRIPTION_USE = { tool: 'call it', namespace: 'use it', toolkit: 'load it' } as const;

/**
 * Reports a description that is empty or only blanks.
 *
 * @example
 * checkDescription(ctx, { description: ' ' }, ['tools', 0], 'tool'); // empty_description
 */
export function checkDescription(ctx: Context, owner: Record<string, unknown>, path: SpecPath, what: keyof typeof DESCRIPTION_USE): void {
  const d = owner.description;
  if (typeof d === 'string' && d.trim() === '') {
    ctx.add('empty_description', [...path, 'description'], `the ${what} description is ${d === '' ? 'empty' : 'blank'}.`,
      `Describe what the ${what} ${what === 'tool' ? 'does' : 'offers'}: the model reads the description to decide when to ${DESCRIPTION_USE[what]}.`);
  }
}

/**
 * Reports empty tags of a tool definition: an empty tag matches every task.
 *
 * @example
 * checkTags(ctx, entry); // empty_tag for `tags: [read, ""]`
 */
export function checkTags(ctx: Context, e: ToolEntry): void {
  listAt(e.definition?.tags).forEach((tag, i) => {
    if (typeof tag === 'string' && tag.trim() === '') {
      ctx.add('empty_tag', [...e.path, 'tags', i], 'this tag is empty.',
        'Remove it: an empty tag would match every task, so the tool would never be pruned (leave `tags` out for that).');
    }
  });
}

/**
 * Records the first definition of each tool name in `defined` and reports a
 * second one. Returns nothing; `defined` is the map later rules read.
 *
 * @example
 * checkDefinedOnce(ctx, entry, defined); // duplicate_tool for the second `read_file`
 */
export function checkDefinedOnce(ctx: Context, e: ToolEntry, defined: Map<string, ToolEntry>): void {
  const first = defined.get(e.name);
  if (!first) {
    defined.set(e.name, e);
    return;
  }
  const reference = ctx.spec.format === 'ts' ? `the string ${JSON.stringify(e.name)}` : `\`- ${e.name}\``;
  const group = groupNameOf(ctx, e);
  const renamed = group === undefined ? undefined : portableForm(`${group}_${e.name}`);
  ctx.add('duplicate_tool', [...e.path, 'name'], `the tool ${JSON.stringify(e.name)} is defined twice (first at ${ctx.where(first.path)}).`,
    sameDefinition(first, e)
      ? `Define a tool once and list it elsewhere by name: replace this definition with ${reference}.`
      // Two different tools (two MCP servers both have `read_file`): merging is not the fix, a new name is.
      : `These are two different tools with one name; tool names are unique in a spec (the model calls a tool by name). Rename one, prefixed with where it comes from${renamed === undefined ? ` (e.g. "<server>_${e.name}")` : `, e.g. ${JSON.stringify(renamed)}`}. If they are the same tool, keep one definition and list it here by name with ${reference}.`);
}

/** The namespace or toolkit name an entry sits in, or undefined for a flat tool. */
function groupNameOf(ctx: Context, e: ToolEntry): string | undefined {
  if (e.group.kind === 'flat') return undefined;
  const root = ctx.spec.value as Record<string, unknown>;
  const g = listAt(root[e.group.kind === 'namespace' ? 'namespaces' : 'toolkits'])[e.group.index];
  return isRecord(g) && typeof g.name === 'string' && g.name.trim() !== '' ? g.name : undefined;
}

function sameDefinition(a: ToolEntry, b: ToolEntry): boolean {
  return JSON.stringify(a.definition) === JSON.stringify(b.definition);
}

/**
 * Checks namespaces and toolkits: descriptions, non-empty tool lists, names,
 * and collisions (namespace vs namespace or tool; toolkit vs toolkit ignoring
 * case, tool or namespace). Returns the names policies may refer to.
 *
 * @example
 * checkGroups(ctx, root, defined); // { namespaceNames, toolkitNames }
 */
export function checkGroups(ctx: Context, root: Record<string, unknown>, defined: ReadonlyMap<string, ToolEntry>): {
  namespaceNames: Map<string, (string | number)[]>;
  toolkitNames: Map<string, { name: string; path: (string | number)[] }>;
} {
  // Namespaces: names the model calls, next to flat tools and load_toolkit.
  const namespaceNames = new Map<string, (string | number)[]>();
  listAt(root.namespaces).forEach((value, i) => {
    const ns = checkGroup(ctx, value, 'namespace', i);
    if (!ns) return;
    const { path } = ns;
    const firstNs = namespaceNames.get(ns.name);
    const tool = defined.get(ns.name);
    if (firstNs) {
      ctx.add('name_collision', [...path, 'name'], `the namespace name ${JSON.stringify(ns.name)} is used twice (first at ${ctx.where(firstNs)}).`,
        'Rename one of them, or merge their tools into one namespace.');
    } else if (tool) {
      ctx.add('name_collision', [...path, 'name'], `the namespace ${JSON.stringify(ns.name)} has the same name as the tool defined at ${ctx.where(tool.path)}.`,
        'Rename the namespace or the tool: the model calls both by name, and policies and handlers must know which one a name means.');
    }
    if (!firstNs) namespaceNames.set(ns.name, [...path, 'name']);
  });

  // Toolkits: unique ignoring case; distinct from tool and namespace names (policies name all three).
  const toolkitNames = new Map<string, { name: string; path: (string | number)[] }>();
  listAt(root.toolkits).forEach((value, i) => {
    const tk = checkGroup(ctx, value, 'toolkit', i);
    if (!tk) return;
    const { path } = tk;
    const first = toolkitNames.get(tk.name.toLowerCase());
    if (first) {
      ctx.add('name_collision', [...path, 'name'],
        first.name === tk.name
          ? `the toolkit name ${JSON.stringify(tk.name)} is used twice (first at ${ctx.where(first.path)}).`
          : `the toolkit name ${JSON.stringify(tk.name)} differs from ${JSON.stringify(first.name)} (at ${ctx.where(first.path)}) only in case.`,
        'Toolkit names must be unique ignoring case (models do not reliably keep the case of a name they pass to `load_toolkit`): rename one, or merge them.');
    } else {
      toolkitNames.set(tk.name.toLowerCase(), { name: tk.name, path: [...path, 'name'] });
      const clash = defined.get(tk.name) ?? (namespaceNames.has(tk.name) ? { path: namespaceNames.get(tk.name) ?? [] } : undefined);
      if (clash && !(RESERVED_TOOL_NAMES as readonly string[]).includes(tk.name)) {
        ctx.add('name_collision', [...path, 'name'], `the toolkit ${JSON.stringify(tk.name)} has the same name as the ${defined.has(tk.name) ? 'tool' : 'namespace'} at ${ctx.where(clash.path)}.`,
          'Rename one of them: policies name tools, namespaces and toolkits, and must say unambiguously which one they block.');
      }
    }
  });
  return { namespaceNames, toolkitNames };
}

/**
 * The checks every namespace and toolkit gets (its description, a non-empty tool list, its name). Returns its name and
 * path when it has a string name to check for collisions.
 * @example checkGroup(ctx, { name: 'git', description: 'Git', tools: [] }, 'namespace', 0); // empty_group; → { name: 'git', path: ['namespaces', 0] }
 */
function checkGroup(ctx: Context, group: unknown, kind: 'namespace' | 'toolkit', index: number): { name: string; path: SpecPath } | undefined {
  if (!isRecord(group)) return undefined;
  const path = [kind === 'namespace' ? 'namespaces' : 'toolkits', index];
  checkDescription(ctx, group, path, kind);
  if (Array.isArray(group.tools) && group.tools.length === 0) {
    ctx.add('empty_group', [...path, 'tools'], `this ${kind} has no tools.`, `List at least one tool (a definition or the name of a tool defined elsewhere), or remove the ${kind}.`);
  }
  if (typeof group.name !== 'string') return undefined;
  checkName(ctx, kind, group.name, [...path, 'name']);
  return { name: group.name, path };
}
