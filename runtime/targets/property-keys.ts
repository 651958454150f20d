/**
 * Anthropic answers 400 for a whole request when a tool's top-level property key breaks `^[a-zA-Z0-9_.-]{1,64}$`
 * (`año_vehiculo`, `$top`). Such a tool's Anthropic rendering gets wire names that fit, and its key decode maps them
 * back at dispatch, before validation; a wire name never equals a spec name of the same object.
 */
import type { KeyDecodePlan } from '../contract.js';
import { isRecord } from './history.js';
import { fnv1a } from './replay.js';
import { withoutTopCombinators } from './schema.js';

export type { KeyDecodePlan };

/** Anthropic's pattern for `input_schema.properties` keys. */
export const ANTHROPIC_PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

type Schema = Readonly<Record<string, unknown>>;

function readable(key: string): string {
  const plain = key.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-zA-Z0-9_.-]/g, '_');
  return plain === '' ? '_' : plain;
}

/** Wire names for the top-level property keys Anthropic refuses; `undefined` when every key fits (the common case: nothing changes). Deterministic. */
export function anthropicKeyPlan(parameters: Schema): KeyDecodePlan | undefined {
  // The keys Anthropic is shown: those of a top-level `anyOf` / `oneOf` / `allOf` member join the top there.
  const properties = withoutTopCombinators(parameters)['properties'];
  if (!isRecord(properties)) return undefined;
  const keys = Object.keys(properties);
  const bad = keys.filter((k) => !ANTHROPIC_PROPERTY_KEY.test(k));
  if (bad.length === 0) return undefined;
  const taken = new Set(keys.filter((k) => ANTHROPIC_PROPERTY_KEY.test(k)));
  const plan: [wire: string, key: string][] = [];
  for (const key of bad) {
    let wire = readable(key);
    if (wire.length > 64 || taken.has(wire)) wire = `${wire.slice(0, 55)}_${fnv1a(key)}`;
    for (let n = 2; taken.has(wire); n++) wire = `${wire.slice(0, 60 - String(n).length)}_${n}`;
    taken.add(wire);
    plan.push([wire, key]);
  }
  // A plain object with own keys only (serialized into the generated spec).
  return Object.fromEntries(plan);
}

/** The schema as Anthropic gets it: top-level `properties` and `required` under their wire names (order kept). Returns `parameters` itself without a plan. */
export function anthropicSchema(parameters: Schema, plan: KeyDecodePlan | undefined): Schema {
  if (plan === undefined) return parameters;
  const wireOf = new Map(Object.entries(plan).map(([wire, key]) => [key, wire]));
  const renamed = (k: string, v: unknown): unknown => {
    if (k === 'properties') return Object.fromEntries(Object.entries(v as Schema).map(([key, schema]) => [wireOf.get(key) ?? key, schema]));
    if (k === 'required' && Array.isArray(v)) return v.map((key: unknown) => (typeof key === 'string' ? (wireOf.get(key) ?? key) : key));
    return v;
  };
  // fromEntries defines own data properties, so a `__proto__` key stays a key.
  return Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, renamed(k, v)]));
}

/**
 * Arguments with wire names turned back into spec names, before validation. Pure and total; returns `value` itself when
 * no wire name is present. A wire name sent together with its spec name is left as it is (nothing is dropped).
 * @example applyKeyDecode({ ano: 1982, ok: true }, { ano: 'año' }); // → { 'año': 1982, ok: true }
 */
export function applyKeyDecode(value: unknown, plan: KeyDecodePlan | undefined): unknown {
  if (plan === undefined || !isRecord(value)) return value;
  if (!Object.keys(plan).some((wire) => Object.hasOwn(value, wire) && !Object.hasOwn(value, plan[wire]!))) return value;
  // fromEntries defines own data properties, so a `__proto__` name stays data.
  return Object.fromEntries(Object.keys(value).map((key) => {
    const original = Object.hasOwn(plan, key) ? plan[key]! : undefined;
    return [original !== undefined && !Object.hasOwn(value, original) ? original : key, value[key]];
  }));
}
