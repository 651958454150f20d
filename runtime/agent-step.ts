/**
 * One step of the agent loop, so a loop is `compile → SDK call → handleResponse` until the model answers: the
 * provider's response read into the neutral history (`fromProvider`), each of its tool calls dispatched in order and
 * answered with a tool message (`toolMessage`).
 */
import type { Target } from './contract.js';
import { fromProvider, toolMessage, type ProviderResponseMap, type ToolResultLike } from './conversation.js';
import type { NeutralMessage, NeutralToolCall } from './targets/history.js';

/** What `router.handleResponse` resolves to. */
export interface ResponseStep {
  /** The assistant turn, then one tool message per call in call order: append them all to the history. */
  readonly messages: NeutralMessage[];
  /** The model answered: its turn called no tool, so the loop ends. */
  readonly done: boolean;
}

/**
 * Reads `response` and dispatches its calls one after the other (a handler may depend on an earlier one's effect).
 * @example
 * const step = await handleResponse('openai', response, (call) => router.dispatch(call));
 */
export async function handleResponse<T extends Target>(target: T, response: ProviderResponseMap[T], dispatch: (call: NeutralToolCall) => Promise<ToolResultLike>): Promise<ResponseStep> {
  const messages = fromProvider(target, response);
  const calls = messages.flatMap((m) => m.tool_calls ?? []);
  for (const call of calls) messages.push(toolMessage(call, await dispatch(call)));
  return { messages, done: calls.length === 0 };
}
