/**
 * Validate a loaded spec: every problem at once, in source order, each with
 * file, line, column, spec path, what is wrong and how to fix it.
 *
 * Three passes, each tolerant of what the previous one found wrong so that
 * one mistake does not hide the others:
 *   1. shape — the zod schema in `schema/spec-schema.ts` (unknown keys, types);
 *   2. spec rules — names, references, collisions, groups, policies;
 *   3. parameters — each tool's JSON Schema: form (full or shorthand),
 *      dialect, keywords, `$ref`s, then ajv's meta-schema and strict compile.
 *
 * The JSON Schema helpers at the end (`expandParameters`) are shared with
 * normalize.ts, so what is validated is exactly what gets normalized.
 */
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft7 from 'ajv';
import type { ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { z } from 'zod';
import { KNOWN_KEYS, SpecSchema, SUPPORTED_SPEC_VERSIONS } from '../schema/spec-schema.js';
import type { ObjectKind } from '../schema/spec-schema.js';
import { LOAD_TOOLKIT, PORTABLE_TOOL_NAME, RESERVED_TOOL_NAMES } from './ir.js';
import type { JsonSchema, JsonValue } from './ir.js';
import type { LoadedSpec, SpecPath } from './load.js';
import { bug, didYouMean, formatPath, sortProblems } from './problems.js';
import type { Problem, ProblemCode } from './problems.js';

/**
 * Checks a loaded spec and returns every problem in it (empty = valid), in
 * source order. Never throws for a user mistake.
 *
 * @example
 * const loaded = await loadSpec('examples/tools.spec.yaml');
 * if (loaded.ok) validateSpec(loaded.spec); // []
 */
export function validateSpec(spec: LoadedSpec): Problem[] {
  const ctx = new Context(spec);
  checkShape(ctx);
  checkRules(ctx);
  return sortProblems(ctx.unique());
}

/** Collects problems with their positions. */
class Context {
  readonly problems: Problem[] = [];
  constructor(readonly spec: LoadedSpec) {}

  /** Reports a problem at the value at `path` (or its key with `at: 'key'`). */
  add(code: ProblemCode, path: SpecPath, message: string, hint: string, at: 'value' | 'key' = 'value'): void {
    const { line, column } = this.spec.locate(path, at);
    this.problems.push({ code, message, hint, file: this.spec.file, line, column, path: formatPath(path) });
  }

  /** Where `path` was written, for "first defined at line N". */
  where(path: SpecPath): string {
    const p = formatPath(path);
    return this.spec.format === 'ts' ? p : `${p}, line ${this.spec.locate(path).line}`;
  }

  /** Problems with duplicates (same code and path) removed; the first one wins. */
  unique(): Problem[] {
    const seen = new Set<string>();
    return this.problems.filter((p) => {
      const key = `${p.code}\u0000${p.path}\u0000${p.line}:${p.column}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}

// ---------------------------------------------------------------------------
// Pass 1: shape (zod)

type Issue = z.core.$ZodIssue;

function checkShape(ctx: Context): void {
  const result = SpecSchema.safeParse(ctx.spec.value);
  if (result.success) return;
  for (const issue of result.error.issues) reportIssue(ctx, issue, []);
}

/** The value at `path` inside `root` (undefined when absent). */
function valueAt(root: unknown, path: SpecPath): unknown {
  let v = root;
  for (const seg of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** Which kind of spec object lives at a path (for key lists and messages). */
function kindAt(path: SpecPath): ObjectKind | undefined {
  const p = path.map((s) => (typeof s === 'number' ? '#' : s)).join('/');
  switch (p) {
    case '':
      return 'spec';
    case 'options':
      return 'options';
    case 'namespaces/#':
      return 'namespace';
    case 'toolkits/#':
      return 'toolkit';
    case 'tools/#':
    case 'namespaces/#/tools/#':
    case 'toolkits/#/tools/#':
      return 'tool';
    default:
      return undefined;
  }
}

const KIND_LABEL: Record<ObjectKind, string> = {
  spec: 'the spec (top level)',
  options: '`options`',
  tool: 'a tool',
  namespace: 'a namespace',
  toolkit: 'a toolkit',
};

/** How a JSON value reads in a message: `a string ("x")`, `a list`, `a number (3)`. */
function describe(v: unknown): string {
  if (v === null) return 'null (an empty value)';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
    case 'number':
      return `a number (${v})`;
    case 'boolean':
      return `a boolean (${v})`;
    case 'object':
      return 'a mapping';
    case 'undefined':
      return 'nothing';
    default:
      return `a ${typeof v}`;
  }
}

const EXPECTED_LABEL: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

/** Field-specific advice for a missing or mistyped key, keyed by the last path segment. */
const FIELD_HINTS: Record<string, { missing: string; wrong: string }> = {
  version: { missing: 'Add `version: 1` at the top of the spec.', wrong: 'Write `version: 1`.' },
  name: {
    missing: 'Add a `name`: it is how the model calls it and how your code refers to it.',
    wrong: 'Write the name as a string; quote it if YAML reads it as a number or boolean.',
  },
  description: {
    missing: 'Add a `description`: the model reads it to decide when to call it.',
    wrong: 'Write the description as text; quote it if YAML reads it as another type, e.g. `description: "42"`.',
  },
  tools: {
    missing: 'Add `tools:` with at least one tool definition or the name of a tool defined elsewhere.',
    wrong: 'Write `tools:` as a list: each item a tool definition (with name and description) or a tool name.',
  },
  tags: { missing: '', wrong: 'Write tags as a list of strings, e.g. `tags: [file, read]`.' },
  parameters: {
    missing: '',
    wrong: 'Write parameters as a mapping: a JSON Schema with `type: object`, or a map from property name to property schema.',
  },
  deferLoading: { missing: '', wrong: 'Write `deferLoading: true` or `deferLoading: false` (no quotes).' },
  openaiStrict: { missing: '', wrong: 'Write `openaiStrict: true` or `openaiStrict: false` (no quotes).' },
  namespaces: { missing: '', wrong: 'Write `namespaces:` as a list of namespaces, each with name, description and tools.' },
  toolkits: { missing: '', wrong: 'Write `toolkits:` as a list of toolkits, each with name, description and tools.' },
  policies: { missing: '', wrong: 'Write `policies:` as a mapping from policy name to a list of names, e.g. `prod: [delete_file]`.' },
  options: { missing: '', wrong: 'Write `options:` as a mapping, e.g. `options: { namespaceEncoding: compact }`.' },
};

function reportIssue(ctx: Context, issue: Issue, prefix: (string | number)[]): void {
  const path: (string | number)[] = [...prefix, ...(issue.path as (string | number)[])];
  const value = valueAt(ctx.spec.value, path);
  const last = path[path.length - 1];
  const field = typeof last === 'string' ? last : undefined;
  // Policy lists: `policies.<name>` — the field hints are for spec keys, not policy names.
  const inPolicies = path[0] === 'policies' && path.length >= 2;

  switch (issue.code) {
    case 'unrecognized_keys': {
      const kind = kindAt(path);
      const known = kind ? KNOWN_KEYS[kind] : [];
      for (const key of issue.keys) {
        if (valueAt(ctx.spec.value, [...path, key]) === null && /\s/.test(key)) {
          ctx.add('unknown_key', [...path, key], `unknown key ${JSON.stringify(key)} (with no value) in ${kind ? KIND_LABEL[kind] : 'this mapping'}.`, COMMA_HINT, 'key');
          continue;
        }
        const suggestion = didYouMean(key, known);
        const elsewhere = suggestion === '' ? misplacedKeyHint(key, kind) : '';
        ctx.add('unknown_key', [...path, key], `unknown key ${JSON.stringify(key)} in ${kind ? KIND_LABEL[kind] : 'this mapping'}.`,
          [suggestion, elsewhere, suggestion || elsewhere ? '' : `Keys allowed here: ${known.join(', ')}.`, 'Remove the key or fix its spelling.'].filter((s) => s !== '').join(' '), 'key');
      }
      return;
    }
    case 'invalid_union': {
      // A tool list entry: a name (string) or a definition (mapping). Report the branch the user meant.
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const objectBranch = issue.errors.find((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0));
        if (objectBranch) {
          for (const inner of objectBranch) reportIssue(ctx, inner, path);
          return;
        }
      }
      ctx.add('wrong_type', path, `expected a tool definition (a mapping) or a tool name (a string), but found ${describe(value)}.`,
        'Write either `- name_of_a_tool_defined_elsewhere` or a definition `- { name: ..., description: ... }`.');
      return;
    }
    case 'invalid_value': {
      if (path.length === 1 && path[0] === 'version' && value === undefined) {
        ctx.add('missing_key', path, 'the spec has no "version"; it is required.', 'Add `version: 1` at the top of the spec.');
        return;
      }
      if (path.length === 1 && path[0] === 'version') {
        ctx.add('unsupported_version', path, `spec version ${JSON.stringify(value)} is not supported.`,
          `This toolroute reads spec version${SUPPORTED_SPEC_VERSIONS.length > 1 ? 's' : ''} ${SUPPORTED_SPEC_VERSIONS.join(', ')}: write \`version: 1\` (a number, not a string).`);
        return;
      }
      const allowed = issue.values.map((v) => JSON.stringify(v));
      const suggestion = typeof value === 'string' ? didYouMean(value, issue.values.map(String)) : '';
      ctx.add('invalid_value', path, `${JSON.stringify(value)} is not a valid ${field ?? 'value'}.`,
        `${suggestion ? `${suggestion} ` : ''}Use one of: ${allowed.join(', ')}.`);
      return;
    }
    case 'invalid_type': {
      const parent = path.slice(0, -1);
      const parentValue = valueAt(ctx.spec.value, parent);
      const absent = value === undefined && typeof last === 'string' && typeof parentValue === 'object' && parentValue !== null && !(last in parentValue);
      if (path.length === 0) {
        if (value === null || value === undefined) {
          ctx.add('wrong_type', path, 'the spec is empty.', 'Start with `version: 1` and add `tools:`, `namespaces:` or `toolkits:`.');
        } else {
          ctx.add('wrong_type', path, `the spec must be a mapping, but found ${describe(value)}.`, 'Start with `version: 1` and add `tools:`, `namespaces:` or `toolkits:` as top-level keys.');
        }
        return;
      }
      if (absent) {
        const kind = kindAt(parent);
        const hint = (field && FIELD_HINTS[field]?.missing) || `Add \`${String(last)}\`.`;
        ctx.add('missing_key', path, `${kind ? KIND_LABEL[kind].replace(/^a /, 'this ').replace(/^the spec \(top level\)$/, 'the spec') : 'this mapping'} has no ${JSON.stringify(last)}; it is required.`, hint);
        return;
      }
      const expected = EXPECTED_LABEL[issue.expected] ?? issue.expected;
      const hint = inPolicies
        ? 'Write each policy as a list of tool, namespace or toolkit names, e.g. `prod: [delete_file, tail_logs]`.'
        : (field && FIELD_HINTS[field]?.wrong) || (path[path.length - 2] === 'tags' ? 'Write each tag as a string.' : `Write ${expected} here.`);
      ctx.add('wrong_type', path, `expected ${expected}, but found ${describe(value)}.`, hint);
      return;
    }
    default:
      ctx.add('wrong_type', path, `${issue.message}.`, 'Fix the value.');
  }
}

