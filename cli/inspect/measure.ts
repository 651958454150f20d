/**
 * `toolroute inspect`'s numbers, measured on the real runtime: every number comes from
 * `router.compile({ target, messages })` of a router with the measured toolkit-loading strategy, before any toolkit
 * is loaded and after each `load_toolkit` call and result in the conversation.
 */
import { escapeXml } from '../../runtime/announcements.js';
import { createRouter } from '../../runtime/router.js';
import { toolMessage } from '../../runtime/conversation.js';
import { adapterFor, toolkitMode } from '../../runtime/targets/index.js';
import type { NeutralMessage } from '../../runtime/targets/history.js';
import type { ToolkitLoadingOption, ToolkitLoadingStrategy, ToolkitMode } from '../../runtime/toolkit-loading.js';
import { LOAD_TOOLKIT_NAME, TARGETS, type GeneratedModule, type RegistryShape, type Target } from '../../runtime/contract.js';
import { buildEmitContext, DEFAULT_RUNTIME_IMPORT } from '../../generator/emit/context.js';
import { specData } from '../../generator/emit/spec.js';
import { specFromData } from '../../runtime/spec-data.js';
import { loadSpec } from '../../generator/load.js';
import { normalizeSpec } from '../../generator/normalize.js';
import type { Problem } from '../../generator/problems.js';
import { validateSpec } from '../../generator/validate.js';
import { loadTokenCounter, type TokenCounter, type TokenMethod } from './tokens.js';

/** Bytes and tokens of one piece of text the model receives. */
export interface Measure {
  readonly bytes: number;
  readonly tokens: number;
}

/** What an entry of a tools array is. */
export type ItemKind = 'flat' | 'namespace' | 'loader' | 'toolkit';

/** One entry of a target's tools array. */
export interface ItemReport extends Measure {
  readonly name: string;
  readonly kind: ItemKind;
  /** The namespace (kind `namespace`: itself) or toolkit it belongs to; null for flat tools and the loader. */
  readonly group: string | null;
  /** Sent with `defer_loading`: in the request, but not in the model's context until tool search finds it. */
  readonly deferred: boolean;
  /** Where it first appears: `initial`, or the toolkit whose load adds it. */
  readonly offered: string;
}

/** The tools array and directory in one state of the conversation. */
export interface StateReport {
  /** `initial`, or `load_toolkit <name>` (that toolkit and every earlier one loaded). */
  readonly label: string;
  readonly loaded: readonly string[];
  /** Tool names in the array, in order. */
  readonly toolNames: readonly string[];
  readonly tools: Measure & { readonly count: number };
  /** Of those, the deferred ones (count and bytes of their entries). */
  readonly deferred: { readonly count: number; readonly bytes: number };
  readonly directory: Measure;
  /** Tools array plus directory. */
  readonly total: Measure;
  /**
   * The whole request compile builds in this state: a one-line user turn, the model's `load_toolkit` calls so far and
   * their results, rendered by the measured strategy (where a native strategy carries the loaded tools).
   */
  readonly request: Measure;
}

/** A namespace, toolkit, the flat tools or the library's loader, summed. */
export interface GroupReport extends Measure {
  readonly kind: 'namespace' | 'toolkit' | 'flat' | 'library';
  readonly name: string;
  /** Spec tools it holds: a namespace's actions, a toolkit's tools, the flat tools; 1 for the loader. */
  readonly tools: number;
  /** Entries it puts in the tools array (a namespace: 1; a toolkit: the tools its load adds). */
  readonly entries: number;
  /** Toolkit: bytes and tokens of its entry in the directory XML; else zero. */
  readonly directory: Measure;
  /** Whether it is in the tools array before any load. */
  readonly initial: boolean;
}

export interface TargetReport {
  readonly target: Target;
  /** The toolkit-loading strategy measured (the router's option, else the spec's, else `native`) and what it is on this target. */
  readonly strategy: { readonly name: ToolkitLoadingStrategy; readonly mode: ToolkitMode };
  /** How this target's token numbers were counted: `o200k` is exact for the JSON text; the others are estimates. */
  readonly tokens: TokenMethod;
  readonly states: readonly StateReport[];
  readonly groups: readonly GroupReport[];
  /** Every entry any state sends, once, in order of first appearance. */
  readonly items: readonly ItemReport[];
  /** The largest entries sent, by bytes (at most 5). */
  readonly largest: readonly ItemReport[];
  /** Flat tools a default compile does not offer (the spec has namespaces or toolkits): callable, sent only when passed as `tools`. */
  readonly notOffered: readonly ItemReport[];
}

export interface InspectReport {
  /** The spec as given, relative to the working folder. */
  readonly spec: string;
  readonly hash: string;
  readonly counts: { readonly tools: number; readonly namespaces: number; readonly toolkits: number };
  /** What counted tokens (see TargetReport.tokens for exactness per target). */
  readonly tokenizer: string;
  readonly targets: readonly TargetReport[];
}

export type InspectResult = { readonly ok: true; readonly report: InspectReport } | { readonly ok: false; readonly problems: readonly Problem[] };

