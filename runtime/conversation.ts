/**
 * The way back: provider responses into the neutral history, dispatch results
 * into tool messages, and the provider state a conversation needs to continue.
 *
 * A turn of an agent loop is
 *
 *   compile({ target, messages })  → SDK call → response
 *   fromProvider(target, response) → neutral assistant message(s), pushed to the history
 *   dispatch(call)                 → result
 *   toolMessage(call, result)      → neutral tool message (error-flagged on rejection)
 *
 * **Provider state.** Some providers need parts of their own output back,
 * unchanged, on the next request: Anthropic `thinking` / `redacted_thinking`
 * blocks with their signatures (before the `tool_use` they led to), Gemini
 * `thoughtSignature` on the `functionCall` part it came on, OpenAI Responses
 * `reasoning` items (with `encrypted_content`) and item ids. `fromProvider`
 * keeps the provider's whole assistant output, as received, in the message's
 * `provider` field ({@link ProviderState}: plain JSON, so a persisted history
 * keeps it); `compile` for the same target sends that output back in place of
 * a rebuilt one, byte for byte and in order. The neutral `content` and
 * `tool_calls` stay the source of truth: a text or a call the application
 * changed after `fromProvider` is rebuilt from the neutral fields in its
 * place, everything around it is still replayed. State for one target met by
 * another target's compile is dropped (the other provider could not read it)
 * with a one-time warning, so a conversation can change provider mid-way.
 *
 * The response types here are structural subsets of each SDK's own response
 * type (the SDKs are devDependencies; test/conversation/types.test.ts proves
 * each SDK type is accepted and the wrong one rejected).
 */
import type { Target } from './contract.js';
import type { NeutralMessage, NeutralToolCall } from './targets/history.js';

// ─── Provider state ──────────────────────────────────────────────────────────

/**
 * The provider's own assistant output, kept on a neutral message so compile
 * for the same target can send it back unchanged. Opaque: read and written by
 * toolroute only. Plain JSON: store it with the history as it is.
 */
export type ProviderState =
  /** `Message.content`, every block as received (thinking, redacted_thinking, text, tool_use, server tool blocks…). */
  | { readonly target: 'anthropic'; readonly content: readonly ProviderItem[] }
  /** The `ChatCompletionMessage` as received. */
  | { readonly target: 'openai'; readonly message: ProviderItem }
  /** `Response.output`, every item as received (reasoning, message, function_call, tool_search_call…). */
  | { readonly target: 'openai-responses'; readonly output: readonly ProviderItem[] }
  /** The candidate's `content.parts`, every part as received (thought parts, thoughtSignature…). */
  | { readonly target: 'gemini'; readonly parts: readonly ProviderItem[] };

/** One block, item or part of a provider's output: a JSON object toolroute does not interpret beyond its type. */
export type ProviderItem = { readonly [key: string]: unknown };

/**
 * A neutral message with the conversation extensions: `provider` (the
 * assistant output of one target, see {@link ProviderState}) and `is_error`
 * (on a `tool` message: the call was rejected or failed).
 */
export type ConversationMessage = NeutralMessage & {
  readonly provider?: ProviderState;
  readonly is_error?: boolean;
};

// ─── Response types (structural subsets of the SDK types) ────────────────────

/** `@anthropic-ai/sdk` `Message` (what `client.messages.create` resolves to). */
export interface AnthropicResponse {
  readonly role: 'assistant';
  readonly content: readonly AnthropicResponseBlock[];
  /** Present on every `Message`; the field that tells it apart from other `{ role, content }` shapes. */
  readonly stop_reason: string | null;
}

/** A `ContentBlock` of an Anthropic `Message`: read by `type`, kept whole. */
export interface AnthropicResponseBlock {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
}

/** `openai` `ChatCompletionMessage` (`completion.choices[0].message`). */
export interface OpenAIChatResponseMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly refusal: string | null;
  readonly tool_calls?: readonly OpenAIChatResponseToolCall[];
}

/** `ChatCompletionMessageToolCall`: function calls are read, custom tool calls kept as state. */
export type OpenAIChatResponseToolCall =
  | { readonly id: string; readonly type: 'function'; readonly function: { readonly name: string; readonly arguments: string } }
  | { readonly id: string; readonly type: 'custom'; readonly custom: { readonly name: string; readonly input: string } };