/** Text after a comma inside `{ … }` becomes a key of its own in YAML: the commonest way to get a key with spaces and no value. */
const COMMA_HINT =
  'This looks like the rest of a value cut at a comma: inside `{ ... }` YAML splits unquoted text at commas. Quote the whole value, e.g. `description: "Path of the file, relative to the root"`.';

/** "…is a key of a tool, not of a namespace" when the key belongs one level away (bad indentation). */
function misplacedKeyHint(key: string, kind: ObjectKind | undefined): string {
  if (!kind) return '';
  const owners = (Object.keys(KNOWN_KEYS) as ObjectKind[]).filter((k) => k !== kind && (KNOWN_KEYS[k] as readonly string[]).includes(key));
  if (owners.length === 0) return '';
  return `${JSON.stringify(key)} is a key of ${owners.map((o) => KIND_LABEL[o]).join(' or ')}, not of ${KIND_LABEL[kind]}: check the indentation.`;
}

// ---------------------------------------------------------------------------
// Pass 2: spec rules

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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const listAt = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

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

const NAME_RULE =
  'Tool and namespace names must start with a letter or `_`, then use only letters, digits, `_` and `-`, 64 characters at most: ' +
  'the rule every target accepts (Anthropic allows [A-Za-z0-9_-]{1,128}, OpenAI [A-Za-z0-9_-]{1,64}, Gemini must start with a letter or `_`).';

