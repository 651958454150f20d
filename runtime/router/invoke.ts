/**
 * Handler invocation: running an accepted call and settling its outcome into
 * a `DispatchResult`. The application's handler runs with a fresh
 * `HandlerContext`; the library's own tool (`load_toolkit`) runs here too.
 *
 * Settling is written for the dispatch hot path: a handler that returns a
 * plain value resolves the result at once (no async frame, no microtask hop);
 * a thenable is awaited as `await` would, reading its `then` exactly once; a
 * throw, a rejection or a throwing `then` getter becomes `handler_error`
 * (or the error itself with `propagateHandlerErrors`). Nothing here throws
 * synchronously for a handler's doing.
 *
 * What surrounds a handler call lives here too: the time limit (`timeoutMs`,
 * code `timeout`), the caller's `signal` (code `aborted`), the lazily created
 * `ctx.signal` both abort, and the hook that decides what the model reads when
 * a handler fails (the original error stays on the result, not in `reason`).
 */
import { LOAD_TOOLKIT_NAME, type HandlerContext, type RegistryShape } from '../contract.js';
import { compactActionDoc } from '../neutral.js';
import { handlerErrorReason, quote } from '../reasons.js';
import type { Catalog, ToolEntry } from './catalog.js';
import type { Gate } from './gate.js';
import type { DispatchResult } from './types.js';
import { loadResultHead } from '../toolkit-loading.js';

/** `DispatchResult` with the registry's types erased; the façade restores them. */
export type AnyDispatchResult = DispatchResult<RegistryShape, string>;

/** A thenable's `then`, as `await` calls it. */
type ThenMethod = (this: unknown, onFulfilled: (value: unknown) => void, onRejected: (reason: unknown) => void) => unknown;

/** `Promise.prototype.then` as this module found it: tells a native promise's `then` from a custom thenable's. */
const NATIVE_THEN: unknown = Promise.prototype.then;

/** The router options invocation reads. */
export interface InvokeOptions {
  readonly propagateHandlerErrors?: boolean;
  readonly handlerErrorReason?: (error: unknown, info: { readonly tool: string; readonly callId: string | undefined }) => string;
  readonly timeoutMs?: number;
}

/** A call given up before its handler first read `ctx.signal`: the reason the signal will carry. */
class PendingAbort {
  readonly reason: unknown;
  constructor(reason: unknown) {
    this.reason = reason;
  }
}

/**
 * The handler's context. A class so `signal` is a prototype getter: the
 * AbortController exists only once a handler reads it (or a limit fires), and
 * a call whose handler never looks costs one small object. One private slot
 * holds the whole signal state, so a context is three fields, written once
 * (it is allocated on every dispatch):
 * - `undefined`: no caller signal, not given up;
 * - the caller's `AbortSignal`: handed out as is until the call is given up;
 * - an `AbortController`: the signal was read with no caller signal, or after
 *   the call was given up (its signal then carries the reason);
 * - a `PendingAbort`: given up before the signal was first read.
 */
class Context implements HandlerContext<unknown> {
  // `declare`: assigned once in the constructor, not also defined as `undefined` first (a class field would be).
  declare readonly callId: string | undefined;
  declare readonly context: unknown;
  #state: AbortSignal | AbortController | PendingAbort | undefined;

  constructor(callId: string | undefined, context: unknown, parent: AbortSignal | undefined) {
    this.callId = callId;
    this.context = context;
    this.#state = parent;
  }

  get signal(): AbortSignal {
    const state = this.#state;
    if (state instanceof AbortController) return state.signal;
    if (state !== undefined && !(state instanceof PendingAbort)) return state;
    const controller = new AbortController();
    if (state !== undefined) controller.abort(state.reason);
    this.#state = controller;
    return controller.signal;
  }

  /** Give the call up: abort the signal the handler holds (now or when it first reads it). Only the first call counts. */
  abort(reason: unknown): void {
    const state = this.#state;
    if (state instanceof PendingAbort) return;
    // An aborted controller ignores a second abort, as the first reason must stay.
    if (state instanceof AbortController) state.abort(reason);
    else this.#state = new PendingAbort(reason);
  }
}

