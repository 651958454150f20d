/**
 * The gate: may this tool, namespace or toolkit be called right now? It
 * answers from per-index tables derived from the session state (the
 * blocklist, the loaded toolkits) over the catalog, so a call's gate check is
 * an array read, whatever the size of the blocklist or the spec:
 *
 * - `toolBlocked[t]`: tool `t` is blocked however it is called (by name, in a
 *   blocked namespace or toolkit);
 * - `nsBlocked[k]`, `kitBlocked[k]`: the group itself is blocked;
 * - `direct[t]`: tool `t` is callable by its own name (flat, or in a loaded
 *   toolkit); `directGroup(t)` names the loaded toolkit it is reached through.
 *
 * The tables are replaced (never patched) when the blocklist changes and
 * rebuilt after a restore or a registration; loading one toolkit patches only
 * its tools. `loadVersion` counts changes of the callable set, for the caches
 * that depend on it (suggestions, compiled target arrays).
 *
 * Rules about what a blocklist may name, or how a blocked group affects its
 * members, belong here; what a rejected call is told belongs to resolution
 * (resolve.ts) and reasons.ts.
 */
import { LOAD_TOOLKIT_NAME, type ToolDefinition } from '../contract.js';
import { ToolCallRejectedError } from './types.js';
import { assertKnownNames } from '../suggest.js';
import type { Catalog } from './catalog.js';
import type { Session } from './session.js';

/** Options of `setBlockedTools`. */
export interface BlocklistOptions {
  /**
   * Accept names the router does not know (yet): the seed's "any listed
   * name", for a tool registered later or one a remote server may add. Off by
   * default, because a misspelt name would otherwise leave the real tool open.
   */
  readonly allowUnknown?: boolean;
}

/**
 * Every name a blocklist may hold: tools, namespaces, toolkits (exact
 * spelling), `load_toolkit` and the other library-owned tools.
 */
export function blockableNames(catalog: Catalog): string[] {
  const names = [...catalog.byName.keys()];
  for (const kit of catalog.toolkits) names.push(kit.name);
  return names;
}

/**
 * The gate's tables for one router. Internal; fields are public (and
 * replaced, not mutated, by `recomputeBlocked`) so call resolution reads them
 * directly.
 *
 * @example
 * const gate = new Gate(catalog, session);
 * gate.setBlocklist(['delete_file']);
 * gate.toolBlocked[catalog.byName.get('delete_file')]; // → 1
 */
export class Gate {
  readonly #catalog: Catalog;
  readonly #session: Session;
  /** Per tool, 1 where blocked. Bytes, not an array of booleans: at 10,000 tools, 10 KB outside the collected heap instead of 40 KB in it. */
  toolBlocked = new Uint8Array(0);
  nsBlocked: boolean[] = [];
  kitBlocked: boolean[] = [];
  kitLoaded: boolean[] = [];
  /** Per tool, 1 where callable by its own name: flat, a library tool, or in a loaded toolkit. */
  direct = new Uint8Array(0);
  /** Bumped whenever the callable set changes: a toolkit loads, a restore, any registration (see `recomputeDirect`). */
  loadVersion = 0;

  constructor(catalog: Catalog, session: Session) {
    this.#catalog = catalog;
    this.#session = session;
    this.recompute();
  }

