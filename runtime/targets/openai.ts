/**
 * OpenAI Chat Completions (`client.chat.completions.create`): `ChatCompletionFunctionTool` (with the optional strict
 * rewrite, strict.ts), the history mostly passed through, and the payload `{ messages, tools? }`. No tool search and no
 * deferral: deferred tools are sent in full. The only target where a system message after the first turn keeps its
 * place (the reference library's behaviour).
 */
import { flatCacheBlocks, list, TAIL_ANNOUNCEMENTS, withToolsAndChoice, type TargetAdapter } from './adapter.js';
import { ToolrouteConfigError } from './errors.js';
import { isRecord, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantMessage, items, OTHER, readItems, replayItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { openaiParameters } from './strict.js';
import type { OpenAIChatCustomToolCall, OpenAIChatMessage, OpenAIChatPayload, OpenAIChatTool, OpenAIChatToolCall } from './types.js';

/** Chat Completions answers 400 `array_above_max_length` above 128 tools (not in the SDK types, so checked here). */
export const OPENAI_CHAT_MAX_TOOLS = 128;

/** The OpenAI Chat Completions adapter. */
export const openai: TargetAdapter<'openai'> = {
  target: 'openai',
  render(tool, options): OpenAIChatTool {
    const { parameters, strict } = openaiParameters(tool, options);
    const fn: OpenAIChatTool['function'] = { name: tool.name, description: tool.description, parameters };
    if (strict !== undefined) fn.strict = strict;
    return { type: 'function', function: fn };
  },
  toolName: (tool) => {
    const name = typeof tool === 'object' && tool !== null ? (tool as { function?: { name?: unknown } }).function?.name : undefined;
    return typeof name === 'string' ? name : undefined;
  },
  systemMessages: 'leading',
  announcements: TAIL_ANNOUNCEMENTS,
  wireParameters: undefined,
  searchTool: undefined,
  sentTools: (p) => list(p['tools']),
  cachedTools: (tools) => tools,
  cacheBlocks(p, add) {
    flatCacheBlocks(p, add);
    list(p['messages']).forEach((m, i) => add('conversation', `messages[${i}]`, m));
  },
  // Nothing allowed is `none`: an empty `allowed_tools` list is not a documented form.
  allowedTools: { choice: (names) => (names.length === 0 ? 'none' : { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: names.map((name) => ({ type: 'function', function: { name } })) } }) },
  toolkitLoading: Object.freeze({ native: 'dispatcher' as const }),
  namespaces: undefined,
  toolChangeModels: undefined,
  toolResultErrorFlag: false,
  buildPayload({ input, systemText, placed, tools }): OpenAIChatPayload {
    if (tools.length > OPENAI_CHAT_MAX_TOOLS) {
      throw new ToolrouteConfigError(
        'openai-too-many-tools',
        `OpenAI Chat Completions accepts at most ${OPENAI_CHAT_MAX_TOOLS} tools per request; this compile would send ${tools.length} ` +
          "(the selected tools plus every loaded toolkit's). Offer fewer: pass `tools` (a pruneByTask result or names), " +
          'group tools into namespaces (one tool each), or move them into toolkits loaded on demand.',
      );
    }
    const messages: OpenAIChatMessage[] = systemText === '' ? [] : [{ role: 'system', content: systemText }];
    messages.push(...toOpenAIChatMessages(placed.messages));
    return withToolsAndChoice<OpenAIChatPayload>({ messages }, tools, input.toolChoice);
  },
  stop: (response) => {
    // A `ChatCompletion` (its first choice), or a `ChatCompletionMessage` alone (no finish reason then).
    const choice: unknown = Array.isArray(response['choices']) ? response['choices'][0] : { message: response };
    if (!isRecord(choice)) return undefined;
    if (isRecord(choice['message']) && typeof choice['message']['refusal'] === 'string') return 'refused';
    return choice['finish_reason'] === 'length' ? 'cut-off' : choice['finish_reason'] === 'content_filter' ? 'blocked' : undefined;
  },
  // A message's `content` is a string or null; Anthropic's `Message` is also an assistant's, with a list.
  response: { name: 'a Chat Completions `ChatCompletion` (`chat.completions.create`) or its `message`', is: (r) => Array.isArray(r['choices']) || (r['role'] === 'assistant' && !Array.isArray(r['content'])) },
  readResponse: (response) => {
    // A `ChatCompletion` (its first choice) or a `ChatCompletionMessage`, kept whole.
    const choices = response['choices'];
    const message: unknown = Array.isArray(choices) ? (isRecord(choices[0]) ? choices[0]['message'] : undefined) : response;
    if (!isRecord(message)) return [];
    const { calls } = readItems(items(message['tool_calls']), classifyChatToolCall);
    return [assistantMessage(str(message['content']), calls, { target: 'openai', message })];
  },
};

/** How a Chat Completions tool call reads: a function call is a call; a custom tool call is state, replayed in its place. */
export function classifyChatToolCall(call: ProviderItem): ItemClass {
  const fn = call['function'];
  if (call['type'] === 'custom' || !isRecord(fn)) return OTHER;
  return { kind: 'call', id: str(call['id']), name: str(fn['name']), arguments: argumentsText(fn['arguments'], true) };
}

type ChatCall = OpenAIChatToolCall | OpenAIChatCustomToolCall;
const chatCall = (c: { id: string; name: string; arguments: string }): OpenAIChatToolCall => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } });
// No `text`: a Chat message's text is its `content`, replayed separately.
const REPLAY: ReplayCodec<ChatCall> = { classify: classifyChatToolCall, call: chatCall };

/**
 * An assistant message replayed from its kept `ChatCompletionMessage`: the content as received (unless the history
 * changed it), `refusal`, the `audio` id, and the tool calls as received (custom ones included).
 */
function replayAssistant(m: NormalizedMessage, message: ProviderItem): OpenAIChatMessage {
  const raw = message['content'];
  const audio = message['audio'];
  const audioId = isRecord(audio) && typeof audio['id'] === 'string' ? audio['id'] : undefined;
  const calls = replayItems(items(message['tool_calls']), '', m.calls, REPLAY) as ChatCall[];
  // `content` may be null only beside tool calls or audio (the SDK's type says so): a refusal's null becomes ''.
  const content = typeof raw === 'string' && raw === m.text ? raw : m.text === '' && (calls.length > 0 || audioId !== undefined) ? null : m.text;
  const out: Extract<OpenAIChatMessage, { role: 'assistant' }> = { role: 'assistant', content };
  if (typeof message['refusal'] === 'string') out.refusal = message['refusal'];
  if (audioId !== undefined) out.audio = { id: audioId };
  if (calls.length > 0) out.tool_calls = calls;
  return out;
}

/** Messages for `client.chat.completions.create`. A tool-calling turn carries `content: null`; a failed tool result is its text (Chat has no flag). */
export function toOpenAIChatMessages(messages: readonly NormalizedMessage[]): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.callId, content: m.text };
    if (m.role !== 'assistant') return { role: m.role, content: m.text };
    if (m.state?.target === 'openai') return replayAssistant(m, m.state.message);
    if (m.calls.length === 0) return { role: 'assistant', content: m.text };
    return { role: 'assistant', content: m.text === '' ? null : m.text, tool_calls: m.calls.map(chatCall) };
  });
}
