/**
 * How much of one compiled request a provider's prompt cache can reuse for the
 * next one: {@link cacheReuse}.
 *
 * Every provider caches a request as a prefix, in a fixed order of sections:
 *
 * | target             | cache order (sections)                                  |
 * | ------------------ | ------------------------------------------------------- |
 * | `anthropic`        | tools → system → tool_choice → messages                 |
 * | `openai`           | tools → tool_choice → messages                          |
 * | `openai-responses` | tools → tool_choice → instructions → input              |
 * | `gemini`           | tools → toolConfig → systemInstruction → contents       |
 *
 * A request is cut into **blocks** along that order, and the reuse of `previous`
 * by `next` is the longest run of leading blocks of `previous` that are
 * byte-for-byte equal (JSON as sent) to the blocks of `next` at the same
 * positions. A block is the smallest unit a later turn can append to without
 * rewriting what came before:
 *
 * - **tools**: one block per entry of the tools list (Gemini: per function
 *   declaration). Anthropic leaves tools with `defer_loading: true` out: the
 *   provider keeps them out of the cached prefix ("Deferred tools are not
 *   included in the system-prompt prefix", Anthropic, tool use with prompt
 *   caching). Responses keeps them: OpenAI still shows a deferred function's
 *   name and description at the start of the request.
 * - **tool_choice** (Gemini `toolConfig`): one block when present. No provider
 *   documents where it sits in the cached prefix; counting a change as a break
 *   of everything after the tools is the conservative reading. Anthropic
 *   documents that a `tool_choice` change invalidates the message cache, hence
 *   its place there.
 * - **system**: Anthropic one block per system text block (a string is one
 *   block); Responses `instructions` and Gemini `systemInstruction`: one block.
 * - **conversation**: Anthropic one block per content block, tagged with its
 *   message's role (a string content is one text block, so a tool-result turn
 *   that gains a text block later keeps its first blocks); OpenAI Chat one
 *   block per message; Responses one block per input item; Gemini one block
 *   per part, tagged with its content's role (consecutive same-role contents
 *   are merged, so parts are what a later turn appends).
 *
 * A block's own `cache_control` marker is left out: it places a breakpoint, it
 * is not prompt content. Bytes are UTF-8 bytes of each block's JSON.
 * A block that is not JSON-serializable counts as a mismatch, never a throw.
 */
import type { Target } from './contract.js';

/** One block of a request, in its provider's cache order. */
export interface CacheBlock {
  /** Which part of the request it belongs to. */
  readonly section: 'tools' | 'tool_choice' | 'system' | 'conversation';
  /** Where it is in the payload, for diagnostics (`tools[2]`, `messages[4].content[1]`). */
  readonly path: string;
  /** The block's JSON (what is compared). */
  readonly json: string;
  /** UTF-8 bytes of `json`. */
  readonly bytes: number;
}

/** How much of `previous` is an exact prefix of `next`. */
export interface CacheReuse {
  readonly target: Target;
  /** Leading blocks of `previous` equal to `next`'s at the same positions. */
  readonly reusedBlocks: number;
  /** Blocks in `previous`. */
  readonly totalBlocks: number;
  /** Bytes of the reused blocks. */
  readonly reusedBytes: number;
  /** Bytes of all blocks of `previous`. */
  readonly totalBytes: number;
  /** `previous` is entirely a prefix of `next`. */
  readonly full: boolean;
  /** The first block of `previous` that `next` does not repeat (absent when `full`). */
  readonly firstMismatch?: CacheBlock;
}

/**
 * Cut a compiled payload into cache blocks, in its provider's cache order (see the module comment).
 * Total: any input gives a list (missing sections give no blocks).
 *
 * @example
 * cacheBlocks('openai', { messages: [{ role: 'user', content: 'hi' }] });
 * // → [{ section: 'conversation', path: 'messages[0]', json: '{"role":"user","content":"hi"}', bytes: 30 }]
 */
