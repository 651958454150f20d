/**
 * The prompt-cache key of a compiled payload: sha256 of the canonical JSON of what the provider caches before the
 * conversation (target, cached tools, `tool_choice`, system text), so it changes exactly when those bytes do.
 */
import { createHash } from 'node:crypto';
const KEY_FORMAT = 2;
// The last prefix per tools array: a turn with the same frozen tools, choice and system is a lookup, not a
// serialization of every tool.
const last = new WeakMap();
const byPayload = new WeakMap();
/** The cached prefix of a compile (targets/compile.ts), memoized on `tools`' identity. */
export function stablePrefix(adapter, tools, system, toolChoice) {
    const { target } = adapter;
    const choice = toolChoice === undefined ? undefined : canonicalJson(toolChoice);
    const hit = last.get(tools);
    if (hit !== undefined && hit.target === target && hit.choice === choice && hit.system === system)
        return hit.prefix;
    const cached = adapter.cachedTools(tools).map(withoutCacheControl);
    const serialized = canonicalJson({ v: KEY_FORMAT, target, tools: cached, tool_choice: toolChoice, system });
    const prefix = Object.freeze({ key: createHash('sha256').update(serialized).digest('hex'), serialized, toolCount: cached.length });
    last.set(tools, { target, choice, system, prefix });
    return prefix;
}
/** A value without its own top-level `cache_control` marker (deeper down it could be a schema property, which is content). */
export function withoutCacheControl(value) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'cache_control'))
        return value;
    const { cache_control: _marker, ...rest } = value;
    return rest;
}
/** Remember which prefix a compiled payload was built on. */
export function registerPayloadPrefix(payload, prefix) {
    byPayload.set(payload, prefix);
}
/**
 * The cache key of a compiled payload, equal exactly when the bytes the provider caches before the conversation are;
 * undefined for an object that did not come from compile.
 * @example cacheKey(router.compile({ target: 'anthropic', messages })); // → '3f1c…'; unchanged by announce(), blocking, native toolkit loads
 */
export function cacheKey(payload) {
    return byPayload.get(payload)?.key;
}
/**
 * The serialized stable prefix of a compiled payload (what {@link cacheKey} hashes), for tests and diagnostics.
 * @example stablePrefixOf(payload)?.toolCount; // → 3
 */
export function stablePrefixOf(payload) {
    return byPayload.get(payload);
}
/**
 * JSON with object keys sorted by UTF-16 code units (locale-independent), so the same value gives the same bytes on
 * every machine; `undefined` members omitted as JSON.stringify omits them.
 * @example canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // → '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value) {
    if (value === null || typeof value !== 'object')
        return JSON.stringify(value) ?? 'null';
    if (Array.isArray(value))
        return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
    const record = value;
    const parts = [];
    for (const key of Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        const v = record[key];
        if (v !== undefined && typeof v !== 'function' && typeof v !== 'symbol')
            parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
    }
    return `{${parts.join(',')}}`;
}