/** A name the rule accepts, close to `name`: invalid characters become `_`. */
function portableForm(name: string): string {
  let s = name.replace(/[^A-Za-z0-9_-]/g, '_');
  if (!/^[A-Za-z_]/.test(s)) s = `_${s}`;
  return s.slice(0, 64);
}

function checkName(ctx: Context, what: 'tool' | 'namespace' | 'toolkit', name: string, path: SpecPath): void {
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

function checkDescription(ctx: Context, owner: Record<string, unknown>, path: SpecPath, what: keyof typeof DESCRIPTION_USE): void {
  const d = owner.description;
  if (typeof d === 'string' && d.trim() === '') {
    ctx.add('empty_description', [...path, 'description'], `the ${what} description is ${d === '' ? 'empty' : 'blank'}.`,
      `Describe what the ${what} ${what === 'tool' ? 'does' : 'offers'}: the model reads the description to decide when to ${DESCRIPTION_USE[what]}.`);
  }
}

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
    listAt(e.definition.tags).forEach((tag, i) => {
      if (typeof tag === 'string' && tag.trim() === '') {
        ctx.add('empty_tag', [...e.path, 'tags', i], 'this tag is empty.',
          'Remove it: an empty tag would match every task, so the tool would never be pruned (leave `tags` out for that).');
      }
    });
    if (isRecord(e.definition.parameters)) {
      for (const p of expandToolParameters(ctx.spec, e.definition.parameters).problems) ctx.add(p.code, [...e.path, 'parameters', ...p.path], p.message, p.hint, p.at);
    }
    const first = defined.get(e.name);
    if (first) {
      ctx.add('duplicate_tool', [...e.path, 'name'], `the tool ${JSON.stringify(e.name)} is defined twice (first at ${ctx.where(first.path)}).`,
        `Define a tool once and list it elsewhere by name: replace this definition with ${ctx.spec.format === 'ts' ? `the string ${JSON.stringify(e.name)}` : `\`- ${e.name}\``}${sameDefinition(first, e) ? '' : ' (after merging the two definitions)'}.`);
    } else defined.set(e.name, e);
  }
  const toolNames = [...defined.keys()];

  // References and repeated entries in one list.
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

  // Namespaces: names the model calls, next to flat tools and load_toolkit.
  const namespaceNames = new Map<string, (string | number)[]>();
  listAt(root.namespaces).forEach((ns, i) => {
    if (!isRecord(ns)) return;
    const path = ['namespaces', i];
    checkDescription(ctx, ns, path, 'namespace');
    if (Array.isArray(ns.tools) && ns.tools.length === 0) {
      ctx.add('empty_group', [...path, 'tools'], 'this namespace has no tools.', 'List at least one tool (a definition or the name of a tool defined elsewhere), or remove the namespace.');
    }
    if (typeof ns.name !== 'string') return;
    checkName(ctx, 'namespace', ns.name, [...path, 'name']);
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
  listAt(root.toolkits).forEach((tk, i) => {
    if (!isRecord(tk)) return;
    const path = ['toolkits', i];
    checkDescription(ctx, tk, path, 'toolkit');
    if (Array.isArray(tk.tools) && tk.tools.length === 0) {
      ctx.add('empty_group', [...path, 'tools'], 'this toolkit has no tools.', 'List at least one tool (a definition or the name of a tool defined elsewhere), or remove the toolkit.');
    }
    if (typeof tk.name !== 'string') return;
    checkName(ctx, 'toolkit', tk.name, [...path, 'name']);
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

  // Policies: every entry names something that exists.
  const policyTargets = [...toolNames, ...namespaceNames.keys(), ...[...toolkitNames.values()].map((t) => t.name)];
  const targetSet = new Set(policyTargets);
  if (isRecord(root.policies)) {
    for (const [policy, list] of Object.entries(root.policies)) {
      if (policy.trim() === '') ctx.add('empty_name', ['policies', policy], 'the policy name is empty.', 'Give the policy a name, e.g. `prod`.', 'key');
      listAt(list).forEach((target, i) => {
        if (typeof target !== 'string' || targetSet.has(target)) return;
        const suggestion = didYouMean(target, policyTargets);
        ctx.add('unknown_policy_target', ['policies', policy, i], `the policy ${JSON.stringify(policy)} blocks ${JSON.stringify(target)}, which is not a tool, namespace or toolkit of this spec.`,
          `${suggestion ? `${suggestion} ` : ''}A policy lists names of tools, namespaces or toolkits defined in this spec.`);
      });
    }
  }

  // The tool list the model sees must not be empty, nor entirely deferred.
  const visible = visibleTools(root, entries, defined);
  if (entries.length === 0 && listAt(root.namespaces).length === 0 && listAt(root.toolkits).length === 0) {
    ctx.add('no_tools', [], 'the spec defines no tools.', 'Add a `tools:` list (or `namespaces:` / `toolkits:`) with at least one tool.');
  } else if (visible.length > 0 && visible.every((v) => v.deferred)) {
    ctx.add('all_tools_deferred', 'tools' in root ? ['tools'] : [], `every tool the model sees is deferred (${visible.map((v) => v.name).join(', ')}).`,
      'Anthropic rejects a request in which every tool has defer_loading ("At least one tool must be non-deferred"): set `deferLoading: false` (or leave it out) on at least one flat tool.');
  }
}

function sameDefinition(a: ToolEntry, b: ToolEntry): boolean {
  return JSON.stringify(a.definition) === JSON.stringify(b.definition);
}

/**
 * The tools in the model's initial list and whether each is deferred: flat
 * tools, one tool per namespace (deferred only when all its actions are), and
 * `load_toolkit` (never deferred) when there are toolkits.
 */
function visibleTools(root: Record<string, unknown>, entries: ToolEntry[], defined: Map<string, ToolEntry>): { name: string; deferred: boolean }[] {
  const deferred = (name: string) => defined.get(name)?.definition?.deferLoading === true;
  const out: { name: string; deferred: boolean }[] = [];
  for (const e of entries) if (e.group.kind === 'flat') out.push({ name: e.name, deferred: deferred(e.name) });
  listAt(root.namespaces).forEach((ns, i) => {
    const actions = entries.filter((e) => e.group.kind === 'namespace' && e.group.index === i);
    const name = isRecord(ns) && typeof ns.name === 'string' ? ns.name : `namespaces[${i}]`;
    out.push({ name, deferred: actions.length > 0 && actions.every((a) => deferred(a.name)) });
  });
  if (listAt(root.toolkits).length > 0) out.push({ name: LOAD_TOOLKIT, deferred: false });
  return out;
}

// ---------------------------------------------------------------------------
// Pass 3: parameters (JSON Schema)

/** A problem inside `parameters`, with a path relative to `parameters`. */
export interface SchemaProblem {
  code: ProblemCode;
  path: (string | number)[];
  message: string;
  hint: string;
  at: 'value' | 'key';
}

/** The JSON Schema dialects a `parameters` schema may use. */
export const SCHEMA_DIALECTS = ['2020-12', 'draft-07'] as const;
export type SchemaDialect = (typeof SCHEMA_DIALECTS)[number];

const DIALECT_URIS: Readonly<Record<string, SchemaDialect>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft-07/schema': 'draft-07',
};

/** Schema keywords by what their value is. */
const KEYWORDS = {
  /** Value is one subschema. */
  schema: ['additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'],
  /** Value is a list of subschemas. */
  schemaList: ['allOf', 'anyOf', 'oneOf', 'prefixItems'],
  /** Value is a map of name → subschema. */
  schemaMap: ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'],
  /** Value is data (or a plain value): never walked as a schema. */
  data: [
    '$schema', '$ref', '$comment', 'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
    'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties',
    'minProperties', 'required', 'dependentRequired', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly',
    'examples', 'format', 'contentEncoding', 'contentMediaType',
  ],
} as const;
// `$defs` and `definitions` are accepted in both (ajv does; the 2020-12 meta-schema keeps `definitions` for compatibility).
const DRAFT07_ONLY = new Set(['additionalItems', 'dependencies']);
const DRAFT2020_ONLY = new Set(['prefixItems', 'dependentSchemas', 'dependentRequired', 'unevaluatedItems', 'unevaluatedProperties', 'maxContains', 'minContains', 'deprecated', 'contentSchema']);
/** Keywords that change how refs resolve or need a dynamic scope: refused rather than half-supported. */
const UNSUPPORTED_KEYWORDS = new Set(['$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$recursiveRef', '$recursiveAnchor']);
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

const ALL_KEYWORDS = [...KEYWORDS.schema, ...KEYWORDS.schemaList, ...KEYWORDS.schemaMap, ...KEYWORDS.data, 'items', 'additionalItems', 'dependencies'];
/** Built once: `walkSchema` asks for them at every schema node. */
const KNOWN_KEYWORDS: Readonly<Record<SchemaDialect, ReadonlySet<string>>> = {
  '2020-12': new Set(ALL_KEYWORDS.filter((k) => !DRAFT07_ONLY.has(k))),
  'draft-07': new Set(ALL_KEYWORDS.filter((k) => !DRAFT2020_ONLY.has(k))),
};
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(KEYWORDS.schema);
const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(KEYWORDS.schemaList);
const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(KEYWORDS.schemaMap);

function knownKeywords(dialect: SchemaDialect): ReadonlySet<string> {
  return KNOWN_KEYWORDS[dialect];
}

const require = createRequire(import.meta.url);
/** ajv-formats' format names: what the generated validators can check. */
const KNOWN_FORMATS: readonly string[] = (require('ajv-formats/dist/formats.js') as { formatNames: string[] }).formatNames;

type AjvLike = {
  validateSchema(schema: unknown): boolean | Promise<unknown>;
  errors?: ErrorObject[] | null;
  errorsText(errors?: ErrorObject[] | null): string;
  compile(schema: unknown): unknown;
  removeSchema(schema: unknown): unknown;
};
const STRICT = { strict: true, strictTypes: false, strictTuples: false, strictRequired: false, logger: false } as const;
/**
 * The ajv for the strict compile check. Only whether the schema compiles
 * matters, never the code: strict-mode errors (and bad patterns, which ajv
 * turns into RegExps) are raised while ajv generates code, whatever
 * `allErrors` says. So the optimizer passes are skipped (half the cost of a
 * compile, the dominant cost of validating a large spec) and the generated
 * source is swapped for a stub before ajv evaluates it (`code.process`), so V8
 * never parses code nobody runs. The emitted validators are compiled apart.
 * The stub would also stand in for the meta-schema's validator, so this
 * instance checks no schema against the meta-schema (`validateSchema: false`):
 * `expandParameters` does that with the dialect's instance first.
 */
const COMPILE_CHECK = {
  ...STRICT,
  allErrors: false,
  validateSchema: false,
  code: { optimize: false, process: () => 'return function unused() { return true; };' },
} as const;
const ajvCache = new Map<SchemaDialect | 'compile-check', AjvLike>();
/** One ajv per dialect (meta-schema checks, every error) and one for the compile check, created on first use (creating one costs milliseconds). */
function ajvFor(use: SchemaDialect | 'compile-check'): AjvLike {
  let ajv = ajvCache.get(use);
  if (!ajv) {
    const instance = use === 'compile-check' ? new Ajv2020.default(COMPILE_CHECK)
      : use === '2020-12' ? new Ajv2020.default({ ...STRICT, allErrors: true }) : new AjvDraft7.default({ ...STRICT, allErrors: true });
    addFormats.default(instance);
    ajv = instance as unknown as AjvLike;
    ajvCache.set(use, ajv);
  }
  return ajv;
}

/** What `expandParameters` returns. */
export interface ExpandedParameters {
  /** The full schema: shorthand expanded, local refs inlined, `$defs` and `$schema` removed, in draft 2020-12 form. */
  readonly schema: JsonSchema;
  readonly shorthand: boolean;
  readonly problems: SchemaProblem[];
}

/**
 * Whether `parameters` is the shorthand properties map rather than a JSON
 * Schema. The rule (documented in schema/README.md): a JSON Schema has a
 * `type` key, a `properties` key, or a key starting with `$`; anything else is
 * the shorthand, in which every key is a property name and every value that
 * property's schema. The shorthand means `{ type: object, properties: <map> }`:
 * every property optional, other properties allowed — the reference library
 * reads these maps the same way (plain property maps, no requiredness).
 *
 * @example
 * isShorthand({ path: { type: 'string' } }); // true
 * isShorthand({ type: 'object', properties: {} }); // false
 */
export function isShorthand(parameters: Record<string, unknown>): boolean {
  return !('type' in parameters) && !('properties' in parameters) && !Object.keys(parameters).some((k) => k.startsWith('$'));
}

/**
 * Checks a tool's `parameters` and produces its normalized form. Problem paths
 * are relative to `parameters`. The schema is meaningful only when there are no
 * problems.
 *
 * @example
 * expandParameters({ path: { type: 'string' } }).schema;
 * // { type: 'object', properties: { path: { type: 'string' } } }
 */
export function expandParameters(parameters: Record<string, unknown>): ExpandedParameters {
  const problems: SchemaProblem[] = [];
  const shorthand = isShorthand(parameters);
  let full: Record<string, unknown>;
  /** Maps a path in `full` back to a path in what the user wrote. */
  let toSpec: (p: (string | number)[]) => (string | number)[] = (p) => p;

  if (shorthand) {
    for (const [key, value] of Object.entries(parameters)) {
      if (!isRecord(value)) {
        const keywordLike = knownKeywords('2020-12').has(key) || key === 'items';
        problems.push({
          code: 'invalid_shorthand', path: [key], at: 'value',
          message: `in the shorthand form, ${JSON.stringify(key)} must be the schema of a property (a mapping), but it is ${describe(value)}.`,
          hint: keywordLike
            ? `${JSON.stringify(key)} looks like a JSON Schema keyword: write a full schema instead, with \`type: object\` and the arguments under \`properties:\`.`
            : 'Each key of the shorthand is an argument name and its value that argument\'s schema, e.g. `path: { type: string }`. For a full JSON Schema add `type: object` and put the arguments under `properties:`.',
        });
      }
    }
    if (problems.length > 0) return { schema: { type: 'object', properties: {} }, shorthand, problems };
    full = { type: 'object', properties: parameters };
    toSpec = (p) => (p[0] === 'properties' ? p.slice(1) : p);
  } else {
    full = parameters;
  }

  // Dialect.
  let dialect: SchemaDialect = '2020-12';
  if ('$schema' in full) {
    const uri = full.$schema;
    const found = typeof uri === 'string' ? DIALECT_URIS[uri.replace(/#$/, '').replace(/^http:\/\/json-schema\.org\/draft\/2020-12/, 'https://json-schema.org/draft/2020-12').replace(/^https:\/\/json-schema\.org\/draft-07/, 'http://json-schema.org/draft-07')] : undefined;
    if (!found) {
      problems.push({ code: 'unsupported_schema_dialect', path: ['$schema'], at: 'value',
        message: `${JSON.stringify(uri)} is not a JSON Schema dialect toolroute supports.`,
        hint: 'Use "https://json-schema.org/draft/2020-12/schema" (the default when `$schema` is absent) or "http://json-schema.org/draft-07/schema#".' });
      return { schema: {}, shorthand, problems };
    }
    dialect = found;
  }

  // Keywords, types, formats, required, refs — our own checks say more than the meta-schema would.
  walkSchema(full, [], dialect, full, problems, toSpec);

  // The meta-schema catches the rest (a keyword with a value of the wrong type, a negative maxLength…).
  const ajv = ajvFor(dialect);
  if (ajv.validateSchema(full) !== true) {
    const reported = problems.map((p) => formatPath(p.path));
    const byPath = new Map<string, ErrorObject[]>();
    for (const e of ajv.errors ?? []) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
    for (const [pointer, errors] of byPath) {
      const path = toSpec(pointerToPath(pointer));
      const p = formatPath(path);
      if (reported.some((r) => r === p || p.startsWith(`${r}.`) || p.startsWith(`${r}[`) || r.startsWith(`${p}.`) || r.startsWith(`${p}[`))) continue;
      const messages = [...new Set(errors.filter((e) => !['anyOf', 'oneOf', 'allOf', 'if', '$ref', '$dynamicRef'].includes(e.keyword)).map((e) => (e.message ?? e.keyword).replace(/^must be ([a-z]+),([a-z]+)$/, 'must be $1 or $2')))];
      problems.push({ code: 'invalid_schema', path, at: 'value',
        message: `not a valid JSON Schema here: ${messages.join('; ') || 'does not match the meta-schema'}.`,
        hint: `Fix this keyword's value (JSON Schema ${dialect}); see https://json-schema.org/understanding-json-schema/reference.` });
    }
  }
  if (problems.length > 0) return { schema: {}, shorthand, problems };

  // Inline local refs (refusing recursion), convert draft-07 to 2020-12, drop $defs and $schema.
  const inlined = inlineSchema(full, dialect, problems, toSpec);
  if (problems.length > 0) return { schema: {}, shorthand, problems };

  // Tool arguments are always an object.
  if (inlined.type !== 'object') {
    const written = full.type;
    problems.push({ code: 'parameters_not_object', path: 'type' in full ? ['type'] : [], at: 'value',
      message: written === undefined
        ? 'parameters is a JSON Schema without `type: object`.'
        : `parameters must be a JSON Schema of type "object", but its type is ${JSON.stringify(inlined.type ?? written)}.`,
      hint: 'Tool arguments are always an object: write `type: object` and list the arguments under `properties:`.' });
    return { schema: {}, shorthand, problems };
  }

  // Last line of defence: the normalized schema (always 2020-12 form) must compile under ajv's strict
  // mode, as the emitted validators do.
  const ajv2020 = ajvFor('compile-check');
  try {
    // What ajv's compile does first (and the stubbed instance cannot): the inlined form against the
    // 2020-12 meta-schema — a `$ref` may have pulled in data (an enum value, an example) as a schema.
    const meta = ajvFor('2020-12');
    if (meta.validateSchema(inlined) !== true) throw new Error(`schema is invalid: ${meta.errorsText(meta.errors)}`);
    ajv2020.compile(inlined);
  } catch (err) {
    problems.push({ code: 'invalid_schema', path: [], at: 'value',
      message: `this schema does not compile: ${err instanceof Error ? err.message : String(err)}.`,
      hint: 'Fix the schema; toolroute compiles argument validators with ajv in strict mode.' });
  } finally {
    // ajv caches every schema it compiled by object; this one is never compiled again here.
    ajv2020.removeSchema(inlined);
  }
  return { schema: inlined, shorthand, problems };
}

/** Expansions computed for each loaded spec, by parameters content (see `expandToolParameters`). */
const expansions = new WeakMap<LoadedSpec, Map<string, ExpandedParameters>>();

/**
 * `expandParameters` of a tool's `parameters` in `spec`, computed once per
 * distinct content: validate and normalize both need every tool's expansion,
 * and large specs reuse a few schemas across many tools (the strict compile
 * inside is most of the front end's time). Keyed by content, never by object,
 * so a spec value edited between the two steps is not served a stale result.
 * The result may be shared between tools: read it, never change it.
 *
 * @example
 * expandToolParameters(loaded.spec, { path: { type: 'string' } }).schema;
 * // { type: 'object', properties: { path: { type: 'string' } } }
 */
export function expandToolParameters(spec: LoadedSpec, parameters: Record<string, unknown>): ExpandedParameters {
  const key = contentKey(parameters);
  if (key === undefined) return expandParameters(parameters);
  let cache = expansions.get(spec);
  if (cache === undefined) {
    cache = new Map();
    expansions.set(spec, cache);
  }
  let expanded = cache.get(key);
  if (expanded === undefined) {
    expanded = expandParameters(parameters);
    cache.set(key, expanded);
  }
  return expanded;
}

/**
 * A string equal for two values exactly when they are the same JSON data
 * (key order included; `-0`, `NaN` and infinities kept apart, unlike
 * JSON.stringify; every item ends in a comma, so no two values run
 * together), or undefined for anything that is not plain data (a TS
 * spec may hold functions, class instances, zod schemas…): those are not cached.
 *
 * @example
 * contentKey({ a: [1, 'x'] }); // '{"a":[n1,"x",],}'
 */
export function contentKey(value: unknown): string | undefined {
  const parts: string[] = [];
  const walk = (v: unknown): boolean => {
    switch (typeof v) {
      case 'string':
        parts.push(JSON.stringify(v));
        return true;
      case 'number':
        parts.push(Object.is(v, -0) ? 'n-0' : `n${v}`);
        return true;
      case 'boolean':
        parts.push(v ? 't' : 'f');
        return true;
      case 'object': {
        if (v === null) {
          parts.push('z');
          return true;
        }
        if (Array.isArray(v)) {
          parts.push('[');
          for (const item of v) {
            if (!walk(item)) return false;
            parts.push(',');
          }
          parts.push(']');
          return true;
        }
        const proto: unknown = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) return false;
        parts.push('{');
        for (const [k, item] of Object.entries(v)) {
          parts.push(JSON.stringify(k), ':');
          if (!walk(item)) return false;
          parts.push(',');
        }
        parts.push('}');
        return true;
      }
      default:
        return false;
    }
  };
  return walk(value) ? parts.join('') : undefined;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => {
    const seg = s.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : seg;
  });
}

