/**
 * Handler invocation: running an accepted call and settling its outcome into a `DispatchResult`, and the library's own
 * `load_toolkit`. A throw becomes `handler_error`; a promise runs under the time limit and the caller's `signal`, both
 * of which abort the handler's `ctx.signal`.
 */
import { LOAD_TOOLKIT_NAME } from '../contract.js';
import { compactActionDoc } from '../neutral.js';
import { handlerErrorReason, quote } from '../reasons.js';
import { loadResultHead } from '../toolkit-loading.js';
import { toolInput } from './entries.js';
/** The handler's context. `signal` is created on first read (most handlers never read it). */
class Context {
    callId;
    context;
    #parent;
    #controller;
    #givenUp;
    constructor(callId, context, parent) {
        this.callId = callId;
        this.context = context;
        this.#parent = parent;
    }
    get signal() {
        if (this.#controller)
            return this.#controller.signal;
        if (this.#parent && !this.#givenUp)
            return this.#parent;
        this.#controller = new AbortController();
        if (this.#givenUp)
            this.#controller.abort(this.#givenUp.reason);
        return this.#controller.signal;
    }
    /** Give the call up: abort the signal the handler holds (now, or when it first reads it). Only the first reason counts. */
    abort(reason) {
        if (this.#givenUp)
            return;
        this.#givenUp = { reason };
        this.#controller?.abort(reason);
    }
}
/** Runs accepted calls for one router. Internal. */
export class Invoker {
    #catalog;
    #gate;
    #propagate;
    #reasonHook;
    #timeoutMs;
    constructor(catalog, gate, options) {
        this.#catalog = catalog;
        this.#gate = gate;
        this.#propagate = options.propagateHandlerErrors === true;
        this.#reasonHook = options.handlerErrorReason;
        this.#timeoutMs = validTimeout(options.timeoutMs, 'createRouter: timeoutMs') ?? 0;
    }
    /** `dispatch`'s whole path: resolve the call, then run its handler. Rejects only with `propagateHandlerErrors`. */
    async dispatch(resolver, call, options) {
        const r = resolver.resolve(call, true);
        const callId = r.callId;
        if (!r.ok)
            return { ok: false, code: r.code, reason: r.reason, callId };
        if (r.kind === 'load')
            return { ok: true, tool: LOAD_TOOLKIT_NAME, result: this.loadToolkit(r.toolkit), callId };
        const entry = this.#catalog.tool(r.tool);
        const tool = entry.name;
        const handler = entry.handler;
        if (!handler)
            return { ok: false, code: 'handler_error', reason: `Tool ${quote(tool)} has no handler in this application.`, callId, tool };
        const signal = options?.signal;
        const own = options?.timeoutMs;
        const timeoutMs = own !== undefined && own !== 0 ? validTimeout(own, 'dispatch: timeoutMs') : this.#timeoutMs;
        if (signal?.aborted)
            return aborted(tool, callId, signal.reason);
        const ctx = new Context(callId, options?.context, signal);
        let value;
        let then;
        try {
            value = handler(r.args, ctx);
            // `then` read once, here, as `await` would read it (of an object or a function): a throwing getter is the handler's failure.
            const adoptable = (typeof value === 'object' && value !== null) || typeof value === 'function';
            then = value instanceof Promise || !adoptable ? undefined : value.then;
        }
        catch (error) {
            return this.#failed(tool, error, callId);
        }
        const pending = value instanceof Promise ? value
            : typeof then === 'function' ? new Promise((resolve, reject) => then.call(value, resolve, reject))
                : undefined;
        // A plain value is the result as it is: awaiting it would only cost the caller another microtask turn.
        if (pending === undefined)
            return { ok: true, tool, result: value, callId };
        if (timeoutMs > 0 || signal !== undefined)
            return await this.#within(pending, tool, callId, ctx, timeoutMs, signal);
        try {
            return { ok: true, tool, result: await pending, callId };
        }
        catch (error) {
            return this.#failed(tool, error, callId);
        }
    }
    /** `load_toolkit`: mark toolkit `k` loaded and describe its tools for the model (signatures; blocked ones say so). */
    loadToolkit(k) {
        const fresh = this.#gate.markLoaded(k);
        const catalog = this.#catalog;
        const kit = catalog.toolkits[k];
        const lines = kit.tools.map((t) => {
            const doc = compactActionDoc(toolInput(catalog.tool(t)));
            return this.#gate.toolBlocked[t] ? doc.replace(/^- ([^\n]*)/, '- $1 (currently blocked)') : doc;
        });
        return `${loadResultHead(kit.name, fresh)} These tools can be called now:\n${lines.join('\n')}`;
    }
    /** `pending` under a time limit and/or a caller's signal: whichever comes first settles the call and aborts `ctx.signal`. */
    #within(pending, tool, callId, ctx, timeoutMs, signal) {
        return new Promise((resolve, reject) => {
            let done = false;
            let timer;
            const finish = () => {
                if (done)
                    return false;
                done = true;
                clearTimeout(timer);
                signal?.removeEventListener('abort', onAbort);
                return true;
            };
            const onAbort = () => {
                if (!finish())
                    return;
                ctx.abort(signal.reason);
                resolve(aborted(tool, callId, signal.reason));
            };
            if (timeoutMs > 0) {
                timer = setTimeout(() => {
                    if (!finish())
                        return;
                    const error = new Error(`Tool ${quote(tool)} did not finish within ${timeoutMs} ms.`);
                    error.name = 'TimeoutError';
                    ctx.abort(error);
                    const reason = `Tool ${quote(tool)} did not finish within ${timeoutMs} ms and was cancelled. Try again, or with a smaller request.`;
                    resolve({ ok: false, code: 'timeout', reason, callId, tool, error });
                }, timeoutMs);
            }
            signal?.addEventListener('abort', onAbort, { once: true });
            pending.then((result) => {
                if (finish())
                    resolve({ ok: true, tool, result, callId });
            }, (error) => {
                if (!finish())
                    return;
                try {
                    resolve(this.#failed(tool, error, callId));
                }
                catch (thrown) {
                    reject(thrown);
                }
            });
        });
    }
    /** A handler that threw or rejected: `handler_error` (original error kept), or the error itself with `propagateHandlerErrors`. */
    #failed(tool, error, callId) {
        if (this.#propagate)
            throw error;
        return { ok: false, code: 'handler_error', reason: this.#reason(tool, error, callId), callId, tool, error };
    }
    /** The model-visible text of a handler failure: the application's hook, or the default. Never throws. */
    #reason(tool, error, callId) {
        const hook = this.#reasonHook;
        if (hook === undefined)
            return handlerErrorReason(tool, error);
        try {
            const text = hook(error, { tool, callId });
            if (typeof text === 'string' && text !== '')
                return text;
        }
        catch {
            // The hook's own failure must not turn into an exception from dispatch.
        }
        return `Tool ${quote(tool)} failed.`;
    }
}
/** The result of a call the caller's signal aborted. */
function aborted(tool, callId, error) {
    return { ok: false, code: 'aborted', reason: `The call to ${quote(tool)} was cancelled by the application before it finished.`, callId, tool, error };
}
/** A time limit as given: a non-negative finite number of ms, or undefined; anything else is a configuration mistake. */
function validTimeout(value, where) {
    if (value === undefined)
        return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new TypeError(`${where} must be a non-negative number of milliseconds, got ${String(value)}.`);
    }
    return value;
}
