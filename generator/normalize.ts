/**
 * A validated spec → the IR: defaults filled in, references resolved, one JSON Schema dialect, and
 * a content hash. Deterministic: tools in order of first definition, groups in declaration order,
 * schema keywords in one canonical order (property order kept: the model reads it).
 */
import { sha256 } from './emit/manifest.js';
import { NAMESPACE_ENCODINGS } from './ir.js';
import type { IRNamespace, IRNamespaceEncoding, IROptions, IRPolicy, IRSource, IRSpec, IRTool, IRToolkit, JsonSchema, JsonValue } from './ir.js';
import { loadSpec } from './load.js';
import type { LoadedSpec, SpecPath } from './load.js';
import { bug, formatPath, formatProblem } from './problems.js';
import type { Problem } from './problems.js';
import { expandToolParameters } from './validate/parameters.js';
import { toolEntries } from './validate/references.js';
import { checkSpec } from './validate.js';
import { setOwn } from './validate/context.js';
import { SUBSCHEMA_KEYWORDS } from './validate/schema-keywords.js';
import { TARGETS, type Target } from '../runtime/contract.js';
import type { ToolkitLoadingOption, ToolkitLoadingStrategy } from '../runtime/toolkit-loading.js';

/**
 * Type names the emitters generate themselves; a tool's argument type never
 * takes one of these (it gets a `_2`… suffix instead).
 */
export const GENERATED_TYPE_NAMES = [
  'ToolName',
  'NamespaceName',
  'ToolkitName',
  'PolicyName',
  'Handlers',
  'Registry',
  'ToolCallCheckResult',
  'ToolArgs',
  'ToolCall',
  'ResolvedCall',
  'ResolvedToolCall',
  'GeneratedSpec',
] as const;

/** The schema of a tool that takes no arguments. */
export const NO_PARAMETERS: JsonSchema = Object.freeze({ type: 'object', properties: {}, additionalProperties: false }) as JsonSchema;

/**
 * Builds the IR of a spec that `validateSpec` accepted. Calling it on an
 * invalid spec is a bug in the caller and throws a plain Error.
 *
 * @example
 * const loaded = await loadSpec('examples/tools.spec.yaml');
 * if (loaded.ok && validateSpec(loaded.spec).length === 0) normalizeSpec(loaded.spec).tools[0]?.typeName; // 'ReadFileArgs'
 */