/**
 * Resolves a local ref's JSON pointer against the root. Returns the path
 * (segments) and target, or undefined when it points nowhere.
 */
function resolvePointer(root: unknown, ref: string): { path: (string | number)[]; target: unknown } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (decoded !== '' && !decoded.startsWith('/')) return undefined;
  const path: (string | number)[] = [];
  let v: unknown = root;
  for (const raw of decoded === '' ? [] : decoded.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(seg)) {
      v = v[Number(seg)];
      path.push(Number(seg));
    } else if (isRecord(v) && Object.hasOwn(v, seg)) {
      v = v[seg];
      path.push(seg);
    } else return undefined;
  }
  return { path, target: v };
}

/** Checks one schema object and its subschemas (but not data such as enum values or defaults). */
function walkSchema(node: unknown, path: (string | number)[], dialect: SchemaDialect, root: Record<string, unknown>, problems: SchemaProblem[], toSpec: (p: (string | number)[]) => (string | number)[]): void {
  if (!isRecord(node)) return; // booleans are schemas; other values are left to the meta-schema
  const known = knownKeywords(dialect);
  const add = (code: ProblemCode, p: (string | number)[], message: string, hint: string, at: 'value' | 'key' = 'value') =>
    problems.push({ code, path: toSpec(p), message, hint, at });

  for (const [key, value] of Object.entries(node)) {
    const here = [...path, key];
    if (UNSUPPORTED_KEYWORDS.has(key)) {
      add('unsupported_schema_keyword', here, `the keyword ${JSON.stringify(key)} is not supported in tool parameters.`,
        'Remove it: toolroute inlines local `$ref`s by JSON pointer (e.g. `$ref: "#/$defs/Name"`) and does not support identifiers, anchors or dynamic refs.', 'key');
      continue;
    }
    if (!known.has(key)) {
      const other = knownKeywords(dialect === '2020-12' ? 'draft-07' : '2020-12').has(key);
      if (value === null && /\s/.test(key)) {
        add('unknown_schema_keyword', here, `unknown JSON Schema keyword ${JSON.stringify(key)} (with no value).`, COMMA_HINT, 'key');
        continue;
      }
      const suggestion = didYouMean(key, known);
      add('unknown_schema_keyword', here, `unknown JSON Schema keyword ${JSON.stringify(key)}${other ? ` (it belongs to ${dialect === '2020-12' ? 'draft-07' : 'draft 2020-12'})` : ''}.`,
        other
          ? `Use the ${dialect} form${key === 'dependencies' ? ' (`dependentRequired` / `dependentSchemas`)' : key === 'additionalItems' ? ' (`items` after `prefixItems`)' : ''}, or declare the dialect with \`$schema\`.`
          : `${suggestion ? `${suggestion} ` : ''}Unknown keywords are refused because providers reject or ignore them; remove it or fix its spelling.`,
        'key');
      continue;
    }
    switch (key) {
      case 'type': {
        const types = Array.isArray(value) ? value : [value];
        types.forEach((t, i) => {
          if (typeof t === 'string' && !(JSON_TYPES as readonly string[]).includes(t)) {
            const suggestion = didYouMean(t, JSON_TYPES);
            add('invalid_schema', Array.isArray(value) ? [...here, i] : here, `${JSON.stringify(t)} is not a JSON Schema type.`,
              `${suggestion ? `${suggestion} ` : ''}Types are: ${JSON_TYPES.join(', ')}.`);
          }
        });
        break;
      }
      case 'format':
        if (typeof value === 'string' && !KNOWN_FORMATS.includes(value)) {
          const suggestion = didYouMean(value, KNOWN_FORMATS);
          add('unknown_format', here, `${JSON.stringify(value)} is not a format toolroute can validate.`,
            `${suggestion ? `${suggestion} ` : ''}Known formats: ${KNOWN_FORMATS.join(', ')}. For anything else use \`pattern\` or say it in the description.`);
        }
        break;
      case 'required':
        if (Array.isArray(value) && isRecord(node.properties) && !isRecord(node.patternProperties)) {
          const props = Object.keys(node.properties);
          value.forEach((name, i) => {
            if (typeof name === 'string' && !props.includes(name)) {
              const suggestion = didYouMean(name, props);
              add('required_not_in_properties', [...here, i], `${JSON.stringify(name)} is required but is not one of the properties (${props.map((p) => JSON.stringify(p)).join(', ') || 'none'}).`,
                `${suggestion ? `${suggestion} ` : ''}List under \`required\` only names that appear under \`properties\` (some providers reject the request otherwise).`);
            }
          });
        }
        break;
      case '$ref':
        if (typeof value === 'string') checkRef(value, here, root, add);
        break;
      case 'items':
      case 'additionalItems':
        if (Array.isArray(value) && key === 'items' && dialect === '2020-12') {
          add('invalid_schema', here, '`items` as a list is the draft-07 tuple form; draft 2020-12 (the default) needs one schema here.',
            'Write `prefixItems: [...]` for a tuple (and `items: false` instead of `additionalItems: false`), or declare draft-07 with `$schema: "http://json-schema.org/draft-07/schema#"`.');
        } else if (Array.isArray(value)) value.forEach((s, i) => walkSchema(s, [...here, i], dialect, root, problems, toSpec));
        else walkSchema(value, here, dialect, root, problems, toSpec);
        break;
      case 'dependencies':
        if (isRecord(value)) for (const [k, s] of Object.entries(value)) if (!Array.isArray(s)) walkSchema(s, [...here, k], dialect, root, problems, toSpec);
        break;
      default:
        if (SCHEMA_KEYWORDS.has(key)) walkSchema(value, here, dialect, root, problems, toSpec);
        else if (SCHEMA_LIST_KEYWORDS.has(key)) listAt(value).forEach((s, i) => walkSchema(s, [...here, i], dialect, root, problems, toSpec));
        else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
          for (const [k, s] of Object.entries(value)) walkSchema(s, [...here, k], dialect, root, problems, toSpec);
        }
    }
  }
}

