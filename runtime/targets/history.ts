/**
 * The provider-neutral history: the shape callers pass to `compile`, and its
 * normalized form that announcement placement and every target's converter
 * read (the converters live in the target modules).
 *
 * The neutral shape is the OpenAI-like one the seed's examples use:
 * `{ role: 'system' | 'user' | 'assistant' | 'tool', content, tool_calls?, tool_call_id? }`.
 * Conversion never throws and never mutates its input: a history is partly
 * model output (tool calls and their arguments), and model input never makes
 * the runtime throw. Garbage degrades to the nearest valid request:
 * - non-string `content` → its text parts joined, else its JSON, else '';
 * - non-object entries are skipped; an unknown role is read as `user`
 *   (`developer` as `system`, `model` as `assistant`);
 * - `tool_calls[].function.arguments` that are not a JSON object, on the two
 *   targets that need an object (Anthropic `tool_use.input`, Gemini
 *   `functionCall.args`), become `{}`: the raw string would be a 400 there, and
 *   the tool result that follows already tells the model its arguments were
 *   malformed. OpenAI Chat and Responses carry the raw string unchanged.
 *
 * Two fields carry a conversation's fidelity (runtime/conversation.ts):
 * `provider` on an assistant message (the provider's own output, replayed by
 * that target's converter) and `is_error` on a tool message. Provider-native
 * entries are read (or rejected) by native.ts before this neutral reading.
 */

/** A tool call as the neutral history carries it (OpenAI Chat's shape). */
export interface NeutralToolCall {
  readonly id: string;
  readonly type?: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** One message of the provider-neutral history. */
export interface NeutralMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  /** `null` is accepted for an assistant turn that only calls tools (OpenAI's shape). */
  readonly content: string | null;
  readonly tool_calls?: readonly NeutralToolCall[];
  readonly tool_call_id?: string;
  /** The tool's name on a `tool` message (optional; Gemini needs it and looks it up by call id otherwise). */
  readonly name?: string;
  /**
   * On a `tool` message: the call was rejected or its handler failed (what
   * `toolMessage` sets from a dispatch result). Rendered per target:
   * Anthropic `tool_result.is_error`, Gemini `functionResponse.response.error`;
   * OpenAI Chat and Responses have no flag and get the text alone.
   */
  readonly is_error?: boolean;
  /**
   * On an `assistant` message: the provider's own output for this turn, kept
   * by `fromProvider` (opaque, plain JSON). Compile for the same target sends
   * it back unchanged; another target drops it with a one-time warning.
   */
  readonly provider?: ProviderState;
}

/**
 * The provider's own assistant output, kept on a neutral message so compile
 * for the same target can send it back unchanged. Opaque: written by
 * `fromProvider`, read by compile. Plain JSON: store it with the history as it is.
 */
export type ProviderState =
  /** `Message.content`, every block as received (thinking and redacted_thinking with their signatures, text, tool_use, server tool blocks). */
  | { readonly target: 'anthropic'; readonly content: readonly ProviderItem[] }
  /** The `ChatCompletionMessage` as received. */
  | { readonly target: 'openai'; readonly message: ProviderItem }
  /** `Response.output`, every item as received (reasoning with encrypted_content, message and function_call items with their ids). */
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
  /**
   * A system message placed by compile (the `system` announcement channel):
   * it stays where it is instead of joining the top-level system prompt.
   */
  readonly positional: boolean;
  /** Index in the caller's `messages`; -1 for a message compile inserted. */
  readonly src: number;
  /** A `tool` message flagged `is_error`. */
  readonly isError?: boolean;
  /**
   * The provider state of an assistant message: a well-formed one, or `null`
   * when the message had a `provider` field toolroute cannot read (compile
   * drops both a foreign and an unreadable state with a warning).
   */
  readonly state?: ProviderState | null;
}

const ROLE_ALIASES: Readonly<Record<string, NormalizedMessage['role']>> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  model: 'assistant',
  tool: 'tool',
};

/**
 * Reads one provider-native history entry (an Anthropic block array, a Gemini
 * `{ role, parts }` content, Responses items…) into normalized messages, or
 * returns `undefined` when the entry is not native. May throw
 * `ToolrouteConfigError` for a native entry compile cannot carry. The
 * compile pipeline passes runtime/targets/native.ts `readNativeEntry`.
 */
export type NativeReader = (entry: Record<string, unknown>, index: number, entries: readonly unknown[]) => { readonly messages: NormalizedMessage[]; readonly consumed: number } | undefined;

