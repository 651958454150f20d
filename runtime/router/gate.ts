/**
 * The gate: may this tool, namespace or toolkit be called now? It answers from per-index tables (`toolBlocked`,
 * `nsBlocked`, `kitBlocked`, `direct`) derived from the blocklist and the loaded toolkits; `loadVersion` counts changes
 * of the callable set. What a blocklist may name belongs here; what a rejected call is told belongs to resolve.ts.
 */
import { LOAD_TOOLKIT_NAME, TOOLKIT_DISPATCHER_NAME, type ToolDefinition } from '../contract.js';
import { ToolCallRejectedError } from './types.js';
import { assertKnownNames, checkOptions, Suggester } from '../suggest.js';
import type { Catalog } from './catalog.js';
import type { Session } from './session.js';

/** Options of `setBlockedTools`. */
export interface BlocklistOptions {
  /** Accept names the router does not know (yet). Off by default: a misspelt name would leave the real tool open. */
  readonly allowUnknown?: boolean;
}

/**
 * The gate's tables for one router. Internal; call resolution reads the fields directly.
 * @example
 * const gate = new Gate(catalog, session);
 * gate.setBlocklist(['delete_file']);
 * gate.toolBlocked[0]; // → true when tool 0 is delete_file
 */
export class Gate {
  readonly #catalog: Catalog;
  readonly #session: Session;
  toolBlocked: boolean[] = [];
  nsBlocked: boolean[] = [];
  kitBlocked: boolean[] = [];
  kitLoaded: boolean[] = [];
  direct: boolean[] = [];
  /** Bumped whenever the callable set changes: a toolkit loads, a restore, any registration (see `recompute`). */
  loadVersion = 0;

  constructor(catalog: Catalog, session: Session) { this.#catalog = catalog; this.#session = session; this.recompute(); }

  /** Throw a `TypeError` when `names` holds a non-string, or an unknown name without `allowUnknown`. Changes nothing. */
  assertBlockable(names: readonly unknown[], allowUnknown: boolean, where: string): void {
    if (allowUnknown) return assertKnownNames(where, names, { has: () => true }, () => [], '');
    // Tools, namespaces, toolkits (exact spelling), `load_toolkit`, `call_toolkit_tool` and the other library-owned tools.
    const known = new Set([...this.#catalog.byName.keys(), ...this.#catalog.toolkits.map((kit) => kit.name), TOOLKIT_DISPATCHER_NAME]);
    assertKnownNames(where, names, known, () => known, `A blocklist names tools, namespaces, toolkits (exact spelling), load_toolkit, call_toolkit_tool or library tools. ${where === 'restore' ? "To keep blocking a name this router does not have, set the snapshot's blockedAllowUnknown: true, or remove the name." : 'To block a name that is not registered yet, pass { allowUnknown: true }.'}`);
  }

  /** Replace the blocklist (the session's) and the tables derived from it, after `assertBlockable`: a typo throws and changes nothing. */
  setBlocklist(names: readonly unknown[], options: BlocklistOptions = {}, where = 'setBlockedTools'): void {
    checkOptions(where, options, { allowUnknown: [(v) => typeof v === 'boolean', 'true or false'] }); // `allowunknown: true` must not block strictly
    this.assertBlockable(names, options.allowUnknown === true, where);
    this.#session.setBlocked(names, options.allowUnknown === true);
    this.recomputeBlocked();
  }

  /**
   * The reference library's `extractToolkit`: mark a toolkit loaded (case-insensitive name) and return its tools' neutral
   * definitions; throws like the reference library on an unknown toolkit.
   */
  extractToolkit(name: unknown): ToolDefinition[] {
    const catalog = this.#catalog;
    const k = catalog.findToolkit(name);
    if (k === undefined) {
      const available = catalog.toolkits.map((kit) => kit.name).join(', ') || '(none)';
      throw new ToolCallRejectedError('invalid_arguments', `Unknown toolkit: "${String(name)}". Available: ${available}`);
    }
    this.markLoaded(k);
    return catalog.toolkits[k]!.tools.map((t) => catalog.definition(t));
  }

  /** Replace the blocklist with a named policy of the spec; an unknown policy throws. */
  applyPolicy(policy: unknown): void {
    const policies = this.#catalog.spec.policies;
    const names = typeof policy === 'string' && Object.hasOwn(policies, policy) ? policies[policy] : undefined;
    const closest = typeof policy === 'string' && !names ? new Suggester(Object.keys(policies)).closest(policy).map((p) => JSON.stringify(p)) : [];
    if (!names) throw new TypeError(`applyPolicy: unknown policy ${JSON.stringify(policy)}${closest.length > 0 ? ` (did you mean ${closest.join(' or ')}?)` : ''}. Policies: ${Object.keys(policies).join(', ') || '(none)'}.`);
    this.setBlocklist(names, {}, 'applyPolicy');
  }

  /** Whether a name is on the blocklist as written (the reference library blocks any listed name, known or not). */
  isListed(name: string): boolean { return this.#session.blockedSet.has(name); }
  /** Whether `load_toolkit` itself is blocked. */
  loaderBlocked(): boolean { return this.#session.blockedSet.has(LOAD_TOOLKIT_NAME); }
  /** Loaded toolkit indices, load order (the session's list; do not modify). */
  loadedToolkits(): readonly number[] { return this.#session.loaded; }

  /** Rebuild the blocked tables from the blocklist: a tool is blocked when it, or a group it belongs to, is listed. */
  recomputeBlocked(): void {
    const set = this.#session.blockedSet;
    const catalog = this.#catalog;
    this.nsBlocked = catalog.namespaces.map((ns) => set.has(ns.name));
    this.kitBlocked = catalog.toolkits.map((kit) => set.has(kit.name));
    this.toolBlocked = set.size === 0 ? new Array<boolean>(catalog.toolCount).fill(false) : Array.from({ length: catalog.toolCount }, (_, t) => set.has(catalog.toolName(t)));
    const listed = [...catalog.namespaces.filter((_, k) => this.nsBlocked[k]), ...catalog.toolkits.filter((_, k) => this.kitBlocked[k])];
    for (const group of listed) for (const t of group.tools) this.toolBlocked[t] = true;
  }

  /** Rebuild every table: after a restore or a registration. A tool is callable by name when flat, a library tool or in a loaded toolkit. */
  recompute(): void {
    this.recomputeBlocked();
    const catalog = this.#catalog;
    this.kitLoaded = catalog.toolkits.map(() => false);
    this.direct = new Array<boolean>(catalog.toolCount).fill(false);
    for (const t of [...catalog.flat, ...catalog.library]) this.direct[t] = true;
    for (const k of this.#session.loaded) this.#open(k);
    this.loadVersion++;
  }

  /** Mark toolkit `k` loaded (its tools become callable by name); false when it already was. */
  markLoaded(k: number): boolean {
    if (this.kitLoaded[k]) return false;
    this.#session.loaded.push(k);
    this.#open(k);
    this.loadVersion++;
    return true;
  }

  /** Toolkit `k`'s tools become callable by name. */
  #open(k: number): void {
    this.kitLoaded[k] = true;
    for (const t of this.#catalog.toolkits[k]!.tools) this.direct[t] = true;
  }

  /** For a tool callable through a loaded toolkit (not flat): the first loaded one (the call's `group`); else null. */
  directGroup(t: number): string | null {
    const entry = this.#catalog.tool(t);
    const k = entry.flat ? undefined : entry.toolkits.find((kit) => this.kitLoaded[kit]);
    return k === undefined ? null : this.#catalog.toolkits[k]!.name;
  }
}
