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
 * What surrounds a handler call (a time limit, an abort signal in the
 * context) belongs here.
 */
import { LOAD_TOOLKIT_NAME, type HandlerContext, type RegistryShape } from '../contract.js';
import { compactActionDoc } from '../neutral.js';
import { handlerErrorReason, quote } from '../reasons.js';
import type { Catalog, ToolEntry } from './catalog.js';
import type { Gate } from './gate.js';
import type { DispatchResult } from './types.js';

/** `DispatchResult` with the registry's types erased; the façade restores them. */
export type AnyDispatchResult = DispatchResult<RegistryShape, string>;

/** A thenable's `then`, as `await` calls it. */
type ThenMethod = (this: unknown, onFulfilled: (value: unknown) => void, onRejected: (reason: unknown) => void) => unknown;

/** `Promise.prototype.then` as this module found it: tells a native promise's `then` from a custom thenable's. */
const NATIVE_THEN: unknown = Promise.prototype.then;

/**
 * Runs accepted calls for one router. Internal.
 *
 * @example
 * const invoker = new Invoker(catalog, gate, false);
 * await invoker.invoke(catalog.tools[0], { path: 'a.ts' }, 'call_1', undefined); // → { ok: true, tool: 'read_file', … }
 */
export class Invoker {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #propagate: boolean;

  constructor(catalog: Catalog, gate: Gate, propagateHandlerErrors: boolean) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#propagate = propagateHandlerErrors;
  }

  /**
   * Call `entry`'s handler with validated `args`. Not `async`: a plain value
   * settles at once. Returns a rejected promise only with `propagateHandlerErrors`.
   */
  invoke(entry: ToolEntry, args: Record<string, unknown>, callId: string | undefined, context: unknown): Promise<AnyDispatchResult> {
    const handler = entry.handler as ((args: unknown, ctx: HandlerContext<unknown>) => unknown) | undefined;
    if (!handler) {
      return Promise.resolve<AnyDispatchResult>({ ok: false, code: 'handler_error', reason: `Tool ${quote(entry.name)} has no handler in this application.`, callId });
    }
    const ctx: HandlerContext<unknown> = { callId, context };
    let result: unknown;
    try {
      result = handler(args, ctx);
      // A thenable is awaited, as `await` would: `then` is read once, here,
      // and a throwing getter is a handler error like a throwing handler.
      if ((typeof result === 'object' && result !== null) || typeof result === 'function') {
        const then = (result as { readonly then?: unknown }).then;
        if (typeof then === 'function') return this.#settle(entry.name, result, then as ThenMethod, callId);
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
      const entry = catalog.tools[t]!;
      const doc = compactActionDoc({ name: entry.name, description: entry.description, parameters: entry.schema });
      return this.#gate.toolBlocked[t] ? doc.replace(/^- ([^\n]*)/, '- $1 (currently blocked)') : doc;
    });
    const head = fresh ? `Toolkit ${quote(kit.name)} loaded.` : `Toolkit ${quote(kit.name)} is already loaded.`;
    return `${head} These tools can be called now:\n${lines.join('\n')}`;
  }

  /** `dispatch`'s result for an accepted `load_toolkit` call. */
  dispatchLoader(k: number, callId: string | undefined): Promise<AnyDispatchResult> {
    return Promise.resolve<AnyDispatchResult>({ ok: true, tool: LOAD_TOOLKIT_NAME, result: this.loadToolkit(k), callId });
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

  /** A handler that threw or rejected: `handler_error`, or the error itself with `propagateHandlerErrors`. */
  #handlerFailed(tool: string, error: unknown, callId: string | undefined): Promise<AnyDispatchResult> {
    if (this.#propagate) return Promise.reject(error);
    return Promise.resolve<AnyDispatchResult>({ ok: false, code: 'handler_error', reason: handlerErrorReason(tool, error), callId });
  }
}
