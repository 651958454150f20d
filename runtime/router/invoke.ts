/**
 * Handler invocation: running an accepted call and settling its outcome into a `DispatchResult`, and the library's own
 * `load_toolkit`. A throw becomes `handler_error`; a promise runs under the time limit and the caller's `signal`, both
 * of which abort the handler's `ctx.signal`.
 */
import { LOAD_TOOLKIT_NAME, type HandlerContext, type RegistryShape } from '../contract.js';
import { compactActionDoc } from '../neutral.js';
import { handlerErrorReason, quote } from '../reasons.js';
import { checkOptions, type OptionRules } from '../suggest.js';
import { loadResultHead } from '../toolkit-loading.js';
import type { Catalog } from './catalog.js';
import { toolInput } from './entries.js';
import type { Gate } from './gate.js';
import type { Resolver } from './resolve.js';
import type { DispatchOptions, DispatchResult, RouterOptions } from './types.js';

/** The longest delay Node's timers keep (about 24.8 days): a longer one fires at once, so every call would time out. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** The one rule of a time limit (the router's and each call's): a number of ms that Node's timers take. */
export const TIME_LIMIT: OptionRules[string] = [(v) => typeof v === 'number' && v >= 0 && v <= MAX_TIMER_MS, `a number of milliseconds from 0 to ${MAX_TIMER_MS} (about 24.8 days)`];

/** What each `dispatch` option takes: checked before the call is read, so a mistake fails whatever the model sent. */
export const DISPATCH_OPTIONS: OptionRules = {
  context: [() => true, 'any value'],
  timeoutMs: TIME_LIMIT,
  signal: [(v) => typeof (v as Partial<AbortSignal> | null)?.addEventListener === 'function' && typeof (v as AbortSignal).aborted === 'boolean', 'an AbortSignal'],
};

/** `DispatchResult` with the registry's types erased; the façade restores them. */
export type AnyDispatchResult = DispatchResult<RegistryShape, string>;

/**
 * The handler's context. `signal` is created on first read (most handlers never read it). It is the call's own, never the
 * caller's: a time limit aborts it as the caller's signal does (`Invoker.#within` gives it up on either).
 */
class Context implements HandlerContext<unknown> {
  #controller: AbortController | undefined;
  #givenUp: { readonly reason: unknown } | undefined;

  constructor(readonly callId: string | undefined, readonly context: unknown) {}

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#givenUp) this.#controller.abort(this.#givenUp.reason);
    }
    return this.#controller.signal;
  }

  /** Give the call up: abort the signal the handler holds (now, or when it first reads it). Only the first reason counts. */
  abort(reason: unknown): void {
    if (this.#givenUp) return;
    this.#givenUp = { reason };
    this.#controller?.abort(reason);
  }
}

/** Runs accepted calls for one router. Internal. */
export class Invoker {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #propagate: boolean;
  readonly #reasonHook: RouterOptions['handlerErrorReason'];
  readonly #timeoutMs: number;