function checkRef(ref: string, path: (string | number)[], root: Record<string, unknown>, add: (code: ProblemCode, p: (string | number)[], message: string, hint: string) => void): void {
  if (!ref.startsWith('#')) {
    add('remote_ref', path, `${JSON.stringify(ref)} refers to another document; only local refs are supported.`,
      'Copy the referenced schema under `$defs` in this schema and write `$ref: "#/$defs/Name"`. toolroute never fetches schemas: the build must not depend on the network.');
    return;
  }
  if (ref !== '#' && !ref.startsWith('#/')) {
    add('unresolved_ref', path, `${JSON.stringify(ref)} is an anchor reference; only JSON pointer refs are supported.`,
      'Write a JSON pointer such as `$ref: "#/$defs/Name"`.');
    return;
  }
  if (resolvePointer(root, ref) === undefined) {
    const defs = [...Object.keys(isRecord(root.$defs) ? root.$defs : {}).map((k) => `#/$defs/${k}`), ...Object.keys(isRecord(root.definitions) ? root.definitions : {}).map((k) => `#/definitions/${k}`)];
    const suggestion = didYouMean(ref, defs);
    add('unresolved_ref', path, `${JSON.stringify(ref)} points to nothing in this schema.`,
      `${suggestion ? `${suggestion} ` : ''}${defs.length > 0 ? `Defined here: ${defs.join(', ')}.` : 'Add the target under `$defs` at the top of `parameters`.'}`);
  }
}

