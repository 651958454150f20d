/**
 * Pruning, the reference library's flat mode (`pruneByTask`, `allowOnly`, `pruneByTaskAndAllowlist`); reads only the catalog. A flat
 * tool is kept when the lower-cased task contains its lower-cased name or one of its lower-cased tags; a tool without
 * tags is always kept. Each distinct keyword is tested once per prune. The ranked search (`rankByTask`, `search_tools`)
 * is the generated folder's `loadSearch` (the `ToolSearchIndex` contract), imported on first use and filled here.
 */
import type { GeneratedTool, SearchLoader, ToolDefinition, ToolSearchIndex } from '../contract.js';
import type { Catalog } from './catalog.js';
import { toolInput } from './entries.js';
import type { Gate } from './gate.js';
import { compactActionDoc } from '../neutral.js';
import { quote } from '../reasons.js';
import { assertKnownNames, checkOptions, type OptionRules } from '../suggest.js';
import type { PruneResult, PruneStrategy } from './types.js';
import { isPlainObject, jsonKind } from '../call-shape.js';
import { jsonText } from '../targets/history.js';

/**
 * What the ranked search indexes of a tool: its fields, and the names and descriptions of its namespaces and toolkits
 * (indices into `groups`). The router and `toolrouteSearch` both index with it.
 * @example
 * search.add(searchableTool(spec.tools[0], spec.tools[0].parameters, spec));
 */
export function searchableTool(
  tool: Pick<GeneratedTool, 'name' | 'description' | 'tags' | 'namespaces' | 'toolkits'>, parameters: unknown,
  groups: { readonly [K in 'namespaces' | 'toolkits']: readonly { readonly name: string; readonly description: string }[] },
): Parameters<ToolSearchIndex['add']>[0] {
  const named = [...tool.namespaces.map((k) => groups.namespaces[k]!), ...tool.toolkits.map((k) => groups.toolkits[k]!)];
  return { name: tool.name, description: tool.description, tags: tool.tags, parameters, groups: named.flatMap((g) => [g.name, g.description]) };
}

/** What `rankByTask` takes: a misspelt option (`limit`, `K`) is refused like `dispatch`'s, never ignored. */
const RANK_OPTIONS: OptionRules = { k: [(v) => Number.isSafeInteger(v) && (v as number) >= 1, 'a positive integer'] };

/** Ranked-search indices: per spec (its routers that registered nothing), else per router; per tool its group count when indexed. */
const INDICES = new WeakMap<object, { readonly search: Promise<ToolSearchIndex>; readonly groups: number[] }>();

/** A distinct lower-cased name or tag, and the flat positions it keeps (ascending). */
interface Keyword { readonly text: string; readonly kept: number[] }

/** How many code units of a keyword's start index it (`startKey`); shorter keywords are tested with `includes`. */
const START = 3;

/** The code units `at` … `at + START - 1` of `text` as one number (exact below 2^53). */
function startKey(text: string, at: number): number {
  return (text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1)) * 0x10000 + text.charCodeAt(at + 2);
}

/** The flat tools as the rule reads them, built on the first prune and again after a registration. */
interface Keywords {
  /** `Catalog.structureVersion` it was built for. */
  readonly version: number;
  /** Flat positions of untagged tools: always kept. */
  readonly always: readonly number[];
  /** Keywords shorter than `START`. */
  readonly short: readonly Keyword[];
  /** The other keywords by `startKey` of their start: only where the task has that start can they occur. */
  readonly byStart: ReadonlyMap<number, readonly Keyword[]>;
  /** Lower-cased flat names, for allowlists. */
  readonly names: ReadonlySet<string>;
  /** Per flat position: the tool's neutral definition and its name (a prune result is filled from these). */
  readonly definitions: readonly ToolDefinition[];
  readonly flatNames: readonly string[];
  /** Flat position by name. */
  readonly positions: ReadonlyMap<string, number>;
}

/** The task as given, or a `TypeError` for anything but a string (message content parts, say). */
function taskText(task: unknown): string {
  if (typeof task !== 'string') throw new TypeError(`the task must be a string (the request as text); got ${jsonKind(task)}.`);
  return task;
}

/** A strategy as given, or a `TypeError`: a mistyped one must not quietly keep the union's larger set. */
function checkedStrategy(strategy: unknown, where: string): PruneStrategy {
  if (strategy === 'union' || strategy === 'intersection') return strategy;
  throw new TypeError(`${where} is 'union' or 'intersection'; got ${jsonText(strategy) ?? String(strategy)}.`);
}

/** Prunes one router's flat tools. Internal. */
export class Pruner {
  readonly #catalog: Catalog;
  readonly #strategy: PruneStrategy;
  #keywords: Keywords | undefined;
  readonly #loader: SearchLoader | undefined;

