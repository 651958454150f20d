import { fnv1a } from './replay.js';
/** Anthropic's pattern for `input_schema.properties` keys. */
export const ANTHROPIC_PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
function readable(key) {
    const plain = key
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^a-zA-Z0-9_.-]/g, '_');
    return plain === '' ? '_' : plain;
}
/** Wire names for the top-level property keys Anthropic refuses; `undefined` when every key fits (the common case: nothing changes). Deterministic. */
export function anthropicKeyPlan(parameters) {
    const properties = parameters['properties'];
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
        return undefined;
    const keys = Object.keys(properties);
    const bad = keys.filter((k) => !ANTHROPIC_PROPERTY_KEY.test(k));
    if (bad.length === 0)
        return undefined;
    const taken = new Set(keys.filter((k) => ANTHROPIC_PROPERTY_KEY.test(k)));
    const plan = Object.create(null);
    for (const key of bad) {
        let wire = readable(key);
        if (wire.length > 64 || taken.has(wire))
            wire = `${wire.slice(0, 55)}_${fnv1a(key)}`;
        for (let n = 2; taken.has(wire); n++)
            wire = `${wire.slice(0, 60 - String(n).length)}_${n}`;
        taken.add(wire);
        plan[wire] = key;
    }
    // A plain object with own keys only (serialized into the generated spec).
    return Object.fromEntries(Object.entries(plan));
}
/** The schema as Anthropic gets it: top-level `properties` and `required` under their wire names (order kept). Returns `parameters` itself without a plan. */
export function anthropicSchema(parameters, plan) {
    if (plan === undefined)
        return parameters;
    const wireOf = new Map(Object.entries(plan).map(([wire, key]) => [key, wire]));
    const properties = parameters['properties'];
    const out = {};
    for (const [k, v] of Object.entries(parameters)) {
        if (k === 'properties') {
            out[k] = Object.fromEntries(Object.entries(properties).map(([key, schema]) => [wireOf.get(key) ?? key, schema]));
        }
        else if (k === 'required' && Array.isArray(v)) {
            out[k] = v.map((key) => (typeof key === 'string' ? (wireOf.get(key) ?? key) : key));
        }
        else {
            Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
        }
    }
    return out;
}
/**
 * Arguments with wire names turned back into spec names, before validation. Pure and total; returns `value` itself when
 * no wire name is present. A wire name sent together with its spec name is left as it is (nothing is dropped).
 * @example applyKeyDecode({ ano: 1982, ok: true }, { ano: 'año' }); // → { 'año': 1982, ok: true }
 */
export function applyKeyDecode(value, plan) {
    if (plan === undefined || typeof value !== 'object' || value === null || Array.isArray(value))
        return value;
    const record = value;
    let hit = false;
    for (const wire in plan) {
        if (Object.hasOwn(plan, wire) && Object.hasOwn(record, wire) && !Object.hasOwn(record, plan[wire])) {
            hit = true;
            break;
        }
    }
    if (!hit)
        return value;
    const out = {};
    for (const key of Object.keys(record)) {
        const original = Object.hasOwn(plan, key) ? plan[key] : undefined;
        const name = original !== undefined && !Object.hasOwn(record, original) ? original : key;
        // defineProperty: a `__proto__` name stays data.
        Object.defineProperty(out, name, { value: record[key], enumerable: true, writable: true, configurable: true });
    }
    return out;
}
