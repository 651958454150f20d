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
import { adapterFor } from './targets/index.js';

export type { ProviderItem, ProviderState } from './targets/history.js';

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
export function fromProvider<T extends Target>(target: T, response: ProviderResponseMap[T]): NeutralMessage[] {
  // Typed per target at the call; at run time a response is read defensively (never throws).
  return adapterFor(target).readResponse(response);
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
export function toolMessage(call: ToolCallLike, result: ToolResultLike): NeutralMessage {
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