  constructor(catalog: Catalog, strategy: unknown, loader?: SearchLoader) {
    this.#catalog = catalog;
    this.#strategy = checkedStrategy(strategy ?? 'union', 'createRouter: strategy');
    this.#loader = loader;
  }

  /** The `k` flat tools the ranked search puts first for the task, best first; `removed` the rest, in flat order. */
  async rankByTask(task: string, options: { readonly k: number }): Promise<PruneResult> {
    checkOptions('rankByTask', options, RANK_OPTIONS);
    const k = options?.k;
    const search = await this.#loadSearch();
    const { definitions, flatNames, positions } = this.#index();
    const ranked = search.rank(taskText(task), { k, include: (name) => positions.has(name) });
    const top = new Set(ranked);
    return { tools: ranked.map((n) => definitions[positions.get(n)!]!), removed: flatNames.filter((n) => !top.has(n)), kept: ranked.length, total: flatNames.length };
  }

  /** `search_tools`: the `k` callable toolkit tools the search finds, their toolkits marked loaded, listed with their arguments. */
  async searchTools(query: unknown, k: number, gate: Gate): Promise<string> {
    const catalog = this.#catalog;
    const search = await this.#loadSearch();
    // A blocked `load_toolkit` blocks loading by search too: only toolkits loaded already are searched then.
    const kitOf = (t: number) => catalog.tool(t).toolkits.find((kit) => !gate.kitBlocked[kit] && (gate.kitLoaded[kit] || !gate.loaderBlocked()));
    const indexOf = (name: string) => { const ref = catalog.byName.get(name); return ref?.kind === 'tool' && !gate.toolBlocked[ref.index] && kitOf(ref.index) !== undefined ? ref.index : -1; };
    const found = search.rank(String(query), { k, include: (name) => indexOf(name) >= 0 }).map(indexOf);
    if (found.length === 0) return `No tool matches ${quote(String(query))}; try other words${catalog.toolkits.length > 0 ? ', or load a toolkit of the directory' : ''}.`;
    for (const t of found) gate.markLoaded(kitOf(t)!);
    const docs = found.map((t) => compactActionDoc(toolInput(catalog.tool(t))));
    return `These tools can be called now (through call_toolkit_tool when it is among your tools):\n${docs.join('\n')}`;
  }

