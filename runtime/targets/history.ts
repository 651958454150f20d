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
}

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
 * Read a caller's history into normalized messages. Total: any input gives a
 * list (a non-array gives []), nothing is mutated.
 *
 * @example
 * normalizeMessages([{ role: 'user', content: 'hi' }]);
 * // → [{ role: 'user', text: 'hi', calls: [], callId: '', name: '', positional: false, src: 0 }]
 */
export function normalizeMessages(messages: unknown): NormalizedMessage[] {
  if (!Array.isArray(messages)) return [];
  const out: NormalizedMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (typeof m !== 'object' || m === null) continue;
    const record = m as Record<string, unknown>;
    const role = ROLE_ALIASES[typeof record['role'] === 'string' ? record['role'] : ''] ?? 'user';
    out.push({
      role,
      text: textOf(record['content']),
      calls: role === 'assistant' ? callsOf(record['tool_calls']) : [],
      callId: role === 'tool' ? stringOf(record['tool_call_id']) : '',
      name: typeof record['name'] === 'string' ? record['name'] : '',
      positional: false,
      src: i,
    });
  }
  return out;
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
