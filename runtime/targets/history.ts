/**
 * The provider-neutral history callers pass to `compile` (the reference library's OpenAI-like messages), and its normalized form
 * every target's converter reads. Normalizing never throws or mutates: a history is partly model output, so garbage
 * degrades to the nearest valid request.
 */

import { checkShape, DEFAULT_LIMITS, jsonKind } from '../call-shape.js';

/** A tool call as the neutral history carries it (OpenAI Chat's shape). */
export interface NeutralToolCall { readonly id: string; readonly type?: 'function'; readonly function: { readonly name: string; readonly arguments: string } }

/** One message of the provider-neutral history. */
export interface NeutralMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  /** `null` is accepted for an assistant turn that only calls tools (OpenAI's shape). */
  readonly content: string | null;
  readonly tool_calls?: readonly NeutralToolCall[];
  readonly tool_call_id?: string;
  /** The tool's name on a `tool` message (Gemini needs it; looked up by call id otherwise). */
  readonly name?: string;
  /** On a `tool` message: the call was rejected or failed (Anthropic `is_error`, Gemini `response.error`; text alone on OpenAI). */
  readonly is_error?: boolean;
  /** On an `assistant` message: the provider's own output, kept by `fromProvider` and replayed to the same target. */
  readonly provider?: ProviderState;
}

/** The provider's own assistant output, opaque plain JSON: store it with the history as it is. */
export type ProviderState =
  /** `Message.content`, every block as received (thinking blocks with their signatures). */
  | { readonly target: 'anthropic'; readonly content: readonly ProviderItem[] }
  /** The `ChatCompletionMessage` as received. */
  | { readonly target: 'openai'; readonly message: ProviderItem }
  /** `Response.output`, every item as received (reasoning with encrypted_content, item ids). */
  | { readonly target: 'openai-responses'; readonly output: readonly ProviderItem[] }
  /** The first candidate's `content.parts`, every part as received (thought parts, thoughtSignature). */
  | { readonly target: 'gemini'; readonly parts: readonly ProviderItem[] };

/** One block, item or part of a provider's output: a JSON object toolroute reads only by its type. */
export type ProviderItem = { readonly [key: string]: unknown };

/** A tool call after normalization: every field a string. */
export interface NormalizedCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model sent them (a JSON text, or whatever it was). */
  readonly arguments: string;
}

/** A message after normalization, as the placement and the converters read it. */
export interface NormalizedMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly text: string;
  readonly calls: readonly NormalizedCall[];
  /** `tool_call_id` of a tool message; '' otherwise. */
  readonly callId: string;
  readonly name: string;
  /** Index in the caller's `messages`; -1 for a message compile inserted. */
  readonly src: number;
  readonly isError?: boolean;
  /** A well-formed provider state, or `null` for a `provider` field toolroute cannot read (compile drops both with a warning). */
  readonly state?: ProviderState | null;
}

/** Each role a history may name, as its normalized role. A Map: `constructor` or `__proto__` as a role is unknown, so `user`. */
const ROLE_ALIASES: ReadonlyMap<unknown, NormalizedMessage['role']> = new Map([
  ['system', 'system'], ['developer', 'system'], ['user', 'user'], ['assistant', 'assistant'], ['model', 'assistant'], ['tool', 'tool'],
]);

/** Reads a provider-native entry into messages (native.ts), or undefined for a neutral one. */
export type NativeReader = (entry: Record<string, unknown>, index: number, entries: readonly unknown[]) => { readonly messages: NormalizedMessage[]; readonly consumed: number } | undefined;

/** A caller's history, normalized. Any input gives a list; nothing is mutated. `unread` gets each entry not read as written. */
export function normalizeMessages(messages: unknown, readNative?: NativeReader, unread?: string[]): NormalizedMessage[] {
  if (!Array.isArray(messages)) return [];
  const out: NormalizedMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (!isRecord(m)) { unread?.push(`messages[${i}] (${jsonKind(m)}, left out)`); continue; }
    const native = readNative?.(m, i, messages);
    if (native === undefined && !ROLE_ALIASES.has(m['role'])) unread?.push(`messages[${i}] (${roleWords(m['role'])}, read as user)`);
    out.push(...(native?.messages ?? [normalizeOne(m, i)]));
    i += (native?.consumed ?? 1) - 1;
  }
  return out;
}

const roleWords = (role: unknown): string => (role === undefined ? 'no role' : typeof role === 'string' ? `role ${JSON.stringify(role.slice(0, 40))}` : `a ${jsonKind(role)} role`);

/** One neutral entry, normalized; `src` is its index in the caller's history. */
export function normalizeOne(record: Record<string, unknown>, src: number): NormalizedMessage {
  const role = ROLE_ALIASES.get(record['role']) ?? 'user';
  const message: { -readonly [K in keyof NormalizedMessage]: NormalizedMessage[K] } = {
    role,
    text: textOf(record['content']),
    calls: role === 'assistant' ? callsOf(record['tool_calls']) : [],
    callId: role === 'tool' ? stringOf(record['tool_call_id']) : '',
    name: typeof record['name'] === 'string' ? record['name'] : '',
    src,
  };
  if (role === 'tool' && record['is_error'] === true) message.isError = true;
  if (record['provider'] !== undefined) message.state = role === 'assistant' ? readState(record['provider']) : null;
  return message;
}