export interface InspectOptions {
  /** Folder the spec path is resolved from. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Only these targets (default: all four). */
  readonly targets?: readonly Target[];
  /** Token counter (default: o200k when gpt-tokenizer is installed, else an estimate). */
  readonly tokenCounter?: TokenCounter;
  /** The router's `toolkitLoading` option to measure; default: the spec's `options.toolkitLoading` (else `native`). */
  readonly toolkitLoading?: ToolkitLoadingOption;
}

/** How many of the largest entries a report names. */
export const LARGEST_COUNT = 5;

/**
 * Measures what the model sees for a spec, per target. Never throws for a bad
 * spec: its problems come back, as codegen reports them.
 *
 * @example
 * const r = await inspectSpec('examples/tools.spec.yaml');
 * if (r.ok) r.report.targets[0].states[0].tools.bytes; // bytes of the initial anthropic tools array
 */
export async function inspectSpec(specFile: string, options: InspectOptions = {}): Promise<InspectResult> {
  const loaded = await loadSpec(specFile, options.cwd === undefined ? {} : { cwd: options.cwd });
  if (!loaded.ok) return { ok: false, problems: loaded.problems };
  const problems = validateSpec(loaded.spec);
  if (problems.length > 0) return { ok: false, problems };
  const ir = normalizeSpec(loaded.spec);
  const ctx = buildEmitContext(ir, { specDisplay: loaded.spec.file, outDisplay: '.', runtimeImport: DEFAULT_RUNTIME_IMPORT, version: '0' });
  // The data `spec.gen.ts` holds. Validators are not needed to compile: every call would be valid.
  const spec = specFromData(specData(ctx), { directoryXml: ctx.directoryXml, validators: ctx.validators.map(() => () => true) });
  const counter = options.tokenCounter ?? (await loadTokenCounter());
  const targets = (options.targets ?? TARGETS).map((target) => measureTarget({ spec }, target, counter, options.toolkitLoading));
  return {
    ok: true,
    report: {
      spec: loaded.spec.file,
      hash: ir.hash,
      counts: { tools: ir.tools.length, namespaces: ir.namespaces.length, toolkits: ir.toolkits.length },
      tokenizer: counter.name,
      targets,
    },
  };
}

