/**
 * Compile, the router's half: which tools a payload carries, in which order, as frozen arrays of pre-rendered
 * definitions cached per target until the callable set changes; the per-target half is `compileForTarget`. The
 * blocklist never changes the output (a blocked tool stays visible so the prompt cache holds; the gate rejects it).
 */
import { LOAD_TOOLKIT_NAME, TARGETS, type Target, type ToolDefinition } from '../contract.js';
import type { Announcement } from '../announcements.js';
import { deepFreeze } from '../freeze.js';
import { directoryXml as renderDirectoryXml, neutralLoaderTool } from '../neutral.js';
import { checkCompileOptions, compileForTarget, ToolrouteConfigError, warnOnce, type TargetCompileInput, type TargetCompileOptions, type TargetPayload, type ToolChanges } from '../targets/compile.js';
import { adapterFor, dispatcherTool, renderTool, toolkitMode, type NativeToolkitLoading } from '../targets/index.js';
import type { RenderedToolMap, ResponsesTool } from '../targets/types.js';
import { assertToolkitLoadingOption, registeredToolsText, TOOLKIT_DISPATCHER_NAME, TOOLKIT_MODE_TEXT, type CatalogToolkit, type ToolkitLoadingInput, type ToolkitLoadingOption, type ToolkitMode } from '../toolkit-loading.js';
import { RENDER_OPTIONS, type Catalog, type Group, type ToolEntry } from './catalog.js';
import type { Gate } from './gate.js';
import type { Session } from './session.js';
import type { NeutralCompileResult, TargetCompileRequest } from './types.js';

/** Rendered arrays for one target, valid for one callable-set version. */
interface TargetArrays {
  readonly version: number;
  /** The selection's content key ('' for the default choice). */
  readonly key: string;
  readonly mode: ToolkitMode;
  readonly stable: readonly unknown[];
  readonly deferred: readonly unknown[];
  readonly loaded: readonly unknown[];
  /** Flat tools registered after the first compile, kept out of `tools` (modes with a native way to add them). */
  readonly late: readonly number[];
  /** `tool-search` with native namespaces: each toolkit is a namespace of deferred functions (in `loaded`). */
  readonly kitNamespaces: boolean;
}

/** The announcement id under which the dispatcher modes list the tools registered after the first turn. */
export const REGISTERED_TOOLS_ANNOUNCEMENT = 'toolroute:registered-tools';

/** A compile request with the registry's name types erased. */
export type AnyTargetCompileRequest = TargetCompileRequest<never, string>;

/** Compiles for one router. Internal. */
export class Compiler {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #session: Session;
  readonly #toolkitLoading: ToolkitLoadingOption | undefined;
  readonly #model: string | undefined;
  #neutralCompile: { readonly version: number; readonly result: NeutralCompileResult } | undefined;
  /** Per target and kind of choice (`default` or a selection): the last arrays built. */
  readonly #arrays = new Map<string, TargetArrays>();
  /** Warnings already delivered by this router, shared by every sink (the reference library warns once per chef). */
  readonly #warned = new Set<string>();
  /** Per target: the toolkit catalog compile renders loads with; rebuilt on registration. */
  readonly #toolkitInputs = new Map<Target, { version: number; kitNamespaces: boolean; value: ToolkitLoadingInput }>();

  /** The router offers `search_tools`, whose loads only the dispatcher and append modes show the model. */
  readonly #searchTools: boolean;

