/**
 * Pruning, the seed's flat mode: which flat tools to offer for a task
 * (`pruneByTask`), an allowlist (`allowOnly`) or both
 * (`pruneByTaskAndAllowlist`). Reads only the catalog: the blocklist and the
 * loaded toolkits never change a prune result.
 *
 * Speed comes from the catalog's precomputed tables: the task is matched once
 * by the generated Aho-Corasick matcher (plus one for run-time flat tools)
 * into a byte per flat position, and the result arrays are allocated at their
 * final size and filled from the per-position caches, with no per-tool lookup.
 */
import type { ToolDefinition } from '../contract.js';
import { markTask, MAX_GENERATION, stampTask } from '../matcher.js';
import type { Catalog } from './catalog.js';
import { assertKnownNames } from '../suggest.js';
import type { PruneResult, PruneStrategy } from './types.js';

/**
 * Prunes one router's flat tools. Internal.
 *
 * @example
 * const pruner = new Pruner(catalog, 'union');
 * pruner.pruneByTask('read the file').kept; // → 2
 */
export class Pruner {
  readonly #catalog: Catalog;
  readonly #strategy: PruneStrategy;
  /**
   * The catalog's per-flat-position arrays and the spec's matcher, held
   * directly: the arrays are only ever appended to (never replaced) and the
   * spec never changes, so these references stay current and a prune reads
   * no catalog field but `dynamicMatcher`.
   */
  readonly #specMatcher: Catalog['spec']['matcher'];
  readonly #specFlatCount: number;
  readonly #flatLower: readonly string[];
  readonly #flatDefinitions: readonly ToolDefinition[];
  readonly #flatNames: readonly string[];
  /** How many positions the last `#markTask` / `#markAllow` selected (read right after the call). */
  #marked = 0;
  /** Lowercased flat names as a set, for the allowlist's unknown-name check; rebuilt after registrations. */
  #flatLowerSet: { readonly version: number; readonly set: ReadonlySet<string> } | undefined;
  /**
   * `pruneByTask`'s selection: position `p` is kept when `#stamps[p] ===
   * #generation`. Reused across calls (a new generation per prune instead of
   * a fresh or cleared buffer); grown when run-time registration adds flat tools.
   */
  #stamps = new Uint32Array(0);
  #generation = 0;

  constructor(catalog: Catalog, strategy: PruneStrategy) {
    this.#catalog = catalog;
    this.#strategy = strategy;
    this.#specMatcher = catalog.spec.matcher;
    this.#specFlatCount = catalog.spec.flat.length;
    this.#flatLower = catalog.flatLower;
    this.#flatDefinitions = catalog.flatDefinitions;
    this.#flatNames = catalog.flatNames;
  }

  pruneByTask(task: string): PruneResult {
    const catalog = this.#catalog;
    const total = catalog.flat.length;
    if (this.#stamps.length !== total) {
      this.#stamps = new Uint32Array(total);
      this.#generation = 0;
    }
    if (this.#generation >= MAX_GENERATION) {
      this.#stamps.fill(0);
      this.#generation = 0;
    }
    const generation = ++this.#generation;
    const stamps = this.#stamps;
    const text = typeof task === 'string' ? task : String(task);
    let kept = stampTask(catalog.spec.matcher, text, stamps, generation, 0);
    // Run-time flat tools stamp their own positions, after the spec's.
    if (catalog.dynamicMatcher) kept += stampTask(catalog.dynamicMatcher, text, stamps, generation, catalog.spec.flat.length);
    // Both result arrays at their final size, filled in one indexed pass over the per-position caches.
    const definitions = catalog.flatDefinitions;
    const names = catalog.flatNames;
    const tools = new Array<ToolDefinition>(kept);
    const removed = new Array<string>(total - kept);
    let k = 0;
    let r = 0;
    for (let p = 0; p < total; p++) {
      if (stamps[p] === generation) tools[k++] = definitions[p]!;
      else removed[r++] = names[p]!;
    }
    return { tools, removed, kept: k, total };
  }

  allowOnly(names: readonly string[]): PruneResult {
    const selected = this.#markAllow(names, 'allowOnly');
    return this.#result(selected, this.#marked);
  }

  pruneByTaskAndAllowlist(task: string, names: readonly string[], strategy?: PruneStrategy): PruneResult {
    const byTask = this.#markTask(task);
    const byName = this.#markAllow(names, 'pruneByTaskAndAllowlist');
    const both = (strategy ?? this.#strategy) === 'intersection';
    let kept = 0;
    for (let p = 0; p < byTask.length; p++) kept += byTask[p] = both ? byTask[p]! & byName[p]! : byTask[p]! | byName[p]!;
    return this.#result(byTask, kept);
  }

  /** All flat tools, as the seed's `getAllTools` (a fresh array). */
  getAllTools(): ToolDefinition[] {
    const catalog = this.#catalog;
    return catalog.flat.map((t) => catalog.tools[t]!.definition);
  }

  #markTask(task: string): Uint8Array {
    const selected = new Uint8Array(this.#flatNames.length);
    const text = typeof task === 'string' ? task : String(task);
    let kept = markTask(this.#specMatcher, text, selected);
    // Run-time flat tools mark their own positions through a view: no second buffer, no copy.
    const dynamic = this.#catalog.dynamicMatcher;
    if (dynamic) kept += markTask(dynamic, text, selected.subarray(this.#specFlatCount));
    this.#marked = kept;
    return selected;
  }

  /**
   * Mark the allowlisted flat positions. A name that is no flat tool (a typo,
   * a namespace action, a toolkit tool) throws, naming it and the closest flat
   * tools: an allowlist that silently matched nothing would offer less than
   * the application meant, with no word about why.
   */
  #markAllow(names: readonly string[], where: string): Uint8Array {
    const catalog = this.#catalog;
    if (this.#flatLowerSet?.version !== catalog.structureVersion) {
      this.#flatLowerSet = { version: catalog.structureVersion, set: new Set(catalog.flatLower) };
    }
    const flatSet = this.#flatLowerSet.set;
    assertKnownNames(
      where,
      names,
      { has: (name) => flatSet.has(name.toLowerCase()) },
      () => catalog.flatNames,
      'An allowlist names flat tools (matched ignoring case); namespace actions and toolkit tools are offered through their group.',
    );
    const wanted = new Set<string>();
    for (const n of names) wanted.add(n.toLowerCase());
    const flatLower = this.#flatLower;
    const selected = new Uint8Array(flatLower.length);
    let kept = 0;
    for (let p = 0; p < flatLower.length; p++) {
      if (wanted.has(flatLower[p]!)) {
        selected[p] = 1;
        kept++;
      }
    }
    this.#marked = kept;
    return selected;
  }

  /**
   * The prune result for a selection of `kept` positions: both arrays are
   * allocated at their final size and filled from the per-position caches
   * (growing them with push and looking up each entry cost more than the
   * matching itself on large flat specs).
   */
  #result(selected: Uint8Array, kept: number): PruneResult {
    const definitions = this.#flatDefinitions;
    const names = this.#flatNames;
    const total = definitions.length;
    const tools = new Array<ToolDefinition>(kept);
    const removed = new Array<string>(total - kept);
    let k = 0;
    let r = 0;
    for (let p = 0; p < total; p++) {
      if (selected[p] === 1) tools[k++] = definitions[p]!;
      else removed[r++] = names[p]!;
    }
    // Defensive: `kept` comes from the matcher; the arrays hold what was actually selected.
    if (k !== kept) {
      tools.length = k;
      removed.length = r;
    }
    return { tools, removed, kept: k, total };
  }
}
