/**
 * The router's façade: `ToolRouter` holds one object per concern from runtime/router/ (catalog, session, gate,
 * resolve, invoke, prune, compile, library; public types in types.ts), and each public method delegates to one. Model
 * input never throws: a bad call becomes a rejection the model can act on. Programmer errors throw early.
 */
import { LOAD_TOOLKIT_NAME } from './contract.js';
import { readCall } from './call-shape.js';
import { fromProvider, toolMessage } from './conversation.js';
import { adapterFor } from './targets/index.js';
import { cacheKey as payloadCacheKey } from './cache-key.js';
import { Catalog } from './router/catalog.js';
import { Compiler } from './router/compile.js';
import { Events } from './router/events.js';
import { Gate } from './router/gate.js';
import { Invoker } from './router/invoke.js';
import { Pruner, searchToolsDefinition } from './router/prune.js';
import { Resolver } from './router/resolve.js';
import { Session, readSnapshot } from './router/session.js';
import { libraryResultText, notLibraryText } from './router/library.js';
import { ToolCallRejectedError, } from './router/types.js';
export { ToolCallRejectedError } from './router/types.js';
export { libraryTool } from './router/library.js';
/**
 * The router over one generated folder. Create it with {@link createRouter}.
 *
 * `R` is the generated registry (names and argument types), `C` the per-dispatch context type, `D` the names registered
 * at run time (grows with the `register*` calls' return type), `L` the library tools' names (`libraryTools`).
 */
