/**
 * Reading a tool call as the model (through some SDK) produced it.
 *
 * Also the inverse of OpenAI strict mode on the arguments read (`decodeNulls`).
 *
 * Everything here takes `unknown` and never throws: a call is model input, and
 * model input becomes data (a name, raw arguments, a call id) or a problem
 * (a `RejectionCode` with details), never an exception.
 */
import { LOAD_TOOLKIT_NAME, type NullDecodePlan, type RejectionCode } from './contract.js';

/** Limits on model-supplied arguments. Every field has a default; see `DEFAULT_LIMITS`. */
export interface CallLimits {
  /**
   * Longest arguments JSON string accepted, in UTF-16 code units; also the
   * budget for the total length of strings inside an arguments object.
   * Longer input is rejected before `JSON.parse` is attempted.
   */
  readonly maxArgumentsLength: number;
  /** Deepest nesting of objects and arrays accepted in arguments (root object = 1). */
  readonly maxDepth: number;
  /** Most values (objects, arrays, primitives) accepted in one arguments value. */
  readonly maxNodes: number;
}

/** 1 MiB of JSON text, 64 levels, 100,000 values. */
export const DEFAULT_LIMITS: CallLimits = Object.freeze({
  maxArgumentsLength: 1_048_576,
  maxDepth: 64,
  maxNodes: 100_000,
});

/** A call reduced to what the router needs. */
export interface CallShape {
  /** The tool name as sent; `undefined` when missing or not a string. */
  readonly name: string | undefined;
  /** The provider's call id, when present and a string. */
  readonly callId: string | undefined;
  /**
   * The OpenAI Responses `namespace` field of a call to a native namespace
   * tool (then `name` is the action); `undefined` otherwise.
   */
  readonly namespace: string | undefined;
  /** Whether the call carries an arguments field at all (name-only checks do not). */
  readonly hasArguments: boolean;
  /** The arguments field as sent: a JSON string, an object, or anything else. */
  readonly rawArguments: unknown;
}

const EMPTY_SHAPE: CallShape = Object.freeze({
  name: undefined,
  callId: undefined,
  namespace: undefined,
  hasArguments: false,
  rawArguments: undefined,
});

/**
 * The fields a call may carry, read by fixed names (never model-supplied keys,
 * so a plain read is safe). Named reads, not `obj[key]` through a helper: each
 * read site keeps its own inline cache, which is what makes reading a call cheap.
 */
export interface CallFields {
  readonly function?: unknown;
  readonly name?: unknown;
  readonly call_id?: unknown;
  readonly id?: unknown;
  readonly tool_call_id?: unknown;
  readonly namespace?: unknown;
  readonly arguments?: unknown;
  readonly input?: unknown;
  readonly args?: unknown;
}

/** A `CallShape` the router fills in place (see {@link readCallInto}). */
export type MutableCallShape = { -readonly [K in keyof CallShape]: CallShape[K] };

/**
 * Read any supported call shape: `{ name, arguments }` (arguments a JSON string
 * or an object), OpenAI Chat `{ id, function: { name, arguments } }`, Anthropic
 * `{ id, name, input }`, Gemini `{ id?, name, args }`, OpenAI Responses
 * `{ call_id, name, arguments, namespace? }`. Never throws.
 *
 * @example
 * readCall({ id: 'c1', function: { name: 'get_time', arguments: '{}' } });
 * // → { name: 'get_time', callId: 'c1', hasArguments: true, rawArguments: '{}' }
 */
export function readCall(call: unknown): CallShape {
  if (typeof call !== 'object' || call === null) return EMPTY_SHAPE;
  const out = { ...EMPTY_SHAPE } as MutableCallShape;
  readCallInto(call, out);
  return out;
}

/**
 * `readCall` into an object the caller owns and reuses, so dispatch reads a
 * call without allocating. Every field of `out` is written. All of the call's
 * fields are read before `out` is touched: a getter on the call that
 * re-enters the router (and refills the same `out`) cannot leave it half
 * written for the outer call. Never throws.
 *
 * @example
 * const scratch = { ...readCall(undefined) };
 * readCallInto({ name: 'get_time', arguments: '{}' }, scratch); // scratch.name === 'get_time'
 */
