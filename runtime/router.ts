/**
 * The router: the seed's whole tool-management API over a generated folder,
 * typed by the generated names, with validated dispatch.
 *
 * Everything that does not depend on the call is built once in `createRouter`
 * (name tables, action maps, the prune matcher, rendered arrays) and rebuilt
 * only when the state it depends on changes (blocklist, loaded toolkits,
 * run-time registrations). A call costs a few map lookups, one parse and one
 * validation, whatever the number of tools.
 *
 * Model input never throws: every problem in a call becomes a rejection with a
 * code from `REJECTION_CODES` and a reason the model can act on. Programmer
 * errors (a bad generated folder, a missing handler, a registration that
 * collides) do throw, early, with what to fix.
 */
import {
  LOAD_TOOLKIT_NAME,
  type CallVia,
  type GeneratedModule,
  type GeneratedSpec,
  type HandlerContext,
  type HandlersOf,
  type NullDecodePlan,
  type RegistryShape,
  type Rejection,
  type RejectionCode,
  type ResolvedCallOf,
  type Target,
  type ToolCallCheckResultOf,
  type ToolDefinition,
  type ToolNameOf,
  type ValidateFn,
} from './contract.js';
import { AnnouncementStore, type AnnounceOptions, type Announcement } from './announcements.js';
import {
  ArgumentsFailure,
  DEFAULT_LIMITS,
  isPlainObject,
  jsonKind,
  parseArguments,
  readArguments,
  readCall,
  readCallInto,
  type CallLimits,
  type MutableCallShape,
} from './call-shape.js';
import { buildPruneMatcher, markTask, reviveMatcher } from './matcher.js';
import {
  compactActionDoc,
  directoryXml as renderDirectoryXml,
  neutralLoaderTool,
  neutralNamespaceTool,
  neutralTool,
  type NamespaceEncoding,
  type NeutralToolInput,
} from './neutral.js';
import {
  actionHint,
  blockedReason,
  emptyNameReason,
  handlerErrorReason,
  invalidReason,
  malformedReason,
  namespaceArgsReason,
  notLoadedReason,
  quote,
  unknownActionReason,
  unknownToolkitReason,
  unknownToolReason,
} from './reasons.js';
import { renderTool, type JsonSchema, type NeutralTool } from './render.js';
import { Suggester } from './suggest.js';
import { compileForTarget, warnOnce, type TargetCompileInput, type TargetCompileOptions, type TargetPayload } from './compile-target.js';
import { cacheKey as payloadCacheKey } from './cache-key.js';

// ---------------------------------------------------------------------------
// Public types

/** How `pruneByTaskAndAllowlist` combines the task match and the allowlist. */
export type PruneStrategy = 'union' | 'intersection';

/** The seed's prune result: kept tools (neutral definitions, flat order), removed names, counts. */
export interface PruneResult {
  readonly tools: ToolDefinition[];
  readonly removed: string[];
  readonly kept: number;
  readonly total: number;
}

/** Options of `createRouter`. */
export interface RouterOptions extends Partial<CallLimits> {
  /** Default strategy of `pruneByTaskAndAllowlist` (the seed's `PrunerConfig.strategy`). Default `union`. */
  readonly strategy?: PruneStrategy;
  /** Rethrow a handler's exception from `dispatch` instead of returning `handler_error`. Default false. */
  readonly propagateHandlerErrors?: boolean;
}

/** A tool known only at run time. Untyped; validated only by its own `validate`, if given. */
export interface DynamicToolDefinition<C = unknown> {
  readonly name: string;
  readonly description: string;
  /** A `type: "object"` JSON Schema, or the seed's shorthand properties map. Shown to the model; not compiled. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly tags?: readonly string[];
  readonly deferLoading?: boolean;
  /** Runs on `dispatch`; without one, a dispatched call comes back as `handler_error`. */
  readonly handler?: (args: Record<string, unknown>, ctx: HandlerContext<C>) => unknown;
  /**
   * Argument check, ajv-compatible: returns true when valid, else false with
   * `validate.errors` set (an `ajv.compile(schema)` result fits). Without one,
   * any JSON object is accepted: no schema is compiled at run time.
   */
  readonly validate?: ValidateFn;
}

/** A namespace or toolkit known only at run time; a string member refers to an existing tool by name. */
export interface DynamicGroupDefinition<C = unknown> {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly (DynamicToolDefinition<C> | string)[];
  /** Namespaces only. Default `compact`. */
  readonly encoding?: NamespaceEncoding;
}

/** Names `setBlockedTools` accepts: tools, namespaces and toolkits of the spec, run-time ones, and `load_toolkit`. */
export type BlockableName<R extends RegistryShape, D extends string = never> =
  | ToolNameOf<R>
  | R['namespaces']
  | R['toolkits']
  | D
  | typeof LOAD_TOOLKIT_NAME;

/** A resolved call to a run-time tool: arguments are only known to be a JSON object. */
export interface DynamicResolvedCall<D extends string> {
  readonly tool: D;
  readonly args: Readonly<Record<string, unknown>>;
  readonly via: CallVia;
  readonly group: string | null;
}

/** A resolved `load_toolkit` call (library-owned). */
export interface LoaderResolvedCall {
  readonly tool: typeof LOAD_TOOLKIT_NAME;
  /** `toolkit_name` is the toolkit's canonical spelling. */
  readonly args: { readonly toolkit_name: string };
  readonly via: 'library';
  readonly group: null;
}

/** Every call `checkToolCall` can resolve. Narrow on `tool` for typed arguments. */
export type ResolvedCall<R extends RegistryShape, D extends string = never> =
  | ResolvedCallOf<R>
  | ([D] extends [never] ? never : DynamicResolvedCall<D>)
  | LoaderResolvedCall;

/** A rejection, as `checkToolCall` reports it (the contract's `Rejection`). */
export type CheckRejection = Rejection;

/** Full check (the call carries arguments): the resolved call with typed arguments, or a rejection. */
export type CheckResult<R extends RegistryShape, D extends string = never> =
  | ToolCallCheckResultOf<R>
  | { readonly allowed: true; readonly call: Exclude<ResolvedCall<R, D>, ResolvedCallOf<R>> };

/** What a name alone resolves to. */
export type CallableKind = 'tool' | 'namespace' | 'library';

/** Name-level check (the call carries only a name, as in the seed's `checkToolCall({ name })`). */
export type NameCheckResult<R extends RegistryShape, D extends string = never> =
  | {
      readonly allowed: true;
      readonly name: ToolNameOf<R> | R['namespaces'] | D | typeof LOAD_TOOLKIT_NAME;
      readonly kind: CallableKind;
    }
  | CheckRejection;

/** A call with only a name: the seed's `checkToolCall({ name: call.function.name })`. */
export interface NameOnlyCall {
  readonly name: unknown;
  readonly id?: unknown;
  readonly arguments?: undefined;
  readonly input?: undefined;
  readonly args?: undefined;
  readonly function?: undefined;
}

/** Call shapes that carry arguments (for typing; the runtime accepts anything). */
export type CallWithArguments =
  | { readonly name: string; readonly arguments: string | object; readonly id?: string; readonly call_id?: string }
  | { readonly function: { readonly name: string; readonly arguments: string | object }; readonly id?: string }
  | { readonly name: string; readonly input: unknown; readonly id?: string }
  | { readonly name: string; readonly args: unknown; readonly id?: string };

/** What `dispatch` resolves to. Never a rejected promise for model input. */
export type DispatchResult<R extends RegistryShape, D extends string = never> =
  | {
      readonly ok: true;
      readonly tool: ToolNameOf<R> | D | typeof LOAD_TOOLKIT_NAME;
      readonly result: unknown;
      readonly callId: string | undefined;
    }
  | { readonly ok: false; readonly code: RejectionCode; readonly reason: string; readonly callId: string | undefined };

export interface DispatchOptions<C> {
  /** Handed to the handler as `ctx.context`. */
  readonly context?: C;
}

/** The seed's `resolveNamespace` result. */
export interface NamespaceResolution {
  readonly group: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
}

/** `tryResolveNamespace`: the same, or a rejection instead of an exception. */
export type TryNamespaceResolution =
  | ({ readonly ok: true } & NamespaceResolution)
  | { readonly ok: false; readonly code: RejectionCode; readonly reason: string };

/** Thrown by the seed-compatible helpers (`resolveNamespace`, `extractToolkit`) where the seed throws. */
export class ToolCallRejectedError extends Error {
  override readonly name = 'ToolCallRejectedError';
  readonly code: RejectionCode;
  readonly reason: string;
  constructor(code: RejectionCode, reason: string) {
    super(reason);
    this.code = code;
    this.reason = reason;
  }
}

