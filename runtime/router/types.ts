/**
 * The router's public types: what `createRouter` takes and what every `ToolRouter` method returns, re-exported
 * unchanged by runtime/router.ts (the façade). Nothing here has behaviour except `ToolCallRejectedError`, the one
 * exception class the reference-library-compatible helpers throw.
 */
import type {
  AbortSignalOf, CallVia, HandlerContext, LOAD_TOOLKIT_NAME, LoaderCallOf, TOOLKIT_DISPATCHER_NAME, RegistryShape, Rejection, RejectionCode, ResolvedCallOf, Target, ToolCallCheckResultOf,
  ToolDefinition, ToolNameOf, ValidateFn,
} from '../contract.js';
import type { Announcement } from '../announcements.js';
import type { CallLimits } from '../call-shape.js';
import type { NamespaceEncoding } from '../neutral.js';
import type { TurnStop } from '../targets/adapter.js';
import type { TargetCompileInput } from '../targets/compile.js';
import type { NeutralMessage } from '../targets/history.js';
import type { ToolkitLoadingOption } from '../toolkit-loading.js';

/** How `pruneByTaskAndAllowlist` combines the task match and the allowlist. */
export type PruneStrategy = 'union' | 'intersection';

/** A kept tool of a prune result: a neutral definition whose `name` is typed by the generated names. */
export interface PrunedTool<N extends string = string> extends ToolDefinition {
  readonly name: N;
}

/**
 * The reference library's prune result: kept tools (neutral definitions, flat order), removed names, counts, typed by the router's
 * tool names so they combine with namespace names without casts.
 * @example
 * const { tools, removed } = router.pruneByTask('read the file');
 * router.compile({ target: 'anthropic', messages, tools: [...tools.map((t) => t.name), 'file_ops'] });
 * router.setBlockedTools(removed);
 */
export interface PruneResult<N extends string = string> {
  readonly tools: PrunedTool<N>[];
  readonly removed: N[];
  readonly kept: number;
  readonly total: number;
}

/** Options of `createRouter`. */
export interface RouterOptions extends Partial<CallLimits> {
  /** Default strategy of `pruneByTaskAndAllowlist` (the reference library's `PrunerConfig.strategy`). Default `union`. */
  readonly strategy?: PruneStrategy;
  /** Rethrow a handler's exception from `dispatch` instead of returning `handler_error`. Default false. */
  readonly propagateHandlerErrors?: boolean;
  /**
   * The text the model sees when a handler fails (default `Tool "x" failed: <message>`): a raw message can carry paths,
   * hosts or secrets, so production agents redact here. The error stays on the result's `error`; a hook that throws
   * falls back to `Tool "x" failed.`
   * @example
   * createRouter(generated, handlers, { handlerErrorReason: (_error, { tool }) => `${tool} failed; try again later.` });
   */
  readonly handlerErrorReason?: (error: unknown, info: { readonly tool: string; readonly callId: string | undefined }) => string;
  /** Default time limit of every handler call, in milliseconds (`dispatch`'s `timeoutMs` overrides it). None by default. */
  readonly timeoutMs?: number;
  /**
   * How a loaded toolkit reaches the model (runtime/toolkit-loading.ts): `native` (default), `dispatcher` or `append`
   * (each load costs the cache of everything after the tools); one strategy, or one per target. Default: the spec's
   * `options.toolkitLoading`, which this option replaces whole.
   */
  readonly toolkitLoading?: ToolkitLoadingOption;
  /**
   * The model this router's requests go to, where it decides a strategy: on Anthropic, `native` means `tool-changes`
   * for a model that accepts mid-conversation tool changes (docs/providers.md lists them) and `deferred` otherwise, and
   * `tool-changes` fails at creation for a model that refuses them. Unset: `native` is `deferred`.
   * @example createRouter(generated, handlers, { model: 'claude-opus-4-8' });
   */
  readonly model?: string;
  /** Offer `search_tools` (up to `k`, default 5, toolkit tools found by the model's query; their toolkits count as loaded). */
  readonly searchTools?: true | { readonly k?: number };
}