/** Node budget for inlining: refs can multiply a schema's size (a ref used twice in a def used twice…). */
const INLINE_BUDGET = 100_000;
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/**
 * Inlines every local `$ref`, refusing recursion; removes `$defs`,
 * `definitions` and the root `$schema`; rewrites draft-07 keywords into their
 * 2020-12 forms, so the IR has one dialect. Problems use spec paths.
 */
function inlineSchema(full: Record<string, unknown>, dialect: SchemaDialect, problems: SchemaProblem[], toSpec: (p: (string | number)[]) => (string | number)[]): JsonSchema {
  let budget = INLINE_BUDGET;
  let exhausted = false;

  const expand = (node: unknown, path: (string | number)[], stack: readonly string[]): JsonValue => {
    if (--budget < 0) {
      exhausted = true;
      return {};
    }
    if (!isRecord(node)) return node as JsonValue;
    let own: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$defs' || key === 'definitions' || key === '$ref' || (key === '$schema' && path.length === 0)) continue;
      const here = [...path, key];
      if (SCHEMA_KEYWORDS.has(key)) own[key] = expand(value, here, stack);
      else if (SCHEMA_LIST_KEYWORDS.has(key)) own[key] = listAt(value).map((s, i) => expand(s, [...here, i], stack));
      else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
        const map: Record<string, JsonValue> = {};
        for (const [k, s] of Object.entries(value)) map[k] = expand(s, [...here, k], stack);
        own[key] = map;
      } else if (key === 'items' || key === 'additionalItems') {
        own[key] = Array.isArray(value) ? value.map((s, i) => expand(s, [...here, i], stack)) : expand(value, here, stack);
      } else if (key === 'dependencies' && isRecord(value)) {
        const map: Record<string, JsonValue> = {};
        for (const [k, s] of Object.entries(value)) map[k] = Array.isArray(s) ? (s as JsonValue) : expand(s, [...here, k], stack);
        own[key] = map;
      } else own[key] = structuredClone(value) as JsonValue;
    }
    if (dialect === 'draft-07') own = toDraft2020(own);

    const ref = node.$ref;
    if (typeof ref !== 'string') return own;
    const resolved = resolvePointer(full, ref);
    if (!resolved) throw bug(`unresolved $ref ${ref} survived validation`);
    const key = formatPath(resolved.path);
    if (stack.includes(key) || isPrefix(resolved.path, path)) {
      problems.push({ code: 'recursive_ref', path: toSpec([...path, '$ref']), at: 'value',
        message: `${JSON.stringify(ref)} makes the schema recursive.`,
        hint: 'Recursive schemas are refused: not every target accepts them (Anthropic strict mode and Gemini do not). Limit the nesting to a fixed depth by writing each level out.' });
      return {};
    }
    const target = expand(resolved.target, resolved.path, [...stack, key]);
    // draft-07 ignores a $ref's siblings; 2020-12 applies both.
    if (dialect === 'draft-07' || Object.keys(own).length === 0) return target;
    if (!isRecord(target)) return { allOf: [target, own] };
    const merged: Record<string, JsonValue> = { ...target };
    for (const [k, v] of Object.entries(own)) {
      if (!(k in merged) || ANNOTATIONS.has(k)) merged[k] = v;
      else if (JSON.stringify(merged[k]) !== JSON.stringify(v)) return { allOf: [target, own] };
    }
    return merged;
  };

  const out = expand(full, [], []);
  if (exhausted) {
    problems.push({ code: 'invalid_schema', path: toSpec([]), at: 'value',
      message: `inlining this schema's $refs produces more than ${INLINE_BUDGET} schema nodes.`,
      hint: 'Simplify the schema: refs to refs multiply its size when inlined.' });
  }
  return isRecord(out) ? (out as JsonSchema) : {};
}

function isPrefix(prefix: readonly (string | number)[], path: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => s === path[i]);
}

/** draft-07 `items: [..]` / `additionalItems` / `dependencies` in their 2020-12 forms. */
function toDraft2020(s: Record<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'items' && Array.isArray(v)) out.prefixItems = v;
    else if (k === 'additionalItems') {
      if (Array.isArray(s.items)) out.items = v;
      // with a single-schema `items`, draft-07 ignores additionalItems
    } else if (k === 'dependencies' && isRecord(v)) {
      const req: Record<string, JsonValue> = {};
      const schemas: Record<string, JsonValue> = {};
      for (const [name, d] of Object.entries(v)) (Array.isArray(d) ? req : schemas)[name] = d;
      if (Object.keys(req).length > 0) out.dependentRequired = req;
      if (Object.keys(schemas).length > 0) out.dependentSchemas = schemas;
    } else out[k] = v;
  }
  return out;
}
