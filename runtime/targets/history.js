/**
 * The provider-neutral history callers pass to `compile` (the seed's OpenAI-like messages), and its normalized form
 * every target's converter reads. Normalizing never throws or mutates: a history is partly model output, so garbage
 * degrades to the nearest valid request.
 */
const ROLE_ALIASES = {
    system: 'system',
    developer: 'system',
    user: 'user',
    assistant: 'assistant',
    model: 'assistant',
    tool: 'tool',
};
/** A caller's history, normalized. Any input gives a list; nothing is mutated. */
export function normalizeMessages(messages, readNative) {
    if (!Array.isArray(messages))
        return [];
    const out = [];
    for (let i = 0; i < messages.length; i++) {
        const m = messages[i];
        if (typeof m !== 'object' || m === null)
            continue;
        const native = readNative?.(m, i, messages);
        if (native !== undefined) {
            out.push(...native.messages);
            i += native.consumed - 1;
        }
        else {
            out.push(normalizeOne(m, i));
        }
    }
    return out;
}
/** One neutral entry, normalized; `src` is its index in the caller's history. */
export function normalizeOne(record, src) {
    const role = ROLE_ALIASES[typeof record['role'] === 'string' ? record['role'] : ''] ?? 'user';
    const message = {
        role,
        text: textOf(record['content']),
        calls: role === 'assistant' ? callsOf(record['tool_calls']) : [],
        callId: role === 'tool' ? stringOf(record['tool_call_id']) : '',
        name: typeof record['name'] === 'string' ? record['name'] : '',
        src,
    };
    if (role === 'tool' && record['is_error'] === true)
        message.isError = true;
    if (record['provider'] !== undefined)
        message.state = role === 'assistant' ? readState(record['provider']) : null;
    return message;
}
const STATE_FIELD = { anthropic: 'content', openai: 'message', 'openai-responses': 'output', gemini: 'parts' };
function readState(value) {
    if (!isRecord(value))
        return null;
    const target = value['target'];
    const field = typeof target === 'string' && Object.hasOwn(STATE_FIELD, target) ? STATE_FIELD[target] : undefined;
    if (field === undefined)
        return null;
    const data = value[field];
    if (field === 'message')
        return isRecord(data) ? value : null;
    return Array.isArray(data) && data.every(isRecord) ? value : null;
}
/** The text of a message's content: a string as is, text parts joined by newlines, null → '', else JSON. */
export function textOf(content) {
    if (typeof content === 'string')
        return content;
    if (content === null || content === undefined)
        return '';
    if (!Array.isArray(content))
        return jsonText(content) ?? '';
    const texts = [];
    for (const part of content) {
        if (typeof part === 'string')
            texts.push(part);
        else if (isRecord(part) && typeof part['text'] === 'string')
            texts.push(part['text']);
    }
    return texts.join('\n');
}
function callsOf(value) {
    if (!Array.isArray(value))
        return [];
    const calls = [];
    for (const item of value) {
        if (typeof item !== 'object' || item === null)
            continue;
        const record = item;
        const fn = typeof record['function'] === 'object' && record['function'] !== null ? record['function'] : record;
        const args = fn['arguments'];
        calls.push({
            id: stringOf(record['id']),
            name: stringOf(fn['name']),
            arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : (jsonText(args) ?? ''),
        });
    }
    return calls;
}
function stringOf(value) {
    if (typeof value === 'string')
        return value;
    if (typeof value === 'number' || typeof value === 'boolean')
        return String(value);
    return '';
}
/** `JSON.stringify` that never throws: undefined for a value JSON cannot write. */
export function jsonText(value) {
    try {
        return JSON.stringify(value);
    }
    catch {
        return undefined;
    }
}
/** A JSON object (not null, not an array). */
export function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** Tool-call arguments as a JSON object for the targets that need one; `{}` for anything else. */
export function argumentsObject(raw) {
    const parsed = parseOr(raw, undefined);
    return isRecord(parsed) ? parsed : {};
}
/**
 * `text` parsed as JSON, or `fallback` when it is not JSON.
 * @example parseOr('{not json', ''); // → ''
 */
export function parseOr(text, fallback) {
    try {
        return JSON.parse(text);
    }
    catch {
        return fallback;
    }
}