const STATE_FIELD: ReadonlyMap<unknown, string> = new Map([['anthropic', 'content'], ['openai', 'message'], ['openai-responses', 'output'], ['gemini', 'parts']]);

function readState(value: unknown): ProviderState | null {
  if (!isRecord(value)) return null;
  const field = STATE_FIELD.get(value['target']);
  if (field === undefined) return null;
  const data = value[field];
  return (field === 'message' ? isRecord(data) : Array.isArray(data) && data.every(isRecord)) ? (value as ProviderState) : null;
}

/** The text of a message's content: a string as is, text parts joined by newlines, null → '', else JSON. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return jsonText(content) ?? '';
  // A part is its own text when a string, else its `text` field; a part whose text is no string is skipped.
  const texts = content.map((part: unknown) => (isRecord(part) ? part['text'] : part));
  return texts.filter((text): text is string => typeof text === 'string').join('\n');
}

function callsOf(value: unknown): NormalizedCall[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item) => typeof item === 'object' && item !== null).map((record: Record<string, unknown>) => {
    const fn = typeof record['function'] === 'object' && record['function'] !== null ? (record['function'] as Record<string, unknown>) : record;
    const args = fn['arguments'];
    return {
      id: stringOf(record['id']),
      name: stringOf(fn['name']),
      arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : (jsonText(args) ?? UNENCODABLE),
    };
  });
}

function stringOf(value: unknown): string { return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''; }

/**
 * `JSON.stringify` that never throws (undefined for a value JSON cannot write) and drops no data JSON alone would: a Map
 * is an object (its entries, when a key is not a string), a Set a list, a BigInt a number (its digits as a string
 * beyond 2^53, where a number would change it), an Error its name, message, cause and own fields (`{}` to JSON).
 * @example jsonText({ ids: new Set([1, 2]), big: 10n }); // → '{"ids":[1,2],"big":10}'
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, jsonForm);
  } catch {
    return undefined;
  }
}

/** jsonText's replacer: the JSON form of what plain JSON would lose. */
function jsonForm(_key: string, v: unknown): unknown {
  if (v instanceof Map) return [...v.keys()].every((k) => typeof k === 'string') ? Object.fromEntries(v) : [...v];
  if (v instanceof Set) return [...v];
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  // `name`, `message` and `cause` are not enumerable; the stack is left out (paths of the host, no use to a model).
  if (v instanceof Error) return { ...v, name: v.name, message: v.message, ...(v.cause !== undefined ? { cause: v.cause } : {}) };
  return v;
}

/**
 * The text of a value JSON cannot write (a function, a cyclic or too deeply nested value). Not JSON itself: arguments
 * carrying it are rejected as malformed, never run as `{}`; and no function's source reaches the model.
 */
export const UNENCODABLE = '(a value JSON cannot encode)';

/**
 * A tool's result as the model reads it: a string as is, `undefined` as '', else JSON as `jsonText` writes it
 * (`UNENCODABLE` when JSON cannot write it). Never throws.
 * @example resultText({ temp: 21 }); // → '{"temp":21}'
 */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? '' : (jsonText(value) ?? UNENCODABLE);
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is ProviderItem { return typeof value === 'object' && value !== null && !Array.isArray(value); }

/** Tool-call arguments as a JSON object for the targets that need one; `{}` for anything else. */
export function argumentsObject(raw: string): { [key: string]: unknown } {
  const parsed = parseOr(raw, undefined);
  return isRecord(parsed) ? (parsed as { [key: string]: unknown }) : {};
}

/**
 * `text` parsed as JSON, or `fallback` when it is not JSON.
 * @example parseOr('{not json', ''); // → ''
 */
export function parseOr(text: string, fallback: unknown): unknown {
  // Most tool results are plain text, and a thrown SyntaxError costs far more than this look at the first character:
  // compile reads every result of the history on every turn. JSON text starts (after whitespace) with one of these.
  if (!/^\s*[[{"\-\dtfn]/.test(text)) return fallback;
  try {
    const value = JSON.parse(text) as unknown;
    // Nested deeper than a call's arguments may be, it would make the payload one the SDKs cannot serialize (their
    // serializers recurse): such a value stays text.
    return typeof value === 'object' && value !== null && checkShape(value, HISTORY_LIMITS) !== undefined ? fallback : value;
  } catch {
    return fallback;
  }
}

/** Only the depth limit of a call's arguments applies to what the history carries. */
const HISTORY_LIMITS = { maxArgumentsLength: Infinity, maxDepth: DEFAULT_LIMITS.maxDepth, maxNodes: Infinity };
