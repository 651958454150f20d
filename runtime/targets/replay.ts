/**
 * The shared half of every target's `readResponse` and of the assistant branch of its history converter: a target says
 * how to classify one of its items and how to rebuild text and calls; reading and replaying are the same everywhere.
 */
import { isRecord, jsonText, UNENCODABLE, type NeutralMessage, type NeutralToolCall, type NormalizedCall, type NormalizedMessage, type ProviderItem, type ProviderState } from './history.js';

/** The neutral assistant message for a provider turn (`content` null when it only calls tools). */
export function assistantMessage(text: string, calls: NeutralToolCall[], provider: ProviderState): NeutralMessage {
  if (calls.length === 0) return { role: 'assistant', content: text, provider };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls, provider };
}

/** A neutral tool call (what `dispatch` takes). */
export const neutralCall = (id: string, name: string, args: string): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: args } });

/** A string field, or '' for anything else. */
export function str(value: unknown): string { return typeof value === 'string' ? value : ''; }

/** Arguments as a JSON text: a string as sent, anything else as JSON, `{}` when absent (`UNENCODABLE` when JSON cannot write them). */
export function argumentsText(value: unknown, keepString = false): string {
  if (keepString && typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  return jsonText(value) ?? UNENCODABLE;
}

/** FNV-1a of a text over UTF-16 code units, 8 hex digits: a short stable tag, not a security hash. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The object entries of an array (anything else gives []). */
export function items(value: unknown): ProviderItem[] { return Array.isArray(value) ? value.filter(isRecord) : []; }

/** What a provider item is to the neutral history: text, a tool call, or state it does not read. */
export type ItemClass =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly id: string; readonly name: string; readonly arguments: string }
  | { readonly kind: 'other' };

export const OTHER: ItemClass = { kind: 'other' };

/** The text (joined by `separator`) and the calls of a provider output. */
export function readItems(list: readonly ProviderItem[], classify: (item: ProviderItem) => ItemClass, separator = ''): { text: string; calls: NeutralToolCall[] } {
  const classes = list.map((item) => classify(item));
  const texts = classes.flatMap((c) => (c.kind === 'text' ? [c.text] : []));
  const calls = classes.flatMap((c) => (c.kind === 'call' ? [neutralCall(c.id, c.name, c.arguments)] : []));
  return { text: texts.join(separator), calls };
}

/** How one target rebuilds what the application changed, for {@link replayItems}. */
export interface ReplayCodec<O> {
  readonly classify: (item: ProviderItem) => ItemClass;
  /** The separator fromProvider joined text items with. */
  readonly separator?: string;
  /** A text item for changed text; absent when the target carries text outside the items (Chat's `content`). */
  readonly text?: (text: string) => O;
  /** A call rebuilt from the neutral history; `raw` is the item it replaces (to keep e.g. a thought signature). */
  readonly call: (call: NormalizedCall, raw: ProviderItem | undefined) => O;
  /** A neutral call id the provider never saw (Gemini calls without an id): compared as ''. */
  readonly wireId?: (neutralId: string, raw: ProviderItem) => boolean;
}

/**
 * A provider's kept output replayed for a neutral assistant message: every item as received, in order, except text and
 * calls the application changed (rebuilt in place) or removed; added calls are appended. With nothing kept, the turn
 * is built fresh.
 * @example replayItems(state.content, 'Hi', [], anthropicCodec); // → the kept blocks
 */
export function replayItems<O>(kept: readonly ProviderItem[], text: string, calls: readonly NormalizedCall[], codec: ReplayCodec<O>): (ProviderItem | O)[] {
  const classes = kept.map(codec.classify);
  const keptText = classes.flatMap((c) => (c.kind === 'text' ? [c.text] : [])).join(codec.separator ?? '');
  const textSame = keptText === text;
  const out: (ProviderItem | O)[] = [];
  let textPlaced = textSame || text === '' || codec.text === undefined;
  const placeText = (): void => {
    if (!textPlaced) out.push(codec.text!(text));
    textPlaced = true;
  };
  let next = 0;
  for (const [i, item] of kept.entries()) {
    const c = classes[i]!;
    if (c.kind === 'text') {
      if (textSame) out.push(item);
      else placeText();
    } else if (c.kind === 'call') {
      const call = calls[next++];
      if (call === undefined) continue; // removed by the application
      // Changed text with no text item to stand in for: before the first call, as a fresh turn has it.
      placeText();
      const sameId = call.id === c.id || (c.id === '' && codec.wireId !== undefined && codec.wireId(call.id, item));
      out.push(sameId && call.name === c.name && call.arguments === c.arguments ? item : codec.call(call, item));
    } else {
      out.push(item);
    }
  }
  placeText();
  for (; next < calls.length; next++) out.push(codec.call(calls[next]!, undefined));
  return out;
}

/**
 * An assistant turn as items: its kept state replayed when there is any, else built fresh (a text item unless the turn
 * only calls tools, then the calls). Text that is only whitespace beside calls is left out: Anthropic refuses such a block.
 */
export function assistantItems<O>(m: NormalizedMessage, kept: readonly ProviderItem[] | undefined, codec: ReplayCodec<O> & { readonly text: (text: string) => O }): (ProviderItem | O)[] {
  if (kept !== undefined && kept.length > 0) return replayItems(kept, m.text, m.calls, codec);
  const text = m.text.trim() !== '' || m.calls.length === 0 ? [codec.text(m.text)] : [];
  return [...text, ...m.calls.map((call) => codec.call(call, undefined))];
}