  constructor(catalog: Catalog, gate: Gate, session: Session, toolkitLoading?: ToolkitLoadingOption, model?: string, searchTools = false) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#session = session;
    // A misspelt strategy, or `tool-changes` for a model without them, fails here, at createRouter, not on a compile.
    assertToolkitLoadingOption(toolkitLoading);
    for (const target of TARGETS) toolkitMode(target, toolkitLoading, model);
    this.#toolkitLoading = toolkitLoading;
    this.#model = model;
    this.#searchTools = searchTools;
  }

  /** `compile({ target, … })`: the provider's request fragment. */
  target(request: AnyTargetCompileRequest): TargetPayload<Target> {
    const { target } = request;
    checkCompileOptions(request.options); // before anything reads them: a compile that throws changes no state
    const onWarning = request.options?.onWarning;
    const options = onWarning === undefined ? request.options : { ...request.options, onWarning: warnOnce(onWarning, this.#warned) };
    const arrays = this.#arraysFor(request, true);
    const input: TargetCompileInput = {
      target,
      messages: request.messages,
      stable: arrays.stable,
      deferred: arrays.deferred,
      loaded: arrays.loaded,
      // `tool-changes` also renders the gate and late registrations, with or without toolkits.
      ...(this.#catalog.toolkits.length > 0 || arrays.mode === 'tool-changes' ? { toolkits: this.#getToolkitInput(target, arrays.mode, arrays.kitNamespaces) } : {}),
      ...(options?.allowedTools === true && arrays.mode !== 'tool-changes' ? this.#allowedToolsChoice(target, arrays, options) : {}),
      ...(arrays.mode === 'tool-changes' || arrays.mode === 'tool-search' ? this.#toolChanges(target, arrays, options?.allowedTools === true && arrays.mode === 'tool-changes') : {}),
      directoryXml: this.neutral().directoryXml,
      announcements: this.#announcements(arrays, options?.allowedTools === true),
      ...(request.system !== undefined ? { system: request.system } : {}),
      ...(options !== undefined ? { options } : {}),
    };
    const payload = compileForTarget(input);
    // A target's first compile that succeeds fixes its first turn (one that throws, or `allowedToolNames`, does not).
    if (!this.#session.firstTurn.has(target)) this.#session.firstTurn.set(target, new Set(this.#catalog.registeredNames()));
    return payload;
  }

  /** `compile()`: the reference library's neutral `{ tools, directoryXml }`, frozen and cached until a registration. */
  neutral(): NeutralCompileResult {
    if (this.#neutralCompile?.version === this.#catalog.structureVersion) return this.#neutralCompile.result;
    const catalog = this.#catalog;
    const tools: ToolDefinition[] = catalog.namespaces.map((ns) => this.#renderGroup(ns, 'neutral') as ToolDefinition);
    for (const t of this.#offeredFlat()) tools.push(this.#renderTool(t, 'neutral') as ToolDefinition);
    const loader = this.#renderLoader('neutral');
    if (loader !== null) tools.push(loader as ToolDefinition);
    for (const t of catalog.library) tools.push(catalog.definition(t));
    const directory = catalog.hasDynamicToolkits()
      ? renderDirectoryXml(catalog.toolkits.map((kit) => ({ name: kit.name, description: kit.description, tools: kit.tools.map((t) => catalog.toolName(t)) })))
      : catalog.spec.directoryXml;
    const result: NeutralCompileResult = Object.freeze({ tools: Object.freeze(tools), directoryXml: directory });
    this.#neutralCompile = { version: catalog.structureVersion, result };
    return result;
  }

  /** `router.allowedToolNames`: the names of a compile's tools the gate lets through now (what `options.allowedTools` lists; Gemini's `allowedFunctionNames`). */
  allowedToolNames(request: Pick<AnyTargetCompileRequest, 'target' | 'tools' | 'options'>): string[] {
    return this.#allowedNames(request.target, this.#arraysFor(request));
  }

  /**
   * The flat tools of the default tool set: those in no namespace, in flat order. With `offerUngroupedTools: false` a
   * spec with namespaces or toolkits offers none (the reference library's `compile()`). A flat tool that is also a
   * namespace action reaches the model through its namespace.
   */
  #offeredFlat(): number[] {
    const catalog = this.#catalog;
    const groupMode = catalog.namespaces.length > 0 || catalog.toolkits.length > 0;
    if (groupMode && catalog.spec.offerUngroupedTools === false) return [];
    return catalog.flat.filter((t) => catalog.tool(t).namespaces.length === 0);
  }

  /**
   * The arrays of a compile: the default choice (namespaces, then `#offeredFlat`) or an explicit one (a prune result or
   * names), memoized on its content so the same choice turn after turn yields the same arrays.
   */
  #arraysFor(request: Pick<AnyTargetCompileRequest, 'target' | 'tools' | 'options'>, compiling = false): TargetArrays {
    const { target, tools: selection } = request;
    const listed = selection === undefined || Array.isArray(selection) ? selection : (selection as { readonly tools?: unknown } | null)?.tools;
    if (selection !== undefined && !Array.isArray(listed)) throw new TypeError(`compile: tools takes a list of names or a prune result ({ tools }); got ${JSON.stringify(selection) ?? typeof selection}.`);
    const names = listed === selection ? (listed as readonly string[] | undefined)?.slice() : (listed as readonly ToolDefinition[]).map((d) => d?.name);
    const encoding = request.options?.namespaces;
    const native = encoding === 'native' && adapterFor(target).namespaces !== undefined;
    const search = Boolean(request.options?.toolSearch);
    // A target allows one tool search: with the hosted one asked for, `native` loads toolkits through the dispatcher.
    const configured = toolkitMode(target, this.#toolkitLoading, this.#model);
    const mode = configured === 'tool-search' && search ? 'dispatcher' : configured;
    if (compiling && this.#searchTools && mode !== 'dispatcher' && mode !== 'append') {
      throw new ToolrouteConfigError('search-tools-toolkit-loading', `searchTools loads the toolkits of the tools it finds, but on ${target} (${mode}) ${TOOLKIT_MODE_TEXT[mode]}: the model would read that found tools are callable and never be shown them. Fix: toolkitLoading 'dispatcher' (or 'append') for ${target}, or searchTools off.`);
    }
    const key = `${native ? 'native:' : ''}${search ? 'search:' : ''}${names === undefined ? '' : JSON.stringify(names)}`;
    const slot = `${target}\u0000${names === undefined ? 'default' : 'selection'}`;
    const version = this.#gate.loadVersion;
    const hit = this.#arrays.get(slot);
    if (hit?.version === version && hit.key === key && hit.mode === mode) return hit;
    // The default choice: namespaces, then the flat tools in no namespace.
    const chosen = names ?? [...this.#catalog.namespaces.map((ns) => ns.name), ...this.#offeredFlat().map((t) => this.#catalog.toolName(t))];
    const value = this.#buildArrays(target, mode, chosen, version, key, native, search);
    this.#arrays.set(slot, value);
    return value;
  }

  #buildArrays(target: Target, mode: ToolkitMode, names: readonly string[], version: number, key: string, nativeNamespaces: boolean, search: boolean): TargetArrays {
    const catalog = this.#catalog;
    const stable: unknown[] = [];
    const deferred: unknown[] = [];
    const late: number[] = [];
    // A tool registered after the first turn reaches the model without changing `tools` where the mode has a way.
    // (`tool-search` and `dispatcher` need the toolkits' client tool search or dispatcher tool in `tools`.)
    const addsLate = mode === 'tool-changes' || (mode === 'deferred' && search) || ((mode === 'tool-search' || mode === 'dispatcher') && catalog.toolkits.length > 0);
    const firstTurn = addsLate ? this.#session.firstTurn.get(target) : undefined;
    const sent = new Set<string>();
    for (const name of names) {
      if (sent.has(name)) continue;
      const ref = catalog.byName.get(name);
      if (ref?.kind === 'tool') {
        const entry = catalog.tool(ref.index);
        if (entry.library) continue; // always offered, at its own place below
        if (!entry.flat) throw new TypeError(this.#notOfferable(entry, target, mode));
        // `deferred` with a search tool: Anthropic leaves deferred tools out of the cached prefix, so a late one is deferred.
        const isLate = firstTurn !== undefined && entry.specIndex === -1 && !firstTurn.has(entry.name);
        if (isLate && mode === 'deferred' && search) deferred.push(nativeLoading(target, 'deferred').unloadedTool(this.#renderTool(ref.index, target) as RenderedToolMap[Target]));
        else if (isLate) late.push(ref.index);
        else (entry.deferLoading ? deferred : stable).push(this.#renderTool(ref.index, target));
      } else if (ref?.kind === 'namespace') {
        const ns = catalog.namespaces[ref.index]!;
        stable.push(nativeNamespaces ? this.#nativeNamespace(ns, target) : this.#renderGroup(ns, target));
      } else if (ref?.kind !== 'loader') throw new TypeError(`compile: ${JSON.stringify(name)} in \`tools\` is not a tool or namespace of this router.`);
      sent.add(name);
    }
    // The library's tools, never pruned: the loader (in `tool-search` mode in the adapter's own form), the dispatcher
    // in `dispatcher` mode, then the library tools in registration order, a place no load, block or selection moves.
    const loader = this.#renderLoader(target);
    if (loader !== null) stable.push(mode === 'tool-search' ? nativeLoading(target, 'tool-search').loaderTool(loader as RenderedToolMap[Target]) : loader);
    if (loader !== null && mode === 'dispatcher') stable.push(dispatcherTool(target));
    for (const t of catalog.library) stable.push(deepFreeze(this.#renderTool(t, target)));
    // `append`: the loaded toolkits' tools, in load order. `deferred`: every toolkit tool, deferred, from the first turn.
    const kitNamespaces = nativeNamespaces && mode === 'tool-search';
    const loaded = kitNamespaces ? catalog.toolkits.map((kit) => this.#nativeNamespace(kit, target, 'deferred')) : [];
    const everyKit = mode === 'deferred' || mode === 'tool-changes';
    const kits = mode === 'append' ? this.#session.loaded : everyKit ? catalog.toolkits.map((_, k) => k) : [];
    const unloaded = everyKit ? nativeLoading(target, 'deferred') : undefined;
    for (const t of kits.flatMap((k) => catalog.toolkits[k]!.tools)) {
      const n = catalog.toolName(t);
      // Never one name twice (a toolkit tool may also be flat and chosen, or in two toolkits).
      if (sent.has(n)) continue;
      sent.add(n);
      const rendered = this.#renderTool(t, target);
      loaded.push(unloaded !== undefined ? unloaded.unloadedTool(rendered as RenderedToolMap[Target]) : rendered);
    }
    return { version, key, mode, stable: Object.freeze(stable), deferred: Object.freeze(deferred), loaded: Object.freeze(loaded), late, kitNamespaces };
  }

  /** Why a non-flat tool cannot be offered by name: dispatch would reject a call to it by that name. */
  #notOfferable(entry: ToolEntry, target: Target, mode: ToolkitMode): string {
    const catalog = this.#catalog;
    const via =
      entry.namespaces.length > 0
        ? `it is an action of namespace ${entry.namespaces.map((k) => JSON.stringify(catalog.namespaces[k]!.name)).join(', ')}; offer the namespace instead`
        : `it belongs to toolkit ${entry.toolkits.map((k) => JSON.stringify(catalog.toolkits[k]!.name)).join(', ')}; leave it out: on ${target} (${mode}) ${TOOLKIT_MODE_TEXT[mode]}`;
    return `compile: ${JSON.stringify(entry.name)} in \`tools\` is not a flat tool, so the model could not call it by that name: ${via}.`;
  }

  /** The catalog compile renders `load_toolkit` results with (per target; rebuilt on registration). */
  #getToolkitInput(target: Target, mode: ToolkitMode, kitNamespaces: boolean): ToolkitLoadingInput {
    const catalog = this.#catalog;
    const version = catalog.structureVersion;
    const hit = this.#toolkitInputs.get(target);
    if (hit?.version === version && hit.value.mode === mode && hit.kitNamespaces === kitNamespaces) return hit.value;
    const byLower = new Map<string, CatalogToolkit>();
    for (const kit of catalog.toolkits) byLower.set(kit.name.toLowerCase(), Object.freeze({ name: kit.name, tools: Object.freeze(kit.tools.map((t) => catalog.toolName(t))) }));
    // What a load's result carries: the toolkit's tools in the target's loaded form, or its native namespace.
    const responsesTools = mode !== 'tool-search' ? undefined : new Map(catalog.toolkits.map((kit) => [kit.name,
      kitNamespaces ? [this.#nativeNamespace(kit, target, 'loaded')] : kit.tools.map((t) => this.#loadedTool(t, target))] as [string, ResponsesTool[]]));
    const value: ToolkitLoadingInput = { mode, catalog: byLower, ...(responsesTools ? { responsesTools } : {}) };
    this.#toolkitInputs.set(target, { version, kitNamespaces, value });
    return value;
  }

  /**
   * `options.allowedTools`: the target's `tool_choice` listing the request's tools the gate lets through now (a search
   * tool whenever it may search: the hosted one, or the loader in `tool-search` mode while it is callable); a warning
   * where the target has no such restriction.
   */
  #allowedToolsChoice(target: Target, arrays: TargetArrays, options: TargetCompileOptions): { toolChoice?: unknown } {
    const allowed = adapterFor(target).allowedTools;
    if ('unsupported' in allowed) {
      options.onWarning?.(`[toolroute] options.allowedTools: ${allowed.unsupported}`, 'allowed-tools-unsupported');
      return {};
    }
    const loaderSearch = arrays.mode === 'tool-search' && this.#catalog.toolkits.length > 0 && this.#allowedName(LOAD_TOOLKIT_NAME);
    return { toolChoice: allowed.choice(this.#allowedNames(target, arrays), Boolean(options.toolSearch) || loaderSearch) };
  }

  /** The standing announcements, and in the dispatcher modes the tools registered after the first turn (called through the dispatcher; with the provider gate, those it lets through). */
  #announcements(arrays: TargetArrays, gated: boolean): Announcement[] {
    const list = this.#session.announcements.list();
    const late = gated ? arrays.late.filter((t) => !this.#gate.toolBlocked[t]) : arrays.late;
    if (arrays.mode !== 'dispatcher' || late.length === 0) return list;
    const content = registeredToolsText(late.map((t) => this.#catalog.definition(t)));
    return [...list, { id: REGISTERED_TOOLS_ANNOUNCEMENT, content, channel: 'user_tail' }];
  }

  /**
   * The tool set's changes from `tools`, sent at the tail: tools registered after the first turn the gate lets
   * through, and with the provider gate on (`tool-changes`) the offered tools it rejects.
   */
  #toolChanges(target: Target, arrays: TargetArrays, gated: boolean): { toolChanges?: ToolChanges } {
    const catalog = this.#catalog;
    const added = arrays.late.filter((t) => !this.#gate.toolBlocked[t] || !gated).map((t) => this.#renderTool(t, target));
    const withdrawn: string[] = [];
    if (gated) {
      // A toolkit's tools are offered once it is loaded; every other request tool from the first turn (a deferred one once found).
      const loaded = new Set(this.#session.loaded.flatMap((k) => catalog.toolkits[k]!.tools.map((t) => catalog.toolName(t))));
      for (const { name, kit } of this.#requestNames(target, arrays)) if ((!kit || loaded.has(name)) && !this.#allowedName(name)) withdrawn.push(name);
    }
    return added.length + withdrawn.length === 0 ? {} : { toolChanges: { withdrawn, added } };
  }

  /** The names of the request's tools, in order (`kit`: a toolkit tool, offered once its toolkit is loaded). */
  #requestNames(target: Target, arrays: TargetArrays): { name: string; kit: boolean }[] {
    const adapter = adapterFor(target);
    const firstKit = arrays.stable.length + arrays.deferred.length;
    return [...arrays.stable, ...arrays.deferred, ...arrays.loaded].flatMap((tool, i) => {
      const name = adapter.toolName(tool);
      return name === undefined ? [] : [{ name, kit: i >= firstKit }];
    });
  }

  #allowedNames(target: Target, arrays: TargetArrays): string[] {
    const names = this.#requestNames(target, arrays).map((r) => r.name).filter((name) => this.#allowedName(name));
    // Tools that reach the model outside `tools`: registered after the first turn, and in `tool-search` mode the loaded toolkits'.
    const loaded = arrays.mode === 'tool-search' && !arrays.kitNamespaces ? this.#session.loaded.flatMap((k) => this.#catalog.toolkits[k]!.tools) : [];
    const late = arrays.mode === 'dispatcher' ? [] : arrays.late;
    for (const t of new Set([...loaded, ...late])) if (this.#allowedName(this.#catalog.toolName(t))) names.push(this.#catalog.toolName(t));
    return names;
  }

  /** Whether the gate lets a call to this request tool through now (a namespace while any action is, the loader while any toolkit is). */
  #allowedName(name: string): boolean {
    const catalog = this.#catalog;
    const gate = this.#gate;
    const toolkitToolOpen = (k: number) => !gate.kitBlocked[k] && catalog.toolkits[k]!.tools.some((t) => !gate.toolBlocked[t]);
    if (name === TOOLKIT_DISPATCHER_NAME) return !gate.isListed(name) && catalog.toolkits.some((_, k) => toolkitToolOpen(k));
    const ref = catalog.byName.get(name);
    // A toolkit's native namespace: once loaded (the loader's tool search brings its members).
    const kit = ref === undefined ? catalog.findToolkit(name) : undefined;
    if (ref === undefined) return kit === undefined || (this.#gate.kitLoaded[kit] === true && toolkitToolOpen(kit));
    if (ref.kind === 'tool') return !gate.toolBlocked[ref.index];
    if (ref.kind === 'namespace') return !gate.nsBlocked[ref.index] && catalog.namespaces[ref.index]!.tools.some((t) => !gate.toolBlocked[t]);
    return !gate.loaderBlocked() && catalog.toolkits.some((_, k) => !gate.kitBlocked[k]);
  }

  #renderTool(t: number, form: Target | 'neutral'): unknown {
    const catalog = this.#catalog;
    // A spec tool's forms are the spec's, at its own index; a run-time tool (from `specCount` on) has its neutral form.
    if (t < catalog.specCount) return catalog.spec.rendered[form].tools[t];
    const entry = catalog.tool(t);
    return form === 'neutral' ? entry.definition : renderTool(form, entry.neutral!, RENDER_OPTIONS);
  }

  #renderGroup(ns: Group, form: Target | 'neutral'): unknown {
    if (ns.neutral === undefined) return this.#catalog.spec.rendered[form].namespaces[ns.specIndex];
    return renderTool(form, ns.neutral, RENDER_OPTIONS);
  }

  /**
   * A namespace as the target's own namespace tool: each action the member tool's rendered form under the action's
   * name. A toolkit's: its members `deferred` (in `tools`), or `loaded` (a load's result).
   */
  #nativeNamespace(ns: Group, target: Target, kit?: 'deferred' | 'loaded'): unknown {
    const members = [...ns.actions].map(([action, t]) => {
      const tool = (kit === 'loaded' ? this.#loadedTool(t, target) : this.#renderTool(t, target)) as { name: string };
      return tool.name === action ? tool : { ...tool, name: action };
    });
    return deepFreeze(adapterFor(target).namespaces!.tool(ns, members as RenderedToolMap[Target][], kit === 'deferred'));
  }

  /** Tool `t` in the target's loaded form (`tool-search` mode: as a load's `tool_search_output` carries it). */
  #loadedTool(t: number, target: Target): unknown {
    return nativeLoading(target, 'tool-search').loadedTool(this.#renderTool(t, target) as RenderedToolMap[Target]);
  }

  #renderLoader(form: Target | 'neutral'): unknown {
    const catalog = this.#catalog;
    if (catalog.toolkits.length === 0) return null;
    if (!catalog.hasDynamicToolkits()) return catalog.spec.rendered[form].loader;
    return renderTool(form, neutralLoaderTool(catalog.toolkits.map((k) => k.name)), RENDER_OPTIONS);
  }
}

/** The native toolkit-loading forms of `target` for `mode`, from its adapter; a mismatch is a broken adapter: fail loudly rather than send a tool in the wrong form. */
function nativeLoading<M extends 'deferred' | 'tool-search'>(target: Target, mode: M): Extract<NativeToolkitLoading<Target>, { readonly native: M }> {
  const loading = adapterFor(target).toolkitLoading;
  if (loading.native !== mode) throw new TypeError(`[toolroute] toolkit loading: target ${target} is in ${mode} mode but its adapter's native mode is ${loading.native}.`);
  return loading as Extract<NativeToolkitLoading<Target>, { readonly native: M }>;
}