/** `openai` `ChatCompletion` (what `client.chat.completions.create` resolves to, non-streaming). */
export interface OpenAIChatResponse {
  readonly object: 'chat.completion';
  readonly choices: readonly { readonly message: OpenAIChatResponseMessage }[];
}

/** `openai` `Response` (what `client.responses.create` resolves to, non-streaming). */
export interface ResponsesResponse {
  readonly object: 'response';
  readonly output: readonly ResponsesOutputItem[];
}

/** A `ResponseOutputItem`: read by `type`, kept whole. */
export interface ResponsesOutputItem {
  readonly type: string;
}

/** `@google/genai` `GenerateContentResponse` (what `ai.models.generateContent` resolves to). */
export interface GeminiResponse {
  readonly candidates?: readonly GeminiResponseCandidate[];
  readonly responseId?: string;
}

/** A `Candidate`: only `content` is read. */
export interface GeminiResponseCandidate {
  readonly content?: { readonly role?: string; readonly parts?: readonly GeminiResponsePart[] };
}

/** A `Part`: read by its fields, kept whole. */
export interface GeminiResponsePart {
  readonly text?: string;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly functionCall?: { readonly id?: string; readonly name?: string; readonly args?: Record<string, unknown> };
}

/** What `fromProvider(target, response)` takes for each target. */
export interface ProviderResponseMap {
  anthropic: AnthropicResponse;
  openai: OpenAIChatResponse | OpenAIChatResponseMessage;
  'openai-responses': ResponsesResponse;
  gemini: GeminiResponse;
}

// ─── fromProvider ────────────────────────────────────────────────────────────

/**
 * The neutral history entries for one provider response: one assistant
 * message with the text (`content`, `null` when the turn only calls tools),
 * the tool calls (`tool_calls`, arguments as a JSON text, ready for
 * `router.dispatch`) and the provider's whole output as opaque
 * {@link ProviderState} (`provider`). A response with no output (a Gemini
 * response without candidates, say) gives `[]`. Never throws on a response's
 * content and never mutates it; the state holds the response's own block
 * objects, so keep the response unmodified (or persist the history as JSON).
 *
 * - `anthropic`: text blocks joined; `tool_use` → calls (`input` as JSON);
 *   every block kept (thinking and redacted_thinking with their signatures).
 * - `openai`: a `ChatCompletion` (its first choice) or a `ChatCompletionMessage`;
 *   function tool calls → calls; `refusal`, `audio` and custom tool calls kept.
 * - `openai-responses`: `message` items' `output_text` joined; `function_call`
 *   → calls (`call_id` is the call id); every item kept (reasoning with
 *   `encrypted_content`, item ids, `namespace`, tool_search_call…).
 * - `gemini`: the first candidate; non-thought text parts joined;
 *   `functionCall` → calls; every part kept (thought parts, `thoughtSignature`).
 *   A call without an `id` gets a stable neutral one (`gemini_call_<n>_<hash>`)
 *   that is never sent to Gemini.
 *
 * @example
 * const response = await anthropic.messages.create({ model, max_tokens: 1024, ...router.compile({ target: 'anthropic', messages }) });
 * const [reply] = fromProvider('anthropic', response);
 * history.push(reply);
 * for (const call of reply.tool_calls ?? []) history.push(toolMessage(call, await router.dispatch(call)));
 */
export function fromProvider<T extends Target>(target: T, response: ProviderResponseMap[T]): ConversationMessage[] {
  const r: unknown = response;
  switch (target as Target) {
    case 'anthropic':
      return fromAnthropic(r);
    case 'openai':
      return fromOpenAIChat(r);
    case 'openai-responses':
      return fromResponses(r);
    case 'gemini':
      return fromGemini(r);
    default:
      return [];
  }
}

function assistant(text: string, calls: NeutralToolCall[], provider: ProviderState): ConversationMessage {
  // Key order: role, content, tool_calls, provider (the order the history is read in).
  if (calls.length === 0) return { role: 'assistant', content: text, provider };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls, provider };
}

const neutralCall = (id: string, name: string, args: string): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: args } });

