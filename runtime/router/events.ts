/**
 * Router events: the reference library's `compile:done`, where an application detects tool deltas. Listeners run synchronously after
 * a compile has built its result, in subscription order; a listener's exception propagates to the `compile` caller
 * (it is the application's own code, not model input).
 */
import type { Target } from '../contract.js';
import type { ProviderItem } from '../targets/history.js';
import { namedTool } from '../targets/adapter.js';
import { adapterFor } from '../targets/index.js';

/** What `compile:done` listeners receive. */
export interface CompileDoneEvent {
  /** The target compiled for, or `'neutral'` for the reference library's `compile()`. */
  readonly target: Target | 'neutral';
  /** The result `compile` returns (frozen arrays: read, do not modify). */
  readonly payload: unknown;
  /** Names of the tools in the payload the model can call now, in payload order: a toolkit's tools sent before it is loaded
   * (Anthropic's deferred ones) join when it loads; a provider tool with no name (Responses' `tool_search`) has none here. */
  readonly toolNames: readonly string[];
}

/** Event name → listener type. */
export interface RouterEvents {
  'compile:done': (event: CompileDoneEvent) => void;
}

/** Listener lists per event. Internal to the router. */
export class Events {
  readonly #compileDone: RouterEvents['compile:done'][] = [];

  get hasCompileDone(): boolean { return this.#compileDone.length > 0; }

  on<E extends keyof RouterEvents>(event: E, listener: RouterEvents[E]): () => void {
    if (event !== 'compile:done') throw new TypeError(`router.on: unknown event ${JSON.stringify(event)}; events: "compile:done".`);
    if (typeof listener !== 'function') throw new TypeError('router.on: the listener must be a function.');
    this.#compileDone.push(listener);
    return () => { const i = this.#compileDone.indexOf(listener); if (i >= 0) this.#compileDone.splice(i, 1); };
  }

  compileDone(target: Target | 'neutral', payload: unknown, callable: (name: string) => boolean): void {
    // Each target's own reading of where its tools sit (Gemini keeps them under `config.tools[].functionDeclarations`).
    const tools = target === 'neutral' ? (payload as { tools?: unknown }).tools : adapterFor(target).sentTools(payload as ProviderItem);
    const name = target === 'neutral' ? namedTool : adapterFor(target).toolName;
    const toolNames = Array.isArray(tools) ? tools.flatMap((tool) => name(tool) ?? []).filter(callable) : [];
    const event: CompileDoneEvent = { target, payload, toolNames };
    for (const listener of [...this.#compileDone]) listener(event);
  }
}