/**
 * Runs accepted calls for one router. Internal.
 *
 * @example
 * const invoker = new Invoker(catalog, gate, {});
 * await invoker.invoke(catalog.tool(0), { path: 'a.ts' }, 'call_1', undefined, undefined); // → { ok: true, tool: 'read_file', … }
 */
export class Invoker {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #propagate: boolean;
  readonly #reasonHook: InvokeOptions['handlerErrorReason'];
  readonly #timeoutMs: number;

  constructor(catalog: Catalog, gate: Gate, options: InvokeOptions) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#propagate = options.propagateHandlerErrors === true;
    this.#reasonHook = options.handlerErrorReason;
    this.#timeoutMs = validTimeout(options.timeoutMs, 'createRouter: timeoutMs') ?? 0;
  }

  /**
   * Call `entry`'s handler with validated `args`. Not `async`: a plain value
   * settles at once. Returns a rejected promise only with `propagateHandlerErrors`.
   * A time limit or a caller's signal applies to a handler that returns a
   * promise (a synchronous one has finished by the time it returns).
   */
  invoke(
    entry: ToolEntry,
    args: Record<string, unknown>,
    callId: string | undefined,
    context: unknown,
    options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } | undefined,
  ): Promise<AnyDispatchResult> {
    const handler = entry.handler as ((args: unknown, ctx: HandlerContext<unknown>) => unknown) | undefined;
    if (!handler) {
      return Promise.resolve<AnyDispatchResult>({ ok: false, code: 'handler_error', reason: `Tool ${quote(entry.name)} has no handler in this application.`, callId, tool: entry.name });
    }
    const signal = options?.signal;
    // Read before the handler runs: a bad limit is the caller's mistake, not the handler's failure.
    const timeoutMs = options?.timeoutMs !== undefined && options.timeoutMs !== 0 ? validTimeout(options.timeoutMs, 'dispatch: timeoutMs')! : this.#timeoutMs;
    if (signal?.aborted) return Promise.resolve(abortedResult(entry.name, callId, signal.reason));
    const ctx = new Context(callId, context, signal);
    let result: unknown;
    try {
      result = handler(args, ctx);
      // A thenable is awaited, as `await` would: `then` is read once, here,
      // and a throwing getter is a handler error like a throwing handler.
      if ((typeof result === 'object' && result !== null) || typeof result === 'function') {
        const then = (result as { readonly then?: unknown }).then;
        if (typeof then === 'function') {
          if (timeoutMs === 0 && signal === undefined) {
            // The common async handler: a native promise, awaited by the smallest async frame.
            return then === NATIVE_THEN ? this.#settleNative(entry.name, result as Promise<unknown>, callId) : this.#settle(entry.name, result, then as ThenMethod, callId);
          }
          return this.#settleWithin(entry.name, result, then as ThenMethod, callId, ctx, timeoutMs, signal);
        }
      }
    } catch (error) {
      return this.#handlerFailed(entry.name, error, callId);
    }
    return Promise.resolve<AnyDispatchResult>({ ok: true, tool: entry.name, result, callId });
  }

  /**
   * The library's `load_toolkit`: mark toolkit `k` loaded and describe its
   * tools for the model (signatures; blocked ones say so).
   */
  loadToolkit(k: number): string {
    const fresh = this.#gate.markLoaded(k);
    const catalog = this.#catalog;
    const kit = catalog.toolkits[k]!;
    const lines = kit.tools.map((t) => {
      const entry = catalog.tool(t);
      const doc = compactActionDoc({ name: entry.name, description: entry.description, parameters: entry.schema });
      return this.#gate.toolBlocked[t] ? doc.replace(/^- ([^\n]*)/, '- $1 (currently blocked)') : doc;
    });
    const head = loadResultHead(kit.name, fresh);
    return `${head} These tools can be called now:\n${lines.join('\n')}`;
  }

  /** `dispatch`'s result for an accepted `load_toolkit` call. */
  dispatchLoader(k: number, callId: string | undefined): Promise<AnyDispatchResult> {
    return Promise.resolve<AnyDispatchResult>({ ok: true, tool: LOAD_TOOLKIT_NAME, result: this.loadToolkit(k), callId });
  }

  /**
   * `#settle` for a native promise (`then` is `Promise.prototype.then`):
   * the same outcome, from an async frame of three parameters and no
   * branch. Each call allocates its frame's registers and copies them at the
   * `await`; the general frame's were about 80 bytes and a few dozen
   * instructions more.
   */
  async #settleNative(tool: string, promise: Promise<unknown>, callId: string | undefined): Promise<AnyDispatchResult> {
    try {
      const result: unknown = await promise;
      return { ok: true, tool, result, callId };
    } catch (error) {
      return this.#handlerFailed(tool, error, callId);
    }
  }

  /** The outcome of a handler that returned a thenable (`then` already read once, by `invoke`). */
  async #settle(tool: string, thenable: object, then: ThenMethod, callId: string | undefined): Promise<AnyDispatchResult> {
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

  /**
   * `#settle` under a time limit and/or a caller's signal: whichever comes
   * first settles the call; a limit or an abort also aborts `ctx.signal`, so
   * a handler that listens stops its work. A late outcome is ignored.
   */
  #settleWithin(
    tool: string,
    thenable: object,
    then: ThenMethod,
    callId: string | undefined,
    ctx: Context,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<AnyDispatchResult> {
    return new Promise<AnyDispatchResult>((resolve, reject) => {
      let done = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (): boolean => {
        if (done) return false;
        done = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (!finish()) return;
        ctx.abort(signal!.reason);
        resolve(abortedResult(tool, callId, signal!.reason));
      };
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          if (!finish()) return;
          const reason = new Error(`Tool ${quote(tool)} did not finish within ${timeoutMs} ms.`);
          reason.name = 'TimeoutError';
          ctx.abort(reason);
          resolve({
            ok: false,
            code: 'timeout',
            reason: `Tool ${quote(tool)} did not finish within ${timeoutMs} ms and was cancelled. Try again, or with a smaller request.`,
            callId,
            tool,
            error: reason,
          });
        }, timeoutMs);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#settle(tool, thenable, then, callId).then(
        (value) => {
          if (finish()) resolve(value);
        },
        (error: unknown) => {
          if (finish()) reject(error);
        },
      );
    });
  }

  /** A handler that threw or rejected: `handler_error` (original error kept), or the error itself with `propagateHandlerErrors`. */
  #handlerFailed(tool: string, error: unknown, callId: string | undefined): Promise<AnyDispatchResult> {
    if (this.#propagate) return Promise.reject(error);
    return Promise.resolve<AnyDispatchResult>({ ok: false, code: 'handler_error', reason: this.#reason(tool, error, callId), callId, tool, error });
  }

  /** The model-visible text of a handler failure: the application's hook, or the default. Never throws. */
  #reason(tool: string, error: unknown, callId: string | undefined): string {
    const hook = this.#reasonHook;
    if (hook === undefined) return handlerErrorReason(tool, error);
    try {
      const text = hook(error, { tool, callId });
      if (typeof text === 'string' && text !== '') return text;
    } catch {
      // The hook's own failure must not turn into an exception from dispatch.
    }
    return `Tool ${quote(tool)} failed.`;
  }
}

/** The result of a call the caller's signal aborted. */
function abortedResult(tool: string, callId: string | undefined, error: unknown): AnyDispatchResult {
  return { ok: false, code: 'aborted', reason: `The call to ${quote(tool)} was cancelled by the application before it finished.`, callId, tool, error };
}

/** A time limit as given: a positive finite number of ms, or undefined; anything else is a configuration mistake. */
function validTimeout(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${where} must be a non-negative number of milliseconds, got ${String(value)}.`);
  }
  return value;
}