/**
 * `compile()` without a target: the seed's provider-neutral result. The object
 * and its `tools` array are frozen and shared by every call until the router's
 * structure changes (a registration): a turn's compile is a lookup, not a copy.
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
   * Narrow the stable tools: a prune result, or names of flat tools and namespaces
   * (a namespace action or a toolkit tool throws: the model could not call it by
   * that name). Default: the namespaces (when there are namespaces or toolkits), else the flat tools.
   * `load_toolkit` is always added when there are toolkits (library tools are never pruned).
   */
  readonly tools?: { readonly tools: readonly ToolDefinition[] } | readonly (ToolNameOf<R> | R['namespaces'] | D)[];
  readonly options?: TargetCompileInput['options'];
}

/** Plain-JSON router state. */
export interface RouterSnapshot {
  readonly format: 'toolroute-router/1';
  /** The spec hash the snapshot was taken with (informative; restore matches by name). */
  readonly spec: string;
  readonly blocked: string[];
  /** Loaded toolkits, canonical names, load order. */
  readonly loaded: string[];
  readonly announcements: Announcement[];
  /** `syncToolAnnouncements`' previous tool set. */
  readonly announcedTools: string[];
}

// ---------------------------------------------------------------------------
// Internal tables

type AnyHandler = (args: never, ctx: HandlerContext<never>) => unknown;

interface ToolEntry {
  readonly name: string;
  readonly flat: boolean;
  /** Namespace / toolkit indices containing it (grow with run-time registrations). */
  readonly namespaces: number[];
  readonly toolkits: number[];
  readonly validate: ValidateFn | undefined;
  readonly nullDecode: NullDecodePlan | undefined;
  readonly handler: AnyHandler | undefined;
  /** Parameters schema for reasons and signatures. */
  readonly schema: JsonSchema;
  readonly description: string;
  readonly tags: readonly string[];
  readonly deferLoading: boolean;
  /** The seed's neutral definition (prune results, extractToolkit). */
  readonly definition: ToolDefinition;
  /** Rendered forms: spec tools point into `spec.rendered`; run-time tools render lazily. */
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
}

interface GroupEntry {
  readonly name: string;
  readonly description: string;
  readonly tools: number[];
  readonly actions: Map<string, number>;
  /** `actions`' keys, listed in rejection reasons (built once, not per rejected call). */
  readonly actionList: readonly string[];
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
  suggester?: Suggester;
}

type Ref = { readonly kind: 'tool' | 'namespace'; readonly index: number } | { readonly kind: 'loader' };

/** Rendered arrays for one target, valid for one callable-set version. */
interface TargetArrays {
  readonly version: number;
  /** The selection's content key ('' for the default choice). */
  readonly key: string;
  readonly stable: readonly unknown[];
  readonly deferred: readonly unknown[];
  readonly loaded: readonly unknown[];
}

/** Internal outcome of resolving a call, before the public shape is built. */
type Resolved = Accepted | { readonly ok: false; readonly code: RejectionCode; readonly reason: string; readonly callId: string | undefined };

/** A call that passed every check (see `ToolRouter.#accepted` for the one reused on the hot path). */
type Accepted = {
  readonly ok: true;
  /** Tool index, or -1 for load_toolkit (then `toolkit` is set). */
  readonly tool: number;
  readonly toolkit: number;
  readonly args: Record<string, unknown>;
  readonly via: CallVia | 'library';
  readonly group: string | null;
  readonly kind: CallableKind;
  readonly callId: string | undefined;
};

/** A thenable's `then`, as `await` calls it. */
type ThenMethod = (this: unknown, onFulfilled: (value: unknown) => void, onRejected: (reason: unknown) => void) => unknown;

/** `Promise.prototype.then` as this module found it: tells a native promise's `then` from a custom thenable's. */
const NATIVE_THEN: unknown = Promise.prototype.then;

/** Names owned by the library (reserved in specs, refused in registrations). */
const RESERVED_NAMES = new Set(['load_toolkit', 'context', 'new_context', 'create_memory', 'modify_memory', 'recall_context']);
const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });
const RENDER_OPTIONS = Object.freeze({ openaiStrict: false });

function reject(code: RejectionCode, reason: string, callId: string | undefined): Resolved {
  return { ok: false, code, reason, callId };
}

/**
 * Turn OpenAI strict-mode nulls of optional properties back into absent ones.
 * Copies only what changes; never assigns a model-supplied key through `=`.
 */
