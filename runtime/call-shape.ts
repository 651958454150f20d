/**
 * Reading a tool call as the model (through some SDK) produced it.
 *
 * Everything here takes `unknown` and never throws: a call is model input, and
 * model input becomes data (a name, raw arguments, a call id) or a problem
 * (a `RejectionCode` with details), never an exception.
 */
import type { RejectionCode } from './contract.js';

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

/** Where each SDK puts a call's arguments: generic / OpenAI, Anthropic, Gemini. Read in this order. */
const ARGUMENT_KEYS = ['arguments', 'input', 'args'] as const;

// Keys read here are fixed strings, never model-supplied, so a plain read is safe.
function field(obj: object, key: string): unknown {
  return (obj as Record<string, unknown>)[key];
}

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
  try {
    let source: object = call;
    const fn = field(call, 'function');
    if (typeof fn === 'object' && fn !== null) source = fn;
    const name = field(source, 'name');
    // Responses items carry both an item `id` and the `call_id` the output must echo.
    const idValue = field(call, 'call_id') ?? field(call, 'id') ?? field(call, 'tool_call_id');
    const namespace = field(call, 'namespace');
    let raw: unknown = undefined;
    for (const key of ARGUMENT_KEYS) {
      raw = field(source, key);
      if (raw !== undefined) break;
    }
    return {
      name: typeof name === 'string' ? name : undefined,
      callId: typeof idValue === 'string' ? idValue : undefined,
      namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
      hasArguments: raw !== undefined,
      rawArguments: raw,
    };
  } catch {
    // A throwing getter or a Proxy trap: unreadable, so treat as nameless.
    return EMPTY_SHAPE;
  }
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

function malformed(problem: ArgumentsProblem): ParsedArguments {
  return { ok: false, code: 'malformed_arguments', problem };
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
  let value: unknown = raw;
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw === 'string') {
    if (raw.length > limits.maxArgumentsLength) {
      return malformed({ kind: 'too_long', length: raw.length, limit: limits.maxArgumentsLength });
    }
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return malformed({ kind: 'bad_json', detail: error instanceof Error ? error.message : String(error) });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return malformed({ kind: 'not_object', got: jsonKind(value) });
  }
  const problem = checkShape(value, limits);
  if (problem) return malformed(problem);
  return { ok: true, value: value as Record<string, unknown> };
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
