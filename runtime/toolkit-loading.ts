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
import type { Target } from './contract.js';
import { LOAD_TOOLKIT_NAME } from './contract.js';
import { argumentsObject, type NormalizedMessage } from './messages.js';
import { quote } from './reasons.js';
import { renderTool, type NeutralTool } from './render.js';
import type {
  AnthropicMessage,
  AnthropicTool,
  ResponsesFunctionTool,
  ResponsesInputItem,
  ResponsesTool,
  ResponsesToolSearchTool,
} from './targets/types.js';

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

const NATIVE: { readonly [T in Target]: ToolkitMode } = {
  anthropic: 'deferred',
  'openai-responses': 'tool-search',
  openai: 'dispatcher',
  gemini: 'dispatcher',
};

/**
 * What the option means for one target. Throws a `TypeError` for a value that
 * is not a strategy: a misspelt strategy must fail loudly, not fall back.
 *
 * @example
 * toolkitMode('anthropic', 'native');             // → 'deferred'
 * toolkitMode('openai', { anthropic: 'append' }); // → 'dispatcher'
 */
export function toolkitMode(target: Target, option: ToolkitLoadingOption | undefined): ToolkitMode {
  const strategy = typeof option === 'string' || option === undefined ? option : option[target];
  switch (strategy) {
    case undefined:
    case 'native':
      return NATIVE[target];
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
    for (const target of Object.keys(NATIVE) as Target[]) toolkitMode(target, option as ToolkitLoadingOption | undefined);
    return;
  }
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TypeError('toolkitLoading: expected a strategy name or an object of strategies per target.');
  }
  for (const key of Object.keys(option)) {
    if (!Object.hasOwn(NATIVE, key)) {
      throw new TypeError(`toolkitLoading: ${JSON.stringify(key)} is not a target; targets are ${Object.keys(NATIVE).join(', ')}.`);
    }
    toolkitMode(key as Target, option as ToolkitLoadingOption);
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
interface LoadCall {
  /** The toolkit loaded, or undefined when the result is not a successful load. */
  readonly toolkit: CatalogToolkit | undefined;
}

/**
 * The `load_toolkit` calls of a history by call id, each with the toolkit its
 * result reports as loaded (undefined for an error result or a missing one).
 * A result is a success when its text (or the JSON string it holds, as
 * `JSON.stringify(dispatchResult.result)` writes it) starts with
 * {@link loadResultHead} for the toolkit the call names.
 */
function loadCalls(messages: readonly NormalizedMessage[], catalog: ToolkitCatalog): Map<string, LoadCall> {
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

// ─── Anthropic: deferred tools + tool_reference ──────────────────────────────

const deferredMemo = new WeakMap<object, AnthropicTool>();

/**
 * An Anthropic tool with `defer_loading: true` (memoized and frozen per source
 * object, so the tools array keeps its identity turn after turn).
 *
 * @example
 * asDeferred({ name: 'get_forecast', input_schema: { type: 'object' } }).defer_loading; // → true
 */
export function asDeferred(tool: AnthropicTool): AnthropicTool {
  if (tool.defer_loading === true) return tool;
  let hit = deferredMemo.get(tool);
  if (hit === undefined) {
    hit = Object.freeze({ ...tool, defer_loading: true });
    deferredMemo.set(tool, hit);
  }
  return hit;
}

/**
 * Rewrite the `tool_result` blocks that answer a successful `load_toolkit`
 * call: the result text, then one `tool_reference` block per tool of the
 * toolkit that the request sends deferred (`deferredNames`). Anthropic expands
 * each reference into the tool's definition at that point of the
 * conversation; the cached prefix (tools, system) is untouched. Tools sent
 * non-deferred are already visible and are not referenced (a reference to a
 * tool that is not in `tools` is a 400: "Tool reference '…' has no
 * corresponding tool definition"). Returns `messages` itself when nothing
 * answers a load.
 *
 * @example
 * withToolReferences(messages, normalized, catalog, new Set(['get_forecast']));
 * // tool_result content → [{ type: 'text', text: 'Toolkit "Weather" loaded. …' }, { type: 'tool_reference', tool_name: 'get_forecast' }]
 */
export function withToolReferences(
  messages: AnthropicMessage[],
  normalized: readonly NormalizedMessage[],
  catalog: ToolkitCatalog,
  deferredNames: ReadonlySet<string>,
): AnthropicMessage[] {
  const loads = loadCalls(normalized, catalog);
  if (loads.size === 0) return messages;
  let changed = false;
  const out = messages.map((message): AnthropicMessage => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    let blocks: typeof message.content | undefined;
    message.content.forEach((block, i) => {
      if (block.type !== 'tool_result') return;
      const kit = loads.get(block.tool_use_id)?.toolkit;
      if (kit === undefined) return;
      const refs = kit.tools.filter((name) => deferredNames.has(name));
      if (refs.length === 0) return;
      blocks ??= [...(message.content as Exclude<typeof message.content, string>)];
      blocks[i] = {
        ...block,
        content: [
          { type: 'text', text: typeof block.content === 'string' ? block.content : '' },
          ...refs.map((tool_name) => ({ type: 'tool_reference' as const, tool_name })),
        ],
      };
    });
    if (blocks === undefined) return message;
    changed = true;
    return { role: 'user', content: blocks };
  });
  return changed ? out : messages;
}

// ─── OpenAI Responses: client-executed tool_search ───────────────────────────

const searchLoaderMemo = new WeakMap<object, ResponsesToolSearchTool>();

/**
 * The loader as a client-executed Responses `tool_search` tool: the loader's
 * description (which points the model at the directory in the instructions)
 * and its parameters (`toolkit_name`, an enum of the toolkits). Memoized and
 * frozen per loader object.
 *
 * @example
 * toolSearchLoader(spec.rendered['openai-responses'].loader);
 * // → { type: 'tool_search', execution: 'client', description: 'Load a toolkit …', parameters: { type: 'object', … } }
 */
export function toolSearchLoader(loader: ResponsesFunctionTool): ResponsesToolSearchTool {
  let hit = searchLoaderMemo.get(loader);
  if (hit === undefined) {
    hit = Object.freeze({
      type: 'tool_search',
      execution: 'client',
      description: loader.description ?? null,
      parameters: loader.parameters,
    }) as ResponsesToolSearchTool;
    searchLoaderMemo.set(loader, hit);
  }
  return hit;
}

const loadedFormMemo = new WeakMap<object, ResponsesFunctionTool>();

/**
 * A Responses function tool as a `tool_search_output` carries it: loaded, so
 * without `defer_loading`. Memoized per source.
 *
 * @example
 * loadedForm({ type: 'function', name: 'get_forecast', parameters: null, strict: false, defer_loading: true }).defer_loading; // → undefined
 */
export function loadedForm(tool: ResponsesFunctionTool): ResponsesFunctionTool {
  if (tool.defer_loading === undefined) return tool;
  let hit = loadedFormMemo.get(tool);
  if (hit === undefined) {
    const { defer_loading: _deferred, ...rest } = tool;
    hit = Object.freeze(rest);
    loadedFormMemo.set(tool, hit);
  }
  return hit;
}

/**
 * Render `load_toolkit` calls and their results as Responses tool-search
 * items: each `function_call` named `load_toolkit` becomes a client
 * `tool_search_call` (its arguments as an object), and its output a
 * `tool_search_output` carrying the toolkit's tools. An error result (unknown
 * or blocked toolkit) has no tools to carry: an empty `tool_search_output`
 * follows the call, then a `developer` message with the error text, so the
 * model still reads why. Returns `items` itself when there are no load calls.
 *
 * @example
 * asToolSearchItems(items, normalized, { mode: 'tool-search', catalog, responsesTools });
 * // [{ type: 'tool_search_call', call_id: 'c1', arguments: { toolkit_name: 'Weather' }, execution: 'client', status: 'completed' },
 * //  { type: 'tool_search_output', call_id: 'c1', execution: 'client', status: 'completed', tools: [getForecast, …] }]
 */
export function asToolSearchItems(
  items: ResponsesInputItem[],
  normalized: readonly NormalizedMessage[],
  loading: ToolkitLoadingInput,
): ResponsesInputItem[] {
  const loads = loadCalls(normalized, loading.catalog);
  if (loads.size === 0) return items;
  const out: ResponsesInputItem[] = [];
  for (const item of items) {
    if ('type' in item && item.type === 'function_call' && item.name === LOAD_TOOLKIT_NAME && loads.has(item.call_id)) {
      out.push({ type: 'tool_search_call', call_id: item.call_id, arguments: argumentsObject(item.arguments), execution: 'client', status: 'completed' });
      continue;
    }
    if ('type' in item && item.type === 'function_call_output' && loads.has(item.call_id)) {
      const kit = loads.get(item.call_id)!.toolkit;
      const tools: ResponsesTool[] = [];
      for (const name of kit?.tools ?? []) {
        const tool = loading.responsesTools?.get(name);
        if (tool !== undefined) tools.push(tool);
      }
      out.push({ type: 'tool_search_output', call_id: item.call_id, execution: 'client', status: 'completed', tools });
      if (kit === undefined) out.push({ role: 'developer', content: `${LOAD_TOOLKIT_NAME}: ${item.output}` });
      continue;
    }
    out.push(item);
  }
  return out;
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

const dispatcherMemo = new Map<Target, unknown>();

/**
 * The dispatcher tool rendered for a target (one frozen object per target).
 *
 * @example
 * dispatcherTool('openai'); // → { type: 'function', function: { name: 'call_toolkit_tool', … } }
 */
export function dispatcherTool(target: Target): unknown {
  let hit = dispatcherMemo.get(target);
  if (hit === undefined) {
    hit = deepFreeze(renderTool(target, DISPATCHER_TOOL, { openaiStrict: false }));
    dispatcherMemo.set(target, hit);
  }
  return hit;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