function decodeNulls(value: unknown, plan: NullDecodePlan): unknown {
  if (Array.isArray(value)) {
    if (!plan.items) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const d = decodeNulls(value[i], plan.items);
      if (d !== value[i]) (out ??= [...value])[i] = d;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const key of plan.optional) {
    if (Object.hasOwn(value, key) && value[key] === null) {
      out ??= { ...value };
      delete out[key];
    }
  }
  if (plan.nested) {
    for (const key of Object.keys(plan.nested)) {
      const source = out ?? value;
      if (!Object.hasOwn(source, key)) continue;
      const d = decodeNulls(source[key], plan.nested[key]!);
      if (d !== source[key]) {
        out ??= { ...value };
        Object.defineProperty(out, key, { value: d, writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return out ?? value;
}

/** The seed's shorthand (a properties map) or a full schema → a full `type: "object"` schema. */
function expandParameters(parameters: Readonly<Record<string, unknown>> | undefined): JsonSchema {
  if (parameters === undefined) return EMPTY_OBJECT_SCHEMA;
  if (parameters['type'] === 'object') return parameters;
  return { type: 'object', properties: parameters };
}

// ---------------------------------------------------------------------------
// The router

/**
 * The router over one generated folder. Create it with {@link createRouter}.
 *
 * `R` is the generated registry (names and argument types), `C` the per-dispatch
 * context type, `D` the names registered at run time (grows with the
 * `register*` calls' return type).
 */
export class ToolRouter<R extends RegistryShape, C = unknown, D extends string = never> {
  readonly #spec: GeneratedSpec<R>;
  readonly #limits: CallLimits;
  readonly #strategy: PruneStrategy;
  readonly #propagate: boolean;

  readonly #tools: ToolEntry[] = [];
  readonly #namespaces: GroupEntry[] = [];
  readonly #toolkits: GroupEntry[] = [];
  /** Every tool, namespace and the loader by exact name. A Map: `__proto__` finds nothing. */
  readonly #byName = new Map<string, Ref>();
  /** Toolkits by lowercased name (the seed's case-insensitive lookup). */
  readonly #kitByLower = new Map<string, number>();
  /** Flat tool indices, flat order: the spec's, then run-time ones. */
  readonly #flat: number[] = [];
  /** Lowercased flat names, for allowOnly. */
  readonly #flatLower: string[] = [];
  /**
   * Per flat position: the neutral definition and the name, so a prune result
   * is filled straight from these (no per-entry lookups). Grown by `#addFlat`,
   * the only place flat positions are created, so they never go stale.
   */
  readonly #flatDefinitions: ToolDefinition[] = [];
  readonly #flatNames: string[] = [];
  readonly #flatPosByName = new Map<string, number>();
  /** Matcher for run-time flat tools (positions after the spec's). */
  #dynamicMatcher: ReturnType<typeof buildPruneMatcher> | undefined;

  // State.
  #blocked: string[] = [];
  #blockedSet = new Set<string>();
  #toolBlocked: boolean[] = [];
  #nsBlocked: boolean[] = [];
  #kitBlocked: boolean[] = [];
  #loaded: number[] = [];
  #kitLoaded: boolean[] = [];
  /** Tool is callable by its own name: flat, or in a loaded toolkit. */
  #direct: boolean[] = [];
  /** For a tool callable through a loaded toolkit (not flat): that toolkit's name, the resolved call's `group`. */
  #directGroup: (string | null)[] = [];
  readonly #announcements = new AnnouncementStore();
  #announcedTools = new Set<string>();
  /**
   * Where `#resolve` reads a call (readCallInto): one object per router, so a
   * dispatch allocates no call shape. Copied into locals right after reading;
   * nothing between the read and the copy can re-enter the router.
   */
  readonly #shape: MutableCallShape = { name: undefined, callId: undefined, namespace: undefined, hasArguments: false, rawArguments: undefined };
  /**
   * What `#validate` returns for a valid tool call: one object per router,
   * refilled per call, so a valid dispatch allocates no internal result.
   * Filled after the validator (the last code that is not the router's) has
   * run, and every caller reads it before running any other code (a handler
   * may re-enter the router and refill it): `dispatch` reads it before
   * calling the handler, `checkToolCall` copies it into the public result.
   */
  readonly #accepted: { -readonly [K in keyof Accepted]: Accepted[K] } = {
    ok: true,
    tool: 0,
    toolkit: -1,
    args: {},
    via: 'flat',
    group: null,
    kind: 'tool',
    callId: undefined,
  };

  // Caches, invalidated by version bumps.
  #structureVersion = 0;
  /** Bumped whenever the callable set changes: a toolkit loads, a restore, any registration (see #recomputeDirect). */
  #loadVersion = 0;
  #suggester: { version: number; value: Suggester } | undefined;
  #kitSuggester: { version: number; value: Suggester } | undefined;
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

  /** @internal Use {@link createRouter}. */
  constructor(generated: GeneratedModule<R>, handlers: HandlersOf<R, C>, options: RouterOptions = {}) {
    const spec = generated?.spec;
    if (!spec || spec.formatVersion !== 1) {
      throw new TypeError(
        'createRouter: expected the namespace import of a generated index.ts (`import * as generated from "./generated/index.js"`) ' +
          `with spec.formatVersion 1; got ${spec ? `formatVersion ${String((spec as { formatVersion?: unknown }).formatVersion)}` : 'no spec'}. ` +
          'Regenerate the folder with the toolroute version of this runtime.',
      );
    }
    this.#spec = spec;
    this.#limits = {
      maxArgumentsLength: options.maxArgumentsLength ?? DEFAULT_LIMITS.maxArgumentsLength,
      maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth,
      maxNodes: options.maxNodes ?? DEFAULT_LIMITS.maxNodes,
    };
    this.#strategy = options.strategy ?? 'union';
    this.#propagate = options.propagateHandlerErrors === true;

    const handlerTable = (handlers ?? {}) as Readonly<Record<string, unknown>>;
    const missing: string[] = [];
    spec.tools.forEach((tool, i) => {
      const handler = Object.hasOwn(handlerTable, tool.name) ? handlerTable[tool.name] : undefined;
      if (typeof handler !== 'function') missing.push(tool.name);
      const definition = spec.rendered.neutral.tools[i] as ToolDefinition;
      this.#tools.push({
        name: tool.name,
        flat: tool.flat,
        namespaces: [...tool.namespaces],
        toolkits: [...tool.toolkits],
        validate: spec.validators[tool.validator],
        nullDecode: tool.nullDecode,
        handler: handler as AnyHandler | undefined,
        schema: (definition?.parameters as JsonSchema | undefined) ?? EMPTY_OBJECT_SCHEMA,
        description: tool.description,
        tags: tool.tags,
        deferLoading: tool.deferLoading,
        definition,
        specIndex: i,
        neutral: undefined,
      });
      this.#byName.set(tool.name, { kind: 'tool', index: i });
    });
    if (missing.length > 0) {
      throw new TypeError(`createRouter: no handler for ${missing.map((n) => JSON.stringify(n)).join(', ')}. Pass one function per tool name.`);
    }
    spec.namespaces.forEach((ns, k) => {
      this.#namespaces.push({
        name: ns.name,
        description: ns.description,
        tools: [...ns.tools],
        actions: new Map(ns.tools.map((t) => [spec.tools[t]!.name, t])),
        actionList: ns.tools.map((t) => spec.tools[t]!.name),
        specIndex: k,
        neutral: undefined,
      });
      // A namespace shadows a same-named tool that is not flat (the model sees the namespace).
      this.#byName.set(ns.name, { kind: 'namespace', index: k });
    });
    spec.toolkits.forEach((kit, k) => {
      this.#toolkits.push({
        name: kit.name,
        description: kit.description,
        tools: [...kit.tools],
        actions: new Map(kit.tools.map((t) => [spec.tools[t]!.name, t])),
        actionList: kit.tools.map((t) => spec.tools[t]!.name),
        specIndex: k,
        neutral: undefined,
      });
      this.#kitByLower.set(kit.name.toLowerCase(), k);
    });
    this.#byName.set(LOAD_TOOLKIT_NAME, { kind: 'loader' });
    for (const t of spec.flat) this.#addFlat(t);
    reviveMatcher(spec.matcher);
    this.#recomputeBlocked();
    this.#recomputeDirect();
  }

  #addFlat(index: number): void {
    const name = this.#tools[index]!.name;
    this.#flatPosByName.set(name, this.#flat.length);
    this.#flat.push(index);
    this.#flatLower.push(name.toLowerCase());
    this.#flatDefinitions.push(this.#tools[index]!.definition);
    this.#flatNames.push(name);
  }

  // ---- Pruning (the seed's flat mode) -------------------------------------

  /**
   * The seed's `pruneByTask`: keep flat tools whose name or any tag occurs in
   * the task (case-insensitive); untagged tools are always kept.
   *
   * @example
   * router.pruneByTask('Read the auth.ts file'); // → { tools: [read_file, get_time], removed: ['run_bash'], kept: 2, total: 3 }
   */
  pruneByTask(task: string): PruneResult {
    const selected = this.#markTask(task);
    return this.#result(selected, this.#marked);
  }

  /**
   * The seed's `allowOnly`: keep exactly the named flat tools (case-insensitive).
   *
   * @example
   * router.allowOnly(['read_file']);
   */
  allowOnly(names: readonly (ToolNameOf<R> | D)[]): PruneResult {
    const selected = this.#markAllow(names);
    return this.#result(selected, this.#marked);
  }

  /**
   * The seed's `pruneByTaskAndAllowlist`: task match combined with an
   * allowlist, `union` (default, or the router's `strategy`) or `intersection`.
   *
   * @example
   * router.pruneByTaskAndAllowlist('check the logs', ['get_time'], 'intersection');
   */
  pruneByTaskAndAllowlist(task: string, names: readonly (ToolNameOf<R> | D)[], strategy?: PruneStrategy): PruneResult {
    const byTask = this.#markTask(task);
    const byName = this.#markAllow(names);
    const both = (strategy ?? this.#strategy) === 'intersection';
    let kept = 0;
    for (let p = 0; p < byTask.length; p++) kept += byTask[p] = both ? byTask[p]! & byName[p]! : byTask[p]! | byName[p]!;
    return this.#result(byTask, kept);
  }

  /** All flat tools, as the seed's `getAllTools`. */
  getAllTools(): ToolDefinition[] {
    return this.#flat.map((t) => this.#tools[t]!.definition);
  }

  /** How many positions the last `#markTask` / `#markAllow` selected (read right after the call). */
  #marked = 0;

  #markTask(task: string): Uint8Array {
    const selected = new Uint8Array(this.#flat.length);
    const text = typeof task === 'string' ? task : String(task);
    const specCount = this.#spec.flat.length;
    let kept = markTask(this.#spec.matcher, text, selected);
    // Run-time flat tools mark their own positions through a view: no second buffer, no copy.
    if (this.#dynamicMatcher) kept += markTask(this.#dynamicMatcher, text, selected.subarray(specCount));
    this.#marked = kept;
    return selected;
  }

  #markAllow(names: readonly string[]): Uint8Array {
    const wanted = new Set<string>();
    for (const n of names) if (typeof n === 'string') wanted.add(n.toLowerCase());
    const selected = new Uint8Array(this.#flat.length);
    let kept = 0;
    for (let p = 0; p < this.#flatLower.length; p++) {
      if (wanted.has(this.#flatLower[p]!)) {
        selected[p] = 1;
        kept++;
      }
    }
    this.#marked = kept;
    return selected;
  }

  /**
   * The prune result for a selection of `kept` positions: both arrays are
   * allocated at their final size and filled from the per-position caches
   * (growing them with push and looking up each entry cost more than the
   * matching itself on large flat specs).
   */
  #result(selected: Uint8Array, kept: number): PruneResult {
    const total = this.#flatDefinitions.length;
    const definitions = this.#flatDefinitions;
    const names = this.#flatNames;
    const tools = new Array<ToolDefinition>(kept);
    const removed = new Array<string>(total - kept);
    let k = 0;
    let r = 0;
    for (let p = 0; p < total; p++) {
      if (selected[p] === 1) tools[k++] = definitions[p]!;
      else removed[r++] = names[p]!;
    }
    // Defensive: `kept` comes from the matcher; the arrays hold what was actually selected.
    if (k !== kept) {
      tools.length = k;
      removed.length = r;
    }
    return { tools, removed, kept: k, total };
  }

  // ---- Blocklist gate ------------------------------------------------------

  /**
   * Replace the blocklist (`[]` clears). A tool name blocks the tool however it
   * is called (flat, as a namespace action, as a loaded toolkit tool); a
   * namespace or toolkit name blocks the group and all of its tools. Never
   * changes `compile()` output.
   *
   * @example
   * router.setBlockedTools(['delete_file', 'tail_logs']);
   */
  setBlockedTools(names: readonly BlockableName<R, D>[]): this {
    this.#blocked = [...names].filter((n): n is BlockableName<R, D> => typeof n === 'string');
    this.#blockedSet = new Set(this.#blocked);
    this.#recomputeBlocked();
    return this;
  }

  /**
   * Replace the blocklist with a named policy from the spec.
   *
   * @example
   * router.applyPolicy('prod');
   */
  applyPolicy(policy: R['policies']): this {
    const names = Object.hasOwn(this.#spec.policies, policy) ? this.#spec.policies[policy] : undefined;
    if (!names) {
      throw new TypeError(`applyPolicy: unknown policy ${JSON.stringify(policy)}. Policies: ${Object.keys(this.#spec.policies).join(', ') || '(none)'}.`);
    }
    return this.setBlockedTools(names as readonly BlockableName<R, D>[]);
  }

  /** The blocklist as set, as a fresh array. */
  getBlockedTools(): BlockableName<R, D>[] {
    return [...this.#blocked] as BlockableName<R, D>[];
  }

  #recomputeBlocked(): void {
    const set = this.#blockedSet;
    this.#nsBlocked = this.#namespaces.map((ns) => set.has(ns.name));
    this.#kitBlocked = this.#toolkits.map((kit) => set.has(kit.name));
    this.#toolBlocked = this.#tools.map(
      (t) => set.has(t.name) || t.namespaces.some((k) => this.#nsBlocked[k]) || t.toolkits.some((k) => this.#kitBlocked[k]),
    );
  }

  #recomputeDirect(): void {
    this.#kitLoaded = this.#toolkits.map(() => false);
    for (const k of this.#loaded) this.#kitLoaded[k] = true;
    this.#direct = this.#tools.map((t) => t.flat || t.toolkits.some((k) => this.#kitLoaded[k]));
    this.#directGroup = this.#tools.map((_, t) => this.#loadedGroupOf(t));
    this.#loadVersion++;
  }

  /** The first loaded toolkit (in the tool's own toolkit order) a non-flat tool is reached through; null otherwise. */
  #loadedGroupOf(t: number): string | null {
    const entry = this.#tools[t]!;
    if (entry.flat) return null;
    for (const k of entry.toolkits) if (this.#kitLoaded[k]) return this.#toolkits[k]!.name;
    return null;
  }

  // ---- Checking and dispatching ----------------------------------------------

  /**
   * The dispatch-time gate. With only a name (`checkToolCall({ name })`, the
   * seed's form) it checks the name: empty, unknown, blocked, not loaded. With
   * arguments (any supported call shape) it runs the full check that `dispatch`
   * runs before the handler, and on success returns the resolved call with
   * typed arguments. Never throws.
   *
   * @example
   * const check = router.checkToolCall({ name: 'delete_file' });
   * if (!check.allowed) history.push({ role: 'tool', tool_call_id: id, content: check.reason });
   * const full = router.checkToolCall({ name: 'read_file', arguments: '{"path":"a.ts"}' });
   * if (full.allowed && full.call.tool === 'read_file') full.call.args.path; // string
   */
  checkToolCall(call: NameOnlyCall): NameCheckResult<R, D>;
  checkToolCall(call: CallWithArguments): CheckResult<R, D>;
  checkToolCall(call: unknown): CheckResult<R, D> | NameCheckResult<R, D>;
  checkToolCall(call: unknown): CheckResult<R, D> | NameCheckResult<R, D> {
    const r = this.#resolve(call, false);
    if (!r.ok) return { allowed: false, code: r.code, reason: r.reason };
    if (r.args === NAME_ONLY) return { allowed: true, name: r.group, kind: r.kind } as NameCheckResult<R, D>;
    return { allowed: true, call: this.#publicCall(r) } as CheckResult<R, D>;
  }

  /**
   * Gate → parse → validate → route → handler. Accepts `{ name, arguments }`
   * (a JSON string or an object; absent means `{}`), OpenAI Chat
   * `{ id, function: { name, arguments } }`, OpenAI Responses
   * `{ call_id, name, arguments, namespace? }`, Anthropic `{ id, name, input }`
   * and Gemini `{ id?, name, args }`. `load_toolkit` is handled by the router
   * (result: the text for the model). Never rejects for model input; a throwing
   * handler becomes `handler_error` unless `propagateHandlerErrors` is set.
   *
   * @example
   * const r = await router.dispatch(call, { context: { user } });
   * history.push({ role: 'tool', tool_call_id: r.callId, content: r.ok ? JSON.stringify(r.result) : r.reason });
   */
  dispatch(
    call: unknown,
    ...options: undefined extends C ? [options?: DispatchOptions<C>] : [options: DispatchOptions<C> & { readonly context: C }]
  ): Promise<DispatchResult<R, D>>;
  // One plain optional parameter in the implementation: a rest parameter would allocate an array per call.
  // Not `async`: a handler that returns a plain value (no thenable) resolves the
  // result at once, without the microtask hop an `await` of a non-promise costs.
  // Every throw still becomes a rejected promise, never a synchronous exception.
  dispatch(call: unknown, options?: DispatchOptions<C>): Promise<DispatchResult<R, D>> {
    try {
      const r = this.#resolve(call, true);
      if (!r.ok) return Promise.resolve<DispatchResult<R, D>>({ ok: false, code: r.code, reason: r.reason, callId: r.callId });
      const callId = r.callId;
      if (r.tool < 0) {
        return Promise.resolve<DispatchResult<R, D>>({ ok: true, tool: LOAD_TOOLKIT_NAME, result: this.#load(r.toolkit), callId });
      }
      const entry = this.#tools[r.tool]!;
      const handler = entry.handler as ((args: unknown, ctx: HandlerContext<C>) => unknown) | undefined;
      if (!handler) {
        return Promise.resolve<DispatchResult<R, D>>({ ok: false, code: 'handler_error', reason: `Tool ${quote(entry.name)} has no handler in this application.`, callId });
      }
      const ctx: HandlerContext<C> = { callId, context: options?.context as C };
      let result: unknown;
      try {
        result = handler(r.args, ctx);
        // A thenable is awaited, as `await` would: `then` is read once, here,
        // and a throwing getter is a handler error like a throwing handler.
        if ((typeof result === 'object' && result !== null) || typeof result === 'function') {
          const then = (result as { readonly then?: unknown }).then;
          if (typeof then === 'function') return this.#settle(entry.name as ToolNameOf<R> | D, result, then as ThenMethod, callId);
        }
      } catch (error) {
        return this.#handlerFailed(entry.name, error, callId);
      }
      return Promise.resolve<DispatchResult<R, D>>({ ok: true, tool: entry.name as ToolNameOf<R> | D, result, callId });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The outcome of a handler that returned a thenable (`then` already read once, by `dispatch`). */
  async #settle(tool: ToolNameOf<R> | D, thenable: object, then: ThenMethod, callId: string | undefined): Promise<DispatchResult<R, D>> {
    try {
      // A native promise is awaited directly (the common async handler); any
      // other thenable gets its `then` called with resolving functions, as
      // `await` does, without reading `then` a second time.
      const result: unknown =
        then === NATIVE_THEN ? await thenable : await new Promise((resolve, reject) => then.call(thenable, resolve, reject));
      return { ok: true, tool, result, callId };
    } catch (error) {
      return this.#handlerFailed(tool, error, callId);
    }
  }

  /** A handler that threw or rejected: `handler_error`, or the error itself with `propagateHandlerErrors`. */
  #handlerFailed(tool: string, error: unknown, callId: string | undefined): Promise<DispatchResult<R, D>> {
    if (this.#propagate) return Promise.reject(error);
    return Promise.resolve<DispatchResult<R, D>>({ ok: false, code: 'handler_error', reason: handlerErrorReason(tool, error), callId });
  }

  #publicCall(r: Accepted): ResolvedCall<R, D> {
    if (r.tool < 0) {
      return { tool: LOAD_TOOLKIT_NAME, args: { toolkit_name: this.#toolkits[r.toolkit]!.name }, via: 'library', group: null };
    }
    return { tool: this.#tools[r.tool]!.name, args: r.args, via: r.via, group: r.group } as ResolvedCall<R, D>;
  }

  /**
   * Resolve a call. `fullCheck` forces the argument checks even when the call
   * carries no arguments (dispatch); otherwise a name-only call gets the
   * name-level gate and `args === NAME_ONLY`, `group` = the name.
   */
  #resolve(call: unknown, fullCheck: boolean): Resolved {
    const shape = this.#shape;
    readCallInto(call, shape);
    const { name, callId, namespace, hasArguments, rawArguments } = shape;
    if (namespace !== undefined) {
      // OpenAI Responses native namespace: `name` is the action, `arguments` its args.
      const ref = this.#byName.get(namespace);
      if (!ref || ref.kind !== 'namespace') return this.#unknownName(namespace, callId);
      if (this.#nsBlocked[ref.index]) return reject('blocked', blockedReason(namespace), callId);
      return this.#resolveAction(ref.index, name, rawArguments, '', callId);
    }
    if (name === undefined || name === '') {
      return reject('empty_name', emptyNameReason(this.#callableNames()), callId);
    }
    const ref = this.#byName.get(name);
    if (ref === undefined) return this.#unknownName(name, callId);
    const nameOnly = !fullCheck && !hasArguments;

    if (ref.kind === 'loader') {
      if (this.#blockedSet.has(LOAD_TOOLKIT_NAME)) return reject('blocked', blockedReason(name), callId);
      if (nameOnly) return nameOk(name, 'library', callId);
      return this.#resolveLoader(rawArguments, callId);
    }
    if (ref.kind === 'namespace') {
      if (this.#nsBlocked[ref.index]) return reject('blocked', blockedReason(name), callId);
      if (nameOnly) return nameOk(name, 'namespace', callId);
      const parsed = readArguments(rawArguments, this.#limits);
      if (parsed instanceof ArgumentsFailure) return reject(parsed.code, malformedReason(quote(name), parsed.problem), callId);
      const action = parsed['action'];
      const args = Object.hasOwn(parsed, 'args') ? parsed['args'] : undefined;
      return this.#resolveAction(ref.index, action, args, '/args', callId, true);
    }

    const t = ref.index;
    const entry = this.#tools[t]!;
    if (this.#toolBlocked[t]) return reject('blocked', blockedReason(name), callId);
    if (!this.#direct[t]) {
      if (entry.toolkits.length > 0) {
        const kit = entry.toolkits.find((k) => !this.#kitBlocked[k]) ?? entry.toolkits[0]!;
        return reject('not_loaded', notLoadedReason(name, this.#toolkits[kit]!.name), callId);
      }
      const ns = entry.namespaces[0];
      const hint = ns !== undefined ? actionHint(name, this.#namespaces[ns]!.name) : undefined;
      return reject('unknown_tool', unknownToolReason(name, [], [], hint), callId);
    }
    if (nameOnly) return nameOk(name, 'tool', callId);
    const parsed = readArguments(rawArguments, this.#limits);
    if (parsed instanceof ArgumentsFailure) return reject(parsed.code, malformedReason(quote(name), parsed.problem), callId);
    return this.#validate(t, parsed, '', entry.flat ? 'flat' : 'toolkit', this.#directGroup[t]!, callId);
  }

  /** A namespace action with its (unparsed or parsed) args. */
  #resolveAction(
    k: number,
    action: unknown,
    rawArgs: unknown,
    prefix: string,
    callId: string | undefined,
    argsAlreadyParsed = false,
  ): Resolved {
    const ns = this.#namespaces[k]!;
    const t = typeof action === 'string' ? ns.actions.get(action) : undefined;
    if (t === undefined) {
      ns.suggester ??= new Suggester(ns.actionList);
      const closest = typeof action === 'string' ? ns.suggester.closest(action) : [];
      return reject('unknown_action', unknownActionReason(ns.name, action, ns.actionList, closest), callId);
    }
    const toolName = action as string;
    if (this.#toolBlocked[t]) return reject('blocked', blockedReason(toolName), callId);
    let args: Record<string, unknown>;
    if (argsAlreadyParsed) {
      if (rawArgs === undefined || rawArgs === null) args = {};
      else if (isPlainObject(rawArgs)) args = rawArgs;
      else return reject('malformed_arguments', namespaceArgsReason(ns.name, toolName, jsonKind(rawArgs)), callId);
    } else {
      const parsed = readArguments(rawArgs, this.#limits);
      if (parsed instanceof ArgumentsFailure) {
        return reject(parsed.code, malformedReason(`${quote(ns.name)} action ${quote(toolName)}`, parsed.problem), callId);
      }
      args = parsed;
    }
    return this.#validate(t, args, prefix, 'namespace', ns.name, callId);
  }

  #resolveLoader(rawArgs: unknown, callId: string | undefined): Resolved {
    const parsed = parseArguments(rawArgs, this.#limits);
    if (!parsed.ok) return reject(parsed.code, malformedReason(quote(LOAD_TOOLKIT_NAME), parsed.problem), callId);
    const requested = parsed.value['toolkit_name'];
    const k = typeof requested === 'string' ? this.#kitByLower.get(requested.toLowerCase()) : undefined;
    if (k === undefined) {
      const suggester = this.#getKitSuggester();
      const closest = typeof requested === 'string' ? suggester.closest(requested) : [];
      return reject('invalid_arguments', unknownToolkitReason(requested, suggester.names, closest), callId);
    }
    const kit = this.#toolkits[k]!;
    if (this.#kitBlocked[k]) return reject('blocked', `Toolkit ${quote(kit.name)} is currently blocked.`, callId);
    return { ok: true, tool: -1, toolkit: k, args: { toolkit_name: kit.name }, via: 'library', group: null, kind: 'library', callId };
  }

  /**
   * Decode strict-mode nulls and validate. The reason's label and retry name are
   * built only on failure: a valid call pays for no string work.
   */
  #validate(
    t: number,
    input: Record<string, unknown>,
    prefix: string,
    via: CallVia,
    group: string | null,
    callId: string | undefined,
  ): Resolved {
    const entry = this.#tools[t]!;
    const args = entry.nullDecode ? (decodeNulls(input, entry.nullDecode) as Record<string, unknown>) : input;
    const validate = entry.validate;
    if (validate) {
      let valid: boolean;
      try {
        valid = validate(args) === true;
      } catch {
        valid = false;
      }
      if (!valid) {
        const namespace = via === 'namespace' ? group! : undefined;
        const label = namespace === undefined ? quote(entry.name) : `${quote(namespace)} action ${quote(entry.name)}`;
        return reject('invalid_arguments', invalidReason(label, validate.errors, entry.schema, args, prefix, namespace ?? entry.name), callId);
      }
    }
    const accepted = this.#accepted;
    accepted.tool = t;
    accepted.args = args;
    accepted.via = via;
    accepted.group = group;
    accepted.callId = callId;
    return accepted;
  }

  #unknownName(name: string, callId: string | undefined): Resolved {
    // The seed blocks any listed name, known or not.
    if (this.#blockedSet.has(name)) return reject('blocked', blockedReason(name), callId);
    // `file_ops.read_file`, `file_ops__read_file`, `file_ops/read_file`: a namespace action called by a joined name.
    const split = /^(.+?)(?:\.|__|\/|:)(.+)$/.exec(name);
    if (split) {
      const ref = this.#byName.get(split[1]!);
      if (ref && ref.kind === 'namespace' && this.#namespaces[ref.index]!.actions.has(split[2]!)) {
        return reject('unknown_tool', unknownToolReason(name, [], [], actionHint(split[2]!, split[1]!)), callId);
      }
    }
    const suggester = this.#getSuggester();
    return reject('unknown_tool', unknownToolReason(name, suggester.closest(name), suggester.names), callId);
  }

  /** Names the model can call right now (flat tools, namespaces, loader, loaded toolkit tools). */
  #callableNames(): readonly string[] {
    return this.#getSuggester().names;
  }

  #getSuggester(): Suggester {
    const version = this.#loadVersion;
    if (this.#suggester?.version === version) return this.#suggester.value;
    const names: string[] = [];
    for (const t of this.#flat) names.push(this.#tools[t]!.name);
    for (const ns of this.#namespaces) names.push(ns.name);
    if (this.#toolkits.length > 0) names.push(LOAD_TOOLKIT_NAME);
    const seen = new Set(names);
    for (const k of this.#loaded) {
      for (const t of this.#toolkits[k]!.tools) {
        const n = this.#tools[t]!.name;
        if (!seen.has(n)) {
          seen.add(n);
          names.push(n);
        }
      }
    }
    const value = new Suggester(names);
    this.#suggester = { version, value };
    return value;
  }

  /** Toolkit names for `load_toolkit` suggestions; rebuilt only when toolkits are registered. */
  #getKitSuggester(): Suggester {
    const version = this.#structureVersion;
    if (this.#kitSuggester?.version === version) return this.#kitSuggester.value;
    const value = new Suggester(this.#toolkits.map((kit) => kit.name));
    this.#kitSuggester = { version, value };
    return value;
  }

  // ---- Namespaces and toolkits (the seed's two layers) ----------------------

  /**
   * Whether a call targets a namespace tool (any call shape). Never throws.
   *
   * @example
   * if (router.isNamespaceCall(call)) { … }
   */
  isNamespaceCall(call: unknown): boolean {
    const shape = readCall(call);
    const name = shape.namespace ?? shape.name;
    return name !== undefined && this.#byName.get(name)?.kind === 'namespace';
  }

  /**
   * The seed's `resolveNamespace`: the concrete tool and its args. Like the
   * seed, it does not gate or validate, and it THROWS (a
   * `ToolCallRejectedError` with `code` and `reason`) on an unknown namespace,
   * an unknown action or unreadable arguments. Use `tryResolveNamespace`,
   * `checkToolCall` or `dispatch` to never throw.
   *
   * @example
   * const { toolName, args } = router.resolveNamespace({ name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a"}}' });
   */
  resolveNamespace(call: unknown): NamespaceResolution {
    const r = this.tryResolveNamespace(call);
    if (!r.ok) throw new ToolCallRejectedError(r.code, r.reason);
    return { group: r.group, toolName: r.toolName, args: r.args };
  }

  /**
   * `resolveNamespace` without exceptions: `{ ok: true, group, toolName, args }`
   * or `{ ok: false, code, reason }`.
   *
   * @example
   * const r = router.tryResolveNamespace(call);
   * if (!r.ok) return r.reason;
   */
  tryResolveNamespace(call: unknown): TryNamespaceResolution {
    const shape = readCall(call);
    const nsName = shape.namespace ?? shape.name;
    const ref = nsName === undefined ? undefined : this.#byName.get(nsName);
    if (nsName === undefined || !ref || ref.kind !== 'namespace') {
      const available = this.#namespaces.map((n) => n.name).join(', ') || '(none)';
      return {
        ok: false,
        code: nsName ? 'unknown_tool' : 'empty_name',
        reason: `${nsName ? quote(nsName) : 'The call'} is not a registered namespace. Available: ${available}`,
      };
    }
    const ns = this.#namespaces[ref.index]!;
    let action: unknown;
    let args: unknown;
    if (shape.namespace !== undefined) {
      action = shape.name;
      const parsed = parseArguments(shape.rawArguments, this.#limits);
      if (!parsed.ok) return { ok: false, code: parsed.code, reason: malformedReason(quote(ns.name), parsed.problem) };
      args = parsed.value;
    } else {
      const parsed = parseArguments(shape.rawArguments, this.#limits);
      if (!parsed.ok) return { ok: false, code: parsed.code, reason: malformedReason(quote(ns.name), parsed.problem) };
      action = parsed.value['action'];
      args = Object.hasOwn(parsed.value, 'args') ? parsed.value['args'] : undefined;
    }
    const t = typeof action === 'string' ? ns.actions.get(action) : undefined;
    if (t === undefined) {
      const actions = [...ns.actions.keys()];
      return { ok: false, code: 'unknown_action', reason: unknownActionReason(ns.name, action, actions, []) };
    }
    // The seed copies a record `args` and treats anything else as `{}`.
    return { ok: true, group: ns.name, toolName: this.#tools[t]!.name, args: isPlainObject(args) ? { ...args } : {} };
  }

  /**
   * Whether a call is the library's `load_toolkit` (any call shape).
   *
   * @example
   * if (router.isToolkitLoader(call)) { … }
   */
  isToolkitLoader(call: unknown): boolean {
    return readCall(call).name === LOAD_TOOLKIT_NAME;
  }

  /**
   * The seed's `extractToolkit`: the full definitions of a toolkit's tools
   * (name matched case-insensitively). It also marks the toolkit loaded, so its
   * tools pass the gate: in the seed, extracting is how an application loads.
   * Throws like the seed (`ToolCallRejectedError`, code `invalid_arguments`) on
   * an unknown toolkit; `handleTool` / `dispatch` never throw.
   *
   * @example
   * const newTools = router.extractToolkit('weather'); // Weather's tools
   */
  extractToolkit(toolkitName: R['toolkits'] | D | (string & {})): ToolDefinition[] {
    const k = typeof toolkitName === 'string' ? this.#kitByLower.get(toolkitName.toLowerCase()) : undefined;
    if (k === undefined) {
      const available = this.#toolkits.map((kit) => kit.name).join(', ') || '(none)';
      throw new ToolCallRejectedError('invalid_arguments', `Unknown toolkit: "${String(toolkitName)}". Available: ${available}`);
    }
    this.#markLoaded(k);
    return this.#toolkits[k]!.tools.map((t) => this.#tools[t]!.definition);
  }

  /** Loaded toolkits, canonical names, load order. */
  getLoadedToolkits(): (R['toolkits'] | D)[] {
    return this.#loaded.map((k) => this.#toolkits[k]!.name) as (R['toolkits'] | D)[];
  }

  #markLoaded(k: number): boolean {
    if (this.#kitLoaded[k]) return false;
    this.#loaded.push(k);
    this.#kitLoaded[k] = true;
    for (const t of this.#toolkits[k]!.tools) {
      this.#direct[t] = true;
      this.#directGroup[t] = this.#loadedGroupOf(t);
    }
    this.#loadVersion++;
    return true;
  }

  /** Load a toolkit and describe its tools for the model. */
  #load(k: number): string {
    const fresh = this.#markLoaded(k);
    const kit = this.#toolkits[k]!;
    const lines = kit.tools.map((t) => {
      const entry = this.#tools[t]!;
      const doc = compactActionDoc({ name: entry.name, description: entry.description, parameters: entry.schema });
      return this.#toolBlocked[t] ? doc.replace(/^- ([^\n]*)/, '- $1 (currently blocked)') : doc;
    });
    const head = fresh ? `Toolkit ${quote(kit.name)} loaded.` : `Toolkit ${quote(kit.name)} is already loaded.`;
    return `${head} These tools can be called now:\n${lines.join('\n')}`;
  }

  // ---- Library-owned tools ----------------------------------------------------

  /**
   * Whether the library dispatches this tool itself (`load_toolkit`).
   *
   * @example
   * if (router.ownsTool(call.function.name)) content = router.handleTool({ name, arguments });
   */
  ownsTool(name: unknown): boolean {
    return name === LOAD_TOOLKIT_NAME;
  }

  /**
   * Run a library-owned call and return the text to hand back as its tool
   * result. `load_toolkit` loads the toolkit (its tools become callable and
   * appear in `compile({ target })`) and lists its tools with signatures. A
   * mistake (unknown toolkit, missing argument, a tool this router does not
   * own) comes back as `Error: …` text; it never throws.
   *
   * @example
   * const content = router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' });
   */
  handleTool(call: unknown): string {
    const shape = readCall(call);
    if (shape.name !== LOAD_TOOLKIT_NAME) {
      return `Error: ${shape.name ? quote(shape.name) : 'this call'} is not a library tool; only ${LOAD_TOOLKIT_NAME} is. Dispatch it with router.dispatch.`;
    }
    const r = this.#resolve(call, true);
    if (!r.ok) return `Error: ${r.reason}`;
    return this.#load(r.toolkit);
  }

  // ---- Compile ----------------------------------------------------------------

  /**
   * Without a target: the seed's `{ tools, directoryXml }`: one neutral tool
   * per namespace plus `load_toolkit` when there are toolkits (loaded toolkits
   * are not included, as in the seed). With `{ target, system?, messages, tools? }`:
   * the request fragment for that provider (see runtime/compile-target.ts), with
   * the stable tools first, deferred ones after them and loaded toolkits' tools
   * last. The blocklist never changes the output.
   *
   * Arrays are shared, not copied, so a turn's compile does not grow with the
   * spec: the neutral result (object and `tools`) is frozen and the same
   * object every call; a target payload's `tools` is the router's frozen,
   * pre-rendered array whenever nothing is deferred, loaded or searched. Copy
   * before adding tools (`[...payload.tools, extra]`).
   *
   * @example
   * const { tools, directoryXml } = router.compile();
   * const payload = router.compile({ target: 'anthropic', system, messages });
   * await client.messages.create({ model, max_tokens: 1024, ...payload });
   */
  compile(): NeutralCompileResult;
  compile<T extends Target>(request: TargetCompileRequest<R, D> & { readonly target: T }): TargetPayload<T>;
  compile(request?: TargetCompileRequest<R, D>): NeutralCompileResult | TargetPayload<Target> {
    // The cached frozen result itself: copying the tools would make compile() grow with the spec.
    if (request === undefined || request.target === undefined) return this.#getNeutralCompile();
    const { target } = request;
    const arrays = request.tools === undefined ? this.#getTargetArrays(target) : this.#getSelectedArrays(target, request.tools);
    const input: TargetCompileInput = {
      target,
      messages: request.messages,
      stable: arrays.stable,
      deferred: arrays.deferred,
      loaded: arrays.loaded,
      directoryXml: this.#getNeutralCompile().directoryXml,
      announcements: this.#getAnnouncementList(),
      ...(request.system !== undefined ? { system: request.system } : {}),
      ...(request.options !== undefined ? { options: this.#withWarnOnce(request.options) } : {}),
    };
    return compileForTarget(input);
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
   * The hash of a compiled payload's stable prefix (tools without deferred
   * ones, then system). Blocking, loading toolkits, adding deferred tools and
   * announcing never change it; `undefined` for an object `compile` did not return.
   *
   * @example
   * const payload = router.compile({ target: 'anthropic', system, messages });
   * router.cacheKey(payload); // same string turn after turn while the prefix is stable
   */
  cacheKey(payload: object): string | undefined {
    return payloadCacheKey(payload);
  }

  /** The `<available_toolkits>` directory for the system prompt ('' without toolkits). */
  getDirectoryXml(): string {
    return this.#getNeutralCompile().directoryXml;
  }

  #getNeutralCompile(): NeutralCompileResult {
    if (this.#neutralCompile?.version === this.#structureVersion) return this.#neutralCompile.result;
    const tools: ToolDefinition[] = this.#namespaces.map((ns) => this.#renderGroup(ns, 'neutral') as ToolDefinition);
    const loader = this.#renderLoader('neutral');
    if (loader !== null) tools.push(loader as ToolDefinition);
    const directory = this.#dynamicToolkits()
      ? renderDirectoryXml(
          this.#toolkits.map((kit) => ({
            name: kit.name,
            description: kit.description,
            tools: kit.tools.map((t) => this.#tools[t]!.name),
          })),
        )
      : this.#spec.directoryXml;
    const result: NeutralCompileResult = Object.freeze({ tools: Object.freeze(tools), directoryXml: directory });
    this.#neutralCompile = { version: this.#structureVersion, result };
    return result;
  }

  #dynamicToolkits(): boolean {
    return this.#toolkits.length > this.#spec.toolkits.length;
  }

  /** The default choice: namespaces (+ loader) when there are groups, else the flat tools. Cached per target. */
  #getTargetArrays(target: Target): TargetArrays {
    const version = this.#loadVersion;
    const hit = this.#targetCache.get(target);
    if (hit?.version === version) return hit;
    const groupMode = this.#namespaces.length > 0 || this.#toolkits.length > 0;
    const names = groupMode ? this.#namespaces.map((ns) => ns.name) : this.#flat.map((t) => this.#tools[t]!.name);
    const value = this.#buildArrays(target, names, version, '');
    this.#targetCache.set(target, value);
    return value;
  }

  /**
   * An explicit choice (a prune result or names). Memoized on its content, so
   * the same choice turn after turn yields the same arrays (identity), which
   * keeps the cache key memoized downstream.
   */
  #getSelectedArrays(target: Target, selection: NonNullable<TargetCompileRequest<R, D>['tools']>): TargetArrays {
    const names: string[] = Array.isArray(selection)
      ? [...(selection as readonly string[])]
      : (selection as { readonly tools: readonly ToolDefinition[] }).tools.map((d) => d.name);
    const key = JSON.stringify(names);
    const version = this.#loadVersion;
    const hit = this.#selectionCache.get(target);
    if (hit?.version === version && hit.key === key) return hit;
    const value = this.#buildArrays(target, names, version, key);
    this.#selectionCache.set(target, value);
    return value;
  }

  #buildArrays(target: Target, names: readonly string[], version: number, key: string): TargetArrays {
    const stable: unknown[] = [];
    const deferred: unknown[] = [];
    const sent = new Set<string>();
    for (const name of names) {
      if (sent.has(name)) continue;
      const ref = this.#byName.get(name);
      if (ref?.kind === 'tool') {
        const entry = this.#tools[ref.index]!;
        if (!entry.flat) throw new TypeError(this.#notOfferable(entry));
        (entry.deferLoading ? deferred : stable).push(this.#renderTool(ref.index, target));
      } else if (ref?.kind === 'namespace') {
        stable.push(this.#renderGroup(this.#namespaces[ref.index]!, target));
      } else if (ref?.kind !== 'loader') {
        throw new TypeError(`compile: ${JSON.stringify(name)} in \`tools\` is not a tool or namespace of this router.`);
      }
      sent.add(name);
    }
    // Library tools are never pruned.
    const loader = this.#renderLoader(target);
    if (loader !== null) stable.push(loader);
    const loaded: unknown[] = [];
    for (const k of this.#loaded) {
      for (const t of this.#toolkits[k]!.tools) {
        const n = this.#tools[t]!.name;
        // Never send one name twice (a loaded tool may also be flat and chosen).
        if (sent.has(n)) continue;
        sent.add(n);
        loaded.push(this.#renderTool(t, target));
      }
    }
    return { version, key, stable: Object.freeze(stable), deferred: Object.freeze(deferred), loaded: Object.freeze(loaded) };
  }

  /**
   * Why a non-flat tool cannot be offered by name: dispatch would reject a call
   * to it by that name (`unknown_tool` / `not_loaded`), so the payload would
   * advertise a tool the router refuses.
   */
  #notOfferable(entry: ToolEntry): string {
    const via =
      entry.namespaces.length > 0
        ? `it is an action of namespace ${entry.namespaces.map((k) => JSON.stringify(this.#namespaces[k]!.name)).join(', ')}; offer the namespace instead`
        : `it belongs to toolkit ${entry.toolkits.map((k) => JSON.stringify(this.#toolkits[k]!.name)).join(', ')}; loaded toolkits' tools are appended after the stable tools automatically`;
    return `compile: ${JSON.stringify(entry.name)} in \`tools\` is not a flat tool, so the model could not call it by that name: ${via}.`;
  }

  #renderTool(t: number, form: Target | 'neutral'): unknown {
    const entry = this.#tools[t]!;
    if (entry.neutral === undefined) return this.#spec.rendered[form].tools[entry.specIndex];
    return form === 'neutral' ? entry.definition : renderTool(form, entry.neutral, RENDER_OPTIONS);
  }

  #renderGroup(ns: GroupEntry, form: Target | 'neutral'): unknown {
    if (ns.neutral === undefined) return this.#spec.rendered[form].namespaces[ns.specIndex];
    return renderTool(form, ns.neutral, RENDER_OPTIONS);
  }

  #renderLoader(form: Target | 'neutral'): unknown {
    if (this.#toolkits.length === 0) return null;
    if (!this.#dynamicToolkits()) return this.#spec.rendered[form].loader;
    return renderTool(form, neutralLoaderTool(this.#toolkits.map((k) => k.name)), RENDER_OPTIONS);
  }

  #getAnnouncementList(): readonly Announcement[] {
    const version = this.#announcements.version;
    if (this.#announcementCache?.version !== version) {
      // Frozen entries too: compile memoizes the rendering of a frozen list.
      this.#announcementCache = { version, list: Object.freeze(this.#announcements.list().map((a) => Object.freeze(a))) };
    }
    return this.#announcementCache.list;
  }

  // ---- Announcements -------------------------------------------------------------

  /**
   * Upsert a standing announcement (rendered on every target compile until
   * retracted). Same id keeps its position.
   *
   * @example
   * router.announce('tools:blocked', 'delete_file is disabled in this environment');
   */
  announce(id: string, content: string, options?: AnnounceOptions): this {
    this.#announcements.announce(id, content, options);
    return this;
  }

  /** Remove an announcement; true when one was removed. */
  retractAnnouncement(id: string): boolean {
    return this.#announcements.retract(id);
  }

  /** Current announcements, in insertion order (copies). */
  getAnnouncements(): Announcement[] {
    return this.#announcements.list();
  }

  /**
   * The seed's delta detection, with the previous set kept in the router (and
   * in snapshots): announces `tools:added` / `tools:removed` for what changed
   * since the last call and retracts them when nothing did.
   *
   * @example
   * router.syncToolAnnouncements(router.pruneByTask(task).tools.map((t) => t.name));
   */
  syncToolAnnouncements(next: readonly string[]): { added: string[]; removed: string[] } {
    const previous = this.#announcedTools;
    const nextSet = new Set(next);
    const added = next.filter((name) => !previous.has(name));
    const removed = [...previous].filter((name) => !nextSet.has(name));
    if (added.length) this.announce('tools:added', `Tools newly available: ${added.join(', ')}`);
    else this.retractAnnouncement('tools:added');
    if (removed.length) this.announce('tools:removed', `Withdrawn; calls to these will be rejected: ${removed.join(', ')}`);
    else this.retractAnnouncement('tools:removed');
    this.#announcedTools = nextSet;
    return { added, removed };
  }

  // ---- Snapshot --------------------------------------------------------------------

  /**
   * All state as plain JSON: blocklist, loaded toolkits, announcements, the
   * delta-detection set. Run-time registrations are code and not included.
   *
   * @example
   * const saved = JSON.stringify(router.snapshot());
   */
  snapshot(): RouterSnapshot {
    return {
      format: 'toolroute-router/1',
      spec: this.#spec.hash,
      blocked: [...this.#blocked],
      loaded: this.#loaded.map((k) => this.#toolkits[k]!.name),
      announcements: this.#announcements.list(),
      announcedTools: [...this.#announcedTools],
    };
  }

  /**
   * Rebuild state from a snapshot. Each field that is missing or malformed
   * (an older, empty or garbage snapshot) restores as empty; toolkits this
   * router does not know are skipped. Never throws.
   *
   * @example
   * router.restore(JSON.parse(saved));
   */
  restore(snapshot: unknown): this {
    const s = typeof snapshot === 'object' && snapshot !== null && !Array.isArray(snapshot) ? (snapshot as Record<string, unknown>) : {};
    const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
    let blocked: string[] = [];
    let loadedNames: string[] = [];
    let announced: string[] = [];
    let announcements: unknown = undefined;
    try {
      blocked = strings(s['blocked']);
      loadedNames = strings(s['loaded']);
      announced = strings(s['announcedTools']);
      announcements = s['announcements'];
    } catch {
      // A hostile object (throwing getter): everything empty.
    }
    this.setBlockedTools(blocked as BlockableName<R, D>[]);
    this.#loaded = [];
    for (const name of loadedNames) {
      const k = this.#kitByLower.get(name.toLowerCase());
      if (k !== undefined && !this.#loaded.includes(k)) this.#loaded.push(k);
    }
    this.#recomputeDirect();
    try {
      this.#announcements.restore(announcements);
    } catch {
      this.#announcements.restore(undefined);
    }
    this.#announcedTools = new Set(announced);
    return this;
  }

  // ---- Run-time registration ----------------------------------------------------------

  /**
   * Add flat tools known only at run time (additive; the seed's
   * `registerTools` replaces). Untyped: their handlers take
   * `Record<string, unknown>` and are validated only by their own `validate`.
   * A name that already exists (tool, namespace, library tool) throws.
   *
   * @example
   * const r2 = router.registerTools([{ name: 'ping', description: 'Ping', handler: () => 'pong' }]);
   */
  registerTools<const T extends readonly DynamicToolDefinition<C>[]>(tools: T): ToolRouter<R, C, D | T[number]['name']> {
    const plan = this.#planTools(tools.map((t) => t), 'registerTools');
    for (const def of plan.created) {
      const t = this.#addDynamicTool(def, true);
      this.#addFlat(t);
    }
    this.#dynamicMatcher = buildPruneMatcher(
      this.#flat.slice(this.#spec.flat.length).map((t) => ({ name: this.#tools[t]!.name, tags: this.#tools[t]!.tags })),
    );
    this.#changed();
    return this as unknown as ToolRouter<R, C, D | T[number]['name']>;
  }

  /**
   * Add namespaces known only at run time. A member may be a new tool
   * definition or the name of an existing tool.
   *
   * @example
   * router.registerNamespaces([{ name: 'git', description: 'Git', tools: [{ name: 'git_status', description: 'Status' }] }]);
   */
  registerNamespaces<const T extends readonly DynamicGroupDefinition<C>[]>(
    groups: T,
  ): ToolRouter<R, C, D | T[number]['name'] | Extract<T[number]['tools'][number], { name: string }>['name']> {
    this.#registerGroups(groups, 'namespace');
    return this as never;
  }

  /**
   * Add toolkits known only at run time (listed in the directory, loaded via
   * `load_toolkit`). A member may be a new tool definition or an existing tool's name.
   *
   * @example
   * router.registerToolkits([{ name: 'Jira', description: 'Issues', tools: [{ name: 'jira_get', description: 'Get an issue' }] }]);
   */
  registerToolkits<const T extends readonly DynamicGroupDefinition<C>[]>(
    groups: T,
  ): ToolRouter<R, C, D | T[number]['name'] | Extract<T[number]['tools'][number], { name: string }>['name']> {
    this.#registerGroups(groups, 'toolkit');
    return this as never;
  }

  #registerGroups(groups: readonly DynamicGroupDefinition<C>[], kind: 'namespace' | 'toolkit'): void {
    const where = kind === 'namespace' ? 'registerNamespaces' : 'registerToolkits';
    if (!Array.isArray(groups)) throw new TypeError(`${where}: expected an array of groups.`);
    const groupNames = new Set<string>();
    for (const g of groups) {
      if (typeof g?.name !== 'string' || g.name === '' || typeof g.description !== 'string' || !Array.isArray(g.tools)) {
        throw new TypeError(`${where}: every group needs a non-empty string \`name\`, a string \`description\` and a \`tools\` array.`);
      }
      if (kind === 'namespace') {
        if (this.#byName.has(g.name) || RESERVED_NAMES.has(g.name) || groupNames.has(g.name)) {
          throw new TypeError(`${where}: the name ${JSON.stringify(g.name)} is already taken; pick another.`);
        }
        groupNames.add(g.name);
      } else {
        const lower = g.name.toLowerCase();
        if (this.#kitByLower.has(lower) || groupNames.has(lower)) {
          throw new TypeError(`${where}: a toolkit named ${JSON.stringify(g.name)} (ignoring case) already exists; pick another.`);
        }
        groupNames.add(lower);
      }
    }
    // Check every inline tool before changing anything, so a bad call leaves no partial state.
    const inline = groups.flatMap((g) => g.tools.filter((m: DynamicToolDefinition<C> | string): m is DynamicToolDefinition<C> => typeof m !== "string"));
    const plan = this.#planTools(inline, where, kind === 'namespace' ? groupNames : undefined);
    for (const g of groups) {
      for (const m of g.tools) {
        if (typeof m === 'string' && !(this.#byName.get(m)?.kind === 'tool')) {
          throw new TypeError(`${where}: group ${JSON.stringify(g.name)} refers to ${JSON.stringify(m)}, which is not a tool of this router.`);
        }
      }
    }
    const created = new Map<DynamicToolDefinition<C>, number>();
    for (const def of plan.created) created.set(def, this.#addDynamicTool(def, false));
    for (const g of groups) {
      const members: number[] = [];
      for (const m of g.tools) {
        const t = typeof m === 'string' ? (this.#byName.get(m) as { index: number }).index : created.get(m)!;
        if (!members.includes(t)) members.push(t);
      }
      const list = kind === 'namespace' ? this.#namespaces : this.#toolkits;
      const index = list.length;
      const inputs: NeutralToolInput[] = members.map((t) => ({
        name: this.#tools[t]!.name,
        description: this.#tools[t]!.description,
        parameters: this.#tools[t]!.schema,
      }));
      list.push({
        name: g.name,
        description: g.description,
        tools: members,
        actions: new Map(members.map((t) => [this.#tools[t]!.name, t])),
        actionList: members.map((t) => this.#tools[t]!.name),
        specIndex: -1,
        neutral: kind === 'namespace' ? neutralNamespaceTool(g, inputs, g.encoding ?? 'compact') : undefined,
      });
      for (const t of members) (kind === 'namespace' ? this.#tools[t]!.namespaces : this.#tools[t]!.toolkits).push(index);
      if (kind === 'namespace') this.#byName.set(g.name, { kind: 'namespace', index });
      else this.#kitByLower.set(g.name.toLowerCase(), index);
    }
    this.#changed();
  }

  /** Validate new tool definitions against each other and the router; throws before any change. */
  #planTools(defs: readonly DynamicToolDefinition<C>[], where: string, alsoTaken?: ReadonlySet<string>): { created: DynamicToolDefinition<C>[] } {
    if (!Array.isArray(defs)) throw new TypeError(`${where}: expected an array of tool definitions.`);
    const names = new Set<string>();
    for (const def of defs) {
      if (typeof def?.name !== 'string' || def.name === '' || typeof def.description !== 'string') {
        throw new TypeError(`${where}: every tool needs a non-empty string \`name\` and a string \`description\`.`);
      }
      if (this.#byName.has(def.name) || RESERVED_NAMES.has(def.name) || names.has(def.name) || alsoTaken?.has(def.name)) {
        throw new TypeError(`${where}: the tool name ${JSON.stringify(def.name)} is already taken; pick another.`);
      }
      if (def.parameters !== undefined && !isPlainObject(def.parameters)) {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.parameters must be a JSON Schema object or a properties map.`);
      }
      if (def.handler !== undefined && typeof def.handler !== 'function') {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.handler must be a function.`);
      }
      if (def.validate !== undefined && typeof def.validate !== 'function') {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.validate must be a function.`);
      }
      names.add(def.name);
    }
    return { created: [...defs] };
  }

  #addDynamicTool(def: DynamicToolDefinition<C>, flat: boolean): number {
    const schema = expandParameters(def.parameters);
    const neutral = neutralTool({ name: def.name, description: def.description, parameters: schema, deferLoading: def.deferLoading === true });
    const index = this.#tools.length;
    this.#tools.push({
      name: def.name,
      flat,
      namespaces: [],
      toolkits: [],
      validate: def.validate,
      nullDecode: undefined,
      handler: def.handler as AnyHandler | undefined,
      schema,
      description: def.description,
      tags: def.tags ? [...def.tags] : [],
      deferLoading: def.deferLoading === true,
      definition: renderTool('neutral', neutral, RENDER_OPTIONS) as ToolDefinition,
      specIndex: -1,
      neutral,
    });
    this.#byName.set(def.name, { kind: 'tool', index });
    return index;
  }

  #changed(): void {
    this.#structureVersion++;
    this.#recomputeBlocked();
    this.#recomputeDirect();
  }

  // ---- Seed compatibility ----------------------------------------------------------------

  /**
   * The seed's `chef.getPruner()`: the router itself, so the seed's samples
   * run unchanged apart from setup.
   *
   * @example
   * router.getPruner().setBlockedTools(['delete_file']);
   */
  getPruner(): this {
    return this;
  }
}

/** Marker for a name-level check result (no arguments were checked). */
const NAME_ONLY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function nameOk(name: string, kind: CallableKind, callId: string | undefined): Resolved {
  return { ok: true, tool: -2, toolkit: -1, args: NAME_ONLY, via: 'flat', group: name, kind, callId };
}

/**
 * Build the router for a generated folder.
 *
 * @example
 * import * as generated from './generated/index.js';
 * const router = createRouter(generated, {
 *   read_file: async ({ path }) => fs.readFile(path, 'utf8'),
 *   // … one handler per tool
 * });
 * const result = await router.dispatch(toolCall);
 */
export function createRouter<R extends RegistryShape, C = unknown>(
  generated: GeneratedModule<R>,
  handlers: HandlersOf<NoInfer<R>, C>,
  options?: RouterOptions,
): ToolRouter<R, C> {
  return new ToolRouter<R, C>(generated, handlers, options);
}
