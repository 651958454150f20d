/**
 * The router's façade: `ToolRouter` holds one object per concern from runtime/router/ (catalog, session, gate,
 * resolve, invoke, prune, compile, library; public types in types.ts), and each public method delegates to one. Model
 * input never throws: a bad call becomes a rejection the model can act on. Programmer errors throw early.
 */
import { LOAD_TOOLKIT_NAME, type GeneratedModule, type HandlersOf, type RegistryShape, type Target, type ToolDefinition, type ToolNameOf } from './contract.js';
import type { AnnounceOptions, Announcement } from './announcements.js';
import { readCall } from './call-shape.js';
import { fromProvider, toolMessage, type ProviderItem, type ProviderResponseMap } from './conversation.js';
import { checkCompileRequest, type TargetPayload } from './targets/compile.js';
import { adapterFor } from './targets/index.js';
import { cacheKey as payloadCacheKey } from './cache-key.js';
import { Catalog, type AnyDynamicGroup, type AnyDynamicTool } from './router/catalog.js';
import { Compiler, type AnyTargetCompileRequest } from './router/compile.js';
import { Events, type RouterEvents } from './router/events.js';
import { Gate, type BlocklistOptions } from './router/gate.js';
import { DISPATCH_OPTIONS, Invoker, TIME_LIMIT } from './router/invoke.js';
import { Pruner, searchToolsDefinition } from './router/prune.js';
import { Resolver } from './router/resolve.js';
import { Session, readSnapshot } from './router/session.js';
import { libraryResultText, notLibraryText } from './router/library.js';
import { cutOffReason, stoppedTurnReason } from './reasons.js';
import { checkOptions, type OptionRules } from './suggest.js';
import {
  ToolCallRejectedError, type BlockableName, type CallWithArguments, type CheckResult, type DispatchOptions, type DispatchResult,
  type DynamicGroupDefinition, type DynamicToolDefinition, type NameCheckResult, type NameOnlyCall, type NamespaceResolution,
  type NeutralCompileResult, type PruneResult, type PruneStrategy, type RouterOptions, type RouterSnapshot, type TargetCompileRequest,
  type TryNamespaceResolution, type ContextProbe, type GroupNames, type LibraryCheckResult, type LibraryToolDefinition, type LoaderCall, type ResponseStep,
} from './router/types.js';

// The public types live in router/types.ts and are exported from here, unchanged.
export type { CompileDoneEvent, RouterEvents } from './router/events.js';
export { ToolCallRejectedError } from './router/types.js';
export { libraryTool } from './router/library.js';
export { searchableTool } from './router/prune.js';
export type {
  LibraryCheckResult, LibraryResolvedCall, LibraryToolDefinition, LibraryToolValidate, LoaderCall, BlocklistOptions, BlockableName, CallableKind,
  CallWithArguments, CheckRejection, CheckResult, DispatchOptions, DispatchResult, DynamicGroupDefinition, DynamicResolvedCall,
  DynamicToolDefinition, LoaderResolvedCall, NameCheckResult, NameOnlyCall, NamespaceResolution, NeutralCompileResult, PrunedTool, PruneResult,
  PruneStrategy, ResolvedCall, ResponseStep, RouterOptions, RouterSnapshot, TargetCompileRequest, TryNamespaceResolution,
} from './router/types.js';

/** `createRouter`'s options: a check per option, or none here where the part that reads it checks it (and says more). */
const READ_ELSEWHERE: OptionRules[string] = [() => true, ''];
const ROUTER_OPTIONS: Readonly<Record<keyof RouterOptions | 'libraryTools', OptionRules[string]>> = {
  strategy: READ_ELSEWHERE, timeoutMs: TIME_LIMIT, toolkitLoading: READ_ELSEWHERE, searchTools: READ_ELSEWHERE, libraryTools: READ_ELSEWHERE,
  maxArgumentsLength: READ_ELSEWHERE, maxDepth: READ_ELSEWHERE, maxNodes: READ_ELSEWHERE,
  propagateHandlerErrors: [(v) => typeof v === 'boolean', 'true or false'],
  handlerErrorReason: [(v) => typeof v === 'function', 'a function'],
  model: [(v) => typeof v === 'string', 'a model name (a string)'],
};

