/**
 * OpenAI Responses (`client.responses.create`): `FunctionTool` with `strict` always written (omitted means true there),
 * tool search `{ type: 'tool_search' }`, the history as input items, the payload `{ instructions?, input, tools? }`.
 */
import { LOAD_TOOLKIT_NAME } from '../contract.js';
import { loadCalls, type ToolkitLoadingInput } from '../toolkit-loading.js';
import { flatCacheBlocks, isMarkedDeferred, list, memoFrozen, TAIL_ANNOUNCEMENTS, namedTool, withToolsAndChoice, type TargetAdapter } from './adapter.js';
import { argumentsObject, isRecord, parseOr, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantItems, assistantMessage, items, OTHER, readItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { ToolrouteConfigError } from './errors.js';
import { openaiParameters } from './strict.js';
import type { ResponsesAllowedTools, ResponsesFunctionCallItem, ResponsesFunctionTool, ResponsesInputItem, ResponsesPayload, ResponsesTool, ResponsesToolSearchTool } from './types.js';

const SEARCH: ResponsesToolSearchTool = Object.freeze({ type: 'tool_search' });

/** The `call_id` of the `tool_search` pair that carries tools registered after the first turn. */
export const REGISTERED_CALL_ID = 'toolroute_registered';

/** The loader as a client-executed `tool_search` tool with its description and parameters, memoized and frozen per loader object. */
const toolSearchLoader = memoFrozen((loader: ResponsesFunctionTool): ResponsesToolSearchTool => ({ type: 'tool_search', execution: 'client', description: loader.description ?? null, parameters: loader.parameters }) as ResponsesToolSearchTool);

const undeferred = memoFrozen(({ defer_loading: _deferred, ...rest }: ResponsesFunctionTool): ResponsesFunctionTool => rest);
/** A function tool as a `tool_search_output` carries it: loaded, so without `defer_loading`. Memoized per source. */
const loadedForm = (tool: ResponsesFunctionTool): ResponsesFunctionTool => (tool.defer_loading === undefined ? tool : undeferred(tool));

/** The OpenAI Responses adapter. */
export const openaiResponses: TargetAdapter<'openai-responses'> = {
  target: 'openai-responses',
  render(tool, options): ResponsesFunctionTool {
    const { parameters, strict } = openaiParameters(tool, options);
    const out: ResponsesFunctionTool = { type: 'function', name: tool.name, description: tool.description, parameters, strict: strict ?? false };
    if (tool.deferLoading) out.defer_loading = true;
    return out;
  },
  toolName: namedTool,
  systemMessages: 'all',
  announcements: TAIL_ANNOUNCEMENTS,
  wireParameters: undefined,
  searchTool: () => SEARCH,
  // A deferred function still shows its name and description at the start of the request.
  sentTools: (p) => list(p['tools']),
  cachedTools: (tools) => tools,
  cacheBlocks(p, add) {
    flatCacheBlocks(p, add, 'instructions');
    const input = p['input'];
    if (typeof input === 'string') add('conversation', 'input', { role: 'user', content: input });
    else list(input).forEach((item, i) => add('conversation', `input[${i}]`, item));
  },
  allowedTools: {
    // Nothing allowed is `none`: an empty `allowed_tools` list is not a documented form.
    choice: (names, search) => (names.length === 0 && !search ? 'none' : { type: 'allowed_tools', mode: 'auto', tools: [...names.map((name) => ({ type: 'function', name })), ...(search ? [{ type: 'tool_search' }] : [])] }),
  },
  toolkitLoading: Object.freeze({ native: 'tool-search' as const, loaderTool: toolSearchLoader, loadedTool: loadedForm }),
  // OpenAI: "our models have primarily been trained to search those surfaces". https://developers.openai.com/api/docs/guides/tools-tool-search
  // A toolkit's members are deferred: the model sees the namespace's name and description until a load brings them.
  namespaces: { tool: (ns, members, deferred) => ({ type: 'namespace', name: ns.name, description: ns.description, tools: deferred ? members.map((m) => ({ ...m, defer_loading: true })) : [...members] }) },
  toolChangeModels: undefined,
  toolResultErrorFlag: false,
  buildPayload({ input, options, systemText, placed, tools, warn }): ResponsesPayload {
    // toolroute's client loader answers with a toolkit's tools only: it finds no other deferred function (a toolkit's own members, in a namespace named after it, it does).
    const kits = new Set(tools.some((t) => t.type === 'tool_search' && t.execution === 'client') ? [...(input.toolkits?.catalog.values() ?? [])].map((k) => k.name) : []);
    const deferred = (t: ResponsesTool): boolean => isMarkedDeferred(t) || (t.type === 'namespace' && !kits.has(t.name) && t.tools.some(deferred));
    if (tools.some(deferred) && !tools.some((t) => t.type === 'tool_search' && t.execution !== 'client')) {
      warn('responses-deferred-without-search', 'some functions have defer_loading but the request has no tool_search tool that can find them (toolroute\'s toolkit loader finds toolkits only), so the model cannot discover them. Fix: pass options.toolSearch.');
    }
    let items = toResponsesInput(placed.messages, options.responsesSystemRole);
    // A client tool search kept from a compile without options.toolSearch has no faithful form here: a function output cannot answer it.
    const search = input.toolkits?.mode === 'tool-search';
    if (!search && input.toolkits !== undefined && items.some((i) => 'type' in i && i.type === 'tool_search_call' && i.execution === 'client')) throw new ToolrouteConfigError('toolkit-loading-changed', 'the history holds a toolkit load the model made as a client tool_search_call (a compile without options.toolSearch), and this compile loads through the dispatcher (options.toolSearch is set); Responses cannot take one as the other. Fix: keep options.toolSearch the same for the whole conversation.');
    if (search) items = asToolSearchItems(items, placed.messages, input.toolkits!);
    const namespaces = new Set(tools.flatMap((t) => (t.type === 'namespace' ? [t.name] : [])));
    let choice = input.toolChoice as ResponsesAllowedTools | undefined;
    if (namespaces.size > 0) {
      items = items.map((item) => inNamespace(item, namespaces));
      // A native namespace is allowed as a whole, named as the tool it is (the gate still checks each action).
      if (choice !== undefined) choice = { ...choice, tools: choice.tools.map((t) => ('name' in t && namespaces.has(t.name) ? { type: 'namespace', name: t.name } : t)) };
    }
    const added = (input.toolChanges?.added ?? []) as ResponsesFunctionTool[];
    // Tools registered after the first turn: a client tool search's result at the tail, so `tools` stays as cached.
    if (added.length > 0) items = [...items, searchCall(REGISTERED_CALL_ID, { registered: true }), searchOutput(REGISTERED_CALL_ID, added.map(loadedForm))];
    // Key order: instructions, input, tools — the order the docs write them.
    return withToolsAndChoice<ResponsesPayload>(systemText === '' ? { input: items } : { instructions: systemText, input: items }, tools, choice);
  },
  stop: (response) => {
    const reason = isRecord(response['incomplete_details']) ? response['incomplete_details']['reason'] : undefined;
    if (reason === 'max_output_tokens') return 'cut-off';
    if (reason === 'content_filter') return 'blocked';
    if (response['status'] === 'failed' || response['status'] === 'cancelled') return 'failed';
    if (response['status'] === 'queued' || response['status'] === 'in_progress') return 'unfinished';
    const refusal = (item: ProviderItem) => item['type'] === 'message' && items(item['content']).some((part) => part['type'] === 'refusal');
    return items(response['output']).some(refusal) ? 'refused' : undefined;
  },
  response: { name: 'an OpenAI Responses `Response` (`responses.create`)', is: (response) => Array.isArray(response['output']) },
  readResponse: (response) => {
    const output = items(response['output']);
    if (output.length === 0) return [];
    const { text, calls } = readItems(output, classifyResponsesItem, '\n');
    return [assistantMessage(text, calls, { target: 'openai-responses', output })];
  },
};

/**
 * How a Responses output item reads: a `message` is text (its `output_text` parts), a `function_call` a call, a
 * client-executed `tool_search_call` a `load_toolkit` call (toolkit loading over tool search); the rest is state.
 * @example
 * classifyResponsesItem({ type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'get_time', arguments: '{}' });
 * // → { kind: 'call', id: 'c1', name: 'get_time', arguments: '{}' }
 */
export function classifyResponsesItem(item: ProviderItem): ItemClass {
  if (item['type'] === 'message') return { kind: 'text', text: items(item['content']).map((part) => (part['type'] === 'output_text' ? str(part['text']) : '')).join('') };
  const search = item['type'] === 'tool_search_call' && item['execution'] === 'client';
  if (item['type'] !== 'function_call' && !search) return OTHER;
  // A namespace member's call is the namespace's `{ action, args }` call: one dispatch path for both encodings.
  const namespace = item['namespace'];
  if (typeof namespace === 'string' && namespace !== '') {
    const args: unknown = typeof item['arguments'] === 'string' ? parseOr(item['arguments'], item['arguments']) : item['arguments'];
    return { kind: 'call', id: str(item['call_id']), name: namespace, arguments: argumentsText({ action: str(item['name']), args }) };
  }
  return { kind: 'call', id: str(item['call_id']), name: search ? LOAD_TOOLKIT_NAME : str(item['name']), arguments: argumentsText(item['arguments'], true) };
}

const REPLAY: ReplayCodec<ResponsesInputItem> & { text: (text: string) => ResponsesInputItem } = {
  classify: classifyResponsesItem,
  separator: '\n',
  text: (text) => ({ role: 'assistant', content: text }),
  call: (c, raw) => {
    const item: ResponsesFunctionCallItem = { type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments };
    // A changed call is a new item (no item id), still in the namespace the model called it in.
    return raw !== undefined && typeof raw['namespace'] === 'string' ? inNamespace(item, new Set([c.name])) : item;
  },
};

/**
 * A `{ action, args }` call to a native namespace as that namespace's member call (`namespace`, the action's `name`,
 * `args` as the arguments); anything else unchanged, so a call the model garbled stays as it was.
 * @example inNamespace({ type: 'function_call', call_id: 'c1', name: 'file_ops', arguments: '{"action":"read_file","args":{}}' }, new Set(['file_ops']));
 * // → { type: 'function_call', call_id: 'c1', name: 'read_file', namespace: 'file_ops', arguments: '{}' }
 */
export function inNamespace(item: ResponsesInputItem, namespaces: ReadonlySet<string>): ResponsesInputItem {
  if (!('type' in item) || item.type !== 'function_call' || item.namespace !== undefined || !namespaces.has(item.name)) return item;
  const call = parseOr(item.arguments, item.arguments);
  if (!isRecord(call) || typeof call['action'] !== 'string' || Object.keys(call).some((k) => k !== 'action' && k !== 'args')) return item;
  const { name: namespace, ...rest } = item;
  return { ...rest, name: call['action'], namespace, arguments: argumentsText(call['args'] ?? {}) };
}

/**
 * Input items for `client.responses.create`: easy input messages, `function_call` / `function_call_output` items (a
 * failure is its text), system messages inline with `systemRole`; Responses state replayed as received.
 * @example
 * toResponsesInput(normalizeMessages([{ role: 'assistant', content: null,
 *   tool_calls: [{ id: 'c1', function: { name: 'get_time', arguments: '{}' } }] }]));
 * // → [{ type: 'function_call', call_id: 'c1', name: 'get_time', arguments: '{}' }]
 */
export function toResponsesInput(messages: readonly NormalizedMessage[], systemRole: 'system' | 'developer' = 'system'): ResponsesInputItem[] {
  // The call ids of custom tool calls the kept output holds: their results go back as custom tool call outputs.
  const custom = new Set<unknown>();
  return messages.flatMap((m): ResponsesInputItem[] => {
    if (m.role === 'system') return [{ role: systemRole, content: m.text }];
    if (m.role === 'user') return [{ role: 'user', content: m.text }];
    if (m.role === 'tool') return [{ type: custom.has(m.callId) ? 'custom_tool_call_output' : 'function_call_output', call_id: m.callId, output: m.text }];
    const replayed = assistantItems(m, m.state?.target === 'openai-responses' ? m.state.output : undefined, REPLAY) as ResponsesInputItem[];
    for (const item of replayed as { type?: unknown; call_id?: unknown }[]) if (item.type === 'custom_tool_call') custom.add(item.call_id);
    // A reasoning item must be followed by what it reasoned toward (OpenAI answers 400 otherwise): one a turn cut off
    // after its reasoning leaves last is dropped.
    while ((replayed.at(-1) as { type?: unknown } | undefined)?.type === 'reasoning') replayed.pop();
    return replayed;
  });
}

/**
 * `load_toolkit` calls and results as tool-search items: a `tool_search_call`, answered by a `tool_search_output`
 * carrying the toolkit's tools (empty for an error, then a `developer` message with its text); a `load_toolkit` function
 * call the model made (an item with its `id`) stays beside its reasoning, followed by a search pair bringing the loaded
 * toolkit's tools. Returns `items` itself when there are no load calls.
 * @example
 * asToolSearchItems(items, normalized, { mode: 'tool-search', catalog, responsesTools });
 * // [{ type: 'tool_search_call', call_id: 'c1', arguments: { toolkit_name: 'Weather' }, execution: 'client', status: 'completed' },
 * //  { type: 'tool_search_output', call_id: 'c1', execution: 'client', status: 'completed', tools: [getForecast, …] }]
 */
export function asToolSearchItems(items: ResponsesInputItem[], normalized: readonly NormalizedMessage[], loading: ToolkitLoadingInput): ResponsesInputItem[] {
  const loads = loadCalls(normalized, loading.catalog);
  if (loads.size === 0) return items;
  const searches = new Set<string>();
  return items.flatMap((item): ResponsesInputItem[] => {
    if (!('type' in item)) return [item];
    if (item.type === 'function_call' && item.name === LOAD_TOOLKIT_NAME && item.id === undefined && loads.has(item.call_id)) {
      searches.add(item.call_id);
      return [searchCall(item.call_id, argumentsObject(item.arguments))];
    }
    if (item.type === 'tool_search_call' && typeof item.call_id === 'string' && item.execution === 'client') searches.add(item.call_id);
    if (item.type !== 'function_call_output' || !loads.has(item.call_id)) return [item];
    const kit = loads.get(item.call_id);
    const tools = kit === undefined ? [] : [...(loading.responsesTools?.get(kit.name) ?? [])];
    if (!searches.has(item.call_id)) return kit === undefined ? [item] : [item, searchCall(`toolroute_load_${item.call_id}`, { toolkit_name: kit.name }), searchOutput(`toolroute_load_${item.call_id}`, tools)];
    return kit === undefined ? [searchOutput(item.call_id, tools), { role: 'developer', content: `${LOAD_TOOLKIT_NAME}: ${item.output}` }] : [searchOutput(item.call_id, tools)];
  });
}

/** A completed client-executed tool search: its call, and its output carrying `tools`. */
const searchCall = (call_id: string, args: unknown): ResponsesInputItem => ({ type: 'tool_search_call', call_id, arguments: args, execution: 'client', status: 'completed' });
const searchOutput = (call_id: string, tools: ResponsesTool[]): ResponsesInputItem => ({ type: 'tool_search_output', call_id, execution: 'client', status: 'completed', tools });