/** A tool known only at run time. Untyped; validated only by its own `validate`, if given. */
export interface DynamicToolDefinition<C = unknown> extends ToolDefinition {
  /** A `type: "object"` JSON Schema, or the reference library's shorthand properties map. Shown to the model; not compiled. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** Runs on `dispatch`; without one, a dispatched call comes back as `handler_error`. */
  readonly handler?: (args: Record<string, unknown>, ctx: HandlerContext<C>) => unknown;
  /**
   * Argument check, ajv-compatible: returns true when valid, else false with `validate.errors` set (an
   * `ajv.compile(schema)` result fits). Without one, any JSON object is accepted: no schema is compiled at run time.
   */
  readonly validate?: ValidateFn;
}

/**
 * The argument check of a library tool (`validate`): ajv's contract, returns true when valid, else false with `errors`
 * set. A type guard (`ajv.compile<Args>(schema)` is one) types the handler's arguments.
 */
export type LibraryToolValidate<A> = ((data: unknown) => data is A) | ValidateFn;

/**
 * A library-owned tool (`createRouter`'s `libraryTools`; build one with `libraryTool`): offered after the application's
 * tools on every compile, never pruned, in a fixed position; dispatched by `ownsTool` / `handleTool` and by `dispatch`
 * / `checkToolCall`, through the same gate and limits. Every key is required and no other key is accepted.
 */
export interface LibraryToolDefinition<A = Record<string, unknown>, C = unknown, N extends string = string> {
  /** A name every target accepts (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), taken by nothing else in the router. */
  readonly name: N;
  readonly description: string;
  /** A `type: "object"` JSON Schema, sent as is; copied and frozen at registration (a static schema keeps the cache). */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Checks the arguments before the handler runs (the runtime compiles no schema): an `ajv.compile(parameters)` result fits. */
  readonly validate: LibraryToolValidate<A>;
  readonly handler: (args: A, ctx: HandlerContext<C>) => unknown;
}

/** A resolved call to a library tool (`checkToolCall`'s `call`). */
export interface LibraryResolvedCall<L extends string> {
  readonly tool: L;
  readonly args: Readonly<Record<string, unknown>>;
  readonly via: 'library';
  readonly group: null;
}

/** `checkToolCall`'s success for a library tool; `never` without library tools. */
export type LibraryCheckResult<L extends string> = [L] extends [never] ? never : { readonly allowed: true; readonly call: LibraryResolvedCall<L> };

/** A call that names `load_toolkit` literally (`handleTool` then returns the text itself, not a promise). */
export type LoaderCall =
  | { readonly name: typeof LOAD_TOOLKIT_NAME; readonly arguments?: unknown; readonly input?: unknown; readonly args?: unknown; readonly id?: unknown; readonly call_id?: unknown; readonly type?: unknown }
  | { readonly function: { readonly name: typeof LOAD_TOOLKIT_NAME; readonly arguments?: unknown }; readonly id?: unknown; readonly type?: unknown };

/** A namespace or toolkit known only at run time; a string member refers to an existing tool by name. */
export interface DynamicGroupDefinition<C = unknown> {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly (DynamicToolDefinition<C> | string)[];
  /** Namespaces only. Default `compact`. */
  readonly encoding?: NamespaceEncoding;
}

/** Names `setBlockedTools` accepts: tools, namespaces and toolkits of the spec, run-time ones, `load_toolkit` and `call_toolkit_tool`. */
export type BlockableName<R extends RegistryShape, D extends string = never> = ToolNameOf<R> | R['namespaces'] | R['toolkits'] | D | typeof LOAD_TOOLKIT_NAME | typeof TOOLKIT_DISPATCHER_NAME;

/** A resolved call to a run-time tool: arguments are only known to be a JSON object. */
export interface DynamicResolvedCall<D extends string> {
  readonly tool: D;
  readonly args: Readonly<Record<string, unknown>>;
  readonly via: CallVia;
  readonly group: string | null;
}

