/**
 * How a loaded toolkit reaches the model on each target without changing what
 * the provider has cached: the request stays append-only.
 *
 * Every provider caches a request as a prefix, tools first. Appending a loaded
 * toolkit's tools to `tools` (the `append` strategy, the reference library's
 * behaviour) puts them before the system prompt and the whole conversation in
 * that order, so every load re-processes everything after the tools. The
 * `native` strategy (default) uses each provider's own way to add tools
 * mid-conversation, or a stable stand-in where none exists:
 *
 * Each target's adapter says what `native` means there (`toolkitLoading.native`
 * in runtime/targets/<target>.ts) and renders the loads in its own module:
 *
 * | target             | `native` means   | what is sent                                                                                   |
 * | ------------------ | ---------------- | ---------------------------------------------------------------------------------------------- |
 * | `anthropic`        | `deferred`       | every toolkit tool in `tools` from the first turn with `defer_loading: true` (kept out of the cached prefix by Anthropic); the `tool_result` answering `load_toolkit` carries one `tool_reference` block per tool |
 * | `openai-responses` | `tool-search`    | the loader is a client-executed `tool_search` tool; the model's `tool_search_call` is answered by a `tool_search_output` item carrying the toolkit's tools |
 * | `openai`, `gemini` | `dispatcher`     | no deferral exists: one stable tool, {@link TOOLKIT_DISPATCHER_NAME}, through which a loaded toolkit's tools are called |
 *
 * `dispatcher` can be chosen on every target; `append` keeps the old
 * behaviour (each load costs the reuse of everything after the tools).
 *
 * The application's loop stays target-neutral: it pushes the text of
 * `load_toolkit` (from `dispatch` or `handleTool`) into the neutral history
 * like any tool result, and compile renders that result natively. Rendering is
 * a pure function of the history and the catalog, never of the current
 * state, so a turn never rewrites an earlier one (a toolkit blocked later
 * keeps its earlier `tool_reference` blocks; the gate rejects its calls).
 */
import { LOAD_TOOLKIT_NAME, TARGETS, type Target } from './contract.js';
import { quote } from './reasons.js';
import type { NeutralTool } from './targets/adapter.js';
import { argumentsObject, type NormalizedMessage } from './targets/history.js';
import type { ResponsesFunctionTool } from './targets/types.js';

/** The strategies an application chooses from. */
export const TOOLKIT_LOADING_STRATEGIES = ['native', 'dispatcher', 'append'] as const;
/** `native`: the target's own mechanism (see the module comment); `dispatcher`: the stable dispatcher tool; `append`: loaded tools appended to `tools`. */
export type ToolkitLoadingStrategy = (typeof TOOLKIT_LOADING_STRATEGIES)[number];
/** One strategy for every target, or one per target (a missing target gets `native`). */
export type ToolkitLoadingOption = ToolkitLoadingStrategy | { readonly [T in Target]?: ToolkitLoadingStrategy };
/** What a strategy means on one target. */
export type ToolkitMode = 'deferred' | 'tool-search' | 'dispatcher' | 'append';

/** The library-owned tool through which loaded toolkit tools are called in `dispatcher` mode. */
export const TOOLKIT_DISPATCHER_NAME = 'call_toolkit_tool';

/**
 * What the option means for one target whose `native` mode is `native`
 * (targets/index.ts `toolkitMode` reads it from the target's adapter). Throws
 * a `TypeError` for a value that is not a strategy: a misspelt strategy must
 * fail loudly, not fall back.
 *
 * @example
 * resolveToolkitMode('deferred', 'anthropic', 'native');             // → 'deferred'
 * resolveToolkitMode('dispatcher', 'openai', { anthropic: 'append' }); // → 'dispatcher'
 */
export function resolveToolkitMode(native: ToolkitMode, target: Target, option: ToolkitLoadingOption | undefined): ToolkitMode {
  const strategy = typeof option === 'string' || option === undefined ? option : option[target];
  switch (strategy) {
    case undefined:
    case 'native':
      return native;
    case 'dispatcher':
      return 'dispatcher';
    case 'append':
      return 'append';
    default:
      throw new TypeError(
        `toolkitLoading: ${JSON.stringify(strategy)} is not a strategy; use one of ${TOOLKIT_LOADING_STRATEGIES.map((s) => `'${s}'`).join(', ')} (or an object of them per target).`,
      );
  }
}

/**
 * Check a `toolkitLoading` option once, up front (router creation).
 *
 * @example
 * assertToolkitLoadingOption({ openai: 'append' }); // ok; { openai: 'apend' } throws
 */
