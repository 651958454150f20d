import { jsonText } from './targets/history.js';
import { adapterFor } from './targets/index.js';
/**
 * The neutral history entries for one provider response: one assistant message with the text (`null` when the turn
 * only calls tools), the tool calls and the provider's whole output as opaque `provider` state (keep it unmodified);
 * `[]` for a response with no output. Never throws. A Gemini call without an `id` gets a stable neutral one.
 * @example
 * const response = await anthropic.messages.create({ model, max_tokens: 1024, ...router.compile({ target: 'anthropic', messages }) });
 * const [reply] = fromProvider('anthropic', response);
 * history.push(reply);
 * for (const call of reply.tool_calls ?? []) history.push(toolMessage(call, await router.dispatch(call)));
 */
export function fromProvider(target, response) {
    return adapterFor(target).readResponse(response);
}
/**
 * The neutral `tool` message for a dispatch result: the result as text (a string as is, else JSON; `undefined` as ''),
 * or the rejection's reason with `is_error: true`. Carries the tool's `name` (Gemini needs it).
 * @example
 * const result = await router.dispatch(call);
 * history.push(toolMessage(call, result));
 * // rejected → { role: 'tool', tool_call_id: 'call_1', name: 'file_ops', content: 'Tool "x" is currently blocked.', is_error: true }
 */
export function toolMessage(call, result) {
    const name = 'function' in call ? call.function.name : call.name;
    const base = { role: 'tool', tool_call_id: call.id, name };
    if (!result.ok)
        return { ...base, content: result.reason, is_error: true };
    const value = result.result;
    return { ...base, content: typeof value === 'string' ? value : value === undefined ? '' : (jsonText(value) ?? String(value)) };
}
