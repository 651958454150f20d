/**
 * Reading a tool call as the model produced it: its name, call id and arguments, parsed and checked against the
 * router's limits. Everything takes `unknown` and never throws: model input becomes data or a problem, never an exception.
 */
import { LOAD_TOOLKIT_NAME, type RejectionCode } from './contract.js';

/** Limits on model-supplied arguments. Every field has a default; see `DEFAULT_LIMITS`. */
export interface CallLimits {
  /**
   * Longest arguments JSON string accepted, in UTF-16 code units; also the budget for the total length of strings
   * inside an arguments object. Longer input is rejected before `JSON.parse` is attempted.
   */
  readonly maxArgumentsLength: number;
  /** Deepest nesting of objects and arrays accepted in arguments (root object = 1). */
  readonly maxDepth: number;
  /** Most values (objects, arrays, primitives) accepted in one arguments value. */
  readonly maxNodes: number;
}

/** 1 MiB of JSON text, 64 levels, 100,000 values. */
export const DEFAULT_LIMITS: CallLimits = Object.freeze({ maxArgumentsLength: 1_048_576, maxDepth: 64, maxNodes: 100_000 });

/**
 * The router's limits: each given one checked (a whole number, 0 or more: a mistyped limit must not switch the check
 * off), each missing one `DEFAULT_LIMITS`'. Throws a `TypeError` naming the option.
 * @example callLimits({ maxDepth: 8 }); // → { maxArgumentsLength: 1048576, maxDepth: 8, maxNodes: 100000 }
 */
export function callLimits(options: Partial<CallLimits>): CallLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof CallLimits)[]) {
    const value: unknown = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 0) throw new TypeError(`createRouter: ${key} must be a whole number, 0 or more; got ${String(value)}.`);
    limits[key] = value as number;
  }
  return limits;
}

/** A call reduced to what the router needs. */
export interface CallShape {
  /** The tool name as sent; `undefined` when missing or not a string. */
  readonly name: string | undefined;
  /** The provider's call id, when present and a string. */
  readonly callId: string | undefined;
  /** The OpenAI Responses `namespace` field of a call to a native namespace tool (then `name` is the action). */
  readonly namespace: string | undefined;
  /** Whether the call carries an arguments field at all (name-only checks do not). */
  readonly hasArguments: boolean;
  /** The arguments field as sent: a JSON string, an object, or anything else. */
  readonly rawArguments: unknown;
}

/**
 * Read any supported call shape: `{ name, arguments }` (arguments a JSON string or an object), OpenAI Chat `{ id,
 * function: { name, arguments } }`, Anthropic `{ id, name, input }`, Gemini `{ id?, name, args }`, OpenAI Responses `{
 * call_id, name, arguments, namespace? }`. Never throws.
 * @example
 * readCall({ id: 'c1', function: { name: 'get_time', arguments: '{}' } });
 * // → { name: 'get_time', callId: 'c1', namespace: undefined, hasArguments: true, rawArguments: '{}' }
 */