export function cacheBlocks(target: Target, payload: unknown): CacheBlock[] {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const out: CacheBlock[] = [];
  const add = (section: CacheBlock['section'], path: string, value: unknown): void => {
    const json = safeJson(stripCacheControl(value));
    out.push({ section, path, json, bytes: Buffer.byteLength(json, 'utf8') });
  };
  switch (target) {
    case 'anthropic': {
      list(p['tools']).forEach((t, i) => {
        if (!isDeferred(t)) add('tools', `tools[${i}]`, t);
      });
      const system = p['system'];
      if (typeof system === 'string') add('system', 'system', { type: 'text', text: system });
      else list(system).forEach((b, i) => add('system', `system[${i}]`, b));
      if (p['tool_choice'] !== undefined) add('tool_choice', 'tool_choice', p['tool_choice']);
      list(p['messages']).forEach((m, i) => {
        const role = (m as { role?: unknown } | null)?.role;
        const content = (m as { content?: unknown } | null)?.content;
        if (typeof content === 'string') add('conversation', `messages[${i}].content`, { role, block: { type: 'text', text: content } });
        else list(content).forEach((b, j) => add('conversation', `messages[${i}].content[${j}]`, { role, block: b }));
      });
      break;
    }
    case 'openai': {
      list(p['tools']).forEach((t, i) => add('tools', `tools[${i}]`, t));
      if (p['tool_choice'] !== undefined) add('tool_choice', 'tool_choice', p['tool_choice']);
      list(p['messages']).forEach((m, i) => add('conversation', `messages[${i}]`, m));
      break;
    }
    case 'openai-responses': {
      list(p['tools']).forEach((t, i) => add('tools', `tools[${i}]`, t));
      if (p['tool_choice'] !== undefined) add('tool_choice', 'tool_choice', p['tool_choice']);
      if (p['instructions'] !== undefined) add('system', 'instructions', p['instructions']);
      const input = p['input'];
      if (typeof input === 'string') add('conversation', 'input', { role: 'user', content: input });
      else list(input).forEach((item, i) => add('conversation', `input[${i}]`, item));
      break;
    }
    case 'gemini': {
      const config = (typeof p['config'] === 'object' && p['config'] !== null ? p['config'] : {}) as Record<string, unknown>;
      list(config['tools']).forEach((tool, i) => {
        const declarations = (tool as { functionDeclarations?: unknown } | null)?.functionDeclarations;
        if (Array.isArray(declarations)) declarations.forEach((d, j) => add('tools', `config.tools[${i}].functionDeclarations[${j}]`, d));
        else add('tools', `config.tools[${i}]`, tool);
      });
      if (config['toolConfig'] !== undefined) add('tool_choice', 'config.toolConfig', config['toolConfig']);
      if (config['systemInstruction'] !== undefined) add('system', 'config.systemInstruction', config['systemInstruction']);
      list(p['contents']).forEach((c, i) => {
        const role = (c as { role?: unknown } | null)?.role;
        list((c as { parts?: unknown } | null)?.parts).forEach((part, j) => add('conversation', `contents[${i}].parts[${j}]`, { role, part }));
      });
      break;
    }
  }
  return out;
}

/**
 * How much of `previous` (two payloads compiled for the same target) the
 * provider can serve from its cache when `next` is sent: the leading blocks of
 * `previous` that `next` repeats exactly, counted in blocks and in bytes.
 * `full` means `next` starts with the whole of `previous`, which is what an
 * append-only conversation gives turn after turn.
 *
 * @example
 * const before = router.compile({ target: 'anthropic', system, messages });
 * messages.push(reply, toolResult);
 * const after = router.compile({ target: 'anthropic', system, messages });
 * cacheReuse('anthropic', before, after); // → { full: true, reusedBlocks: 7, totalBlocks: 7, … }
 */
export function cacheReuse(target: Target, previous: unknown, next: unknown): CacheReuse {
  const a = cacheBlocks(target, previous);
  const b = cacheBlocks(target, next);
  let reusedBlocks = 0;
  let reusedBytes = 0;
  let totalBytes = 0;
  for (const block of a) totalBytes += block.bytes;
  while (reusedBlocks < a.length && reusedBlocks < b.length && a[reusedBlocks]!.json === b[reusedBlocks]!.json && a[reusedBlocks]!.json !== UNSERIALIZABLE) {
    reusedBytes += a[reusedBlocks]!.bytes;
    reusedBlocks++;
  }
  const full = reusedBlocks === a.length;
  const result: CacheReuse = { target, reusedBlocks, totalBlocks: a.length, reusedBytes, totalBytes, full };
  return full ? result : { ...result, firstMismatch: a[reusedBlocks]! };
}

const UNSERIALIZABLE = '\u0000unserializable';

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function isDeferred(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { defer_loading?: unknown }).defer_loading === true;
}

/**
 * The block without its own `cache_control` key (a breakpoint marker, not
 * content). Only the block's top level: deeper down it could be a property
 * name in a tool's schema, which is content.
 */
function stripCacheControl(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if ('block' in record && typeof record['block'] === 'object' && record['block'] !== null && 'role' in record) {
    return { ...record, block: stripCacheControl(record['block']) };
  }
  if (!Object.hasOwn(record, 'cache_control')) return value;
  const { cache_control: _marker, ...rest } = record;
  return rest;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return UNSERIALIZABLE;
  }
}
