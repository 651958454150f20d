/**
 * Reading a provider's output into the neutral history, and replaying it:
 * the shared half of every target's `readResponse` and of the assistant
 * branch of its `convertMessages`. A target supplies how to classify one of
 * its items (text, a tool call, or state it does not read) and how to rebuild
 * text and calls; this module does the rest the same way for every target.
 */
import type { NeutralMessage, NeutralToolCall, ProviderItem, ProviderState } from './history.js';

/**
 * The neutral assistant message for a provider turn: `content` is the text
 * (`null` when the turn only calls tools, OpenAI's shape), `tool_calls` only
 * when there are calls, `provider` the kept output.
 *
 * @example
 * assistantMessage('Hi', [], { target: 'gemini', parts: [{ text: 'Hi' }] });
 * // → { role: 'assistant', content: 'Hi', provider: { target: 'gemini', parts: [{ text: 'Hi' }] } }
 */
export function assistantMessage(text: string, calls: NeutralToolCall[], provider: ProviderState): NeutralMessage {
  // Key order: role, content, tool_calls, provider (the order the history is read in).
  if (calls.length === 0) return { role: 'assistant', content: text, provider };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls, provider };
}

/**
 * A neutral tool call (OpenAI Chat's shape, what `dispatch` takes).
 *
 * @example
 * neutralCall('c1', 'get_time', '{}'); // → { id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } }
 */
export const neutralCall = (id: string, name: string, args: string): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: args } });

/**
 * A JSON object (not null, not an array).
 *
 * @example
 * isRecord({ type: 'text' }); // → true
 * isRecord([1]);              // → false
 */
export function isRecord(value: unknown): value is ProviderItem {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A string field, or '' for anything else.
 *
 * @example
 * str(5); // → ''
 */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * JSON text of a parsed arguments object; `{}` when absent or not encodable; never throws.
 *
 * @example
 * argumentsText({ city: 'Lisbon' }); // → '{"city":"Lisbon"}'
 * argumentsText(10n);                // → '{}'
 */
export function argumentsText(value: unknown): string {
  if (value === undefined || value === null) return '{}';
  try {
    return JSON.stringify(value) ?? '{}';
  } catch {
    return '{}';
  }
}

/**
 * FNV-1a of a text, 8 hex digits: a short stable tag, not a security hash.
 *
 * @example
 * fnv1a('a'); // → 'e40c292c'
 */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The object entries of an array (anything else gives []).
 *
 * @example
 * items([{ a: 1 }, null, 2]); // → [{ a: 1 }]
 */
export function items(value: unknown): ProviderItem[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

// ─── Reading and replaying items ─────────────────────────────────────────────

/** What a provider item is to the neutral history: text, a tool call, or state it does not read. */
export type ItemClass =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly id: string; readonly name: string; readonly arguments: string }
  | { readonly kind: 'other' };

/** The class of an item the neutral history does not read (kept as state). */
export const OTHER: ItemClass = { kind: 'other' };

/**
 * The text (joined by `separator`) and the calls of a provider output.
 *
 * @example
 * readItems([{ type: 'text', text: 'Hi' }], classifyAnthropicBlock); // → { text: 'Hi', calls: [] }
 */
export function readItems(list: readonly ProviderItem[], classify: (item: ProviderItem) => ItemClass, separator = ''): { text: string; calls: NeutralToolCall[] } {
  const texts: string[] = [];
  const calls: NeutralToolCall[] = [];
  for (const item of list) {
    const c = classify(item);
    if (c.kind === 'text') texts.push(c.text);
    else if (c.kind === 'call') calls.push(neutralCall(c.id, c.name, c.arguments));
  }
  return { text: texts.join(separator), calls };
}

/** A call as compile reads it from the neutral history. */
export interface ReplayCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** How one target rebuilds what the application changed, for {@link replayItems}. */
export interface ReplayCodec<O> {
  readonly classify: (item: ProviderItem) => ItemClass;
  /** The separator fromProvider joined text items with. */
  readonly separator?: string;
  /** A text item for changed text; absent when the target carries text outside the items (Chat's `content`). */
  readonly text?: (text: string) => O;
  /** A call rebuilt from the neutral history; `raw` is the item it replaces (to keep what it can, e.g. a thought signature). */
  readonly call: (call: ReplayCall, raw: ProviderItem | undefined) => O;
  /** A neutral call id the provider never saw (Gemini calls without an id): compared as ''. */
  readonly wireId?: (neutralId: string, raw: ProviderItem) => boolean;
}

/**
 * Replay a provider's kept output for a neutral assistant message: every item
 * as received, in order, except text and calls the application changed since
 * (those are rebuilt from the neutral `text` / `calls` in their place) or
 * removed; calls it added are appended. Unchanged state comes back as the
 * very objects received, so their JSON is byte for byte what the provider sent.
 *
 * @example
 * replayItems(state.content, 'Hi', [], anthropicCodec); // → the kept blocks
 */
export function replayItems<O>(
  kept: readonly ProviderItem[],
  text: string,
  calls: readonly ReplayCall[],
  codec: ReplayCodec<O>,
): (ProviderItem | O)[] {
  const classes = kept.map(codec.classify);
  let keptText = '';
  let textItems = 0;
  for (const c of classes) {
    if (c.kind !== 'text') continue;
    keptText = textItems === 0 ? c.text : keptText + (codec.separator ?? '') + c.text;
    textItems++;
  }
  const textSame = keptText === text;
  const out: (ProviderItem | O)[] = [];
  const makeText = codec.text;
  let textPlaced = textSame || text === '' || makeText === undefined;
  let next = 0;
  for (let i = 0; i < kept.length; i++) {
    const c = classes[i]!;
    const item = kept[i]!;
    if (c.kind === 'text') {
      if (textSame) out.push(item);
      else if (!textPlaced) {
        out.push(makeText!(text));
        textPlaced = true;
      }
    } else if (c.kind === 'call') {
      const call = calls[next++];
      if (call === undefined) continue; // removed by the application
      if (!textPlaced) {
        // Changed text with no text item to stand in for: before the first call, as a fresh turn would have it.
        out.push(makeText!(text));
        textPlaced = true;
      }
      const sameId = call.id === c.id || (c.id === '' && codec.wireId !== undefined && codec.wireId(call.id, item));
      out.push(sameId && call.name === c.name && call.arguments === c.arguments ? item : codec.call(call, item));
    } else {
      out.push(item);
    }
  }
  if (!textPlaced) out.push(makeText!(text));
  for (; next < calls.length; next++) out.push(codec.call(calls[next]!, undefined));
  return out;
}