export function assertToolkitLoadingOption(option: unknown): asserts option is ToolkitLoadingOption | undefined {
  if (option === undefined || typeof option === 'string') {
    for (const target of TARGETS) resolveToolkitMode('append', target, option as ToolkitLoadingOption | undefined);
    return;
  }
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TypeError('toolkitLoading: expected a strategy name or an object of strategies per target.');
  }
  for (const key of Object.keys(option)) {
    if (!(TARGETS as readonly string[]).includes(key)) {
      throw new TypeError(`toolkitLoading: ${JSON.stringify(key)} is not a target; targets are ${TARGETS.join(', ')}.`);
    }
    resolveToolkitMode('append', key as Target, option as ToolkitLoadingOption);
  }
}

// ─── The load result text ────────────────────────────────────────────────────

/**
 * The first line of a successful `load_toolkit` result. Compile recognizes a
 * successful load in the history by it (and renders the native form only
 * then), so the router writes it with this function and nothing else does.
 *
 * @example
 * loadResultHead('Weather', true);  // → 'Toolkit "Weather" loaded.'
 * loadResultHead('Weather', false); // → 'Toolkit "Weather" is already loaded.'
 */
export function loadResultHead(toolkit: string, fresh: boolean): string {
  return fresh ? `Toolkit ${quote(toolkit)} loaded.` : `Toolkit ${quote(toolkit)} is already loaded.`;
}

/** A toolkit as compile needs it: its canonical name and its tools' names, in order. */
export interface CatalogToolkit {
  readonly name: string;
  readonly tools: readonly string[];
}

/** The toolkits of a router, looked up as `load_toolkit` does (case-insensitive). */
export interface ToolkitCatalog {
  /** The toolkit a lowercased name refers to. */
  readonly byLower: ReadonlyMap<string, CatalogToolkit>;
}

/** What compile needs to render toolkit loads natively. */
export interface ToolkitLoadingInput {
  readonly mode: ToolkitMode;
  readonly catalog: ToolkitCatalog;
  /**
   * `tool-search` mode: every toolkit tool rendered for Responses, loaded form
   * (no `defer_loading`), by name; what a `tool_search_output` carries.
   */
  readonly responsesTools?: ReadonlyMap<string, ResponsesFunctionTool>;
}

/** A `load_toolkit` call of the history and what its result said. */
export interface LoadCall {
  /** The toolkit loaded, or undefined when the result is not a successful load. */
  readonly toolkit: CatalogToolkit | undefined;
}

/**
 * The `load_toolkit` calls of a history by call id, each with the toolkit its
 * result reports as loaded (undefined for an error result or a missing one).
 * A result is a success when its text (or the JSON string it holds, as
 * `JSON.stringify(dispatchResult.result)` writes it) starts with
 * {@link loadResultHead} for the toolkit the call names.
 *
 * @example
 * loadCalls(normalized, catalog).get('call_1')?.toolkit?.name; // → 'Weather'
 */
export function loadCalls(messages: readonly NormalizedMessage[], catalog: ToolkitCatalog): Map<string, LoadCall> {
  const requested = new Map<string, CatalogToolkit | undefined>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.calls) {
      if (c.name !== LOAD_TOOLKIT_NAME || c.id === '') continue;
      const name = argumentsObject(c.arguments)['toolkit_name'];
      requested.set(c.id, typeof name === 'string' ? catalog.byLower.get(name.toLowerCase()) : undefined);
    }
  }
  const out = new Map<string, LoadCall>();
  if (requested.size === 0) return out;
  for (const id of requested.keys()) out.set(id, { toolkit: undefined });
  for (const m of messages) {
    if (m.role !== 'tool' || !requested.has(m.callId)) continue;
    const kit = requested.get(m.callId);
    const text = resultText(m.text);
    const ok = kit !== undefined && (text.startsWith(loadResultHead(kit.name, true)) || text.startsWith(loadResultHead(kit.name, false)));
    out.set(m.callId, { toolkit: ok ? kit : undefined });
  }
  return out;
}

/** The text of a tool result, unwrapping one level of JSON string (`JSON.stringify(text)`). */
function resultText(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'string' ? parsed : text;
  } catch {
    return text;
  }
}

// ─── OpenAI Chat, Gemini (and any target): the dispatcher tool ────────────────

/**
 * The dispatcher tool, provider-neutral: `{ tool, args }`, called like a
 * namespace `{ action, args }`. Its text never changes with the catalog, so it
 * is one constant per target from the first turn.
 */
export const DISPATCHER_TOOL: NeutralTool = Object.freeze({
  kind: 'loader',
  name: TOOLKIT_DISPATCHER_NAME,
  description:
    'Call a tool of a loaded toolkit. Load the toolkit first with load_toolkit: its result lists the toolkit\'s tools and their arguments. ' +
    'Pass the tool\'s name as `tool` and its arguments as `args`.',
  parameters: Object.freeze({
    type: 'object',
    properties: Object.freeze({
      tool: Object.freeze({ type: 'string', description: 'The name of a tool of a loaded toolkit.' }),
      args: Object.freeze({ type: 'object', description: 'Arguments for that tool, as its load_toolkit listing states them.' }),
    }),
    required: Object.freeze(['tool', 'args']),
  }),
  deferLoading: false,
}) as NeutralTool;