/**
 * Read a caller's history into normalized messages. Any input gives a list (a
 * non-array gives []), nothing is mutated. With `readNative`, provider-native
 * entries are read by it (see {@link NativeReader}); without, every entry is
 * read as neutral.
 *
 * @example
 * normalizeMessages([{ role: 'user', content: 'hi' }]);
 * // → [{ role: 'user', text: 'hi', calls: [], callId: '', name: '', positional: false, src: 0 }]
 */
export function normalizeMessages(messages: unknown, readNative?: NativeReader): NormalizedMessage[] {
  if (!Array.isArray(messages)) return [];
  const out: NormalizedMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (typeof m !== 'object' || m === null) continue;
    const record = m as Record<string, unknown>;
    if (readNative !== undefined) {
      const native = readNative(record, i, messages);
      if (native !== undefined) {
        for (const n of native.messages) out.push(n);
        i += native.consumed - 1;
        continue;
      }
    }
    out.push(normalizeOne(record, i));
  }
  return out;
}

/**
 * One neutral entry, normalized; `src` is its index in the caller's history.
 *
 * @example
 * normalizeOne({ role: 'tool', tool_call_id: 'c1', content: 'no', is_error: true }, 3).isError; // → true
 */
export function normalizeOne(record: Record<string, unknown>, src: number): NormalizedMessage {
  const role = ROLE_ALIASES[typeof record['role'] === 'string' ? record['role'] : ''] ?? 'user';
  const message: { -readonly [K in keyof NormalizedMessage]: NormalizedMessage[K] } = {
    role,
    text: textOf(record['content']),
    calls: role === 'assistant' ? callsOf(record['tool_calls']) : [],
    callId: role === 'tool' ? stringOf(record['tool_call_id']) : '',
    name: typeof record['name'] === 'string' ? record['name'] : '',
    positional: false,
    src,
  };
  // Only set when present: the common message keeps the plain shape (and its bytes in tests).
  if (role === 'tool' && record['is_error'] === true) message.isError = true;
  if (record['provider'] !== undefined) message.state = role === 'assistant' ? readState(record['provider']) : null;
  return message;
}

const STATE_FIELD: Readonly<Record<string, string>> = { anthropic: 'content', openai: 'message', 'openai-responses': 'output', gemini: 'parts' };

/** A well-formed provider state, or null (compile warns and drops it). */
function readState(value: unknown): ProviderState | null {
  if (typeof value !== 'object' || value === null) return null;
  const target = (value as { target?: unknown }).target;
  const field = typeof target === 'string' && Object.hasOwn(STATE_FIELD, target) ? STATE_FIELD[target]! : undefined;
  if (field === undefined) return null;
  const data = (value as Record<string, unknown>)[field];
  if (field === 'message') return typeof data === 'object' && data !== null && !Array.isArray(data) ? (value as ProviderState) : null;
  return Array.isArray(data) && data.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) ? (value as ProviderState) : null;
}

/**
 * The text of a message's content, whatever shape it came in: a string as is,
 * text parts joined by newlines, null → '', anything else as JSON.
 *
 * @example
 * textOf([{ type: 'text', text: 'a' }, 'b']); // → 'a\nb'
 */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const part of content) {
      if (typeof part === 'string') texts.push(part);
      else if (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string') {
        texts.push((part as { text: string }).text);
      }
    }
    return texts.join('\n');
  }
  return safeStringify(content);
}

function callsOf(value: unknown): NormalizedCall[] {
  if (!Array.isArray(value)) return [];
  const calls: NormalizedCall[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const fn = typeof record['function'] === 'object' && record['function'] !== null ? (record['function'] as Record<string, unknown>) : record;
    const args = fn['arguments'];
    calls.push({
      id: stringOf(record['id']),
      name: stringOf(fn['name']),
      arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : safeStringify(args),
    });
  }
  return calls;
}

function stringOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/**
 * Tool-call arguments as a JSON object for the targets that need one.
 * Anything that is not a JSON object (bad JSON, an array, a number, '') gives `{}`.
 *
 * @example
 * argumentsObject('{"path":"a.ts"}'); // → { path: 'a.ts' }
 * argumentsObject('{"path":');        // → {}
 */
export function argumentsObject(raw: string): { [key: string]: unknown } {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { [key: string]: unknown }) : {};
  } catch {
    return {};
  }
}