export function normalizeSpec(spec: LoadedSpec): IRSpec {
  const root = spec.value as Record<string, unknown>;
  if (typeof root !== 'object' || root === null) throw bug('normalizeSpec was called on a spec that is not a mapping (validate first)');
  const source = (path: SpecPath): IRSource => ({ file: spec.file, ...spec.locate(path), path: formatPath(path) });

  const rawOptions = (root.options ?? {}) as {
    namespaceEncoding?: IRNamespaceEncoding;
    openaiStrict?: boolean;
    offerUngroupedTools?: boolean;
    toolkitLoading?: ToolkitLoadingOption;
    applyDefaults?: boolean;
  };
  const options: IROptions = {
    namespaceEncoding: rawOptions.namespaceEncoding ?? NAMESPACE_ENCODINGS[0],
    openaiStrict: rawOptions.openaiStrict ?? false,
    offerUngroupedTools: rawOptions.offerUngroupedTools ?? true,
    // A per-target mapping is copied key by key in TARGETS order, so the bytes do not depend on how the user ordered it.
    ...(rawOptions.toolkitLoading === undefined ? {} : { toolkitLoading: canonicalToolkitLoading(rawOptions.toolkitLoading) }),
    applyDefaults: rawOptions.applyDefaults ?? false,
  };

  // Tools, in order of first definition; a name → index map for references.
  const entries = toolEntries(root);
  const index = new Map<string, number>();
  const drafts: { tool: Omit<IRTool, 'flat' | 'namespaces' | 'toolkits' | 'typeName'>; flat: boolean; namespaces: number[]; toolkits: number[] }[] = [];
  for (const e of entries) {
    if (!e.definition) continue;
    if (index.has(e.name)) throw bug(`tool "${e.name}" is defined twice (validate first)`);
    const d = e.definition as { description: string; tags?: string[]; deferLoading?: boolean; parameters?: Record<string, unknown>; returns?: Record<string, unknown> };
    const expanded = d.parameters === undefined ? undefined : expandToolParameters(spec, d.parameters);
    if (expanded !== undefined && expanded.problems.length > 0) throw bug(`the parameters of "${e.name}" have problems (validate first)`);
    const parameters = normalizedParameters(expanded?.schema);
    let returns: JsonSchema | undefined;
    if (d.returns !== undefined) {
      const expanded = expandToolParameters(spec, d.returns);
      if (expanded.problems.length > 0) throw bug(`the returns of "${e.name}" have problems (validate first)`);
      returns = canonicalSchema(expanded.schema) as JsonSchema;
    }
    index.set(e.name, drafts.length);
    drafts.push({
      tool: {
        name: e.name,
        description: d.description,
        tags: [...(d.tags ?? [])],
        deferLoading: d.deferLoading ?? false,
        parameters,
        hasParameters: d.parameters !== undefined,
        ...(returns !== undefined ? { returns } : {}),
        source: source(e.path),
      },
      flat: false,
      namespaces: [],
      toolkits: [],
    });
  }
  const indexOf = (name: string): number => {
    const i = index.get(name);
    if (i === undefined) throw bug(`tool "${name}" is referred to but defined nowhere (validate first)`);
    return i;
  };

  const flat: number[] = [];
  const namespaceTools: number[][] = [];
  const toolkitTools: number[][] = [];
  for (const e of entries) {
    const i = indexOf(e.name);
    const draft = drafts[i];
    if (!draft) throw bug(`no draft for tool index ${i}`);
    if (e.group.kind === 'flat') {
      flat.push(i);
      draft.flat = true;
    } else if (e.group.kind === 'namespace') {
      (namespaceTools[e.group.index] ??= []).push(i);
      if (!draft.namespaces.includes(e.group.index)) draft.namespaces.push(e.group.index);
    } else {
      (toolkitTools[e.group.index] ??= []).push(i);
      if (!draft.toolkits.includes(e.group.index)) draft.toolkits.push(e.group.index);
    }
  }

  const typeNames = uniqueTypeNames(drafts.map((d) => d.tool.name));
  const tools: IRTool[] = drafts.map((d, i) => ({
    name: d.tool.name,
    description: d.tool.description,
    tags: d.tool.tags,
    deferLoading: d.tool.deferLoading,
    parameters: d.tool.parameters,
    hasParameters: d.tool.hasParameters,
    ...(d.tool.returns !== undefined ? { returns: d.tool.returns } : {}),
    typeName: typeNames[i] ?? '',
    flat: d.flat,
    namespaces: d.namespaces,
    toolkits: d.toolkits,
    source: d.tool.source,
  }));

  const namespaces: IRNamespace[] = ((root.namespaces ?? []) as { name: string; description: string; encoding?: IRNamespaceEncoding }[]).map((ns, i) => ({
    name: ns.name,
    description: ns.description,
    encoding: ns.encoding ?? options.namespaceEncoding,
    tools: namespaceTools[i] ?? [],
    source: source(['namespaces', i]),
  }));
  const toolkits: IRToolkit[] = ((root.toolkits ?? []) as { name: string; description: string }[]).map((tk, i) => ({
    name: tk.name,
    description: tk.description,
    tools: toolkitTools[i] ?? [],
    source: source(['toolkits', i]),
  }));
  const policies: IRPolicy[] = Object.entries((root.policies ?? {}) as Record<string, string[]>).map(([name, block]) => ({
    name,
    block: [...block],
    source: source(['policies', name]),
  }));

  const withoutHash = { version: 1 as const, options, tools, flat, namespaces, toolkits, policies };
  return { version: 1, file: spec.file, hash: specHash(withoutHash), options, tools, flat, namespaces, toolkits, policies };
}

/**
 * A tool's IR `parameters` from its expanded schema, or the no-arguments schema.
 *
 * @example
 * normalizedParameters(undefined); // → { type: 'object', properties: {}, additionalProperties: false }
 */
export function normalizedParameters(expanded: JsonSchema | undefined): JsonSchema {
  return expanded === undefined ? (structuredClone(NO_PARAMETERS) as JsonSchema) : (canonicalSchema(expanded) as JsonSchema);
}

/** What `buildIR` returns. */
export type BuildResult = { ok: true; ir: IRSpec } | { ok: false; problems: Problem[] };

/**
 * load → validate → normalize, in one call. Never throws for a user mistake.
 *
 * @example
 * const r = await buildIR('examples/tools.spec.yaml');
 * if (!r.ok) console.error(r.problems.map(formatProblem).join('\n'));
 */
export async function buildIR(file: string, options: { cwd?: string } = {}): Promise<BuildResult> {
  const loaded = await loadSpec(file, options);
  if (!loaded.ok) return loaded;
  const { problems } = checkSpec(loaded.spec);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, ir: normalizeSpec(loaded.spec) };
}

/** Formats a list of problems, one per entry (re-exported for the CLI's convenience). */
export const formatProblems = (problems: readonly Problem[]): string => problems.map(formatProblem).join('\n');

// ---------------------------------------------------------------------------
// Type names

/**
 * PascalCase of a tool name + `Args`, as a valid TS identifier.
 *
 * @example
 * typeNameBase('read_file'); // 'ReadFileArgs'
 */