/**
 * The router over one generated folder. Create it with {@link createRouter}.
 *
 * `R` is the generated registry (names and argument types), `C` the per-dispatch context type, `D` the names registered
 * at run time (grows with the `register*` calls' return type), `L` the library tools' names (`libraryTools`).
 */
export class ToolRouter<R extends RegistryShape, C = unknown, D extends string = never, L extends string = never> {
  readonly #catalog: Catalog;
  readonly #session: Session;
  readonly #gate: Gate;
  readonly #resolver: Resolver;
  readonly #invoker: Invoker;
  readonly #pruner: Pruner;
  readonly #compiler: Compiler;
  readonly #events = new Events();

  /** @internal Use {@link createRouter}. */
  constructor(generated: GeneratedModule<R>, handlers: HandlersOf<R, C>, options: RouterOptions & { readonly libraryTools?: unknown } = {}) {
    checkOptions('createRouter', options, ROUTER_OPTIONS);
    const own = options.searchTools === undefined || (options.searchTools as unknown) === false ? [] : [searchToolsDefinition(options.searchTools, (query, k) => this.#pruner.searchTools(query, k, this.#gate))];
    if (own.length > 0 && typeof generated.loadSearch !== 'function') throw new TypeError('createRouter: searchTools needs a generated folder with its search loader (search.gen.ts); regenerate it.');
    const library = own.length > 0 && Array.isArray(options.libraryTools ?? []) ? [...((options.libraryTools ?? []) as unknown[]), ...own] : options.libraryTools;
    const catalog = new Catalog(generated as unknown as GeneratedModule<RegistryShape>, handlers, library);
    this.#catalog = catalog;
    this.#session = new Session();
    this.#gate = new Gate(catalog, this.#session);
    this.#resolver = new Resolver(catalog, this.#gate, options);
    this.#invoker = new Invoker(catalog, this.#gate, options);
    this.#pruner = new Pruner(catalog, options.strategy, generated.loadSearch);
    this.#compiler = new Compiler(catalog, this.#gate, this.#session, options.toolkitLoading ?? catalog.spec.toolkitLoading, options.model, own.length > 0);
  }

  // ---- Pruning (the reference library's flat mode) -------------------------------------

  /**
   * The reference library's `pruneByTask`: keep flat tools whose name or any tag occurs in the task (case-insensitive), and untagged
   * ones.
   * @example router.pruneByTask('Read the auth.ts file'); // → { tools: [read_file, get_time], removed: ['run_bash'], kept: 2, total: 3 }
   */
  pruneByTask(task: string): PruneResult<ToolNameOf<R> | D> { return this.#pruner.pruneByTask(task) as PruneResult<ToolNameOf<R> | D>; }
  /**
   * The `k` flat tools the ranked search (imported and built by the first call, hence async) puts first, best first.
   * @example (await router.rankByTask('weather in Lisbon?', { k: 5 })).tools; // combine with compile({ tools }) as pruneByTask's
   */
  rankByTask(task: string, options: { readonly k: number }): Promise<PruneResult<ToolNameOf<R> | D>> { return this.#pruner.rankByTask(task, options) as Promise<PruneResult<ToolNameOf<R> | D>>; }

  /** The reference library's `allowOnly`: keep exactly the named flat tools (case-insensitive). @example router.allowOnly(['read_file']).tools; */
  allowOnly(names: readonly (ToolNameOf<R> | D)[]): PruneResult<ToolNameOf<R> | D> { return this.#pruner.allowOnly(names) as PruneResult<ToolNameOf<R> | D>; }

  /**
   * The reference library's `pruneByTaskAndAllowlist`: task match and allowlist combined by `union` (default) or `intersection`.
   * @example router.pruneByTaskAndAllowlist('check the logs', ['get_time'], 'intersection');
   */
  pruneByTaskAndAllowlist(task: string, names: readonly (ToolNameOf<R> | D)[], strategy?: PruneStrategy): PruneResult<ToolNameOf<R> | D> {
    return this.#pruner.pruneByTaskAndAllowlist(task, names, strategy) as PruneResult<ToolNameOf<R> | D>;
  }

  /** All flat tools, as the reference library's `getAllTools`. @example router.getAllTools().map((t) => t.name); */
  getAllTools(): ToolDefinition[] { return this.#pruner.getAllTools(); }

  // ---- Blocklist gate ------------------------------------------------------
  /**
   * Replace the blocklist (`[]` clears). A tool name blocks the tool however it is called; a namespace or toolkit name
   * blocks the group and all of its tools. Never changes `compile()` output. An unknown name throws a `TypeError`
   * naming the closest names, changing nothing; `{ allowUnknown: true }` blocks names not registered yet (the reference library's
   * "any listed name").
   * @example
   * router.setBlockedTools(['delete_file', 'tail_logs']);
   * router.setBlockedTools(['git_psh']); // TypeError: … unknown name "git_psh" (did you mean "git_push"?) …
   */
  setBlockedTools(names: readonly BlockableName<R, D | L>[], options?: BlocklistOptions): this;
  setBlockedTools(names: readonly string[], options: BlocklistOptions & { readonly allowUnknown: true }): this;
  setBlockedTools(names: readonly string[], options?: BlocklistOptions): this { this.#gate.setBlocklist(names, options); return this; }

  /** Replace the blocklist with a named policy from the spec. @example router.applyPolicy('prod'); */
  applyPolicy(policy: R['policies']): this { this.#gate.applyPolicy(policy); return this; }

  /** The blocklist as set, as a fresh array. @example router.getBlockedTools(); // → ['delete_file'] */
  getBlockedTools(): BlockableName<R, D | L>[] { return [...this.#session.blocked] as BlockableName<R, D | L>[]; }

  // ---- Checking and dispatching ----------------------------------------------

  /**
   * The dispatch-time gate. With only a name (the reference library's `checkToolCall({ name })`) it checks the name; with arguments
   * it runs `dispatch`'s whole check and returns the resolved call with typed arguments. Never throws.
   * @example
   * const check = router.checkToolCall({ name: 'delete_file' });
   * if (!check.allowed) history.push({ role: 'tool', tool_call_id: id, content: check.reason });
   * const full = router.checkToolCall({ name: 'read_file', arguments: '{"path":"a.ts"}' });
   * if (full.allowed && full.call.tool === 'read_file') full.call.args.path; // string
   */
  checkToolCall(call: NameOnlyCall): NameCheckResult<R, D | L>;
  checkToolCall(call: CallWithArguments): CheckResult<R, D> | LibraryCheckResult<L>;
  checkToolCall(call: unknown): CheckResult<R, D> | LibraryCheckResult<L> | NameCheckResult<R, D | L>;
  checkToolCall(call: unknown): CheckResult<R, D> | LibraryCheckResult<L> | NameCheckResult<R, D | L> {
    const r = this.#resolver.resolve(call, false);
    if (!r.ok) return { allowed: false, code: r.code, reason: r.reason };
    if (r.kind === 'name') return { allowed: true, name: r.name, kind: r.callable } as NameCheckResult<R, D | L>;
    return { allowed: true, call: this.#resolver.publicCall(r) } as CheckResult<R, D>;
  }

  /**
   * Gate → parse → validate → route → handler, for any provider's call shape (`{ name, arguments }`, Chat's `function`,
   * Anthropic's `input`, Gemini's `args`). Never rejects for model input; a throwing handler becomes `handler_error`
   * unless `propagateHandlerErrors` is set.
   * @example
   * const r = await router.dispatch(call, { context: { user } });
   * history.push(toolMessage(call, r)); // the result as text (Maps, Sets and BigInts kept), or the reason
   */
  dispatch(call: unknown, ...options: undefined extends C ? [options?: DispatchOptions<C>] : [options: DispatchOptions<C> & { readonly context: C }]): Promise<DispatchResult<R, D | L>>;
  dispatch(call: unknown, options?: DispatchOptions<C>): Promise<DispatchResult<R, D | L>> {
    return this.#invoker.dispatch(this.#resolver, call, options) as Promise<DispatchResult<R, D | L>>;
  }

  /**
   * One step of the agent loop for `target`: the provider's response as history, each tool call in it dispatched in
   * order (load_toolkit included) and answered with a tool message. Append `messages`; stop when `done`.
   * @example
   * const payload = router.compile({ target: 'anthropic', system, messages: history });
   * const step = await router.handleResponse('anthropic', await anthropic.messages.create({ model, max_tokens: 1024, ...payload }));
   * history.push(...step.messages);
   * if (step.done) break; // the model answered
   */
  async handleResponse<T extends Target>(
    target: T,
    response: ProviderResponseMap[T],
    ...options: undefined extends C ? [options?: DispatchOptions<C>] : [options: DispatchOptions<C> & { readonly context: C }]
  ): Promise<ResponseStep> {
    const messages = fromProvider(target, response);
    const calls = messages.flatMap((m) => m.tool_calls ?? []);
    const stop = adapterFor(target).stop(response as unknown as ProviderItem);
    // One after the other: a handler may depend on an earlier one's effect. A call in a turn cut off at the output token
    // limit may hold half its arguments (Anthropic's are parsed even so), and one in a refused or filtered turn may be
    // partial and is what the provider stopped, and so may one in a turn the provider failed or has not finished: answered,
    // never run. Such a turn ends the loop (Anthropic: a refused conversation must be reset, not sent back; a failed one is
    // the application's to retry, an unfinished one to wait for); a cut-off one goes on, for the model to make the call again.
    const stopped = stop === 'refused' || stop === 'blocked' || stop === 'failed' || stop === 'unfinished' ? stop : undefined;
    const held = (name: string) => (stop === 'cut-off' ? cutOffReason(name) : stopped !== undefined ? stoppedTurnReason(name, stopped) : undefined);
    for (const call of calls) {
      const reason = held(call.function.name);
      messages.push(toolMessage(call, reason !== undefined ? { ok: false, reason } : await this.dispatch(call, ...options)));
    }
    return { messages, done: (calls.length === 0 || stopped !== undefined) && stop !== 'paused', ...(stop !== undefined ? { stop } : {}) };
  }

  // ---- Namespaces and toolkits (the reference library's two layers) ----------------------

  /** Whether a call targets a namespace tool (any call shape). Never throws. @example if (router.isNamespaceCall(call)) { … } */
  isNamespaceCall(call: unknown): boolean { return this.#resolver.isNamespaceCall(call); }

  /**
   * The reference library's `resolveNamespace`: the concrete tool and its checked args; throws a `ToolCallRejectedError` where the
   * reference library throws (`tryResolveNamespace` never throws).
   * @example const { toolName, args } = router.resolveNamespace({ name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a"}}' });
   */
  resolveNamespace(call: unknown): NamespaceResolution {
    const r = this.tryResolveNamespace(call);
    if (!r.ok) throw new ToolCallRejectedError(r.code, r.reason);
    return { group: r.group, toolName: r.toolName, args: r.args };
  }

  /**
   * `resolveNamespace` without exceptions: `{ ok: true, group, toolName, args }` or `{ ok: false, code, reason }`.
   * @example const r = router.tryResolveNamespace(call); if (!r.ok) return r.reason;
   */
  tryResolveNamespace(call: unknown): TryNamespaceResolution { return this.#resolver.tryResolveNamespace(call); }

  /** Whether a call is the library's `load_toolkit` (any call shape). @example if (router.isToolkitLoader(call)) { … } */
  isToolkitLoader(call: unknown): boolean { return readCall(call).name === LOAD_TOOLKIT_NAME; }

  /**
   * The reference library's `extractToolkit`: a toolkit's tool definitions (name matched ignoring case), marking it loaded; throws on
   * an unknown toolkit.
   * @example const newTools = router.extractToolkit('weather'); // Weather's tools
   */
  extractToolkit(toolkitName: R['toolkits'] | D | (string & {})): ToolDefinition[] { return this.#gate.extractToolkit(toolkitName); }

  /** Loaded toolkits, canonical names, load order. @example router.getLoadedToolkits(); // → ['Weather'] */
  getLoadedToolkits(): (R['toolkits'] | D)[] { return this.#session.loadedNames(this.#catalog) as (R['toolkits'] | D)[]; }

  // ---- Library-owned tools ----------------------------------------------------

  /**
   * Whether the library dispatches this tool itself: `load_toolkit` and the `libraryTools` given to `createRouter`.
   * @example if (router.ownsTool(call.function.name)) content = await router.handleTool({ name, arguments });
   */
  ownsTool(name: unknown): boolean { return name === LOAD_TOOLKIT_NAME || this.#catalog.isLibraryTool(name); }

  /**
   * Run a library-owned call and return the text for its tool result: `load_toolkit`'s text itself, a `libraryTools`
   * tool's as a promise (so `await` it). A mistake comes back as `Error: …` text.
   * @example const content = await router.handleTool({ name: call.function.name, arguments: call.function.arguments });
   */
  handleTool(call: LoaderCall): string;
  handleTool(call: unknown, options?: DispatchOptions<C>): [L] extends [never] ? string : string | Promise<string>;
  handleTool(call: unknown, options?: DispatchOptions<C>): string | Promise<string> {
    checkOptions('handleTool', options, DISPATCH_OPTIONS);
    const shape = readCall(call);
    if (this.#catalog.isLibraryTool(shape.name)) return this.dispatch(call, options as DispatchOptions<C> & { context: C }).then(libraryResultText);
    if (shape.name !== LOAD_TOOLKIT_NAME) return notLibraryText(shape.name, this.#catalog.library.map((t) => this.#catalog.toolName(t)));
    const r = this.#resolver.resolve(call, true);
    if (!r.ok) return `Error: ${r.reason}`;
    return r.kind === 'load' ? this.#invoker.loadToolkit(r.toolkit) : notLibraryText(shape.name, []);
  }

  // ---- Compile ----------------------------------------------------------------

  /**
   * Without a target: the reference library's `{ tools, directoryXml }`. With `{ target, system?, messages, tools? }`: that
   * provider's request fragment. The blocklist never changes the output. Arrays are shared and frozen: copy before
   * adding tools (`[...payload.tools, extra]`).
   * @example
   * const { tools, directoryXml } = router.compile();
   * const payload = router.compile({ target: 'anthropic', system, messages });
   * await client.messages.create({ model, max_tokens: 1024, ...payload });
   */
  compile(): NeutralCompileResult;
  compile<T extends Target>(request: TargetCompileRequest<R, D> & { readonly target: T }): TargetPayload<T>;
  compile(request?: TargetCompileRequest<R, D>): NeutralCompileResult | TargetPayload<Target> {
    if (request !== undefined) checkCompileRequest(request);
    const neutral = request === undefined || request.target === undefined;
    const result = neutral ? this.#compiler.neutral() : this.#compiler.target(request as unknown as AnyTargetCompileRequest);
    const callable = (name: string) => { const ref = this.#catalog.byName.get(name); return ref?.kind !== 'tool' || this.#gate.direct[ref.index] === true; };
    if (this.#events.hasCompileDone) this.#events.compileDone(neutral ? 'neutral' : request.target, result, callable);
    return result;
  }

  /**
   * Subscribe to `compile:done` (the reference library's hook for delta detection; what it announces lands in the next compile).
   * Returns the unsubscribe function.
   * @example router.on('compile:done', ({ toolNames }) => router.syncToolAnnouncements(toolNames));
   */
  on<E extends keyof RouterEvents>(event: E, listener: RouterEvents[E]): () => void { return this.#events.on(event, listener); }

  /**
   * sha256 of what the provider caches before the conversation (tools as sent, `tool_choice`, system), changing exactly
   * when it does; `undefined` for a non-compile object.
   * @example router.cacheKey(router.compile({ target: 'anthropic', system, messages })); // same string while the prefix is stable
   */
  cacheKey(payload: object): string | undefined { return payloadCacheKey(payload); }

  /** Names of a compile's tools the gate lets through now (`options.allowedTools`; Gemini's `allowedFunctionNames`). @example router.allowedToolNames({ target: 'gemini' }); // → ['file_ops', 'load_toolkit', 'call_toolkit_tool'] */
  allowedToolNames(request: Pick<TargetCompileRequest<R, D>, 'target' | 'tools' | 'options'>): string[] { return this.#compiler.allowedToolNames(request as unknown as AnyTargetCompileRequest); }
  /** The `<available_toolkits>` directory ('' without toolkits): a target compile appends it to the system text itself; for your own prompts (the neutral compile). @example const system = `${prompt}\n${router.getDirectoryXml()}`; // then router.compile() */
  getDirectoryXml(): string { return this.#compiler.neutral().directoryXml; }

  // ---- Announcements -------------------------------------------------------------
  /**
   * Upsert a standing announcement (rendered on every target compile until retracted). Same id keeps its position.
   * @example router.announce('tools:blocked', 'delete_file is disabled in this environment');
   */
  announce(id: string, content: string, options?: AnnounceOptions): this { this.#session.announcements.announce(id, content, options); return this; }

  /** Remove an announcement; true when one was removed. @example router.retractAnnouncement('tools:blocked'); */
  retractAnnouncement(id: string): boolean { return this.#session.announcements.retract(id); }

  /** Current announcements, in insertion order (copies). @example router.getAnnouncements().map((a) => a.id); */
  getAnnouncements(): Announcement[] { return this.#session.announcements.list(); }

  /**
   * The reference library's delta detection, the previous set kept in the router: announces `tools:added` / `tools:removed` for what
   * changed since the last call, retracting them when nothing did.
   * @example router.syncToolAnnouncements(names, { channel: 'user_tail' });
   */
  syncToolAnnouncements(next: readonly string[], options?: AnnounceOptions): { added: string[]; removed: string[] } {
    return this.#session.syncToolAnnouncements(next, options);
  }

  // ---- Snapshot --------------------------------------------------------------------
  /**
   * All state as plain JSON: blocklist, loaded toolkits, announcements, the delta-detection set. Run-time registrations
   * are code and not included.
   * @example const saved = JSON.stringify(router.snapshot());
   */
  snapshot(): RouterSnapshot { return this.#session.snapshot(this.#catalog); }

  /**
   * Rebuild state from a snapshot, all or nothing and strictly (it decides what is blocked): anything but what
   * `snapshot()` returned throws a `TypeError` listing every problem and changes nothing.
   * @example
   * router.restore(JSON.parse(saved)); // router.restore({}) throws: not a toolroute router snapshot
   */
  restore(snapshot: unknown): this {
    const fields = readSnapshot(snapshot);
    this.#gate.assertBlockable(fields.blocked, fields.blockedAllowUnknown, 'restore');
    this.#session.restore(fields, this.#catalog);
    this.#gate.recompute();
    return this;
  }

  // ---- Run-time registration ----------------------------------------------------------

  /**
   * Add flat tools known only at run time (additive; the reference library's `registerTools` replaces), validated only by their own
   * `validate`. A name that already exists throws.
   * @example
   * const r2 = router.registerTools([{ name: 'ping', description: 'Ping', handler: () => 'pong' }]);
   */
  registerTools<const T extends readonly DynamicToolDefinition<C>[]>(tools: T): ToolRouter<R, C, D | T[number]['name'], L> {
    this.#catalog.registerTools(tools as unknown as readonly AnyDynamicTool[]);
    this.#gate.recompute();
    return this as never;
  }

  /**
   * Add namespaces known only at run time. A member may be a new tool definition or the name of an existing tool.
   * @example router.registerNamespaces([{ name: 'git', description: 'Git', tools: [{ name: 'git_status', description: 'Status' }] }]);
   */
  registerNamespaces<const T extends readonly DynamicGroupDefinition<C>[]>(groups: T): ToolRouter<R, C, D | GroupNames<T>, L> {
    return this.#registerGroups(groups, 'namespace');
  }

  /**
   * Add toolkits known only at run time (listed in the directory, loaded via `load_toolkit`). A member may be a new
   * tool definition or an existing tool's name.
   * @example router.registerToolkits([{ name: 'Jira', description: 'Issues', tools: [{ name: 'jira_get', description: 'Get an issue' }] }]);
   */
  registerToolkits<const T extends readonly DynamicGroupDefinition<C>[]>(groups: T): ToolRouter<R, C, D | GroupNames<T>, L> {
    return this.#registerGroups(groups, 'toolkit');
  }

  #registerGroups(groups: readonly DynamicGroupDefinition<C>[], kind: 'namespace' | 'toolkit'): never {
    this.#catalog.registerGroups(groups as unknown as readonly AnyDynamicGroup[], kind);
    this.#gate.recompute();
    return this as never;
  }

  /** The reference library's `chef.getPruner()`: the router itself, so its samples run unchanged apart from setup. @example router.getPruner().pruneByTask(task); */
  getPruner(): this { return this; }
}

/**
 * Build the router for a generated folder. The context type is inferred from the handlers (`satisfies
 * Handlers<AgentCtx>`, or one annotated `ctx`); then `dispatch` requires `{ context }`. A handler under a name that is
 * no tool throws. `options.libraryTools` (each built with `libraryTool`) adds the router's own tools; a mistake in one
 * throws a `TypeError` here.
 * @example
 * import * as generated from './generated/index.js';
 * const typed = createRouter(generated, handlers satisfies Handlers<AgentCtx>); // ToolRouter<Registry, AgentCtx>
 * const router = createRouter(generated, {
 *   read_file: async ({ path }) => fs.readFile(path, 'utf8'),
 *   // … one handler per tool
 * });
 * const result = await router.dispatch(toolCall);
 */
export function createRouter<R extends RegistryShape, C = unknown, const L extends readonly LibraryToolDefinition<never, NoInfer<C>>[] = readonly []>(
  generated: GeneratedModule<R>,
  // Each handler is typed by its tool; the index signature is where TypeScript infers `C` from the handlers' `ctx`
  // annotations (it cannot infer through the mapped type).
  handlers: HandlersOf<NoInfer<R>, NoInfer<C>> & { readonly [tool: string]: ContextProbe<C> },
  // `libraryTools` (the router's own tools, each built with `libraryTool`; fixed for the router's life) is typed here,
  // not in RouterOptions: its names become the router's `L`.
  options?: RouterOptions & { readonly libraryTools?: L },
): ToolRouter<R, C, never, L[number]['name']> { return new ToolRouter<R, C, never, L[number]['name']>(generated, handlers, options); }
