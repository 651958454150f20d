/**
 * One provider-neutral history, converted per target.
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
import type {
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  GeminiContent,
  GeminiPart,
  OpenAIChatMessage,
  ResponsesInputItem,
} from './targets/types.js';

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

// ─── Anthropic ───────────────────────────────────────────────────────────────

type AnthropicBlock = AnthropicTextBlock | AnthropicToolResultBlock | AnthropicToolUseBlock;
interface AnthropicTurn {
  readonly role: 'user' | 'assistant' | 'system';
  readonly blocks: Array<{ block: AnthropicBlock; src: number }>;
}

/** The result of {@link toAnthropicMessages}. */
export interface AnthropicConversion {
  readonly messages: AnthropicMessage[];
  /** Requested breakpoint sources that produced no block (a system message moved to the top level, say). */
  readonly unplacedBreakpoints: number[];
}

/**
 * Messages for `client.messages.create`. Tool calls become `tool_use` blocks
 * with parsed input; tool results become `tool_result` blocks in a user turn,
 * consecutive results merged into one user message (a user message right
 * after results joins it as a text block, after the results as the API
 * requires); positional system messages become mid-conversation `system`
 * messages. Top-level system text is the caller's business (compile-target.ts).
 * `breakpoints` are caller message indices (`src`) whose last block gets
 * `cache_control`.
 *
 * @example
 * toAnthropicMessages(normalizeMessages([{ role: 'user', content: 'hi' }])).messages;
 * // → [{ role: 'user', content: 'hi' }]
 */
export function toAnthropicMessages(
  messages: readonly NormalizedMessage[],
  breakpoints: ReadonlySet<number> = new Set(),
): AnthropicConversion {
  const turns: AnthropicTurn[] = [];
  const last = (): AnthropicTurn | undefined => turns[turns.length - 1];
  const onlyResults = (turn: AnthropicTurn | undefined): boolean =>
    turn !== undefined && turn.role === 'user' && turn.blocks.length > 0 && turn.blocks.every((b) => b.block.type === 'tool_result');

  for (const m of messages) {
    if (m.role === 'system') {
      turns.push({ role: 'system', blocks: [{ block: { type: 'text', text: m.text }, src: m.src }] });
    } else if (m.role === 'tool') {
      const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: m.callId, content: m.text };
      const prev = last();
      if (onlyResults(prev)) prev!.blocks.push({ block, src: m.src });
      else turns.push({ role: 'user', blocks: [{ block, src: m.src }] });
    } else if (m.role === 'user') {
      const block: AnthropicTextBlock = { type: 'text', text: m.text };
      const prev = last();
      if (onlyResults(prev)) prev!.blocks.push({ block, src: m.src });
      else turns.push({ role: 'user', blocks: [{ block, src: m.src }] });
    } else {
      const blocks: AnthropicTurn['blocks'] = [];
      // An empty text block is a 400 on Anthropic; a tool-calling turn needs none.
      if (m.text !== '' || m.calls.length === 0) blocks.push({ block: { type: 'text', text: m.text }, src: m.src });
      for (const call of m.calls) {
        blocks.push({ block: { type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) }, src: m.src });
      }
      turns.push({ role: 'assistant', blocks });
    }
  }

  const unplaced: number[] = [];
  for (const src of breakpoints) {
    let found = false;
    for (let t = turns.length - 1; t >= 0 && !found; t--) {
      const blocks = turns[t]!.blocks;
      for (let b = blocks.length - 1; b >= 0; b--) {
        if (blocks[b]!.src === src) {
          blocks[b]!.block = { ...blocks[b]!.block, cache_control: { type: 'ephemeral' } };
          found = true;
          break;
        }
      }
    }
    if (!found) unplaced.push(src);
  }

  const out: AnthropicMessage[] = turns.map((turn) => {
    const blocks = turn.blocks.map((b) => b.block);
    const only = blocks[0];
    // A lone plain text block is sent as a string: the smallest form, and the seed's.
    if (blocks.length === 1 && only !== undefined && only.type === 'text' && only.cache_control === undefined) {
      return { role: turn.role, content: only.text } as AnthropicMessage;
    }
    return { role: turn.role, content: blocks } as AnthropicMessage;
  });
  return { messages: out, unplacedBreakpoints: unplaced };
}