function measureTarget(generated: GeneratedModule, target: Target, counter: TokenCounter, toolkitLoading: ToolkitLoadingOption | undefined): TargetReport {
  const { spec } = generated;
  const handlers = Object.fromEntries(spec.tools.map((t) => [t.name, () => null]));
  // The router as an application makes it: its option, else the spec's strategy.
  const router = createRouter(generated as GeneratedModule<RegistryShape>, handlers as never, toolkitLoading === undefined ? {} : { toolkitLoading });
  const option = toolkitLoading ?? spec.toolkitLoading;
  const strategy = { name: (typeof option === 'string' ? option : option?.[target]) ?? 'native', mode: toolkitMode(target, option) };
  const measure = (text: string): Measure => ({ bytes: Buffer.byteLength(text, 'utf8'), tokens: counter.count(text) });

  const namespaceNames = new Set(spec.namespaces.map((n) => n.name));
  const toolkitOf = new Map<string, string>();
  for (const k of spec.toolkits) for (const i of k.tools) toolkitOf.set(spec.tools[i]?.name ?? '', k.name);

  const items = new Map<string, ItemReport>();
  const states: StateReport[] = [];
  // The conversation compile reads toolkit loads from (native strategies render them from it).
  const history: NeutralMessage[] = [{ role: 'user', content: 'Go on.' }];
  const snapshot = (label: string, loaded: readonly string[], loading: string | null): void => {
    const payload = router.compile({ target, messages: history });
    const entries = toolEntries(target, payload);
    const directoryXml = router.compile().directoryXml;
    const directory = measure(directoryXml);
    let deferredCount = 0;
    let deferredBytes = 0;
    for (const entry of entries) {
      const name = entryName(target, entry);
      const json = JSON.stringify(entry);
      const deferred = isDeferred(entry);
      if (deferred) {
        deferredCount++;
        deferredBytes += Buffer.byteLength(json, 'utf8');
      }
      if (items.has(name)) continue;
      const kind: ItemKind =
        namespaceNames.has(name) ? 'namespace' : loading !== null && toolkitOf.get(name) === loading ? 'toolkit' : spec.flat.some((i) => spec.tools[i]?.name === name) ? 'flat' : toolkitOf.has(name) ? 'toolkit' : 'loader';
      const group = kind === 'namespace' ? name : kind === 'toolkit' ? (toolkitOf.get(name) ?? null) : null;
      items.set(name, { name, kind, group, deferred, offered: loading ?? 'initial', ...measure(json) });
    }
    const toolsJson = JSON.stringify(entries);
    const tools = { count: entries.length, ...measure(toolsJson) };
    states.push({
      label,
      loaded: [...loaded],
      toolNames: entries.map((e) => entryName(target, e)),
      tools,
      deferred: { count: deferredCount, bytes: deferredBytes },
      directory,
      // Tokens of the concatenation, not a sum: tokenizers merge across the seam.
      total: { bytes: tools.bytes + directory.bytes, tokens: counter.count(`${directoryXml}${toolsJson}`) },
      request: measure(JSON.stringify(payload)),
    });
  };

  snapshot('initial', [], null);
  const loaded: string[] = [];
  for (const [i, k] of spec.toolkits.entries()) {
    // Exactly the call the model makes, and its result in the conversation.
    const args = JSON.stringify({ toolkit_name: k.name });
    const call = { id: `call_load_${i}`, type: 'function' as const, function: { name: LOAD_TOOLKIT_NAME, arguments: args } };
    const result = router.handleTool({ name: LOAD_TOOLKIT_NAME, arguments: args });
    history.push({ role: 'assistant', content: null, tool_calls: [call] }, toolMessage(call, { ok: true, result }));
    loaded.push(k.name);
    snapshot(`load_toolkit ${k.name}`, loaded, k.name);
  }

  const all = [...items.values()];
  const initial = states[0];
  const initialNames = new Set(initial?.toolNames ?? []);
  const sum = (list: readonly ItemReport[]): Measure => ({
    bytes: list.reduce((n, i) => n + i.bytes, 0),
    tokens: list.reduce((n, i) => n + i.tokens, 0),
  });
  const directoryEntry = (name: string): Measure => {
    const xml = router.compile().directoryXml;
    // The directory lists each toolkit as one `<toolkit name="…" …>…</toolkit>` element (text
    // escaped, so `</toolkit>` cannot occur inside one); measure that element.
    const start = xml.indexOf(`<toolkit name="${escapeXml(name)}"`);
    const end = start < 0 ? -1 : xml.indexOf('</toolkit>', start);
    return end < 0 ? { bytes: 0, tokens: 0 } : measure(xml.slice(start, end + '</toolkit>'.length));
  };
  const groups: GroupReport[] = [];
  const flat = all.filter((i) => i.kind === 'flat');
  if (flat.length > 0) groups.push({ kind: 'flat', name: 'flat tools', tools: flat.length, entries: flat.length, ...sum(flat), directory: { bytes: 0, tokens: 0 }, initial: flat.some((i) => initialNames.has(i.name)) });
  for (const ns of spec.namespaces) {
    const list = all.filter((i) => i.kind === 'namespace' && i.name === ns.name);
    groups.push({ kind: 'namespace', name: ns.name, tools: ns.tools.length, entries: list.length, ...sum(list), directory: { bytes: 0, tokens: 0 }, initial: initialNames.has(ns.name) });
  }
  // The library's entries: the loader (in the target's tool-search form too) and the toolkit dispatcher.
  const loader = all.filter((i) => i.kind === 'loader');
  if (loader.length > 0) groups.push({ kind: 'library', name: loader.map((i) => i.name).join(', '), tools: loader.length, entries: loader.length, ...sum(loader), directory: { bytes: 0, tokens: 0 }, initial: loader.some((i) => initialNames.has(i.name)) });
  for (const k of spec.toolkits) {
    const list = all.filter((i) => i.kind === 'toolkit' && i.group === k.name);
    groups.push({ kind: 'toolkit', name: k.name, tools: k.tools.length, entries: list.length, ...sum(list), directory: directoryEntry(k.name), initial: list.some((i) => i.offered === 'initial') });
  }

  // A tool the default set leaves out is measured in a request that offers it after the default set: a request of that
  // tool alone can break a target's rule (Anthropic refuses one whose every tool is deferred).
  const offeredByDefault = router.compile().tools.map((t) => t.name).filter((name) => !router.ownsTool(name));
  const notOffered = spec.flat
    .map((i) => spec.tools[i]?.name ?? '')
    .filter((name) => !items.has(name))
    .map((name): ItemReport => {
      const entry = toolEntries(target, router.compile({ target, messages: [], tools: [...offeredByDefault, name] as never })).find((e) => entryName(target, e) === name);
      return { name, kind: 'flat', group: null, deferred: entry !== undefined && isDeferred(entry), offered: 'not by default', ...measure(JSON.stringify(entry ?? null)) };
    });

  const largest = [...all].sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1)).slice(0, LARGEST_COUNT);
  return { target, strategy, tokens: counter.method(target), states, groups, items: all, largest, notOffered };
}

/** The tools a target payload sends. */
function toolEntries(target: Target, payload: unknown): readonly Record<string, unknown>[] {
  return adapterFor(target).sentTools(payload as Record<string, unknown>) as readonly Record<string, unknown>[];
}

/** The name the model calls an entry by (its type for a tool without one, such as a search tool). */
function entryName(target: Target, entry: Record<string, unknown>): string {
  const name = adapterFor(target).toolName(entry) ?? entry['type'];
  return typeof name === 'string' ? name : '';
}

function isDeferred(entry: Record<string, unknown>): boolean {
  return entry['defer_loading'] === true;
}