export function readCallInto(call: unknown, out: MutableCallShape): void {
  let name: unknown;
  let idValue: unknown;
  let namespace: unknown;
  let raw: unknown;
  if (typeof call === 'object' && call !== null) {
    try {
      const c = call as CallFields;
      const fn = c.function;
      const source = typeof fn === 'object' && fn !== null ? (fn as CallFields) : c;
      name = source.name;
      // Responses items carry both an item `id` and the `call_id` the output must echo.
      idValue = c.call_id ?? c.id ?? c.tool_call_id;
      namespace = c.namespace;
      // Where each SDK puts a call's arguments: generic / OpenAI, Anthropic, Gemini. Read in this order.
      raw = source.arguments;
      if (raw === undefined) raw = source.input;
      if (raw === undefined) raw = source.args;
      // A Responses client `tool_search_call` (the loader in the `tool-search`
      // toolkit-loading mode) carries no name: it is the library's load_toolkit.
      if (name === undefined && (c as { type?: unknown }).type === 'tool_search_call') name = LOAD_TOOLKIT_NAME;
    } catch {
      // A throwing getter or a Proxy trap: unreadable, so treat as nameless.
      name = idValue = namespace = raw = undefined;
    }
  }
  out.name = typeof name === 'string' ? name : undefined;
  out.callId = typeof idValue === 'string' ? idValue : undefined;
  out.namespace = typeof namespace === 'string' && namespace !== '' ? namespace : undefined;
  out.hasArguments = raw !== undefined;
  out.rawArguments = raw;
}

/** Why arguments could not be read. */
export type ArgumentsProblem =
  | { readonly kind: 'too_long'; readonly length: number; readonly limit: number }
  | { readonly kind: 'bad_json'; readonly detail: string }
  | { readonly kind: 'not_object'; readonly got: string }
  | { readonly kind: 'too_deep'; readonly limit: number }
  | { readonly kind: 'too_many_values'; readonly limit: number }
  | { readonly kind: 'not_json_data'; readonly got: string };

export type ParsedArguments =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly code: RejectionCode; readonly problem: ArgumentsProblem };

/** What a value is, in JSON words, for messages. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Why raw arguments were refused, as `readArguments` returns it. A class, so
 * `instanceof` tells it from a parsed value: a parsed value is always plain
 * data (Object.prototype or a null prototype), never an instance of this.
 */
export class ArgumentsFailure {
  readonly code: RejectionCode = 'malformed_arguments';
  readonly problem: ArgumentsProblem;
  constructor(problem: ArgumentsProblem) {
    this.problem = problem;
  }
}

/**
 * Parse raw arguments into a plain object, within limits. A missing value,
 * `null` and an empty or blank string mean "no arguments" (`{}`): providers
 * send those for tools without parameters. Never throws.
 *
 * @example
 * parseArguments('{"path":"a.ts"}', DEFAULT_LIMITS); // → { ok: true, value: { path: 'a.ts' } }
 * parseArguments('[1]', DEFAULT_LIMITS);            // → { ok: false, code: 'malformed_arguments', … }
 */
export function parseArguments(raw: unknown, limits: CallLimits): ParsedArguments {
  const value = readArguments(raw, limits);
  if (value instanceof ArgumentsFailure) return { ok: false, code: value.code, problem: value.problem };
  return { ok: true, value };
}

/**
 * `parseArguments` without the result wrapper: the parsed object, or an
 * {@link ArgumentsFailure}. The dispatch hot path uses this form, so a valid
 * call allocates nothing beyond what `JSON.parse` makes. Never throws.
 *
 * @example
 * const v = readArguments('{"path":"a.ts"}', DEFAULT_LIMITS);
 * if (v instanceof ArgumentsFailure) return v.problem;
 */
export function readArguments(raw: unknown, limits: CallLimits, deferWalk = false): Record<string, unknown> | ArgumentsFailure {
  let value: unknown = raw;
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    if (raw.length > limits.maxArgumentsLength) {
      return new ArgumentsFailure({ kind: 'too_long', length: raw.length, limit: limits.maxArgumentsLength });
    }
    // Arguments text almost always starts with `{`, which is not blank: skip the trim then.
    if (raw.charCodeAt(0) !== 0x7b && raw.trim() === '') return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return new ArgumentsFailure({ kind: 'bad_json', detail: error instanceof Error ? error.message : String(error) });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new ArgumentsFailure({ kind: 'not_object', got: jsonKind(value) });
  }
  // Parsed JSON text gets a cheap depth-and-numbers walk (see
  // `parsedWithinLimits`); an object handed over by an SDK, or anything the
  // cheap walk is unsure of, gets the full check. `deferWalk` leaves the walk
  // of text within `maxNodes` to the caller (`deferredLimitsProblem`).
  if (typeof raw !== 'string' || (deferWalk ? raw.length > limits.maxNodes : !parsedWithinLimits(raw, value, limits))) {
    const problem = checkShape(value, limits);
    if (problem) return new ArgumentsFailure(problem);
  }
  return value as Record<string, unknown>;
}

/**
 * Whether `readArguments(raw, limits, true)` may have left the limits walk
 * out: only for text within `maxNodes` (longer text, and anything not text,
 * is always checked at once).
 *
 * @example
 * walkDeferred('{"a":1}', DEFAULT_LIMITS); // → true
 */
