/**
 * Pruning, the seed's flat mode: which flat tools to offer for a task
 * (`pruneByTask`), an allowlist (`allowOnly`) or both
 * (`pruneByTaskAndAllowlist`). Reads only the catalog: the blocklist and the
 * loaded toolkits never change a prune result.
 *
 * The rule (the reference library's `Pruner.pruneByTask`): a flat tool is
 * kept when the lower-cased task contains its lower-cased name or one of its
 * lower-cased tags; a tool without tags is always kept. Each distinct keyword
 * is tested once per prune, however many tools share it.
 */
import type { ToolDefinition } from '../contract.js';
import type { Catalog } from './catalog.js';
import { assertKnownNames } from '../suggest.js';
import type { PruneResult, PruneStrategy } from './types.js';

/** The flat tools as the rule reads them, built on the first prune and again after a registration. */
interface Keywords {
  /** `Catalog.structureVersion` it was built for. */
  readonly version: number;
  /** Flat positions of untagged tools: always kept. */
  readonly always: readonly number[];
  /** Each distinct lower-cased name or tag → the flat positions it keeps, ascending. */
  readonly positions: ReadonlyMap<string, readonly number[]>;
  /** Lower-cased flat names, for allowlists. */
  readonly names: ReadonlySet<string>;
}

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
  #keywords: Keywords | undefined;

  constructor(catalog: Catalog, strategy: PruneStrategy) {
    this.#catalog = catalog;
    this.#strategy = strategy;
  }

  pruneByTask(task: string): PruneResult {
    return this.#result(this.#byTask(task));
  }

  allowOnly(names: readonly string[]): PruneResult {
    return this.#result(this.#byName(names, 'allowOnly'));
  }

  pruneByTaskAndAllowlist(task: string, names: readonly string[], strategy?: PruneStrategy): PruneResult {
    const byTask = this.#byTask(task);
    const byName = this.#byName(names, 'pruneByTaskAndAllowlist');
    const both = (strategy ?? this.#strategy) === 'intersection';
    return this.#result(byTask.map((keep, p) => (both ? keep & byName[p]! : keep | byName[p]!)));
  }

  /** All flat tools, as the seed's `getAllTools` (a fresh array). */
  getAllTools(): ToolDefinition[] {
    const catalog = this.#catalog;
    return catalog.flat.map((t) => catalog.toolDefinition(t));
  }

  #index(): Keywords {
    const catalog = this.#catalog;
    if (this.#keywords?.version === catalog.structureVersion) return this.#keywords;
    const always: number[] = [];
    const positions = new Map<string, number[]>();
    const names = new Set<string>();
    catalog.flat.forEach((t, p) => {
      const entry = catalog.tool(t);
      const name = entry.name.toLowerCase();
      names.add(name);
      if (entry.tags.length === 0) return void always.push(p);
      for (const keyword of [name, ...entry.tags.map((tag) => tag.toLowerCase())]) {
        const list = positions.get(keyword);
        if (list === undefined) positions.set(keyword, [p]);
        else if (list[list.length - 1] !== p) list.push(p);
      }
    });
    return (this.#keywords = { version: catalog.structureVersion, always, positions, names });
  }

  /** 1 per flat position the task keeps. */
  #byTask(task: string): Uint8Array {
    const { always, positions } = this.#index();
    const text = (typeof task === 'string' ? task : String(task)).toLowerCase();
    const keep = new Uint8Array(this.#catalog.flat.length);
    for (const p of always) keep[p] = 1;
    for (const [keyword, kept] of positions) {
      if (keyword.length <= text.length && text.includes(keyword)) for (const p of kept) keep[p] = 1;
    }
    return keep;
  }

  /**
   * 1 per allowlisted flat position. A name that is no flat tool (a typo, a
   * namespace action, a toolkit tool) throws, naming it and the closest flat
   * tools: an allowlist that silently matched nothing would offer less than
   * the application meant, with no word about why.
   */
  #byName(names: readonly string[], where: string): Uint8Array {
    const catalog = this.#catalog;
    const known = this.#index().names;
    assertKnownNames(
      where,
      names,
      { has: (name) => known.has(name.toLowerCase()) },
      () => catalog.flat.map((t) => catalog.toolName(t)),
      'An allowlist names flat tools (matched ignoring case); namespace actions and toolkit tools are offered through their group.',
    );
    const wanted = new Set(names.map((n) => n.toLowerCase()));
    return Uint8Array.from(catalog.flat, (t) => (wanted.has(catalog.toolName(t).toLowerCase()) ? 1 : 0));
  }

  /** The kept tools' definitions and the removed tools' names, both in flat order. */
  #result(keep: Uint8Array): PruneResult {
    const catalog = this.#catalog;
    const tools: ToolDefinition[] = [];
    const removed: string[] = [];
    catalog.flat.forEach((t, p) => (keep[p] === 1 ? tools.push(catalog.toolDefinition(t)) : removed.push(catalog.toolName(t))));
    return { tools, removed, kept: tools.length, total: catalog.flat.length };
  }
}
