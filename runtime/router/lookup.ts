/**
 * The name tables call resolution looks things up in, beside the catalog's
 * own maps: the namespace actions by length (`ActionIndex`, each group's
 * own, built on its first call, on the dispatch hot path) and the
 * closest-name suggesters a rejection quotes
 * (`Suggestions`, built only when a call is rejected, cached per load or
 * registration state).
 *
 * Why actions by length: a namespace call names its action inside the
 * arguments text, so the action is a string `JSON.parse` has just made, and
 * looking it up in a `Map` hashes it anew on every call (a fresh string has
 * no cached hash); that hash was the largest single cost of a namespace call
 * above the floor. `ActionIndex` finds the names of the action's length and
 * compares those few with `===`, so a call hashes nothing; its answers are
 * exactly those of a `Map` built from the same entries (a name given twice:
 * the last entry wins, as `Map.prototype.set` would have it).
 */
import { LOAD_TOOLKIT_NAME } from '../contract.js';
import { Suggester } from '../suggest.js';
import type { Catalog } from './catalog.js';
import type { Gate } from './gate.js';

/**
 * A group's actions by name length. Internal.
 *
 * @example
 * const index = new ActionIndex([['git_log', 4], ['git_push', 7]]);
 * index.get('git_push'); // → 7
 * index.get('git_pull'); // → undefined
 */
export class ActionIndex {
  /** Per name length: the names of that length, and their tool indices at the same positions. */
  readonly #names: (string[] | undefined)[] = [];
  readonly #tools: (number[] | undefined)[] = [];

  /** `actions`: (action name, tool index) entries, e.g. a `Map`'s. */
  constructor(actions: Iterable<readonly [string, number]>) {
    for (const [name, tool] of actions) {
      const names = (this.#names[name.length] ??= []);
      const tools = (this.#tools[name.length] ??= []);
      const at = names.indexOf(name);
      if (at >= 0) tools[at] = tool;
      else {
        names.push(name);
        tools.push(tool);
      }
    }
  }

  /** The tool index of action `name`, or undefined. */
  get(name: string): number | undefined {
    const names = this.#names[name.length];
    if (names === undefined) return undefined;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return this.#tools[name.length]![i];
    return undefined;
  }
}

/**
 * The suggesters for one router's rejections. Internal.
 *
 * @example
 * const suggestions = new Suggestions(catalog, gate);
 * suggestions.callable().closest('read_fle'); // → ['read_file']
 */
export class Suggestions {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  #callable: { version: number; value: Suggester } | undefined;
  #toolkits: { version: number; value: Suggester } | undefined;

  constructor(catalog: Catalog, gate: Gate) {
    this.#catalog = catalog;
    this.#gate = gate;
  }

  /** Names the model can call right now (flat tools, namespaces, loader, library tools, loaded toolkit tools). */
  callable(): Suggester {
    const version = this.#gate.loadVersion;
    if (this.#callable?.version === version) return this.#callable.value;
    const catalog = this.#catalog;
    const names: string[] = [];
    for (const t of catalog.flat) names.push(catalog.toolName(t));
    for (const ns of catalog.namespaces) names.push(ns.name);
    if (catalog.toolkits.length > 0) names.push(LOAD_TOOLKIT_NAME);
    for (const t of catalog.library) names.push(catalog.toolName(t));
    const seen = new Set(names);
    for (const k of this.#gate.loadedToolkits()) {
      for (const t of catalog.toolkits[k]!.tools) {
        const n = catalog.toolName(t);
        if (!seen.has(n)) {
          seen.add(n);
          names.push(n);
        }
      }
    }
    const value = new Suggester(names);
    this.#callable = { version, value };
    return value;
  }

  /** Toolkit names for `load_toolkit` suggestions; rebuilt only when toolkits are registered. */
  toolkits(): Suggester {
    const version = this.#catalog.structureVersion;
    if (this.#toolkits?.version === version) return this.#toolkits.value;
    const value = new Suggester(this.#catalog.toolkits.map((kit) => kit.name));
    this.#toolkits = { version, value };
    return value;
  }
}