// ─── OpenAI Chat Completions ─────────────────────────────────────────────────

/**
 * Messages for `client.chat.completions.create`: mostly a pass-through.
 * An assistant turn that only calls tools carries `content: null`.
 *
 * @example
 * toOpenAIChatMessages(normalizeMessages([{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]));
 * // → [{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]
 */
export function toOpenAIChatMessages(messages: readonly NormalizedMessage[]): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.text };
      case 'user':
        return { role: 'user', content: m.text };
      case 'tool':
        return { role: 'tool', tool_call_id: m.callId, content: m.text };
      case 'assistant': {
        if (m.calls.length === 0) return { role: 'assistant', content: m.text };
        return {
          role: 'assistant',
          content: m.text === '' ? null : m.text,
          tool_calls: m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        };
      }
    }
  });
}

// ─── OpenAI Responses ────────────────────────────────────────────────────────

/**
 * Input items for `client.responses.create`: messages as easy input messages,
 * tool calls as `function_call` items (`call_id`, raw `arguments`), tool
 * results as `function_call_output` items; positional system messages stay
 * inline with `systemRole`.
 *
 * @example
 * toResponsesInput(normalizeMessages([{ role: 'assistant', content: null,
 *   tool_calls: [{ id: 'c1', function: { name: 'get_time', arguments: '{}' } }] }]));
 * // → [{ type: 'function_call', call_id: 'c1', name: 'get_time', arguments: '{}' }]
 */
export function toResponsesInput(
  messages: readonly NormalizedMessage[],
  systemRole: 'system' | 'developer' = 'system',
): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'system') items.push({ role: systemRole, content: m.text });
    else if (m.role === 'user') items.push({ role: 'user', content: m.text });
    else if (m.role === 'tool') items.push({ type: 'function_call_output', call_id: m.callId, output: m.text });
    else {
      if (m.text !== '' || m.calls.length === 0) items.push({ role: 'assistant', content: m.text });
      for (const c of m.calls) items.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
    }
  }
  return items;
}

// ─── Gemini ──────────────────────────────────────────────────────────────────

/**
 * Contents for `ai.models.generateContent`: assistant turns as `model` with
 * `functionCall` parts; tool results as `functionResponse` parts in a user
 * turn (the function name looked up from the call id; `response` is always an
 * object: a JSON-object result as is, anything else wrapped as `{ result }`);
 * positional system messages as user text (Gemini has no system role in
 * contents). Consecutive same-role contents are merged, so parallel results
 * answer their calls in one turn.
 *
 * @example
 * toGeminiContents(normalizeMessages([{ role: 'user', content: 'hi' }]));
 * // → [{ role: 'user', parts: [{ text: 'hi' }] }]
 */
export function toGeminiContents(messages: readonly NormalizedMessage[]): GeminiContent[] {
  const contents: GeminiContent[] = [];
  const nameById = new Map<string, string>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    const prev = contents[contents.length - 1];
    if (prev !== undefined && prev.role === role) prev.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'assistant') {
      const parts: GeminiPart[] = [];
      if (m.text !== '' || m.calls.length === 0) parts.push({ text: m.text });
      for (const c of m.calls) {
        if (c.id !== '') nameById.set(c.id, c.name);
        const call: { id?: string; name: string; args: { [key: string]: unknown } } = { name: c.name, args: argumentsObject(c.arguments) };
        if (c.id !== '') call.id = c.id;
        parts.push({ functionCall: call });
      }
      push('model', parts);
    } else if (m.role === 'tool') {
      const name = nameById.get(m.callId) ?? (m.name !== '' ? m.name : m.callId !== '' ? m.callId : 'unknown');
      const response: { id?: string; name: string; response: { [key: string]: unknown } } = { name, response: responseObject(m.text) };
      if (m.callId !== '') response.id = m.callId;
      push('user', [{ functionResponse: response }]);
    } else {
      push('user', [{ text: m.text }]);
    }
  }
  return contents;
}

function responseObject(text: string): { [key: string]: unknown } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as { [key: string]: unknown };
    return { result: parsed };
  } catch {
    return { result: text };
  }
}
