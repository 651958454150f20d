/** JSON helpers of the renderers. Pure: the input is never mutated, key order is kept, `__proto__` keys stay keys. */
import { isRecord } from './history.js';
/** A copy of the schema as providers want it: `$schema` (a document annotation) dropped at the root. */
export function providerSchema(schema) {
    const copy = cloneSchema(schema);
    delete copy['$schema'];
    return copy;
}
/** The provider copy with `type: "object"` first (Anthropic's type demands it). */
export function objectSchema(schema) {
    const copy = providerSchema(schema);
    if (copy['type'] === 'object')
        return copy;
    return Object.fromEntries([['type', 'object'], ...Object.entries(copy).filter(([k]) => k !== 'type')]);
}
/** A deep copy of a schema object ({} for anything that is not an object). */
export function cloneSchema(schema) {
    const copy = cloneJson(schema);
    return isRecord(copy) ? copy : {};
}
/** A key as a JSON Pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointer(key) {
    return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
/** Deep copy of a JSON value, key order kept; non-JSON leaves dropped as JSON.stringify drops them. */
export function cloneJson(value) {
    if (value === null || typeof value === 'string' || typeof value === 'boolean')
        return value;
    if (typeof value === 'number')
        return Number.isFinite(value) ? value : null;
    if (Array.isArray(value))
        return value.map((v) => cloneJson(v) ?? null);
    if (typeof value !== 'object')
        return undefined;
    const entries = [];
    for (const key of Object.keys(value)) {
        const v = cloneJson(value[key]);
        if (v !== undefined)
            entries.push([key, v]);
    }
    return Object.fromEntries(entries);
}
