/**
 * OpenAI Chat Completions (`client.chat.completions.create`): the tool
 * rendering (with the optional strict rewrite, strict.ts), the history
 * conversion (mostly a pass-through) and the payload `{ messages, tools? }`.
 *
 * Wire facts: `ChatCompletionFunctionTool` `{ type, function: { name,
 * description, parameters, strict? } }`; no tool search, so `deferLoading` is
 * dropped from the rendering and deferred tools are sent in full. The only
 * target where a system message after the first turn keeps its place (the
 * reference library's behaviour, and free of model-support caveats here).
 */
import { stablePrefix } from '../cache-key.js';
import type { NeutralTool, PayloadContext, RenderOptions, TargetAdapter } from './adapter.js';
import { ToolrouteConfigError } from './errors.js';
import type { NeutralMessage, NeutralToolCall, NormalizedMessage, ProviderItem } from './history.js';
import { argumentsText, assistantMessage, isRecord, items, neutralCall, OTHER, replayItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { providerSchema } from './schema.js';
import { strictModeFor, toOpenAIStrictSchema } from './strict.js';
import type { OpenAIChatCustomToolCall, OpenAIChatMessage, OpenAIChatPayload, OpenAIChatTool, OpenAIChatToolCall } from './types.js';

// ─── Rendering ───────────────────────────────────────────────────────────────

/**
 * `ChatCompletionFunctionTool`; with `openaiStrict`, the strict rewrite and
 * `strict: true`, or the schema as-is with `strict: false` when strict mode
 * cannot express it. Namespace tools get the namespace strict mode (strict.ts `strictModeFor`).
 */
function renderChat(tool: NeutralTool, options: RenderOptions): OpenAIChatTool {
  const strict = options.openaiStrict ? toOpenAIStrictSchema(tool.parameters, strictModeFor(tool)) : undefined;
  const fn: OpenAIChatTool['function'] = {
    name: tool.name,
    description: tool.description,
    parameters: strict?.ok ? strict.schema : providerSchema(tool.parameters),
  };
  if (strict) fn.strict = strict.ok;
  return { type: 'function', function: fn };
}

/** The name of a rendered Chat tool: `function.name`. */
function chatToolName(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const name = (tool as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? name : undefined;
}

// ─── Payload ─────────────────────────────────────────────────────────────────

/**
 * Chat Completions answers 400 `Invalid 'tools': array too long. Expected an array with maximum
 * length 128` (error code `array_above_max_length`, reported from 2024 through GPT-5.1 in late
 * 2025; not in the SDK types, so checked here).
 */
export const OPENAI_CHAT_MAX_TOOLS = 128;

function chatPayload({ input, systemText, placed, tools }: PayloadContext<'openai'>): OpenAIChatPayload {
  if (tools.length > OPENAI_CHAT_MAX_TOOLS) {
    throw new ToolrouteConfigError(
      'openai-too-many-tools',
      `OpenAI Chat Completions accepts at most ${OPENAI_CHAT_MAX_TOOLS} tools per request; this compile would send ${tools.length} ` +
        '(the selected tools plus every loaded toolkit\'s). Offer fewer: pass `tools` (a pruneByTask result or names), ' +
        'group tools into namespaces (one tool each), or move them into toolkits loaded on demand.',
    );
  }
  const messages: OpenAIChatMessage[] = systemText === '' ? [] : [{ role: 'system', content: systemText }];
  messages.push(...toOpenAIChatMessages(placed.messages));
  const out: OpenAIChatPayload = { messages };
  if (tools.length > 0) out.tools = tools as OpenAIChatTool[];
  if (input.toolChoice !== undefined) out.tool_choice = input.toolChoice as OpenAIChatPayload['tool_choice'];
  return out;
}

/**
 * The OpenAI Chat Completions adapter.
 *
 * @example
 * openai.renderTool(tool, { openaiStrict: false }); // → { type: 'function', function: { name, description, parameters } }
 */
export const openai: TargetAdapter<'openai'> = {
  target: 'openai',
  renderTool: renderChat,
  renderNamespace: renderChat,
  renderLoader: renderChat,
  toolName: chatToolName,
  systemMessages: 'leading',
  announcements: Object.freeze({ auto: 'user_tail', withoutTail: 'before-prefill' }),
  searchTool: undefined,
  cachePrefix: (tools, systemText, toolChoice) => stablePrefix('openai', tools, systemText, toolChoice),
  toolkitLoading: Object.freeze({ native: 'dispatcher' as const }),
  convertMessages: (messages) => toOpenAIChatMessages(messages),
  buildPayload: chatPayload,
  readResponse: readChatResponse,
};

// ─── Reading responses ───────────────────────────────────────────────────────

/**
 * How a Chat Completions tool call reads: a function call is a call; a custom
 * tool call (no neutral form) is state, replayed in its place.
 *
 * @example
 * classifyChatToolCall({ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } });
 * // → { kind: 'call', id: 'c1', name: 'get_time', arguments: '{}' }
 */
export function classifyChatToolCall(call: ProviderItem): ItemClass {
  const fn = call['function'];
  if (call['type'] === 'custom' || !isRecord(fn)) return OTHER;
  const args = fn['arguments'];
  return { kind: 'call', id: str(call['id']), name: str(fn['name']), arguments: typeof args === 'string' ? args : argumentsText(args) };
}

/** A `ChatCompletion` (its first choice) or a `ChatCompletionMessage` → one assistant message, the message kept whole. */
function readChatResponse(response: unknown): NeutralMessage[] {
  if (!isRecord(response)) return [];
  let message: unknown = response;
  if (Array.isArray(response['choices'])) {
    const choice: unknown = response['choices'][0];
    message = isRecord(choice) ? choice['message'] : undefined;
  }
  if (!isRecord(message)) return [];
  const calls: NeutralToolCall[] = [];
  for (const call of items(message['tool_calls'])) {
    const c = classifyChatToolCall(call);
    if (c.kind === 'call') calls.push(neutralCall(c.id, c.name, c.arguments));
  }
  return [assistantMessage(str(message['content']), calls, { target: 'openai', message })];
}

type ChatCall = OpenAIChatToolCall | OpenAIChatCustomToolCall;
const REPLAY: ReplayCodec<ChatCall> = {
  classify: classifyChatToolCall,
  // No `text`: a Chat message's text is its `content`, replayed separately.
  call: (c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }),
};

/**
 * An assistant message replayed from its kept `ChatCompletionMessage`: the
 * content as received (unless the history changed it), `refusal` and the
 * `audio` id when present, the tool calls as received (custom tool calls
 * included; changed function calls rebuilt in place). Annotations are not
 * part of the request type and are not sent.
 */
function replayAssistant(m: NormalizedMessage, message: ProviderItem): OpenAIChatMessage {
  const raw = message['content'];
  const content = typeof raw === 'string' && raw === m.text ? raw : m.text === '' && (m.calls.length > 0 || raw === null) ? null : m.text;
  const out: Extract<OpenAIChatMessage, { role: 'assistant' }> = { role: 'assistant', content };
  if (typeof message['refusal'] === 'string') out.refusal = message['refusal'];
  const audio = message['audio'];
  if (isRecord(audio) && typeof audio['id'] === 'string') out.audio = { id: audio['id'] };
  const calls = replayItems(items(message['tool_calls']), '', m.calls, REPLAY) as ChatCall[];
  if (calls.length > 0) out.tool_calls = calls;
  return out;
}

// ─── Messages ────────────────────────────────────────────────────────────────

/**
 * Messages for `client.chat.completions.create`: mostly a pass-through.
 * An assistant turn that only calls tools carries `content: null`; one with
 * OpenAI `provider` state is replayed from the kept message (refusal, audio
 * id, custom tool calls). A failed tool result is its text: Chat has no flag.
 *
 * @example
 * toOpenAIChatMessages(normalizeMessages([{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]));
 * // → [{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]
 */
export function toOpenAIChatMessages(messages: readonly NormalizedMessage[]): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.text };
      case 'user':
        return { role: 'user', content: m.text };
      case 'tool':
        return { role: 'tool', tool_call_id: m.callId, content: m.text };
      case 'assistant': {
        if (m.state?.target === 'openai') return replayAssistant(m, m.state.message);
        if (m.calls.length === 0) return { role: 'assistant', content: m.text };
        return {
          role: 'assistant',
          content: m.text === '' ? null : m.text,
          tool_calls: m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        };
      }
    }
  });
}