/** A resolved `load_toolkit` call of a router with run-time toolkits (`toolkit_name`: any registered toolkit, canonically spelt). */
export type LoaderResolvedCall = LoaderCallOf<RegistryShape>;

/**
 * Every call `checkToolCall` can resolve. Narrow on `tool` for typed arguments. Without run-time registrations it is
 * exactly the generated `ResolvedToolCall` (`ResolvedCallOf<R>`, with `load_toolkit` when the spec has toolkits);
 * registrations add their tools and, for run-time toolkits, a `load_toolkit` whose `toolkit_name` is any string.
 */
export type ResolvedCall<R extends RegistryShape, D extends string = never> =
  | ResolvedCallOf<R>
  | ([D] extends [never] ? never : DynamicResolvedCall<D> | LoaderResolvedCall);

/** A rejection, as `checkToolCall` reports it (the contract's `Rejection`). */
export type CheckRejection = Rejection;

/** Full check (the call carries arguments): the resolved call with typed arguments, or a rejection. */
export type CheckResult<R extends RegistryShape, D extends string = never> =
  | ToolCallCheckResultOf<R>
  | ([D] extends [never] ? never : { readonly allowed: true; readonly call: DynamicResolvedCall<D> | LoaderResolvedCall });

/** What a name alone resolves to. */
export type CallableKind = 'tool' | 'namespace' | 'library';

/** Name-level check (the call carries only a name, as in the reference library's `checkToolCall({ name })`). */
export type NameCheckResult<R extends RegistryShape, D extends string = never> =
  | { readonly allowed: true; readonly name: ToolNameOf<R> | R['namespaces'] | D | typeof LOAD_TOOLKIT_NAME; readonly kind: CallableKind }
  | CheckRejection;

/** A call with only a name: the reference library's `checkToolCall({ name: call.function.name })`. */
export interface NameOnlyCall {
  readonly name: unknown;
  /** A Responses native namespace (a spec namespace or a toolkit): `name` is its member. */
  readonly namespace?: unknown;
  readonly id?: unknown;
  readonly arguments?: undefined;
  readonly input?: undefined;
  readonly args?: undefined;
  readonly function?: undefined;
}

/**
 * Call shapes that carry arguments (for typing; the runtime accepts anything). The record member is what lets an object
 * literal pick this overload: tsc's first (subtype) pass does not take a fresh literal as a subtype of `object` alone.
 */
export type CallWithArguments =
  | { readonly name: string; readonly arguments: ArgumentsValue; readonly id?: string; readonly call_id?: string }
  | { readonly function: { readonly name: string; readonly arguments: ArgumentsValue }; readonly id?: string }
  | { readonly name: string; readonly input: unknown; readonly id?: string }
  | { readonly name: string; readonly args: unknown; readonly id?: string };
type ArgumentsValue = string | object | Readonly<Record<string, unknown>>;

/** What `dispatch` resolves to. Never a rejected promise for model input. */
export type DispatchResult<R extends RegistryShape, D extends string = never> =
  | { readonly ok: true; readonly tool: ToolNameOf<R> | D | typeof LOAD_TOOLKIT_NAME; readonly result: unknown; readonly callId: string | undefined }
  | {
      readonly ok: false;
      readonly code: RejectionCode;
      /** For the model. */
      readonly reason: string;
      readonly callId: string | undefined;
      /** The tool whose handler failed (`handler_error`, `timeout`, `aborted`). */
      readonly tool?: ToolNameOf<R> | D;
      /** What the handler threw or rejected with (`handler_error`), or the abort reason: for logs, never sent to the model. */
      readonly error?: unknown;
    };

/** Per-call options of `dispatch`. */
export interface DispatchOptions<C> {
  /** Handed to the handler as `ctx.context`. */
  readonly context?: C;
  /** Time limit of this call in milliseconds (overrides the router's `timeoutMs`); `0` or absent: the router's. */
  readonly timeoutMs?: number;
  /** Aborting it aborts the handler's `ctx.signal` and settles the call as `aborted`. */
  readonly signal?: AbortSignalOf;
}

