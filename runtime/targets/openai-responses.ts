/**
 * OpenAI Responses (`client.responses.create`): the tool rendering (with the
 * optional strict rewrite, strict.ts), the history as input items, and the
 * payload `{ instructions?, input, tools? }`.
 *
 * Wire facts: `FunctionTool` `{ type, name, description, parameters, strict,
 * defer_loading? }`, where `strict` is always present because Responses treats
 * an omitted `strict` as true; tool search is `{ type: 'tool_search' }`.
 */
import { stablePrefix } from '../cache-key.js';
import { LOAD_TOOLKIT_NAME } from '../contract.js';
import { namedTool, type NeutralTool, type PayloadContext, type RenderOptions, type TargetAdapter } from './adapter.js';
import { argumentsObject, type NeutralMessage, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantMessage, isRecord, items, OTHER, readItems, replayItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { providerSchema } from './schema.js';
import { strictModeFor, toOpenAIStrictSchema } from './strict.js';
import type { ResponsesFunctionCallItem, ResponsesFunctionTool, ResponsesInputItem, ResponsesPayload, ResponsesTool, ResponsesToolSearchTool } from './types.js';
import { loadCalls, type ToolkitLoadingInput } from '../toolkit-loading.js';

// ─── Rendering ───────────────────────────────────────────────────────────────

/** `FunctionTool`; the same strict handling as Chat Completions, `strict` always written. */
function renderResponses(tool: NeutralTool, options: RenderOptions): ResponsesFunctionTool {
  const strict = options.openaiStrict ? toOpenAIStrictSchema(tool.parameters, strictModeFor(tool)) : undefined;
  const out: ResponsesFunctionTool = {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: strict?.ok ? strict.schema : providerSchema(tool.parameters),
    // Explicit false when not strict: Responses validates strictly when `strict` is omitted or
    // null, which would reject every schema that is not already strict-shaped.
    strict: strict?.ok ?? false,
  };
  if (tool.deferLoading) out.defer_loading = true;
  return out;
}

// A constant, one identity, so the cache-key memo recognizes it without serializing it.
const SEARCH: ResponsesToolSearchTool = Object.freeze({ type: 'tool_search' });

// ─── Payload ─────────────────────────────────────────────────────────────────

function responsesPayload({ input, options, systemText, placed, tools }: PayloadContext<'openai-responses'>): ResponsesPayload {
  let items = toResponsesInput(placed.messages, options.responsesSystemRole);
  if (input.toolkits?.mode === 'tool-search') items = asToolSearchItems(items, placed.messages, input.toolkits);
  const out: ResponsesPayload = { input: items };
  if (systemText !== '') out.instructions = systemText;
  if (tools.length > 0) out.tools = tools as ResponsesTool[];
  if (input.toolChoice !== undefined) out.tool_choice = input.toolChoice as ResponsesPayload['tool_choice'];
  // Key order: instructions, input, tools — the order the docs write them.
  return systemText === '' ? out : { instructions: out.instructions, ...out };
}

/**
 * The OpenAI Responses adapter.
 *
 * @example
 * openaiResponses.renderTool(tool, { openaiStrict: false }); // → { type: 'function', name, description, parameters, strict: false }
 */
export const openaiResponses: TargetAdapter<'openai-responses'> = {
  target: 'openai-responses',
  renderTool: renderResponses,
  renderNamespace: renderResponses,
  renderLoader: renderResponses,
  toolName: namedTool,
  systemMessages: 'all',
  announcements: Object.freeze({ auto: 'user_tail', withoutTail: 'before-prefill' }),
  searchTool: () => SEARCH,
  cachePrefix: (tools, systemText, toolChoice) => stablePrefix('openai-responses', tools, systemText, toolChoice),
  toolkitLoading: Object.freeze({ native: 'tool-search' as const, loaderTool: toolSearchLoader, loadedTool: loadedForm }),
  convertMessages: (messages, options) => toResponsesInput(messages, options.systemRole),
  buildPayload: responsesPayload,
  readResponse: readResponsesResponse,
};

// ─── Reading responses ───────────────────────────────────────────────────────

/**
 * How a Responses output item reads: an assistant `message` item is text
 * (its `output_text` parts joined), a `function_call` item is a call
 * (`call_id` is the call's id), a client-executed `tool_search_call` is a
 * `load_toolkit` call (toolkit loading over tool search), everything else
 * (reasoning, server tool searches, hosted tool calls) is state.
 *
 * @example
 * classifyResponsesItem({ type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'get_time', arguments: '{}' });
 * // → { kind: 'call', id: 'c1', name: 'get_time', arguments: '{}' }
 */
export function classifyResponsesItem(item: ProviderItem): ItemClass {
  if (item['type'] === 'message') {
    let text = '';
    for (const part of items(item['content'])) if (part['type'] === 'output_text') text += str(part['text']);
    return { kind: 'text', text };
  }
  if (item['type'] === 'function_call') {
    const args = item['arguments'];
    return { kind: 'call', id: str(item['call_id']), name: str(item['name']), arguments: typeof args === 'string' ? args : argumentsText(args) };
  }
  // A client-executed tool search is the application's to answer: with toolkit loading over
  // tool search, that is the loader (`load_toolkit`), dispatched like any call.
  if (item['type'] === 'tool_search_call' && item['execution'] === 'client') {
    const args = item['arguments'];
    return { kind: 'call', id: str(item['call_id']), name: LOAD_TOOLKIT_NAME, arguments: typeof args === 'string' ? args : argumentsText(args) };
  }
  return OTHER;
}

/** `Response` → one assistant message (none for an empty output): message texts joined by newlines, `output` kept whole. */
function readResponsesResponse(response: unknown): NeutralMessage[] {
  const output = isRecord(response) ? items(response['output']) : [];
  if (output.length === 0) return [];
  const { text, calls } = readItems(output, classifyResponsesItem, '\n');
  return [assistantMessage(text, calls, { target: 'openai-responses', output })];
}

/** Rebuilds what the application changed: an easy assistant message, a function_call (its `namespace` kept). */
const REPLAY: ReplayCodec<ResponsesInputItem> = {
  classify: classifyResponsesItem,
  separator: '\n',
  text: (text) => ({ role: 'assistant', content: text }),
  call: (c, raw) => {
    const item: ResponsesFunctionCallItem = { type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments };
    // A changed call is a new item (no item id), still in the namespace the model called it in.
    if (raw !== undefined && typeof raw['namespace'] === 'string') item.namespace = raw['namespace'];
    return item;
  },
};

// ─── Messages ────────────────────────────────────────────────────────────────

/**
 * Input items for `client.responses.create`: messages as easy input messages,
 * tool calls as `function_call` items (`call_id`, raw `arguments`), tool
 * results as `function_call_output` items (a failure is its text: Responses
 * has no flag); positional system messages stay inline with `systemRole`. An
 * assistant message with Responses `provider` state sends its kept output
 * items as received (reasoning with encrypted_content, item ids; replay.ts).
 *
 * @example
 * toResponsesInput(normalizeMessages([{ role: 'assistant', content: null,
 *   tool_calls: [{ id: 'c1', function: { name: 'get_time', arguments: '{}' } }] }]));
 * // → [{ type: 'function_call', call_id: 'c1', name: 'get_time', arguments: '{}' }]
 */
export function toResponsesInput(
  messages: readonly NormalizedMessage[],
  systemRole: 'system' | 'developer' = 'system',
): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'system') items.push({ role: systemRole, content: m.text });
    else if (m.role === 'user') items.push({ role: 'user', content: m.text });
    else if (m.role === 'tool') items.push({ type: 'function_call_output', call_id: m.callId, output: m.text });
    else if (m.state?.target === 'openai-responses' && m.state.output.length > 0) {
      // The kept output items as received (reasoning with encrypted_content, item ids), in order.
      for (const item of replayItems(m.state.output, m.text, m.calls, REPLAY)) items.push(item as ResponsesInputItem);
    } else {
      if (m.text !== '' || m.calls.length === 0) items.push({ role: 'assistant', content: m.text });
      for (const c of m.calls) items.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
    }
  }
  return items;
}

// ─── Native toolkit loading: a client-executed tool_search ───────────────────

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
  // Each call is answered in the form it was made: a tool_search_call the model
  // made (replayed as received) or that compile writes for a neutral
  // load_toolkit call gets a tool_search_output; a function_call the model made
  // (replayed with its item id) keeps its function_call_output.
  const searches = new Set<string>();
  const out: ResponsesInputItem[] = [];
  for (const item of items) {
    if ('type' in item && item.type === 'function_call' && item.name === LOAD_TOOLKIT_NAME && item.id === undefined && loads.has(item.call_id)) {
      out.push({ type: 'tool_search_call', call_id: item.call_id, arguments: argumentsObject(item.arguments), execution: 'client', status: 'completed' });
      searches.add(item.call_id);
      continue;
    }
    if ('type' in item && item.type === 'tool_search_call' && typeof item.call_id === 'string' && item.execution === 'client') searches.add(item.call_id);
    if ('type' in item && item.type === 'function_call_output' && searches.has(item.call_id)) {
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
