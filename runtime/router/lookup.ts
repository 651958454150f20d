/**
 * The closest-name suggesters a rejection quotes (`Suggestions`): the names the model may call now, and the toolkit
 * names for `load_toolkit`. Built only when a call is rejected, and cached until a toolkit is loaded or something is
 * registered, so an accepted call never pays for them.
 */
import { LOAD_TOOLKIT_NAME } from '../contract.js';
import { Suggester } from '../suggest.js';
import type { Catalog } from './catalog.js';
import type { Gate } from './gate.js';

/** The suggesters for one router's rejections. Internal. */
export class Suggestions {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  #callable: { version: number; value: Suggester } | undefined;
  #toolkits: { version: number; value: Suggester } | undefined;

  constructor(catalog: Catalog, gate: Gate) { this.#catalog = catalog; this.#gate = gate; }

  /** Names the model can call right now (flat tools, namespaces, loader, library tools, loaded toolkit tools). */
  callable(): Suggester {
    const version = this.#gate.loadVersion;
    if (this.#callable?.version === version) return this.#callable.value;
    const catalog = this.#catalog;
    const names = [
      ...catalog.flat.map((t) => catalog.toolName(t)),
      ...catalog.namespaces.map((ns) => ns.name),
      ...(catalog.toolkits.length > 0 ? [LOAD_TOOLKIT_NAME] : []),
      ...catalog.library.map((t) => catalog.toolName(t)),
      ...this.#gate.loadedToolkits().flatMap((k) => catalog.toolkits[k]!.tools.map((t) => catalog.toolName(t))),
    ];
    // Each name once: a loaded toolkit tool may also be flat, or in two loaded toolkits.
    this.#callable = { version, value: new Suggester(new Set(names)) };
    return this.#callable.value;
  }

  /** Toolkit names for `load_toolkit` suggestions; rebuilt only when toolkits are registered. */
  toolkits(): Suggester {
    const version = this.#catalog.structureVersion;
    if (this.#toolkits?.version !== version) this.#toolkits = { version, value: new Suggester(this.#catalog.toolkits.map((kit) => kit.name)) };
    return this.#toolkits.value;
  }
}