  /** The search, every tool indexed as it is now: one per spec while a router registers nothing (not one per session). */
  async #loadSearch(): Promise<ToolSearchIndex> {
    const loader = this.#loader;
    if (loader === undefined) throw new TypeError('rankByTask, searchTools: the generated folder has no search loader (search.gen.ts); regenerate it with this toolroute version.');
    const catalog = this.#catalog, key = catalog.structureVersion === 0 ? catalog.spec : this;
    const entry = INDICES.get(key) ?? INDICES.set(key, { search: loader(), groups: [] }).get(key)!;
    const search = await entry.search.catch((error: unknown) => { INDICES.delete(key); throw error; });
    // New tools, and tools a registration put into another group (their groups' words are part of their document).
    for (let t = 0; t < catalog.toolCount; t++) {
      const e = catalog.tool(t), groups = e.namespaces.length + e.toolkits.length;
      if (!e.library && entry.groups[t] !== groups) { entry.groups[t] = groups; search.add(searchableTool(e, e.schema, catalog)); }
    }
    return search;
  }

  pruneByTask(task: string): PruneResult { return this.#result(this.#byTask(task)); }

  allowOnly(names: readonly string[]): PruneResult { return this.#result(this.#byName(names, 'allowOnly')); }

  pruneByTaskAndAllowlist(task: string, names: readonly string[], strategy?: PruneStrategy): PruneResult {
    const byTask = this.#byTask(task);
    const byName = this.#byName(names, 'pruneByTaskAndAllowlist');
    const both = (strategy === undefined ? this.#strategy : checkedStrategy(strategy, 'pruneByTaskAndAllowlist: strategy')) === 'intersection';
    return this.#result(byTask.map((keep, p) => (both ? keep & byName[p]! : keep | byName[p]!)));
  }

  /** All flat tools, as the reference library's `getAllTools` (a fresh array). */
  getAllTools(): ToolDefinition[] { return [...this.#index().definitions]; }

  #index(): Keywords {
    const catalog = this.#catalog;
    if (this.#keywords?.version === catalog.structureVersion) return this.#keywords;
    const always: number[] = [];
    const keywords = new Map<string, Keyword>();
    const entries = catalog.flat.map((t) => catalog.tool(t));
    entries.forEach((entry, p) => {
      if (entry.tags.length === 0) return void always.push(p);
      for (const text of [entry.name, ...entry.tags].map((word) => word.toLowerCase())) {
        const keyword = keywords.get(text);
        if (keyword === undefined) keywords.set(text, { text, kept: [p] });
        else if (keyword.kept[keyword.kept.length - 1] !== p) keyword.kept.push(p);
      }
    });
    const short: Keyword[] = [];
    const byStart = new Map<number, Keyword[]>();
    for (const keyword of keywords.values()) {
      const key = keyword.text.length < START ? undefined : startKey(keyword.text, 0);
      if (key === undefined) short.push(keyword);
      else (byStart.get(key) ?? byStart.set(key, []).get(key)!).push(keyword);
    }
    return (this.#keywords = {
      version: catalog.structureVersion, always, short, byStart,
      names: new Set(entries.map((entry) => entry.name.toLowerCase())),
      definitions: catalog.flat.map((t) => catalog.definition(t)),
      flatNames: entries.map((entry) => entry.name),
      positions: new Map(entries.map((entry, p) => [entry.name, p])),
    });
  }

  /**
   * 1 per flat position the task keeps. A keyword is in the task when it starts at some position of it: each position
   * is looked up by its first `START` code units, and only the keywords starting with those are compared.
   */
  #byTask(task: string): Uint8Array {
    const { always, short, byStart, definitions } = this.#index();
    // As the reference library (`task.toLowerCase`): anything but text is the application's mistake, never a guess.
    const text = taskText(task).toLowerCase();
    const keep = new Uint8Array(definitions.length);
    const mark = (keyword: Keyword): void => { for (const p of keyword.kept) keep[p] = 1; };
    for (const p of always) keep[p] = 1;
    for (const keyword of short) if (text.includes(keyword.text)) mark(keyword);
    for (let at = 0; at + START <= text.length; at++) {
      const candidates = byStart.get(startKey(text, at));
      if (candidates !== undefined) for (const keyword of candidates) if (text.startsWith(keyword.text, at)) mark(keyword);
    }
    return keep;
  }

  /**
   * 1 per allowlisted flat position. A name that is no flat tool throws, naming the closest flat tools: an allowlist that
   * silently matched nothing would offer less than the application meant.
   */
  #byName(names: readonly string[], where: string): Uint8Array {
    const { names: known, flatNames } = this.#index();
    const hint = 'An allowlist names flat tools (matched ignoring case); namespace actions and toolkit tools are offered through their group.';
    assertKnownNames(where, names, { has: (name) => known.has(name.toLowerCase()) }, () => flatNames, hint);
    const wanted = new Set(names.map((n) => n.toLowerCase()));
    return Uint8Array.from(flatNames, (name) => (wanted.has(name.toLowerCase()) ? 1 : 0));
  }

  /** The kept tools' definitions and the removed tools' names, both in flat order. */
  #result(keep: Uint8Array): PruneResult {
    const { definitions, flatNames } = this.#index();
    // One pass over the marks (this runs on every prune).
    const tools: ToolDefinition[] = [], removed: string[] = [];
    for (let p = 0; p < keep.length; p++) {
      if (keep[p] === 1) tools.push(definitions[p]!);
      else removed.push(flatNames[p]!);
    }
    return { tools, removed, kept: tools.length, total: keep.length };
  }
}

/**
 * The `search_tools` library tool (`createRouter`'s `searchTools` option): the model asks for toolkit tools by what
 * they do instead of loading whole toolkits; `run(query, k)` answers.
 */
export function searchToolsDefinition(option: unknown, run: (query: unknown, k: number) => Promise<string>): unknown {
  // From JavaScript anything may come: only `true` or a plain `{ k? }` with a positive integer (`{ kk: 3 }`, `0`, `'yes'` are refused).
  const plain = isPlainObject(option) && Object.keys(option).every((key) => key === 'k');
  const given: unknown = option === true ? 5 : plain ? ('k' in option ? option['k'] : 5) : Number.NaN;
  const k = Number.isSafeInteger(given) ? (given as number) : 0;
  if (k < 1) throw new TypeError(`createRouter: searchTools must be true or { k } (searchTools.k must be a positive integer); got ${jsonText(option) ?? String(option)}.`);
  const validate = (a: unknown) => typeof a === 'object' && a !== null && typeof (a as { query?: unknown }).query === 'string' && Object.keys(a).length === 1;
  const description = `Find tools of the toolkits by what they do: returns up to ${k} matching tools with their arguments, ready to call. Cheaper than loading a whole toolkit.`;
  const parameters = { type: 'object', properties: { query: { type: 'string', description: 'What the tool should do, in a few words.' } }, required: ['query'], additionalProperties: false };
  return { name: 'search_tools', description, parameters, validate: Object.assign(validate, { errors: null }), handler: ({ query }: { query: string }) => run(query, k) };
}