export function walkDeferred(raw: unknown, limits: CallLimits): raw is string {
  return typeof raw === 'string' && raw.length <= limits.maxNodes;
}

/**
 * The limits check `readArguments(raw, limits, true)` left out, on a fresh
 * parse of the same text (the first parse's value may have been changed
 * since, e.g. by a validator filling defaults): the failure plain
 * `readArguments` would have returned, or undefined. Call it only for text
 * `readArguments(…, true)` accepted. Never throws.
 *
 * @example
 * const v = readArguments(text, limits, true);
 * // … later, before rejecting the call for another reason:
 * const failure = deferredLimitsProblem(text, limits); // the walk's verdict wins
 */
export function deferredLimitsProblem(raw: string, limits: CallLimits): ArgumentsFailure | undefined {
  const value = readArguments(raw, limits);
  return value instanceof ArgumentsFailure ? value : undefined;
}

/**
 * The limits check `readArguments(raw, limits, true)` left out, on the value
 * it returned, while nothing has changed that value yet. Never throws.
 *
 * @example
 * const v = readArguments(text, limits, true);
 * if (!(v instanceof ArgumentsFailure)) parsedLimitsProblem(text, v, limits); // → undefined within limits
 */
export function parsedLimitsProblem(raw: string, value: object, limits: CallLimits): ArgumentsFailure | undefined {
  if (parsedWithinLimits(raw, value, limits)) return undefined;
  const problem = checkShape(value, limits);
  return problem ? new ArgumentsFailure(problem) : undefined;
}

/**
 * The cheap half of `parsedLimitsProblem` for a value parsed from a part of
 * `raw` that sits `depth` levels below the text's root (1: the root itself):
 * true when the value is certain to pass `checkShape` at that depth, false
 * when the cheap walk is unsure (over the limits, or anything it cannot rule
 * out), and the caller must then decide the whole text the full way. The
 * value budget is `raw.length` (the part holds fewer values than the text
 * has characters). Never throws.
 *
 * @example
 * const text = '{"action":"git_log","args":{"limit":3}}';
 * const args = JSON.parse(text.slice(27, -1));
 * parsedPartWithinLimits(text, args, 2, DEFAULT_LIMITS); // → true
 */
export function parsedPartWithinLimits(raw: string, value: object, depth: number, limits: CallLimits): boolean {
  if (raw.length > limits.maxNodes || !(limits.maxDepth <= FAST_WALK_MAX_DEPTH)) return false;
  walkBudget = raw.length;
  return containerWithin(value, depth, limits.maxDepth);
}

/**
 * Deepest `maxDepth` the recursive fast walk below is used for; a router
 * configured deeper gets the iterative `checkShape` (no recursion to overflow).
 */
const FAST_WALK_MAX_DEPTH = 512;
/** Values the fast walk may still visit (module state: the walk is synchronous and runs no user code). */
let walkBudget = 0;

/**
 * Whether `value = JSON.parse(raw)` is certain to pass `checkShape`, checked
 * with a much cheaper walk than `checkShape`'s, so dispatch stays close to the
 * bare parse + validate. What makes the cheaper walk enough:
 * - JSON.parse only makes plain data (objects with `Object.prototype`,
 *   arrays, strings, numbers, booleans, null), so no prototype check;
 * - every value takes at least one character of the text, so there are at
 *   most `raw.length` values: within `maxNodes` when `raw.length` is;
 * - keys and strings decode to at most the characters they take in the text,
 *   and the caller already checked `raw.length <= maxArgumentsLength`;
 * - what is left is depth and finite numbers (`1e400` parses to Infinity).
 * The walk reads with `for…in` (no key arrays); should `Object.prototype`
 * carry enumerable properties, `for…in` would also visit those, so the walk
 * gives up after `raw.length` values. Giving up only means `checkShape`
 * decides, exactly as it always did: this can skip the full check, never
 * change its outcome.
 */
function parsedWithinLimits(raw: string, value: object, limits: CallLimits): boolean {
  if (raw.length > limits.maxNodes || !(limits.maxDepth <= FAST_WALK_MAX_DEPTH)) return false;
  walkBudget = raw.length;
  return containerWithin(value, 1, limits.maxDepth);
}

/**
 * One container and, recursively, its contents. The per-value test is written
 * out in both loops rather than called: this runs on every dispatch, and the
 * call per value was a measurable part of its cost.
 */