  constructor(catalog: Catalog, gate: Gate, options: Pick<RouterOptions, 'propagateHandlerErrors' | 'handlerErrorReason' | 'timeoutMs'>) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#propagate = options.propagateHandlerErrors === true;
    this.#reasonHook = options.handlerErrorReason;
    this.#timeoutMs = options.timeoutMs ?? 0; // checked by createRouter's options (TIME_LIMIT)
  }

  /** `dispatch`'s whole path: resolve the call, then run its handler. Rejects only with `propagateHandlerErrors`. */
  async dispatch(resolver: Resolver, call: unknown, options: DispatchOptions<unknown> | undefined): Promise<AnyDispatchResult> {
    // The application's options, not the model's call: a mistake throws (a misspelt `timeOutMs` would run without a limit).
    checkOptions('dispatch', options, DISPATCH_OPTIONS);
    const r = resolver.resolve(call, true);
    const callId = r.callId;
    if (!r.ok) return { ok: false, code: r.code, reason: r.reason, callId };
    if (r.kind === 'load') return { ok: true, tool: LOAD_TOOLKIT_NAME, result: this.loadToolkit(r.toolkit), callId };
    const entry = this.#catalog.tool(r.tool);
    const tool = entry.name;
    const handler = entry.handler as ((args: unknown, ctx: HandlerContext<unknown>) => unknown) | undefined;
    if (!handler) return { ok: false, code: 'handler_error', reason: `Tool ${quote(tool)} has no handler in this application.`, callId, tool };
    const signal = options?.signal;
    const timeoutMs = options?.timeoutMs || this.#timeoutMs; // 0 or absent: the router's limit
    if (signal?.aborted) return aborted(tool, callId, signal.reason);
    const ctx = new Context(callId, options?.context);
    let value: unknown;
    let then: unknown;
    try {
      value = handler(r.args, ctx);
      // `then` read once, here, as `await` would read it (of an object or a function): a throwing getter is the handler's failure.
      const adoptable = (typeof value === 'object' && value !== null) || typeof value === 'function';
      then = value instanceof Promise || !adoptable ? undefined : (value as { then?: unknown }).then;
    } catch (error) {
      return this.#failed(tool, error, callId);
    }
    const pending =
      value instanceof Promise ? value
      : typeof then === 'function' ? new Promise<unknown>((resolve, reject) => (then as (...args: unknown[]) => unknown).call(value, resolve, reject))
      : undefined;
    // A plain value is the result as it is: awaiting it would only cost the caller another microtask turn.
    if (pending === undefined) return { ok: true, tool, result: value, callId };
    if (timeoutMs > 0 || signal !== undefined) return await this.#within(pending, tool, callId, ctx, timeoutMs, signal);
    try {
      return { ok: true, tool, result: await pending, callId };
    } catch (error) {
      return this.#failed(tool, error, callId);
    }
  }

  /** `load_toolkit`: mark toolkit `k` loaded and describe its tools for the model (signatures; blocked ones say so). */
  loadToolkit(k: number): string {
    const fresh = this.#gate.markLoaded(k);
    const catalog = this.#catalog;
    const kit = catalog.toolkits[k]!;
    const lines = kit.tools.map((t) => {
      const doc = compactActionDoc(toolInput(catalog.tool(t)));
      return this.#gate.toolBlocked[t] ? doc.replace(/^- ([^\n]*)/, '- $1 (currently blocked)') : doc;
    });
    return `${loadResultHead(kit.name, fresh)} These tools can be called now:\n${lines.join('\n')}`;
  }

  /** `pending` under a time limit and/or a caller's signal: whichever comes first settles the call and aborts `ctx.signal`. */
  #within(pending: Promise<unknown>, tool: string, callId: string | undefined, ctx: Context, timeoutMs: number, signal: AbortSignal | undefined): Promise<AnyDispatchResult> {
    return new Promise<AnyDispatchResult>((resolve, reject) => {
      let done = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (): boolean => {
        if (done) return false;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (!finish()) return;
        ctx.abort(signal!.reason);
        resolve(aborted(tool, callId, signal!.reason));
      };
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          if (!finish()) return;
          const error = new Error(`Tool ${quote(tool)} did not finish within ${timeoutMs} ms.`);
          error.name = 'TimeoutError';
          ctx.abort(error);
          const reason = `Tool ${quote(tool)} did not finish within ${timeoutMs} ms and was cancelled. Try again, or with a smaller request.`;
          resolve({ ok: false, code: 'timeout', reason, callId, tool, error });
        }, timeoutMs);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort(); // aborted while the handler ran synchronously: no 'abort' event comes
      pending.then(
        (result) => {
          if (finish()) resolve({ ok: true, tool, result, callId });
        },
        (error: unknown) => {
          if (!finish()) return;
          try {
            resolve(this.#failed(tool, error, callId));
          } catch (thrown) {
            reject(thrown);
          }
        },
      );
    });
  }

  /** A handler that threw or rejected: `handler_error` (original error kept), or the error itself with `propagateHandlerErrors`. */
  #failed(tool: string, error: unknown, callId: string | undefined): AnyDispatchResult {
    if (this.#propagate) throw error;
    return { ok: false, code: 'handler_error', reason: this.#reason(tool, error, callId), callId, tool, error };
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
function aborted(tool: string, callId: string | undefined, error: unknown): AnyDispatchResult {
  return { ok: false, code: 'aborted', reason: `The call to ${quote(tool)} was cancelled by the application before it finished.`, callId, tool, error };
}

