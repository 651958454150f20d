/**
 * The way back: provider responses into the neutral history (`fromProvider`), dispatch results into tool messages
 * (`toolMessage`). The provider's whole output is kept in the message's `provider` field, and a compile for the same
 * target sends it back byte for byte (thinking signatures, reasoning items); another target drops it with a warning.
 * The response types are structural subsets of each SDK's (test/conversation/types.test.ts checks them).
 */
import { TARGETS, type Target } from './contract.js';
import { listNames } from './reasons.js';
import { ToolrouteConfigError } from './targets/errors.js';
import { isRecord, resultText, type NeutralMessage, type NeutralToolCall } from './targets/history.js';
import { adapterFor } from './targets/index.js';

export type { ProviderItem, ProviderState } from './targets/history.js';

/** `@anthropic-ai/sdk` `Message` (what `client.messages.create` resolves to). */
export interface AnthropicResponse {
  readonly role: 'assistant';
  /** `ContentBlock`s: read by `type`, kept whole. */
  readonly content: readonly { readonly type: string; readonly text?: string; readonly id?: string; readonly name?: string; readonly input?: unknown }[];
  /** Present on every `Message`; the field that tells it apart from other `{ role, content }` shapes. */
  readonly stop_reason: string | null;
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
export interface OpenAIChatResponse { readonly object: 'chat.completion'; readonly choices: readonly { readonly message: OpenAIChatResponseMessage }[] }

/** `openai` `Response` (what `client.responses.create` resolves to, non-streaming); each `ResponseOutputItem` read by `type`, kept whole. */
export interface ResponsesResponse { readonly object: 'response'; readonly output: readonly { readonly type: string }[] }

/** `@google/genai` `GenerateContentResponse` (what `ai.models.generateContent` resolves to). */
export interface GeminiResponse {
  /** `Candidate`s: only `content` is read. */
  readonly candidates?: readonly { readonly content?: { readonly role?: string; readonly parts?: readonly GeminiResponsePart[] } }[];
  readonly responseId?: string;
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

/**
 * The neutral history entries for one provider response: one assistant message with the text (`null` when the turn
 * only calls tools), the tool calls and the provider's whole output as opaque `provider` state (keep it unmodified);
 * `[]` for a response with no output. Never throws on a response's content; a value that is not the target's response
 * (another target's, a Promise not awaited) throws `ToolrouteConfigError` (`response-shape`). A Gemini call without an
 * `id` gets a stable neutral one.
 * @example
 * const response = await anthropic.messages.create({ model, max_tokens: 1024, ...router.compile({ target: 'anthropic', messages }) });
 * const [reply] = fromProvider('anthropic', response);
 * history.push(reply);
 * for (const call of reply.tool_calls ?? []) history.push(toolMessage(call, await router.dispatch(call)));
 */
export function fromProvider<T extends Target>(target: T, response: ProviderResponseMap[T]): NeutralMessage[] {
  const adapter = adapterFor(target);
  if (!isRecord(response) || !adapter.response.is(response)) throw responseShapeError(target, response);
  return adapter.readResponse(response);
}

/** Why `response` is not `target`'s: another target's response (which one), a Promise not awaited, or what it is. */
function responseShapeError(target: Target, response: unknown): ToolrouteConfigError {
  const other = isRecord(response) ? TARGETS.find((t) => adapterFor(t).response.is(response)) : undefined;
  const got = other !== undefined ? `${adapterFor(other).response.name}: pass target '${other}'`
    : typeof (response as { then?: unknown } | null)?.then === 'function' ? 'a Promise: await the SDK call first'
    : isRecord(response) ? (Object.keys(response).length === 0 ? 'an empty object' : `an object with keys ${listNames(Object.keys(response).map((k) => JSON.stringify(k)), 5)}`)
    : response === null ? 'null' : Array.isArray(response) ? 'an array' : `a ${typeof response}`;
  return new ToolrouteConfigError('response-shape', `a response for target '${target}' is ${adapterFor(target).response.name}; this is ${got}.`);
}

/** A dispatch result, as `router.dispatch` returns it (only these fields are read). */
export type ToolResultLike =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly reason: string };

/** The call a tool message answers: a neutral tool call (what fromProvider gives), or `{ id, name }`. */
export type ToolCallLike = NeutralToolCall | { readonly id: string; readonly name: string };

/**
 * The neutral `tool` message for a dispatch result: the result as text (`resultText`: a string as is, else JSON),
 * or the rejection's reason with `is_error: true`. Carries the tool's `name` (Gemini needs it).
 * @example
 * const result = await router.dispatch(call);
 * history.push(toolMessage(call, result));
 * // rejected → { role: 'tool', tool_call_id: 'call_1', name: 'file_ops', content: 'Tool "x" is currently blocked.', is_error: true }
 */
export function toolMessage(call: ToolCallLike, result: ToolResultLike): NeutralMessage {
  const base = { role: 'tool' as const, tool_call_id: call.id, name: 'function' in call ? call.function.name : call.name };
  if (!result.ok) return { ...base, content: result.reason, is_error: true };
  return { ...base, content: resultText(result.result) };
}