function isRecord(value: unknown): value is ProviderItem {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** JSON text of a parsed arguments object; `{}` when absent; never throws. */
export function argumentsText(value: unknown): string {
  if (value === undefined || value === null) return '{}';
  try {
    return JSON.stringify(value) ?? '{}';
  } catch {
    return '{}';
  }
}

function items(value: unknown): ProviderItem[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

// Anthropic: `Message.content`.

/** How an Anthropic content block reads in the neutral history (shared by fromProvider and compile's replay). */
export function classifyAnthropicBlock(block: ProviderItem): ItemClass {
  if (block['type'] === 'text') return { kind: 'text', text: str(block['text']) };
  if (block['type'] === 'tool_use') return { kind: 'call', id: str(block['id']), name: str(block['name']), arguments: argumentsText(block['input']) };
  return OTHER;
}

function fromAnthropic(response: unknown): ConversationMessage[] {
  const content = isRecord(response) ? items(response['content']) : [];
  const { text, calls } = readItems(content, classifyAnthropicBlock);
  return [assistant(text, calls, { target: 'anthropic', content })];
}

// OpenAI Chat Completions: `ChatCompletionMessage`.

function fromOpenAIChat(response: unknown): ConversationMessage[] {
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
  return [assistant(str(message['content']), calls, { target: 'openai', message })];
}

/** How a Chat Completions tool call reads: function calls are calls, custom tool calls stay state. */
export function classifyChatToolCall(call: ProviderItem): ItemClass {
  const fn = call['function'];
  if (call['type'] === 'custom' || !isRecord(fn)) return OTHER;
  return { kind: 'call', id: str(call['id']), name: str(fn['name']), arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : argumentsText(fn['arguments']) };
}

// OpenAI Responses: `Response.output`.

/** How a Responses output item reads: assistant `message` items are text, `function_call` items are calls. */
export function classifyResponsesItem(item: ProviderItem): ItemClass {
  if (item['type'] === 'message') {
    const parts = items(item['content']);
    let text = '';
    for (const part of parts) if (part['type'] === 'output_text') text += str(part['text']);
    return { kind: 'text', text };
  }
  if (item['type'] === 'function_call') {
    const args = item['arguments'];
    return { kind: 'call', id: str(item['call_id']), name: str(item['name']), arguments: typeof args === 'string' ? args : argumentsText(args) };
  }
  return OTHER;
}

function fromResponses(response: unknown): ConversationMessage[] {
  const output = isRecord(response) ? items(response['output']) : [];
  if (output.length === 0) return [];
  const { text, calls } = readItems(output, classifyResponsesItem, '\n');
  return [assistant(text, calls, { target: 'openai-responses', output })];
}

// Gemini: `candidates[0].content.parts`.

/** How a Gemini part reads: non-thought text is text, `functionCall` is a call (id '' when Gemini sent none). */
export function classifyGeminiPart(part: ProviderItem): ItemClass {
  const fc = part['functionCall'];
  if (isRecord(fc)) return { kind: 'call', id: str(fc['id']), name: str(fc['name']), arguments: argumentsText(fc['args']) };
  if (typeof part['text'] === 'string' && part['thought'] !== true) return { kind: 'text', text: part['text'] };
  return OTHER;
}

function fromGemini(response: unknown): ConversationMessage[] {
  if (!isRecord(response) || !Array.isArray(response['candidates'])) return [];
  const candidate: unknown = response['candidates'][0];
  const content = isRecord(candidate) ? candidate['content'] : undefined;
  if (!isRecord(content)) return [];
  const parts = items(content['parts']);
  const { text, calls } = readItems(parts, classifyGeminiPart);
  // Gemini may leave `functionCall.id` out; the neutral history pairs a result with its call by id,
  // so such a call gets a stable id derived from the parts (never sent to Gemini: compile replays the part).
  let hash = '';
  const named = calls.map((c, i) => {
    if (c.id !== '') return c;
    if (hash === '') hash = fnv1a(argumentsText(parts));
    return neutralCall(`gemini_call_${i}_${hash}`, c.function.name, c.function.arguments);
  });
  return [assistant(text, named, { target: 'gemini', parts })];
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

// ─── Reading and replaying items ─────────────────────────────────────────────

/** What a provider item is to the neutral history: text, a tool call, or state it does not read. */
export type ItemClass =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly id: string; readonly name: string; readonly arguments: string }
  | { readonly kind: 'other' };

const OTHER: ItemClass = { kind: 'other' };

function readItems(list: readonly ProviderItem[], classify: (item: ProviderItem) => ItemClass, separator = ''): { text: string; calls: NeutralToolCall[] } {
  const texts: string[] = [];
  const calls: NeutralToolCall[] = [];
  for (const item of list) {
    const c = classify(item);
    if (c.kind === 'text') texts.push(c.text);
    else if (c.kind === 'call') calls.push(neutralCall(c.id, c.name, c.arguments));
  }
  return { text: texts.join(separator), calls };
}

/** A call as compile reads it from the neutral history. */
export interface ReplayCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** How one target rebuilds what the application changed, for {@link replayItems}. */
export interface ReplayCodec<O> {
  readonly classify: (item: ProviderItem) => ItemClass;
  /** The separator fromProvider joined text items with. */
  readonly separator?: string;
  readonly text: (text: string) => O;
  /** A call rebuilt from the neutral history; `raw` is the item it replaces (to keep what it can, e.g. a thought signature). */
  readonly call: (call: ReplayCall, raw: ProviderItem | undefined) => O;
  /** A neutral call id the provider never saw (Gemini calls without an id): compared as ''. */
  readonly wireId?: (neutralId: string, raw: ProviderItem) => boolean;
}

/**
 * Replay a provider's kept output for a neutral assistant message: every item
 * as received, in order, except text and calls the application changed since
 * (those are rebuilt from the neutral `text` / `calls` in their place) or
 * removed; calls it added are appended. Unchanged state comes back as the
 * very objects received, so their JSON is byte for byte what the provider sent.
 *
 * @example
 * replayItems(state.content, 'Hi', [], anthropicCodec); // → the kept blocks
 */
export function replayItems<O>(
  kept: readonly ProviderItem[],
  text: string,
  calls: readonly ReplayCall[],
  codec: ReplayCodec<O>,
): (ProviderItem | O)[] {
  const classes = kept.map(codec.classify);
  let keptText = '';
  let textItems = 0;
  for (const c of classes) {
    if (c.kind !== 'text') continue;
    keptText = textItems === 0 ? c.text : keptText + (codec.separator ?? '') + c.text;
    textItems++;
  }
  const textSame = keptText === text;
  const out: (ProviderItem | O)[] = [];
  let textPlaced = textSame || text === '';
  let next = 0;
  for (let i = 0; i < kept.length; i++) {
    const c = classes[i]!;
    const item = kept[i]!;
    if (c.kind === 'text') {
      if (textSame) out.push(item);
      else if (!textPlaced) {
        out.push(codec.text(text));
        textPlaced = true;
      }
    } else if (c.kind === 'call') {
      const call = calls[next++];
      if (call === undefined) continue; // removed by the application
      if (!textPlaced) {
        // Changed text with no text item to stand in for: before the first call, as a fresh turn would have it.
        out.push(codec.text(text));
        textPlaced = true;
      }
      const sameId = call.id === c.id || (c.id === '' && codec.wireId !== undefined && codec.wireId(call.id, item));
      out.push(sameId && call.name === c.name && call.arguments === c.arguments ? item : codec.call(call, item));
    } else {
      out.push(item);
    }
  }
  if (!textPlaced) out.push(codec.text(text));
  for (; next < calls.length; next++) out.push(codec.call(calls[next]!, undefined));
  return out;
}

// ─── Tool messages ───────────────────────────────────────────────────────────

/** A dispatch result, as `router.dispatch` returns it (only these fields are read). */
export type ToolResultLike =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly reason: string };

/** The call a tool message answers: a neutral tool call (what fromProvider gives), or `{ id, name }`. */
export type ToolCallLike = NeutralToolCall | { readonly id: string; readonly name: string };

/**
 * The neutral `tool` message for a dispatch result. Success: the result as
 * text (a string as is, anything else as JSON; `undefined` as ''). Rejection
 * or handler failure: the reason written for the model, with `is_error: true`,
 * which compile renders per target: Anthropic `tool_result.is_error`, Gemini
 * `functionResponse.response.error`, the text alone on OpenAI Chat and
 * Responses (they have no flag). Carries the tool's `name` (Gemini needs it).
 *
 * @example
 * const result = await router.dispatch(call);
 * history.push(toolMessage(call, result));
 * // rejected → { role: 'tool', tool_call_id: 'call_1', name: 'file_ops', content: 'Tool "x" is currently blocked.', is_error: true }
 */
export function toolMessage(call: ToolCallLike, result: ToolResultLike): ConversationMessage {
  const name = 'function' in call ? call.function.name : call.name;
  const base = { role: 'tool' as const, tool_call_id: call.id, name };
  if (!result.ok) return { ...base, content: result.reason, is_error: true };
  return { ...base, content: resultText(result.result) };
}

function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