export function readCall(call: unknown): CallShape {
  let name: unknown;
  let id: unknown;
  let namespace: unknown;
  let raw: unknown;
  if (typeof call === 'object' && call !== null) {
    try {
      // Fixed field names, never model-supplied keys.
      const c = call as Record<string, unknown>;
      const fn = c['function'];
      const source = typeof fn === 'object' && fn !== null ? (fn as Record<string, unknown>) : c;
      name = source['name'];
      // Responses items carry both an item `id` and the `call_id` the output must echo.
      id = c['call_id'] ?? c['id'] ?? c['tool_call_id'];
      namespace = c['namespace'];
      // Where each SDK puts a call's arguments: generic / OpenAI, Anthropic, Gemini. Read in this order.
      raw = source['arguments'];
      if (raw === undefined) raw = source['input'];
      if (raw === undefined) raw = source['args'];
      // A Responses client `tool_search_call` carries no name: it is the library's load_toolkit.
      if (name === undefined && c['type'] === 'tool_search_call') name = LOAD_TOOLKIT_NAME;
    } catch {
      // A throwing getter or a Proxy trap: unreadable, so treat as nameless.
      name = id = namespace = raw = undefined;
    }
  }
  return {
    name: typeof name === 'string' ? name : undefined,
    callId: typeof id === 'string' ? id : undefined,
    namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
    hasArguments: raw !== undefined,
    rawArguments: raw,
  };
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
 * Parse raw arguments into a plain object, within limits. A missing value, `null` and an empty or blank string mean "no
 * arguments" (`{}`): providers send those for tools without parameters. Text and objects get the same check. Never
 * throws.
 * @example
 * parseArguments('{"path":"a.ts"}', DEFAULT_LIMITS); // → { ok: true, value: { path: 'a.ts' } }
 * parseArguments('[1]', DEFAULT_LIMITS);            // → { ok: false, code: 'malformed_arguments', … }
 */
export function parseArguments(raw: unknown, limits: CallLimits): ParsedArguments {
  let value: unknown = raw;
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw === 'string') {
    if (raw.length > limits.maxArgumentsLength) return failed({ kind: 'too_long', length: raw.length, limit: limits.maxArgumentsLength });
    try {
      value = JSON.parse(raw);
    } catch (error) {
      // Blank text is no JSON, and means no arguments.
      if (raw.trim() === '') return { ok: true, value: {} };
      return failed({ kind: 'bad_json', detail: error instanceof Error ? error.message : String(error) });
    }
  }
  let kind: string;
  try {
    kind = jsonKind(value); // Array.isArray throws on a revoked Proxy
  } catch {
    return failed({ kind: 'not_json_data', got: 'an unreadable object' });
  }
  if (kind !== 'object') return failed({ kind: 'not_object', got: kind });
  const problem = checkShape(value as object, limits);
  return problem ? failed(problem) : { ok: true, value: value as Record<string, unknown> };
}

function failed(problem: ArgumentsProblem): ParsedArguments { return { ok: false, code: 'malformed_arguments', problem }; }

/**
 * Check a value is JSON data within the depth, size and string-length limits. The value budget bounds the walk even
 * for an SDK object that shares or cycles references. A loop with its own stack, not recursion: a router configured
 * for deep arguments must not overflow the call stack. Never throws.
 */
export function checkShape(root: object, limits: CallLimits): ArgumentsProblem | undefined {
  if (limits.maxNodes < 1) return { kind: 'too_many_values', limit: limits.maxNodes };
  // Each container and its depth, one after the other (no record per container: this runs on every call).
  const pending: (object | number)[] = [root, 1];
  let nodes = 1;
  let chars = 0;
  try {
    while (pending.length > 0) {
      const depth = pending.pop() as number;
      const container = pending.pop() as object;
      if (depth > limits.maxDepth) return { kind: 'too_deep', limit: limits.maxDepth };
      let keys: string[] | undefined;
      if (!Array.isArray(container)) {
        const proto = Object.getPrototypeOf(container);
        if (proto !== Object.prototype && proto !== null) return { kind: 'not_json_data', got: proto?.constructor?.name ?? 'object' };
        keys = Object.keys(container);
      }
      const count = keys ? keys.length : (container as unknown[]).length;
      for (let i = 0; i < count; i++) {
        const key = keys?.[i];
        if (key !== undefined) chars += key.length;
        const value: unknown = key === undefined ? (container as unknown[])[i] : (container as Record<string, unknown>)[key];
        if (++nodes > limits.maxNodes) return { kind: 'too_many_values', limit: limits.maxNodes };
        // Keys count as the strings they are: an object's megabyte key is as long as a megabyte value.
        if (typeof value === 'string') chars += value.length;
        if (chars > limits.maxArgumentsLength) return { kind: 'too_long', length: chars, limit: limits.maxArgumentsLength };
        if (typeof value === 'number') {
          // `1e400` parses to Infinity.
          if (!Number.isFinite(value)) return { kind: 'not_json_data', got: String(value) };
        } else if (typeof value === 'object' && value !== null) pending.push(value, depth + 1);
        else if (typeof value !== 'boolean' && typeof value !== 'string' && value !== null) return { kind: 'not_json_data', got: typeof value };
      }
    }
  } catch {
    return { kind: 'not_json_data', got: 'an unreadable object' };
  }
  return undefined;
}

/** A plain object (own enumerable data, any prototype of Object or null), e.g. `isPlainObject([])` → false. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