export class ToolRouter {
    #catalog;
    #session;
    #gate;
    #resolver;
    #invoker;
    #pruner;
    #compiler;
    #events = new Events();
    /** @internal Use {@link createRouter}. */
    constructor(generated, handlers, options = {}) {
        const own = options.searchTools ? [searchToolsDefinition(options.searchTools, (query, k) => this.#pruner.searchTools(query, k, this.#gate))] : [];
        if (own.length > 0 && typeof generated.loadSearch !== 'function')
            throw new TypeError('createRouter: searchTools needs a generated folder with its search index (search.gen.ts); regenerate it.');
        const library = own.length > 0 && (options.libraryTools ?? []) instanceof Array ? [...(options.libraryTools ?? []), ...own] : options.libraryTools;
        const catalog = new Catalog(generated, handlers, library);
        this.#catalog = catalog;
        this.#session = new Session();
        this.#gate = new Gate(catalog, this.#session);
        this.#resolver = new Resolver(catalog, this.#gate, options);
        this.#invoker = new Invoker(catalog, this.#gate, options);
        this.#pruner = new Pruner(catalog, options.strategy ?? 'union', generated.loadSearch);
        this.#compiler = new Compiler(catalog, this.#gate, this.#session, options.toolkitLoading ?? catalog.spec.toolkitLoading, options.model);
    }
    // ---- Pruning (the seed's flat mode) -------------------------------------
    /**
     * The seed's `pruneByTask`: keep flat tools whose name or any tag occurs in the task (case-insensitive), and untagged
     * ones.
     * @example router.pruneByTask('Read the auth.ts file'); // → { tools: [read_file, get_time], removed: ['run_bash'], kept: 2, total: 3 }
     */
    pruneByTask(task) { return this.#pruner.pruneByTask(task); }
    /**
     * The `k` flat tools the ranked search (built at codegen; loaded by the first call, hence async) puts first, best first.
     * @example (await router.rankByTask('weather in Lisbon?', { k: 5 })).tools; // combine with compile({ tools }) as pruneByTask's
     */
    rankByTask(task, options) { return this.#pruner.rankByTask(task, options?.k); }
    /** The seed's `allowOnly`: keep exactly the named flat tools (case-insensitive), e.g. `router.allowOnly(['read_file'])`. */
    allowOnly(names) {
        return this.#pruner.allowOnly(names);
    }
    /**
     * The seed's `pruneByTaskAndAllowlist`: task match and allowlist combined by `union` (default) or `intersection`.
     * @example router.pruneByTaskAndAllowlist('check the logs', ['get_time'], 'intersection');
     */
    pruneByTaskAndAllowlist(task, names, strategy) {
        return this.#pruner.pruneByTaskAndAllowlist(task, names, strategy);
    }
    /** All flat tools, as the seed's `getAllTools`. */
    getAllTools() { return this.#pruner.getAllTools(); }
    setBlockedTools(names, options) {
        this.#gate.setBlocklist(names, options);
        return this;
    }
    /** Replace the blocklist with a named policy from the spec, e.g. `router.applyPolicy('prod')`. */
    applyPolicy(policy) {
        this.#gate.applyPolicy(policy);
        return this;
    }
    /** The blocklist as set, as a fresh array. */
    getBlockedTools() { return [...this.#session.blocked]; }
    checkToolCall(call) {
        const r = this.#resolver.resolve(call, false);
        if (!r.ok)
            return { allowed: false, code: r.code, reason: r.reason };
        if (r.kind === 'name')
            return { allowed: true, name: r.name, kind: r.callable };
        return { allowed: true, call: this.#resolver.publicCall(r) };
    }
    dispatch(call, options) {
        return this.#invoker.dispatch(this.#resolver, call, options);
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
    async handleResponse(target, response, ...options) {
        const messages = fromProvider(target, response);
        const calls = messages.flatMap((m) => m.tool_calls ?? []);
        // One after the other: a handler may depend on an earlier one's effect.
        for (const call of calls)
            messages.push(toolMessage(call, await this.dispatch(call, ...options)));
        return { messages, done: calls.length === 0 && adapterFor(target).paused?.(response) !== true };
    }
    // ---- Namespaces and toolkits (the seed's two layers) ----------------------
    /** Whether a call targets a namespace tool (any call shape), e.g. `if (router.isNamespaceCall(call)) { … }`. Never throws. */
    isNamespaceCall(call) { return this.#resolver.isNamespaceCall(call); }
    /**
     * The seed's `resolveNamespace`: the concrete tool and its checked args; throws a `ToolCallRejectedError` as the seed
     * does (`tryResolveNamespace` never throws).
     * @example const { toolName, args } = router.resolveNamespace({ name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a"}}' });
     */
    resolveNamespace(call) {
        const r = this.tryResolveNamespace(call);
        if (!r.ok)
            throw new ToolCallRejectedError(r.code, r.reason);
        return { group: r.group, toolName: r.toolName, args: r.args };
    }
    /**
     * `resolveNamespace` without exceptions: `{ ok: true, group, toolName, args }` or `{ ok: false, code, reason }`.
     * @example const r = router.tryResolveNamespace(call); if (!r.ok) return r.reason;
     */
    tryResolveNamespace(call) { return this.#resolver.tryResolveNamespace(call); }
    /** Whether a call is the library's `load_toolkit` (any call shape), e.g. `if (router.isToolkitLoader(call)) { … }`. */
    isToolkitLoader(call) { return readCall(call).name === LOAD_TOOLKIT_NAME; }
    /**
     * The seed's `extractToolkit`: a toolkit's tool definitions (name matched ignoring case), marking it loaded; throws on
     * an unknown toolkit.
     * @example const newTools = router.extractToolkit('weather'); // Weather's tools
     */
    extractToolkit(toolkitName) { return this.#gate.extractToolkit(toolkitName); }
    /** Loaded toolkits, canonical names, load order. */
    getLoadedToolkits() { return this.#session.loadedNames(this.#catalog); }
    // ---- Library-owned tools ----------------------------------------------------
    /**
     * Whether the library dispatches this tool itself: `load_toolkit` and the `libraryTools` given to `createRouter`.
     * @example if (router.ownsTool(call.function.name)) content = await router.handleTool({ name, arguments });
     */
    ownsTool(name) { return name === LOAD_TOOLKIT_NAME || this.#catalog.isLibraryTool(name); }
    handleTool(call, options) {
        const shape = readCall(call);
        if (this.#catalog.isLibraryTool(shape.name))
            return this.dispatch(call, options).then(libraryResultText);
        if (shape.name !== LOAD_TOOLKIT_NAME)
            return notLibraryText(shape.name, this.#catalog.library.map((t) => this.#catalog.toolName(t)));
        const r = this.#resolver.resolve(call, true);
        if (!r.ok)
            return `Error: ${r.reason}`;
        return r.kind === 'load' ? this.#invoker.loadToolkit(r.toolkit) : notLibraryText(shape.name, []);
    }
    compile(request) {
        const neutral = request === undefined || request.target === undefined;
        const result = neutral ? this.#compiler.neutral() : this.#compiler.target(request);
        if (this.#events.hasCompileDone)
            this.#events.compileDone(neutral ? 'neutral' : request.target, result);
        return result;
    }
    /**
     * Subscribe to `compile:done` (the seed's hook for delta detection; what it announces lands in the next compile).
     * Returns the unsubscribe function.
     * @example router.on('compile:done', ({ toolNames }) => router.syncToolAnnouncements(toolNames));
     */
    on(event, listener) { return this.#events.on(event, listener); }
    /**
     * sha256 of what the provider caches before the conversation (tools as sent, `tool_choice`, system), changing exactly
     * when it does; `undefined` for a non-compile object.
     * @example router.cacheKey(router.compile({ target: 'anthropic', system, messages })); // same string while the prefix is stable
     */
    cacheKey(payload) { return payloadCacheKey(payload); }
    /** Names of a compile's tools the gate lets through now (`options.allowedTools`; Gemini's `allowedFunctionNames`), e.g. `router.allowedToolNames({ target: 'gemini' })` → `['file_ops', 'load_toolkit', 'call_toolkit_tool']`. */
    allowedToolNames(request) { return this.#compiler.allowedToolNames(request); }
    /** The `<available_toolkits>` directory for the system prompt ('' without toolkits). */
    getDirectoryXml() { return this.#compiler.neutral().directoryXml; }
    // ---- Announcements -------------------------------------------------------------
    /**
     * Upsert a standing announcement (rendered on every target compile until retracted). Same id keeps its position.
     * @example router.announce('tools:blocked', 'delete_file is disabled in this environment');
     */
    announce(id, content, options) {
        this.#session.announcements.announce(id, content, options);
        return this;
    }
    /** Remove an announcement; true when one was removed. */
    retractAnnouncement(id) { return this.#session.announcements.retract(id); }
    /** Current announcements, in insertion order (copies). */
    getAnnouncements() { return this.#session.announcements.list(); }
    /**
     * The seed's delta detection, the previous set kept in the router: announces `tools:added` / `tools:removed` for what
     * changed since the last call, retracting them when nothing did.
     * @example router.syncToolAnnouncements(names, { channel: 'user_tail' });
     */
    syncToolAnnouncements(next, options) {
        return this.#session.syncToolAnnouncements(next, options);
    }
    // ---- Snapshot --------------------------------------------------------------------
    /**
     * All state as plain JSON: blocklist, loaded toolkits, announcements, the delta-detection set. Run-time registrations
     * are code and not included.
     * @example const saved = JSON.stringify(router.snapshot());
     */
    snapshot() { return this.#session.snapshot(this.#catalog); }
    /**
     * Rebuild state from a snapshot, all or nothing and strictly (it decides what is blocked): anything but what
     * `snapshot()` returned throws a `TypeError` listing every problem and changes nothing.
     * @example
     * router.restore(JSON.parse(saved)); // router.restore({}) throws: not a toolroute router snapshot
     */
    restore(snapshot) {
        const fields = readSnapshot(snapshot);
        this.#gate.assertBlockable(fields.blocked, fields.blockedAllowUnknown, 'restore');
        this.#session.restore(fields, this.#catalog);
        this.#gate.recompute();
        return this;
    }
    // ---- Run-time registration ----------------------------------------------------------
    /**
     * Add flat tools known only at run time (additive; the seed's `registerTools` replaces), validated only by their own
     * `validate`. A name that already exists throws.
     * @example
     * const r2 = router.registerTools([{ name: 'ping', description: 'Ping', handler: () => 'pong' }]);
     */
    registerTools(tools) {
        this.#catalog.registerTools(tools);
        this.#gate.recompute();
        return this;
    }
    /**
     * Add namespaces known only at run time. A member may be a new tool definition or the name of an existing tool.
     * @example router.registerNamespaces([{ name: 'git', description: 'Git', tools: [{ name: 'git_status', description: 'Status' }] }]);
     */
    registerNamespaces(groups) {
        return this.#registerGroups(groups, 'namespace');
    }
    /**
     * Add toolkits known only at run time (listed in the directory, loaded via `load_toolkit`). A member may be a new
     * tool definition or an existing tool's name.
     * @example router.registerToolkits([{ name: 'Jira', description: 'Issues', tools: [{ name: 'jira_get', description: 'Get an issue' }] }]);
     */
    registerToolkits(groups) {
        return this.#registerGroups(groups, 'toolkit');
    }
    #registerGroups(groups, kind) {
        this.#catalog.registerGroups(groups, kind);
        this.#gate.recompute();
        return this;
    }
    /** The seed's `chef.getPruner()`: the router itself, so the seed's samples run unchanged apart from setup. */
    getPruner() { return this; }
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
export function createRouter(generated, 
// Each handler is typed by its tool; the index signature is where TypeScript infers `C` from the handlers' `ctx`
// annotations (it cannot infer through the mapped type).
handlers, 
// `libraryTools` (the router's own tools, each built with `libraryTool`; fixed for the router's life) is typed here,
// not in RouterOptions: its names become the router's `L`.
options) {
    return new ToolRouter(generated, handlers, options);
}