function containerWithin(container: object, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) return false;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      if (--walkBudget < 0) return false;
      const value: unknown = container[i];
      if (typeof value === 'object') {
        if (value !== null && !containerWithin(value, depth + 1, maxDepth)) return false;
      } else if (typeof value === 'number' && !Number.isFinite(value)) return false;
    }
    return true;
  }
  for (const key in container) {
    if (--walkBudget < 0) return false;
    const value = (container as Record<string, unknown>)[key];
    if (typeof value === 'object') {
      if (value !== null && !containerWithin(value, depth + 1, maxDepth)) return false;
    } else if (typeof value === 'number' && !Number.isFinite(value)) return false;
  }
  return true;
}

/**
 * Walk a value iteratively (no recursion, so no stack overflow) and check it is
 * JSON data within the depth, size and string-length limits. Parsed JSON is a
 * tree, but an object handed over by an SDK might share or cycle references;
 * the node budget bounds the walk either way.
 */
function checkShape(root: object, limits: CallLimits): ArgumentsProblem | undefined {
  const stack: unknown[] = [root];
  const depths: number[] = [1];
  let nodes = 0;
  let chars = 0;
  try {
    while (stack.length > 0) {
      const value = stack.pop();
      const depth = depths.pop()!;
      if (++nodes > limits.maxNodes) return { kind: 'too_many_values', limit: limits.maxNodes };
      switch (typeof value) {
        case 'string':
          chars += value.length;
          if (chars > limits.maxArgumentsLength) {
            return { kind: 'too_long', length: chars, limit: limits.maxArgumentsLength };
          }
          continue;
        case 'number':
          if (!Number.isFinite(value)) return { kind: 'not_json_data', got: String(value) };
          continue;
        case 'boolean':
          continue;
        case 'object':
          break;
        default:
          return { kind: 'not_json_data', got: typeof value };
      }
      if (value === null) continue;
      if (depth > limits.maxDepth) return { kind: 'too_deep', limit: limits.maxDepth };
      if (Array.isArray(value)) {
        for (const item of value) {
          stack.push(item);
          depths.push(depth + 1);
        }
        continue;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        return { kind: 'not_json_data', got: proto?.constructor?.name ?? 'object' };
      }
      for (const key of Object.keys(value)) {
        chars += key.length;
        stack.push((value as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  } catch {
    return { kind: 'not_json_data', got: 'an unreadable object' };
  }
  return undefined;
}

/**
 * A plain object (own enumerable data, any prototype of Object or null).
 *
 * @example
 * isPlainObject({}); // → true
 * isPlainObject([]); // → false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Turn OpenAI strict-mode nulls of optional properties back into absent ones.
 * Copies only what changes; never assigns a model-supplied key through `=`.
 *
 * @example
 * decodeNulls({ path: 'a', encoding: null }, { optional: ['encoding'] }); // → { path: 'a' }
 */
export function decodeNulls(value: unknown, plan: NullDecodePlan): unknown {
  if (Array.isArray(value)) {
    if (!plan.items) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const d = decodeNulls(value[i], plan.items);
      if (d !== value[i]) (out ??= [...value])[i] = d;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const key of plan.optional) {
    if (Object.hasOwn(value, key) && value[key] === null) {
      out ??= { ...value };
      delete out[key];
    }
  }
  if (plan.nested) {
    for (const key of Object.keys(plan.nested)) {
      const source = out ?? value;
      if (!Object.hasOwn(source, key)) continue;
      const d = decodeNulls(source[key], plan.nested[key]!);
      if (d !== source[key]) {
        out ??= { ...value };
        Object.defineProperty(out, key, { value: d, writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return out ?? value;
}

/**
 * A deep copy of parsed arguments (plain objects and arrays; other values
 * shared), for validators that fill defaults: the router validates the copy,
 * so a history entry the next compile sends again stays byte for byte as the
 * model sent it. Keys are defined, never assigned, so a `__proto__` key stays
 * an own property. Past `maxDepth` levels the value itself is returned: an
 * object the caller passed was limit-checked before (never that deep), so
 * such a value is a fresh parse of text whose limits check comes after
 * validation (`walkDeferred`), and copying it would only risk the stack.
 *
 * @example
 * const copy = cloneArguments(input, 64); // copy.options !== input.options
 */
export function cloneArguments<T>(value: T, maxDepth: number): T {
  const copy = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) {
      if (depth > maxDepth) throw TOO_DEEP;
      return v.map((item) => copy(item, depth + 1));
    }
    if (!isPlainObject(v)) return v;
    if (depth > maxDepth) throw TOO_DEEP;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      Object.defineProperty(out, key, { value: copy(v[key], depth + 1), writable: true, enumerable: true, configurable: true });
    }
    return out;
  };
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (error === TOO_DEEP) return value;
    throw error;
  }
}

/** Thrown (and caught) by `cloneArguments` past `maxDepth`. */
const TOO_DEEP: unique symbol = Symbol('too deep');