  /**
   * Throw (a `TypeError` naming each one, with the closest known names) when
   * `names` holds a non-string, or a name the router does not know unless
   * `allowUnknown` is set. Changes nothing.
   */
  assertBlockable(names: readonly unknown[], allowUnknown: boolean, where: string): void {
    if (allowUnknown) {
      assertKnownNames(where, names, { has: () => true }, () => [], '');
      return;
    }
    const known = new Set(blockableNames(this.#catalog));
    assertKnownNames(
      where,
      names,
      known,
      () => known,
      'A blocklist names tools, namespaces, toolkits (exact spelling), load_toolkit or library tools. ' +
        'To block a name that is not registered yet, pass { allowUnknown: true }.',
    );
  }

  /**
   * Replace the blocklist (the session's) and the tables derived from it,
   * after `assertBlockable`: a typo throws and changes nothing.
   */
  setBlocklist(names: readonly unknown[], options: BlocklistOptions = {}, where = 'setBlockedTools'): void {
    const allowUnknown = options.allowUnknown === true;
    this.assertBlockable(names, allowUnknown, where);
    this.#session.setBlocked(names, allowUnknown);
    this.recomputeBlocked();
  }

  /**
   * The seed's `extractToolkit`: mark a toolkit loaded (case-insensitive
   * name) and return its tools' neutral definitions; throws like the seed on
   * an unknown toolkit.
   */
  extractToolkit(name: unknown): ToolDefinition[] {
    const catalog = this.#catalog;
    const k = catalog.findToolkit(name);
    if (k === undefined) {
      const available = catalog.toolkits.map((kit) => kit.name).join(', ') || '(none)';
      throw new ToolCallRejectedError('invalid_arguments', `Unknown toolkit: "${String(name)}". Available: ${available}`);
    }
    this.markLoaded(k);
    return catalog.toolkits[k]!.tools.map((t) => catalog.toolDefinition(t));
  }

  /** Replace the blocklist with a named policy of the spec; an unknown policy throws. */
  applyPolicy(policy: unknown): void {
    const policies = this.#catalog.spec.policies;
    const names = typeof policy === 'string' && Object.hasOwn(policies, policy) ? policies[policy] : undefined;
    if (!names) {
      throw new TypeError(`applyPolicy: unknown policy ${JSON.stringify(policy)}. Policies: ${Object.keys(policies).join(', ') || '(none)'}.`);
    }
    this.setBlocklist(names, {}, 'applyPolicy');
  }

  /** Whether a name is on the blocklist as written (the seed blocks any listed name, known or not). */
  isListed(name: string): boolean {
    return this.#session.blockedSet.has(name);
  }

  /** Whether `load_toolkit` itself is blocked. */
  loaderBlocked(): boolean {
    return this.#session.blockedSet.has(LOAD_TOOLKIT_NAME);
  }

  /** Loaded toolkit indices, load order (the session's list; do not modify). */
  loadedToolkits(): readonly number[] {
    return this.#session.loaded;
  }

  /** Rebuild every table: after a restore or a registration. */
  recompute(): void {
    this.recomputeBlocked();
    this.recomputeDirect();
  }

  recomputeBlocked(): void {
    const set = this.#session.blockedSet;
    const catalog = this.#catalog;
    const count = catalog.toolCount;
    // Nothing blocked (every router starts so): every table is all false, built without a lookup per tool.
    if (set.size === 0) {
      this.nsBlocked = new Array<boolean>(catalog.namespaces.length).fill(false);
      this.kitBlocked = new Array<boolean>(catalog.toolkits.length).fill(false);
      this.toolBlocked = new Uint8Array(count);
      return;
    }
    const nsBlocked = catalog.namespaces.map((ns) => set.has(ns.name));
    const kitBlocked = catalog.toolkits.map((kit) => set.has(kit.name));
    const toolBlocked = new Uint8Array(count);
    for (let t = 0; t < count; t++) {
      if (set.has(catalog.toolName(t)) || anyMarked(catalog.toolNamespaces(t), nsBlocked) || anyMarked(catalog.toolToolkits(t), kitBlocked)) toolBlocked[t] = 1;
    }
    this.nsBlocked = nsBlocked;
    this.kitBlocked = kitBlocked;
    this.toolBlocked = toolBlocked;
  }

  recomputeDirect(): void {
    const catalog = this.#catalog;
    const count = catalog.toolCount;
    const kitLoaded = new Array<boolean>(catalog.toolkits.length).fill(false);
    for (const k of this.#session.loaded) kitLoaded[k] = true;
    this.kitLoaded = kitLoaded;
    const direct = new Uint8Array(count);
    // No toolkit loaded (every router starts so): a tool is callable by name when flat or a library tool. The spec's
    // tools are copied from the spec's flat column (no spec tool is a library tool), the others read one by one.
    const noneLoaded = this.#session.loaded.length === 0;
    const from = noneLoaded ? catalog.specCount : 0;
    if (noneLoaded) direct.set(catalog.flatColumn);
    for (let t = from; t < count; t++) {
      if (catalog.toolFlat(t) || catalog.toolLibrary(t) || (!noneLoaded && anyMarked(catalog.toolToolkits(t), kitLoaded))) direct[t] = 1;
    }
    this.direct = direct;
    this.loadVersion++;
  }

  /** Mark toolkit `k` loaded (its tools become callable by name); false when it already was. */
  markLoaded(k: number): boolean {
    if (this.kitLoaded[k]) return false;
    this.#session.loaded.push(k);
    this.kitLoaded[k] = true;
    for (const t of this.#catalog.toolkits[k]!.tools) this.direct[t] = 1;
    this.loadVersion++;
    return true;
  }

  /**
   * For a tool callable through a loaded toolkit (not flat): the first loaded
   * toolkit, in the tool's own toolkit order, it is reached through (the
   * resolved call's `group`); null otherwise. Computed when asked (a
   * validation, a rejection): a table of it was one more array per tool at start-up.
   */
  directGroup(t: number): string | null {
    if (this.#session.loaded.length === 0) return null;
    const catalog = this.#catalog;
    if (catalog.toolFlat(t)) return null;
    const kits = catalog.toolToolkits(t);
    for (let j = 0; j < kits.length; j++) if (this.kitLoaded[kits[j]!]) return catalog.toolkits[kits[j]!]!.name;
    return null;
  }
}

/** Whether any of the group indices is marked in `table`. */
function anyMarked(groups: readonly number[], table: readonly boolean[]): boolean {
  for (let j = 0; j < groups.length; j++) if (table[groups[j]!]) return true;
  return false;
}