export function typeNameBase(toolName: string): string {
  let pascal = toolName
    .split(/[^A-Za-z0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join('');
  if (pascal === '' || /^[0-9]/.test(pascal)) pascal = `Tool${pascal}`;
  return `${pascal}Args`;
}

/**
 * One unique type name per tool, in tool order: the first tool keeps the base
 * name, later ones colliding with it (or with a generated name) get `_2`, `_3`…
 *
 * @example
 * uniqueTypeNames(['read_file', 'read-file']); // ['ReadFileArgs', 'ReadFileArgs_2']
 */
export function uniqueTypeNames(toolNames: readonly string[]): string[] {
  const taken = new Set<string>(GENERATED_TYPE_NAMES);
  return toolNames.map((name) => {
    const base = typeNameBase(name);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
    taken.add(candidate);
    return candidate;
  });
}

// ---------------------------------------------------------------------------
// Canonical form and hash

/**
 * Keyword order of a normalized schema object, so one schema written in YAML, JSON or zod gives the
 * same bytes. Name maps (`properties`, …) keep the user's order: the order the model reads.
 */
const KEYWORD_ORDER = [
  'type', 'title', 'description', '$comment', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf',
  'prefixItems', 'items', 'contains', 'minContains', 'maxContains', 'minItems', 'maxItems', 'uniqueItems', 'unevaluatedItems',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedProperties', 'required',
  'dependentRequired', 'dependentSchemas', 'minProperties', 'maxProperties',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
  'contentEncoding', 'contentMediaType', 'contentSchema', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly',
];
const RANK = new Map(KEYWORD_ORDER.map((k, i) => [k, i]));
const { one: SUBSCHEMA, list: SUBSCHEMA_LIST, map: SUBSCHEMA_MAP } = SUBSCHEMA_KEYWORDS;

/** A normalized (2020-12, inlined) schema with canonical keyword order and `required` in property order. */
function canonicalSchema(node: JsonValue): JsonValue {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const keys = Object.keys(node).sort((a, b) => (RANK.get(a) ?? KEYWORD_ORDER.length) - (RANK.get(b) ?? KEYWORD_ORDER.length) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, JsonValue> = {};
  for (const k of keys) {
    const v = node[k] as JsonValue;
    if (SUBSCHEMA.has(k)) out[k] = canonicalSchema(v);
    else if (SUBSCHEMA_LIST.has(k) && Array.isArray(v)) out[k] = v.map(canonicalSchema);
    else if (SUBSCHEMA_MAP.has(k) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const map: Record<string, JsonValue> = {};
      for (const [name, s] of Object.entries(v)) setOwn(map, name, canonicalSchema(s));
      out[k] = map;
    } else if (k === 'required' && Array.isArray(v) && typeof node.properties === 'object' && node.properties !== null && !Array.isArray(node.properties)) {
      // `required` is a set: list it in property order so zod's order and a hand-written one agree.
      const order = Object.keys(node.properties);
      const pos = (s: JsonValue) => {
        const i = typeof s === 'string' ? order.indexOf(s) : -1;
        return i < 0 ? order.length : i;
      };
      out[k] = [...v].sort((a, b) => pos(a) - pos(b));
    } else out[k] = v;
  }
  return out;
}

/**
 * A spec's `toolkitLoading` in a canonical form: a strategy name as is, a
 * per-target mapping with its keys in `TARGETS` order (validated first).
 *
 * @example
 * canonicalToolkitLoading({ gemini: 'append', openai: 'dispatcher' }); // → { openai: 'dispatcher', gemini: 'append' }
 */
function canonicalToolkitLoading(option: ToolkitLoadingOption): ToolkitLoadingOption {
  if (typeof option === 'string') return option;
  const out: { [T in Target]?: ToolkitLoadingStrategy } = {};
  for (const t of TARGETS) if (option[t] !== undefined) out[t] = option[t];
  return out;
}

/** The options as the hash sees them: a later option counts only when not its default, so old hashes hold. */
function hashedOptions(options: IROptions): Record<string, unknown> {
  const { offerUngroupedTools, applyDefaults, ...rest } = options;
  return { ...rest, ...(offerUngroupedTools ? {} : { offerUngroupedTools }), ...(applyDefaults ? { applyDefaults } : {}) };
}

/**
 * sha256 (hex) of the IR without sources and file, user maps in declaration order (that order
 * changes the generated output, so it is hashed).
 *
 * @example
 * specHash(irWithoutHash); // '3f1c…' (64 hex digits)
 */
export function specHash(ir: Omit<IRSpec, 'hash' | 'file'>): string {
  // Only the records' own `source` goes: a schema may well name a property `source`, and that is content.
  const withoutSource = <R extends { readonly source: unknown }>(records: readonly R[]) => records.map(({ source: _source, ...rest }) => rest);
  const payload = {
    version: ir.version,
    options: hashedOptions(ir.options),
    tools: withoutSource(ir.tools),
    flat: ir.flat,
    namespaces: withoutSource(ir.namespaces),
    toolkits: withoutSource(ir.toolkits),
    policies: withoutSource(ir.policies),
  };
  return sha256(JSON.stringify(payload));
}
