/**
 * The shared half of every target's `readResponse` and of the assistant branch of its history converter: a target says
 * how to classify one of its items and how to rebuild text and calls; reading and replaying are the same everywhere.
 */
import { isRecord, jsonText } from './history.js';
/** The neutral assistant message for a provider turn (`content` null when it only calls tools). */
export function assistantMessage(text, calls, provider) {
    if (calls.length === 0)
        return { role: 'assistant', content: text, provider };
    return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls, provider };
}
/** A neutral tool call (what `dispatch` takes). */
export const neutralCall = (id, name, args) => ({ id, type: 'function', function: { name, arguments: args } });
/** A string field, or '' for anything else. */
export function str(value) {
    return typeof value === 'string' ? value : '';
}
/** Arguments as a JSON text: a string as sent, anything else as JSON (`{}` when absent or not encodable). */
export function argumentsText(value, keepString = false) {
    if (keepString && typeof value === 'string')
        return value;
    if (value === undefined || value === null)
        return '{}';
    return jsonText(value) ?? '{}';
}
/** FNV-1a of a text over UTF-16 code units, 8 hex digits: a short stable tag, not a security hash. */
export function fnv1a(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
        h ^= text.charCodeAt(i);
        h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16).padStart(8, '0');
}
/** The object entries of an array (anything else gives []). */
export function items(value) {
    return Array.isArray(value) ? value.filter(isRecord) : [];
}
export const OTHER = { kind: 'other' };
/** The text (joined by `separator`) and the calls of a provider output. */
export function readItems(list, classify, separator = '') {
    const texts = [];
    const calls = [];
    for (const item of list) {
        const c = classify(item);
        if (c.kind === 'text')
            texts.push(c.text);
        else if (c.kind === 'call')
            calls.push(neutralCall(c.id, c.name, c.arguments));
    }
    return { text: texts.join(separator), calls };
}
/**
 * A provider's kept output replayed for a neutral assistant message: every item as received, in order, except text and
 * calls the application changed (rebuilt in place) or removed; added calls are appended. With nothing kept, the turn
 * is built fresh.
 * @example replayItems(state.content, 'Hi', [], anthropicCodec); // → the kept blocks
 */
export function replayItems(kept, text, calls, codec) {
    const classes = kept.map(codec.classify);
    const keptText = classes.flatMap((c) => (c.kind === 'text' ? [c.text] : [])).join(codec.separator ?? '');
    const textSame = keptText === text;
    const out = [];
    const makeText = codec.text;
    let textPlaced = textSame || text === '' || makeText === undefined;
    const placeText = () => {
        if (!textPlaced)
            out.push(makeText(text));
        textPlaced = true;
    };
    let next = 0;
    for (let i = 0; i < kept.length; i++) {
        const c = classes[i];
        const item = kept[i];
        if (c.kind === 'text') {
            if (textSame)
                out.push(item);
            else
                placeText();
        }
        else if (c.kind === 'call') {
            const call = calls[next++];
            if (call === undefined)
                continue; // removed by the application
            // Changed text with no text item to stand in for: before the first call, as a fresh turn has it.
            placeText();
            const sameId = call.id === c.id || (c.id === '' && codec.wireId !== undefined && codec.wireId(call.id, item));
            out.push(sameId && call.name === c.name && call.arguments === c.arguments ? item : codec.call(call, item));
        }
        else {
            out.push(item);
        }
    }
    placeText();
    for (; next < calls.length; next++)
        out.push(codec.call(calls[next], undefined));
    return out;
}
/** An assistant turn as items: its kept state replayed when there is any, else built fresh (a text item unless the turn only calls tools, then the calls). */
export function assistantItems(m, kept, codec) {
    if (kept !== undefined && kept.length > 0)
        return replayItems(kept, m.text, m.calls, codec);
    const out = m.text !== '' || m.calls.length === 0 ? [codec.text(m.text)] : [];
    for (const call of m.calls)
        out.push(codec.call(call, undefined));
    return out;
}
