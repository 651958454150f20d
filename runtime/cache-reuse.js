/**
 * How much of one compiled request a provider's prompt cache can reuse for the next: the request is cut into blocks in
 * the provider's cache order (the adapter's `cacheBlocks`), and the reuse is the longest run of leading blocks that are
 * byte-for-byte equal. A `tool_choice` change counts as breaking everything after the tools (the conservative reading).
 */
import { withoutCacheControl } from './cache-key.js';
import { isRecord } from './targets/history.js';
import { TARGET_ADAPTERS } from './targets/index.js';
const UNSERIALIZABLE = '\u0000unserializable';
/**
 * A compiled payload cut into cache blocks, in its provider's cache order. Total: any payload gives a list; a block
 * that is not JSON never matches.
 * @example
 * cacheBlocks('openai', { messages: [{ role: 'user', content: 'hi' }] });
 * // → [{ section: 'conversation', path: 'messages[0]', json: '{"role":"user","content":"hi"}', bytes: 30 }]
 */
export function cacheBlocks(target, payload) {
    const out = [];
    if (!Object.hasOwn(TARGET_ADAPTERS, target))
        return out;
    TARGET_ADAPTERS[target].cacheBlocks(isRecord(payload) ? payload : {}, (section, path, value) => {
        let json;
        try {
            json = JSON.stringify(withoutCacheControl(value)) ?? 'null';
        }
        catch {
            json = UNSERIALIZABLE;
        }
        out.push({ section, path, json, bytes: Buffer.byteLength(json, 'utf8') });
    });
    return out;
}
/**
 * How much of `previous` (two payloads compiled for the same target) the provider can serve from its cache when `next`
 * is sent; `full` when `next` starts with the whole of `previous` (an append-only conversation).
 * @example
 * const before = router.compile({ target: 'anthropic', system, messages });
 * messages.push(reply, toolResult);
 * cacheReuse('anthropic', before, router.compile({ target: 'anthropic', system, messages })); // → { full: true, reusedBlocks: 7, … }
 */
export function cacheReuse(target, previous, next) {
    const a = cacheBlocks(target, previous);
    const b = cacheBlocks(target, next);
    let reusedBlocks = 0;
    let reusedBytes = 0;
    while (reusedBlocks < a.length && a[reusedBlocks].json === b[reusedBlocks]?.json && a[reusedBlocks].json !== UNSERIALIZABLE)
        reusedBytes += a[reusedBlocks++].bytes;
    const full = reusedBlocks === a.length;
    const result = { target, reusedBlocks, totalBlocks: a.length, reusedBytes, totalBytes: a.reduce((n, block) => n + block.bytes, 0), full };
    return full ? result : { ...result, firstMismatch: a[reusedBlocks] };
}
