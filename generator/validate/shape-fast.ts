/**
 * The spec's shape, checked without zod: a plain walk that says "this value
 * certainly passes `SpecSchema`" (schema/spec-schema.ts) or "ask zod". zod is
 * the one definition of the shape and words every shape problem (shape.ts),
 * but loading it costs a codegen about a tenth of a second and parsing a
 * large spec with it more; a spec with no shape problem (every spec that
 * generates) never needs its messages.
 *
 * The rule this file keeps: `specShapeIsValid(v) === true` only where
 * `SpecSchema.safeParse(v).success` is true. Anything unusual (a key zod
 * would report, an `undefined`, an object that is not a plain `{}`, a symbol
 * key) answers false, and the caller then runs zod, whose verdict and
 * messages are what they always were; a false answer is never a problem by
 * itself. test/spec/shape-fast.test.ts holds it to zod on the fixtures, the
 * bench specs and random mutations of them, and pins the zod schema's
 * structure, so a change to spec-schema.ts fails there until this file
 * follows it.
 */
import { NAMESPACE_ENCODINGS } from '../ir.js';
import { TARGETS } from '../../runtime/contract.js';
import { TOOLKIT_LOADING_STRATEGIES } from '../../runtime/toolkit-loading.js';

/** The keys of each strict object in spec-schema.ts (the test compares them with its `KNOWN_KEYS`). */
export const FAST_KEYS = {
  spec: ['$schema', 'version', 'options', 'tools', 'namespaces', 'toolkits', 'policies'],
  options: ['namespaceEncoding', 'openaiStrict', 'offerUngroupedTools', 'toolkitLoading', 'applyDefaults'],
  tool: ['name', 'description', 'tags', 'parameters', 'returns', 'deferLoading'],
  namespace: ['name', 'description', 'encoding', 'tools'],
  toolkit: ['name', 'description', 'tools'],
} as const;

const SPEC_KEYS = new Set<string>(FAST_KEYS.spec);
const OPTIONS_KEYS = new Set<string>(FAST_KEYS.options);
const TOOL_KEYS = new Set<string>(FAST_KEYS.tool);
const NAMESPACE_KEYS = new Set<string>(FAST_KEYS.namespace);
const TOOLKIT_KEYS = new Set<string>(FAST_KEYS.toolkit);
const ENCODINGS = new Set<unknown>(NAMESPACE_ENCODINGS);
const STRATEGIES = new Set<unknown>(TOOLKIT_LOADING_STRATEGIES);
const TARGET_KEYS = new Set<string>(TARGETS);

type Obj = Record<string, unknown>;

/**
 * A `{}` object: Object.prototype its prototype and `Object` its constructor.
 * That is what zod's `isPlainObject` (records) accepts for sure, and more than
 * its `isObject` (strict objects) asks.
 */
function plain(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype && (v as Obj).constructor === Object;
}

/** Every key zod's strict object sees (`for…in`, inherited enumerable keys too) is one it declares. */
function onlyKeys(o: Obj, allowed: ReadonlySet<string>): boolean {
  for (const key in o) if (!allowed.has(key)) return false;
  return true;
}

/** `z.record(z.string(), …)`'s input check: a plain object with no symbol keys (zod would run the key schema on those). */
function record(v: unknown): v is Obj {
  return plain(v) && Object.getOwnPropertySymbols(v).length === 0;
}

const str = (v: unknown): boolean => typeof v === 'string';
/** An optional key: absent (or, to stay on the safe side, not `undefined` at all: zod would accept it, but nothing here needs to). */
const absent = (o: Obj, key: string): boolean => !(key in o);

function strings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

function tool(v: unknown): boolean {
  if (!plain(v) || !onlyKeys(v, TOOL_KEYS)) return false;
  if (!str(v.name) || !str(v.description)) return false;
  if (!absent(v, 'tags') && !strings(v.tags)) return false;
  if (!absent(v, 'parameters') && !record(v.parameters)) return false;
  if (!absent(v, 'returns') && !record(v.returns)) return false;
  if (!absent(v, 'deferLoading') && typeof v.deferLoading !== 'boolean') return false;
  return true;
}

function toolList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const entry: unknown = v[i];
    if (typeof entry !== 'string' && !tool(entry)) return false;
  }
  return true;
}

function group(v: unknown, keys: ReadonlySet<string>, withEncoding: boolean): boolean {
  if (!plain(v) || !onlyKeys(v, keys)) return false;
  if (!str(v.name) || !str(v.description) || !toolList(v.tools)) return false;
  if (withEncoding && !absent(v, 'encoding') && !ENCODINGS.has(v.encoding)) return false;
  return true;
}

function groups(v: unknown, keys: ReadonlySet<string>, withEncoding: boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!group(v[i], keys, withEncoding)) return false;
  return true;
}

function options(v: unknown): boolean {
  if (!plain(v) || !onlyKeys(v, OPTIONS_KEYS)) return false;
  if (!absent(v, 'namespaceEncoding') && !ENCODINGS.has(v.namespaceEncoding)) return false;
  for (const flag of ['openaiStrict', 'offerUngroupedTools', 'applyDefaults']) if (!absent(v, flag) && typeof v[flag] !== 'boolean') return false;
  if (!absent(v, 'toolkitLoading')) {
    const loading = v.toolkitLoading;
    if (typeof loading === 'string') {
      if (!STRATEGIES.has(loading)) return false;
    } else {
      if (!plain(loading) || !onlyKeys(loading, TARGET_KEYS)) return false;
      for (const target of TARGET_KEYS) if (!absent(loading, target) && !STRATEGIES.has(loading[target])) return false;
    }
  }
  return true;
}

function policies(v: unknown): boolean {
  if (!record(v)) return false;
  for (const key of Object.keys(v)) if (!strings(v[key])) return false;
  return true;
}

/**
 * True only when zod's `SpecSchema` certainly accepts `value`; false means
 * "run zod" (its messages), never "invalid".
 *
 * @example
 * specShapeIsValid({ version: 1, tools: [{ name: 'a', description: 'A' }] }); // true
 * specShapeIsValid({ version: 1, tools: [{ name: 'a', descripton: 'A' }] });  // false: zod words the problem
 */
export function specShapeIsValid(value: unknown): boolean {
  if (!plain(value) || !onlyKeys(value, SPEC_KEYS)) return false;
  if (value.version !== 1) return false;
  if (!absent(value, '$schema') && !str(value.$schema)) return false;
  if (!absent(value, 'options') && !options(value.options)) return false;
  if (!absent(value, 'tools') && !toolList(value.tools)) return false;
  if (!absent(value, 'namespaces') && !groups(value.namespaces, NAMESPACE_KEYS, true)) return false;
  if (!absent(value, 'toolkits') && !groups(value.toolkits, TOOLKIT_KEYS, false)) return false;
  if (!absent(value, 'policies') && !policies(value.policies)) return false;
  return true;
}