/** The reference library's `resolveNamespace` result. */
export interface NamespaceResolution {
  readonly group: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
}

/** `tryResolveNamespace`: the same, or a rejection instead of an exception. */
export type TryNamespaceResolution =
  | ({ readonly ok: true } & NamespaceResolution)
  | { readonly ok: false; readonly code: RejectionCode; readonly reason: string };

/** Thrown by the reference-library-compatible helpers (`resolveNamespace`, `extractToolkit`) where the reference library throws. */
export class ToolCallRejectedError extends Error {
  override readonly name = 'ToolCallRejectedError';
  readonly code: RejectionCode;
  readonly reason: string;
  constructor(code: RejectionCode, reason: string) { super(reason); this.code = code; this.reason = reason; }
}

/**
 * `compile()` without a target: the reference library's provider-neutral result. The object and its `tools` array are frozen and
 * shared by every call until the router's structure changes (a registration): a turn's compile is a lookup, not a copy.
 * Copy `tools` (`[...tools]`) to add to it.
 */
export interface NeutralCompileResult {
  readonly tools: readonly ToolDefinition[];
  readonly directoryXml: string;
}

/** `compile({ target, … })`: the request fragment for one provider. */
export interface TargetCompileRequest<R extends RegistryShape, D extends string = never> {
  readonly target: Target;
  readonly system?: string;
  readonly messages: TargetCompileInput['messages'];
  /**
   * Narrow the stable tools: a prune result, or names of flat tools and namespaces (a namespace action or a toolkit
   * tool throws: the model could not call it by that name). Default: the namespaces, then the flat tools in no
   * namespace (none when the spec sets `offerUngroupedTools: false` and has namespaces or toolkits), in that order.
   * `load_toolkit` is always added when there are toolkits (library tools are never pruned).
   */
  readonly tools?: { readonly tools: readonly ToolDefinition[] } | readonly (ToolNameOf<R> | R['namespaces'] | D)[];
  readonly options?: TargetCompileInput['options'];
}

/** What `router.handleResponse` resolves to. */
export interface ResponseStep {
  /** The assistant turn, then one tool message per call in call order: append them all to the history. */
  readonly messages: NeutralMessage[];
  /** Nothing to send back: the turn called no tool and was not paused (a paused one is sent back to go on), so the loop ends. */
  readonly done: boolean;
  /** Why the turn ended, when it was not a plain answer or plain tool calls: read it when `done` to tell an answer from a refusal, a block, an answer cut off at the token limit or a call the provider could not read. */
  readonly stop?: TurnStop;
}

/** Plain-JSON router state. */
export interface RouterSnapshot {
  readonly format: 'toolroute-router/1';
  /** The spec hash the snapshot was taken with (informative; restore matches by name). */
  readonly spec: string;
  readonly blocked: string[];
  /** Present (true) when the blocklist was set with `{ allowUnknown: true }`: restore keeps its unknown names. */
  readonly blockedAllowUnknown?: true;
  /** Loaded toolkits, canonical names, load order. */
  readonly loaded: string[];
  readonly announcements: Announcement[];
  /** `syncToolAnnouncements`' previous tool set. */
  readonly announcedTools: string[];
  /**
   * Per target compiled so far: the run-time tools it had at its first compile. A tool registered later reaches the
   * model without changing `tools` (where the strategy has a way); restoring this keeps that so in a new router.
   */
  readonly firstTurn?: { readonly [T in Target]?: readonly string[] };
}

export type { BlocklistOptions } from './gate.js';

/** The names a group registration adds: the groups' and their inline tools'. Internal to the façade. */
export type GroupNames<T extends readonly DynamicGroupDefinition<never>[]> = T[number]['name'] | Extract<T[number]['tools'][number], { name: string }>['name'];

/** What `createRouter` reads the context type from: any handler's `ctx` parameter. Internal to the façade. */
export type ContextProbe<C> = (args: never, ctx: HandlerContext<C>) => unknown;
