/**
 * Compile, the router's half: which tools a payload carries and in which
 * order (stable tools, then the library's: `load_toolkit`, the dispatcher and
 * `libraryTools`; then deferred ones, then loaded toolkits' tools), as
 * frozen arrays of pre-rendered definitions, cached per target and shared
 * between compiles. The per-target half (request shape, messages,
 * announcements, cache breakpoints, provider rules) is `compileForTarget`;
 * this module only prepares its input.
 *
 * Caches are keyed by version counters, not cleared: the neutral result and
 * the directory by the catalog's `structureVersion` (registrations), target
 * arrays by the gate's `loadVersion` (the callable set), the announcement
 * list by the store's version. A turn's compile with nothing changed is a few
 * lookups and no copy, whatever the spec's size. The blocklist never changes
 * the output (a blocked tool stays visible so the prompt cache holds; the gate
 * rejects it).
 */
import type { Target, ToolDefinition } from '../contract.js';
import type { Announcement } from '../announcements.js';
import { compileForTarget, warnOnce, type TargetCompileInput, type TargetCompileOptions, type TargetPayload } from '../targets/compile.js';
import { directoryXml as renderDirectoryXml, neutralLoaderTool } from '../neutral.js';
import { renderTool } from '../targets/index.js';
import { RENDER_OPTIONS, type Catalog, type GroupEntry, type ToolEntry } from './catalog.js';
import type { Gate } from './gate.js';
import type { Session } from './session.js';
import type { NeutralCompileResult, TargetCompileRequest } from './types.js';
import { deepFreeze } from '../freeze.js';
import type { CatalogToolkit, ToolkitLoadingInput, ToolkitLoadingOption, ToolkitMode } from '../toolkit-loading.js';
import { adapterFor, dispatcherTool, toolkitMode, type NativeToolkitLoading } from '../targets/index.js';
import { LOAD_TOOLKIT_NAME } from '../contract.js';
import { assertToolkitLoadingOption, TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import type { RenderedToolMap, ResponsesFunctionTool } from '../targets/types.js';

/** Rendered arrays for one target, valid for one callable-set version. */
interface TargetArrays {
  readonly version: number;
  /** The selection's content key ('' for the default choice). */
  readonly key: string;
  /** The toolkit-loading mode the arrays were built for. */
  readonly mode: ToolkitMode;
  readonly stable: readonly unknown[];
  readonly deferred: readonly unknown[];
  readonly loaded: readonly unknown[];
}

/** A compile request with the registry's name types erased. */
export type AnyTargetCompileRequest = TargetCompileRequest<never, string>;

/**
 * Compiles for one router. Internal.
 *
 * @example
 * const compiler = new Compiler(catalog, gate, session);
 * compiler.neutral().tools; // the same frozen array every call
 * compiler.target({ target: 'anthropic', messages: [] }).tools;
 */
export class Compiler {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #session: Session;
  #neutralCompile: { readonly version: number; readonly result: NeutralCompileResult } | undefined;
  readonly #targetCache = new Map<Target, TargetArrays>();
  readonly #selectionCache = new Map<Target, TargetArrays>();
  /**
   * Warnings already delivered by this router (the seed's "warned once" is per
   * chef): shared by every sink, so an application that passes a fresh
   * `onWarning` closure on each compile still hears each warning once.
   */
  readonly #warned = new Set<string>();
  /** The deduping wrapper per sink, so a sink reused across compiles costs no allocation. */
  readonly #warners = new WeakMap<NonNullable<TargetCompileOptions['onWarning']>, NonNullable<TargetCompileOptions['onWarning']>>();
  #announcementCache: { version: number; list: readonly Announcement[] } | undefined;
  readonly #toolkitLoading: ToolkitLoadingOption | undefined;
  /** `options.allowedTools` choices by content (bounded). */
  readonly #choiceMemo = new Map<string, unknown>();
  /** Per target: the toolkit catalog compile renders loads with; rebuilt on registration. */
  readonly #toolkitInputs = new Map<Target, { version: number; value: ToolkitLoadingInput }>();
  /** Library tools per target, rendered once (`#libraryForm`). */
  readonly #libraryForms = new Map<string, unknown>();

  constructor(catalog: Catalog, gate: Gate, session: Session, toolkitLoading?: ToolkitLoadingOption) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#session = session;
    // A misspelt strategy fails here, at createRouter, not on the first compile.
    assertToolkitLoadingOption(toolkitLoading);
    this.#toolkitLoading = toolkitLoading;
  }

  /** `compile({ target, … })`: the provider's request fragment. */
  target(request: AnyTargetCompileRequest): TargetPayload<Target> {
    const { target } = request;
    const mode = this.#modeFor(target, request.options?.toolSearch);
    const arrays = request.tools === undefined ? this.#getTargetArrays(target, mode) : this.#getSelectedArrays(target, mode, request.tools);
    const input: TargetCompileInput = {
      target,
      messages: request.messages,
      stable: arrays.stable,
      deferred: arrays.deferred,
      loaded: arrays.loaded,
      ...(this.#catalog.toolkits.length > 0 ? { toolkits: this.#getToolkitInput(target, mode) } : {}),
      ...(request.options?.allowedTools === true ? this.#allowedToolsChoice(target, arrays, this.#withWarnOnce(request.options)) : {}),
      directoryXml: this.neutral().directoryXml,
      announcements: this.#getAnnouncementList(),
      ...(request.system !== undefined ? { system: request.system } : {}),
      ...(request.options !== undefined ? { options: this.#withWarnOnce(request.options) } : {}),
    };
    return compileForTarget(input);
  }

  /** `compile()`: the seed's neutral `{ tools, directoryXml }`, frozen and cached until a registration. */
  neutral(): NeutralCompileResult {
    // The hit path alone, so it stays small enough to inline into the façade's `compile()`.
    const cached = this.#neutralCompile;
    if (cached !== undefined && cached.version === this.#catalog.structureVersion) return cached.result;
    return this.#buildNeutral();
  }

  #buildNeutral(): NeutralCompileResult {
    const catalog = this.#catalog;
    const tools: ToolDefinition[] = catalog.namespaces.map((ns) => this.#renderGroup(ns, 'neutral') as ToolDefinition);
    for (const t of this.#offeredFlat()) tools.push(this.#renderTool(t, 'neutral') as ToolDefinition);
    const loader = this.#renderLoader('neutral');
    if (loader !== null) tools.push(loader as ToolDefinition);
    for (const t of catalog.library) tools.push(catalog.tool(t).definition);
    const directory = catalog.hasDynamicToolkits()
      ? renderDirectoryXml(
          catalog.toolkits.map((kit) => ({
            name: kit.name,
            description: kit.description,
            tools: kit.tools.map((t) => catalog.toolName(t)),
          })),
        )
      : catalog.spec.directoryXml;
    const result: NeutralCompileResult = Object.freeze({ tools: Object.freeze(tools), directoryXml: directory });
    this.#neutralCompile = { version: catalog.structureVersion, result };
    return result;
  }

  #withWarnOnce(options: TargetCompileOptions): TargetCompileOptions {
    const sink = options.onWarning;
    if (sink === undefined) return options;
    let wrapped = this.#warners.get(sink);
    if (wrapped === undefined) {
      wrapped = warnOnce(sink, this.#warned);
      this.#warners.set(sink, wrapped);
    }
    return { ...options, onWarning: wrapped };
  }

  /**
   * The flat tools of the default tool set (issue 11, rule 7): those in no
   * namespace, in flat order, so a spec with namespaces does not hide its
   * ungrouped tools. A spec with `offerUngroupedTools: false` offers none of
   * them once it has namespaces or toolkits (the reference library's
   * `compile()`); without groups every flat tool is offered either way.
   * A flat tool that is also a namespace action reaches the model through
   * its namespace (one name per tool in the payload).
   */
  #offeredFlat(): number[] {
    const catalog = this.#catalog;
    const groupMode = catalog.namespaces.length > 0 || catalog.toolkits.length > 0;
    if (groupMode && catalog.spec.offerUngroupedTools === false) return [];
    return catalog.flat.filter((t) => catalog.toolNamespaces(t).length === 0);
  }

  /**
   * The default choice, in a fixed order: namespaces, then the flat tools in
   * no namespace (`#offeredFlat`), then the library tools (`#buildArrays`
   * appends those). Cached per target.
   */
  #getTargetArrays(target: Target, mode: ToolkitMode): TargetArrays {
    const version = this.#gate.loadVersion;
    const hit = this.#targetCache.get(target);
    if (hit?.version === version && hit.mode === mode) return hit;
    const catalog = this.#catalog;
    const names = catalog.namespaces.map((ns) => ns.name);
    for (const t of this.#offeredFlat()) names.push(catalog.toolName(t));
    const value = this.#buildArrays(target, mode, names, version, '');
    this.#targetCache.set(target, value);
    return value;
  }

  /**
   * An explicit choice (a prune result or names). Memoized on its content, so
   * the same choice turn after turn yields the same arrays (identity), which
   * keeps the cache key memoized downstream.
   */
  #getSelectedArrays(target: Target, mode: ToolkitMode, selection: NonNullable<AnyTargetCompileRequest['tools']>): TargetArrays {
    const names: string[] = Array.isArray(selection)
      ? [...(selection as readonly string[])]
      : (selection as { readonly tools: readonly ToolDefinition[] }).tools.map((d) => d.name);
    const key = JSON.stringify(names);
    const version = this.#gate.loadVersion;
    const hit = this.#selectionCache.get(target);
    if (hit?.version === version && hit.key === key && hit.mode === mode) return hit;
    const value = this.#buildArrays(target, mode, names, version, key);
    this.#selectionCache.set(target, value);
    return value;
  }

  #buildArrays(target: Target, mode: ToolkitMode, names: readonly string[], version: number, key: string): TargetArrays {
    const catalog = this.#catalog;
    const stable: unknown[] = [];
    const deferred: unknown[] = [];
    const sent = new Set<string>();
    for (const name of names) {
      if (sent.has(name)) continue;
      const ref = catalog.byName.get(name);
      if (ref?.kind === 'tool') {
        const entry = catalog.tool(ref.index);
        if (entry.library) continue; // always offered, at its own place below
        if (!entry.flat) throw new TypeError(this.#notOfferable(entry));
        (entry.deferLoading ? deferred : stable).push(this.#renderTool(ref.index, target));
      } else if (ref?.kind === 'namespace') {
        stable.push(this.#renderGroup(catalog.namespaces[ref.index]!, target));
      } else if (ref?.kind !== 'loader') {
        throw new TypeError(`compile: ${JSON.stringify(name)} in \`tools\` is not a tool or namespace of this router.`);
      }
      sent.add(name);
    }
    // Library tools are never pruned. In `tool-search` mode the target's adapter
    // sends the loader in its own form (Responses: a client tool_search); the
    // dispatcher follows it in `dispatcher` mode.
    const loader = this.#renderLoader(target);
    if (loader !== null) stable.push(mode === 'tool-search' ? nativeLoading(target, 'tool-search').loaderTool(loader as RenderedToolMap[Target]) : loader);
    if (loader !== null && mode === 'dispatcher') stable.push(dispatcherTool(target));
    // Library tools last, registration order: a place no load, block or selection moves.
    for (const t of catalog.library) stable.push(this.#libraryForm(t, target));
    const loaded: unknown[] = [];
    // `append`: the loaded toolkits' tools, in load order. `deferred`: every
    // toolkit tool from the first turn, deferred (the same array whatever is loaded).
    const kits = mode === 'append' ? this.#session.loaded : mode === 'deferred' ? catalog.toolkits.map((_, k) => k) : [];
    const unloaded = mode === 'deferred' ? nativeLoading(target, 'deferred') : undefined;
    for (const k of kits) {
      for (const t of catalog.toolkits[k]!.tools) {
        const n = catalog.toolName(t);
        // Never send one name twice (a toolkit tool may also be flat and chosen, or in two toolkits).
        if (sent.has(n)) continue;
        sent.add(n);
        const rendered = this.#renderTool(t, target);
        loaded.push(unloaded !== undefined ? unloaded.unloadedTool(rendered as RenderedToolMap[Target]) : rendered);
      }
    }
    return { version, key, mode, stable: Object.freeze(stable), deferred: Object.freeze(deferred), loaded: Object.freeze(loaded) };
  }

  /**
   * Why a non-flat tool cannot be offered by name: dispatch would reject a call
   * to it by that name (`unknown_tool` / `not_loaded`), so the payload would
   * advertise a tool the router refuses.
   */
  #notOfferable(entry: ToolEntry): string {
    const catalog = this.#catalog;
    const via =
      entry.namespaces.length > 0
        ? `it is an action of namespace ${entry.namespaces.map((k) => JSON.stringify(catalog.namespaces[k]!.name)).join(', ')}; offer the namespace instead`
        : `it belongs to toolkit ${entry.toolkits.map((k) => JSON.stringify(catalog.toolkits[k]!.name)).join(', ')}; loaded toolkits' tools are appended after the stable tools automatically`;
    return `compile: ${JSON.stringify(entry.name)} in \`tools\` is not a flat tool, so the model could not call it by that name: ${via}.`;
  }

  /**
   * The toolkit-loading mode of a compile. Responses allows one `tool_search`
   * tool: when the hosted one is asked for (`options.toolSearch`, for deferred
   * functions), `native` loads toolkits through the dispatcher instead.
   */
  #modeFor(target: Target, toolSearch: TargetCompileOptions['toolSearch']): ToolkitMode {
    const mode = toolkitMode(target, this.#toolkitLoading);
    return mode === 'tool-search' && toolSearch !== undefined && toolSearch !== false ? 'dispatcher' : mode;
  }

  /** The catalog compile renders `load_toolkit` results with (per target; rebuilt on registration). */
  #getToolkitInput(target: Target, mode: ToolkitMode): ToolkitLoadingInput {
    const catalog = this.#catalog;
    const version = catalog.structureVersion;
    const hit = this.#toolkitInputs.get(target);
    if (hit?.version === version && hit.value.mode === mode) return hit.value;
    const byLower = new Map<string, CatalogToolkit>();
    for (const kit of catalog.toolkits) {
      byLower.set(kit.name.toLowerCase(), Object.freeze({ name: kit.name, tools: Object.freeze(kit.tools.map((t) => catalog.toolName(t))) }));
    }
    let responsesTools: Map<string, ResponsesFunctionTool> | undefined;
    if (mode === 'tool-search') {
      // The target's own form of a loaded tool (Responses: a tool_search_output entry).
      const { loadedTool } = nativeLoading(target, 'tool-search');
      responsesTools = new Map();
      for (const kit of catalog.toolkits) {
        for (const t of kit.tools) responsesTools.set(catalog.toolName(t), loadedTool(this.#renderTool(t, target) as RenderedToolMap[Target]) as ResponsesFunctionTool);
      }
    }
    const value: ToolkitLoadingInput = { mode, catalog: { byLower }, ...(responsesTools ? { responsesTools } : {}) };
    this.#toolkitInputs.set(target, { version, value });
    return value;
  }

  /**
   * `options.allowedTools`: the provider-side blocklist as a `tool_choice` of
   * type `allowed_tools`, listing the request's tools the gate lets through
   * (a namespace while any action is callable, the loader while any toolkit
   * is, the dispatcher while any toolkit tool is; search tools always). One
   * frozen object per distinct list, so the cache-key memo keeps working.
   * Anthropic has no such field, and Gemini's mode is an SDK enum a payload
   * cannot carry as a type: a warning there, nothing sent.
   */
  #allowedToolsChoice(target: Target, arrays: TargetArrays, options: TargetCompileOptions): { toolChoice?: unknown } {
    if (target !== 'openai' && target !== 'openai-responses') {
      options.onWarning?.(
        target === 'anthropic'
          ? '[toolroute] options.allowedTools: Anthropic has no allowed-tools restriction (tool_choice is auto, any, tool or none); the gate enforces the blocklist alone.'
          : "[toolroute] options.allowedTools: Gemini's functionCallingConfig.mode is the SDK enum FunctionCallingConfigMode; set config.toolConfig = { functionCallingConfig: { mode: FunctionCallingConfigMode.VALIDATED, allowedFunctionNames: router.allowedToolNames({ target: 'gemini' }) } } yourself. Nothing was added.",
        'allowed-tools-unsupported',
      );
      return {};
    }
    const names = this.#allowedNames(target, arrays);
    let search = options.toolSearch !== undefined && options.toolSearch !== false;
    if (arrays.stable.some((tool) => (tool as { type?: unknown }).type === 'tool_search')) search ||= this.#allowedName(LOAD_TOOLKIT_NAME);
    const key = `${target}\u0000${search}\u0000${names.join('\u0000')}`;
    let choice = this.#choiceMemo.get(key);
    if (choice === undefined) {
      choice =
        target === 'openai'
          ? deepFreeze({ type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: names.map((name) => ({ type: 'function', function: { name } })) } })
          : deepFreeze({ type: 'allowed_tools', mode: 'auto', tools: [...names.map((name) => ({ type: 'function', name })), ...(search ? [{ type: 'tool_search' }] : [])] });
      if (this.#choiceMemo.size > 256) this.#choiceMemo.clear();
      this.#choiceMemo.set(key, choice);
    }
    return { toolChoice: choice };
  }

  /**
   * `router.allowedToolNames`: the names of a compile's tools the gate lets
   * through now (what `options.allowedTools` lists; for Gemini's
   * `allowedFunctionNames`).
   */
  allowedToolNames(request: Pick<AnyTargetCompileRequest, 'target' | 'tools' | 'options'>): string[] {
    const mode = this.#modeFor(request.target, request.options?.toolSearch);
    const arrays = request.tools === undefined ? this.#getTargetArrays(request.target, mode) : this.#getSelectedArrays(request.target, mode, request.tools);
    return this.#allowedNames(request.target, arrays);
  }

  #allowedNames(target: Target, arrays: TargetArrays): string[] {
    const adapter = adapterFor(target);
    const names: string[] = [];
    for (const tool of [...arrays.stable, ...arrays.deferred, ...arrays.loaded]) {
      const name = adapter.toolName(tool);
      if (name !== undefined && this.#allowedName(name)) names.push(name);
    }
    return names;
  }

  /** Whether the gate lets a call to this request tool through now (see #allowedToolsChoice). */
  #allowedName(name: string): boolean {
    const catalog = this.#catalog;
    const gate = this.#gate;
    const toolkitToolOpen = (k: number) => !gate.kitBlocked[k] && catalog.toolkits[k]!.tools.some((t) => !gate.toolBlocked[t]);
    if (name === TOOLKIT_DISPATCHER_NAME) return catalog.toolkits.some((_, k) => toolkitToolOpen(k));
    const ref = catalog.byName.get(name);
    if (ref === undefined) return true;
    if (ref.kind === 'tool') return !gate.toolBlocked[ref.index];
    if (ref.kind === 'namespace') return !gate.nsBlocked[ref.index] && catalog.namespaces[ref.index]!.tools.some((t) => !gate.toolBlocked[t]);
    return !gate.loaderBlocked() && catalog.toolkits.some((_, k) => !gate.kitBlocked[k]);
  }

  #renderTool(t: number, form: Target | 'neutral'): unknown {
    const catalog = this.#catalog;
    // A spec tool's forms are the spec's, at its own index (read without building its entry).
    if (t < catalog.specCount) return catalog.spec.rendered[form].tools[t];
    const entry = catalog.tool(t);
    // A run-time tool (every tool from `specCount` on) has its neutral form.
    return form === 'neutral' ? entry.definition : renderTool(form, entry.neutral!, RENDER_OPTIONS);
  }

  /** A library tool rendered for a target: rendered once, frozen, the same object on every compile. */
  #libraryForm(t: number, target: Target): unknown {
    const key = `${target}\u0000${t}`;
    let form = this.#libraryForms.get(key);
    if (form === undefined) this.#libraryForms.set(key, (form = deepFreeze(this.#renderTool(t, target))));
    return form;
  }

  #renderGroup(ns: GroupEntry, form: Target | 'neutral'): unknown {
    if (ns.neutral === undefined) return this.#catalog.spec.rendered[form].namespaces[ns.specIndex];
    return renderTool(form, ns.neutral, RENDER_OPTIONS);
  }

  #renderLoader(form: Target | 'neutral'): unknown {
    const catalog = this.#catalog;
    if (catalog.toolkits.length === 0) return null;
    if (!catalog.hasDynamicToolkits()) return catalog.spec.rendered[form].loader;
    return renderTool(form, neutralLoaderTool(catalog.toolkits.map((k) => k.name)), RENDER_OPTIONS);
  }

  #getAnnouncementList(): readonly Announcement[] {
    const store = this.#session.announcements;
    const version = store.version;
    if (this.#announcementCache?.version !== version) {
      // Frozen entries too: compile memoizes the rendering of a frozen list.
      this.#announcementCache = { version, list: Object.freeze(store.list().map((a) => Object.freeze(a))) };
    }
    return this.#announcementCache.list;
  }
}

/**
 * The native toolkit-loading forms of `target` for `mode`, read from its
 * adapter (runtime/targets/adapter.ts `NativeToolkitLoading`): the router
 * reaches a target only through the adapter table. `mode` comes from the same
 * adapter's `toolkitLoading.native`, so a mismatch is a broken adapter, a
 * programming error: fail loudly instead of sending a tool in the wrong form.
 *
 * @example
 * nativeLoading('anthropic', 'deferred').unloadedTool(tool).defer_loading; // → true
 */
function nativeLoading<M extends 'deferred' | 'tool-search'>(target: Target, mode: M): Extract<NativeToolkitLoading<Target>, { readonly native: M }> {
  const loading = adapterFor(target).toolkitLoading;
  if (loading.native !== mode) throw new TypeError(`[toolroute] toolkit loading: target ${target} is in ${mode} mode but its adapter's native mode is ${loading.native}.`);
  return loading as Extract<NativeToolkitLoading<Target>, { readonly native: M }>;
}
