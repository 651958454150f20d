/**
 * Pruning, the seed's flat mode: which flat tools to offer for a task
 * (`pruneByTask`), an allowlist (`allowOnly`) or both
 * (`pruneByTaskAndAllowlist`). Reads only the catalog: the blocklist and the
 * loaded toolkits never change a prune result.
 *
 * Speed comes from the catalog's precomputed tables: the task is scanned once
 * by the generated Aho-Corasick matcher (plus one for run-time flat tools),
 * which ORs each matched tag's bitset into one bit per flat position (a word
 * per 32 tools, not a store per tool), and the result arrays are allocated at
 * their final size and filled from the per-position caches word by word, one
 * store per tool, with no per-tool lookup or branch.
 */
import type { ToolDefinition } from '../contract.js';
import { countSelected, markTask, selectTask, selectTaskFresh } from '../matcher.js';
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
   * The catalog's per-flat-position arrays, held directly: they are only
   * ever appended to (never replaced), so these references stay current.
   * The spec's matcher and the flat definitions are read on the first prune
   * (`spec.matcher` is frozen on first read, `flatDefinitions` filled on
   * read): creating a router that never prunes builds neither.
   */
  #specMatcher: Catalog['spec']['matcher'] | undefined;
  readonly #specFlatCount: number;
  readonly #flatLower: readonly string[];
  readonly #flatNames: readonly string[];
  /** How many positions the last `#markTask` / `#markAllow` selected (read right after the call). */
  #marked = 0;
  /** Lowercased flat names as a set, for the allowlist's unknown-name check; rebuilt after registrations. */
  #flatLowerSet: { readonly version: number; readonly set: ReadonlySet<string> } | undefined;
  /**
   * `pruneByTask`'s selection, one bit per flat position (bit `p & 31` of
   * word `p >>> 5`): reused across calls, cleared per prune (a word per 32
   * tools), resized when run-time registration adds flat tools.
   */
  #selection = new Int32Array(0);

  constructor(catalog: Catalog, strategy: PruneStrategy) {
    this.#catalog = catalog;
    this.#strategy = strategy;
    this.#specFlatCount = catalog.spec.flat.length;
    this.#flatLower = catalog.flatLower;
    this.#flatNames = catalog.flatNames;
  }

  pruneByTask(task: string): PruneResult {
    const catalog = this.#catalog;
    const total = catalog.flat.length;
    const words = (total + 31) >>> 5;
    let selection = this.#selection;
    if (selection.length !== words) selection = this.#selection = new Int32Array(words);
    const text = typeof task === 'string' ? task : String(task);
    // The matcher overwrites the selection (the always-kept tools copied in whole, so no clearing pass) and ORs
    // in whole word masks per keyword the task names: about one word per 32 tools per tag, not a store per tool.
    // It also counts them (in the same pass as its last copy), which holds unless run-time tools add bits.
    let kept = selectTaskFresh((this.#specMatcher ??= catalog.spec.matcher), text, selection);
    // Run-time flat tools select their own positions, after the spec's.
    const dynamic = catalog.dynamicMatcher;
    if (dynamic) {
      selectTask(dynamic, text, selection, this.#specFlatCount);
      kept = countSelected(selection);
    }
    // Invariant the sizes below rest on: the matchers set bits only at positions below
    // `total` (the spec's matcher below its flat count, the run-time one in the positions
    // after it; the last word's padding bits stay clear). So the set-bit count is exactly
    // the number of kept tools, the set-bit loop fills `tools` to `kept`, and the masked
    // clear bits fill `removed` to `total - kept` (prune.test.ts compares both with the reference Pruner).
    // Both result arrays at their final size, filled word by word: the kept positions
    // of a word are its set bits, lowest first (`b & -b` isolates one, `clz32` names
    // it), the removed ones its clear bits. One store per position and no branch on
    // an (unpredictable) bit: that branch cost more than the rest of the pass.
    const definitions = catalog.flatDefinitions;
    const names = this.#flatNames;
    const tools = new Array<ToolDefinition>(kept);
    const removed = new Array<string>(total - kept);
    let k = 0;
    let r = 0;
    for (let w = 0; w < words; w++) {
      const bits = selection[w]!;
      const base = w << 5;
      const left = total - base;
      let set = bits;
      while (set !== 0) {
        const low = set & -set;
        tools[k++] = definitions[base + 31 - Math.clz32(low)]!;
        set ^= low;
      }
      let clear = ~bits & (left >= 32 ? -1 : (1 << left) - 1);
      while (clear !== 0) {
        const low = clear & -clear;
        removed[r++] = names[base + 31 - Math.clz32(low)]!;
        clear ^= low;
      }
    }
    return { tools, removed, kept, total };
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
    return catalog.flat.map((t) => catalog.toolDefinition(t));
  }

  #markTask(task: string): Uint8Array {
    const selected = new Uint8Array(this.#flatNames.length);
    const text = typeof task === 'string' ? task : String(task);
    let kept = markTask((this.#specMatcher ??= this.#catalog.spec.matcher), text, selected);
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
    const definitions = this.#catalog.flatDefinitions;
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
