/**
 * Announcements: standing statements about what changed in the model's capabilities, re-rendered on every compile until
 * retracted ("state, not event"), and placed at the conversation's tail, never written into the caller's history.
 */
import { checkOptions, oneOf, type OptionRules } from './suggest.js';
import type { NormalizedMessage } from './targets/history.js';

/** Where an announcement is delivered. `auto` routes by target at compile time. */
export const ANNOUNCEMENT_CHANNELS = ['auto', 'user_tail', 'system'] as const;
export type AnnouncementChannel = (typeof ANNOUNCEMENT_CHANNELS)[number];

export interface Announcement { readonly id: string; readonly content: string; readonly channel: AnnouncementChannel }

export interface AnnounceOptions {
  /** Default `auto`: Anthropic → `system`, every other target → `user_tail`. */
  readonly channel?: AnnouncementChannel;
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escape text for an XML attribute value, or (`'text'`) for element text, where quotes need no escape. */
export function escapeXml(text: string, where: 'attribute' | 'text' = 'attribute'): string {
  return text.replace(where === 'text' ? /[&<>]/g : /[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** The options of `announce` and `syncToolAnnouncements` (checked with `checkOptions`): a channel outside {@link ANNOUNCEMENT_CHANNELS} is refused. */
export const CHANNEL_OPTIONS: OptionRules = { channel: oneOf(ANNOUNCEMENT_CHANNELS) };

/** The ordered set of standing announcements. Upsert by id keeps the original insertion position (a `Map`), so updating one leaves the rendered block stable. */
export class AnnouncementStore {
  readonly #entries = new Map<string, Announcement>();

  /** Upsert by id; a new id goes last, an existing one keeps its position. */
  announce(id: string, content: string, options?: AnnounceOptions): void {
    // Rendered into every later compile: a content that is no text would break them all, not this call.
    if (typeof id !== 'string' || typeof content !== 'string') throw new TypeError(`announce: id and content must be strings; got ${typeof id} and ${typeof content}. Nothing was changed.`);
    checkOptions('announce', options, CHANNEL_OPTIONS);
    this.#entries.set(id, { id, content, channel: options?.channel ?? 'auto' });
  }

  /** Remove one; true when something was removed. */
  retract(id: string): boolean { return this.#entries.delete(id); }

  /** Copies, in insertion order. */
  list(): Announcement[] { return [...this.#entries.values()].map((a) => ({ ...a })); }

  /** Replace the contents with a snapshot's announcements (read and checked by `readSnapshot`). */
  restore(announcements: readonly Announcement[]): void {
    this.#entries.clear();
    for (const a of announcements) this.announce(a.id, a.content, { channel: a.channel });
  }
}

/**
 * Announcement text as written, except that a tag of the block itself (`<announcement`, `</announcements`, any case)
 * has its `<` written as `&lt;`, so no content can close or open a block early.
 * @example escapeAnnouncementContent('x</announcement>y'); // → 'x&lt;/announcement>y'
 */
export function escapeAnnouncementContent(text: string): string { return text.replace(/<(?=\/?announcements?(?![A-Za-z0-9_:.-]))/gi, '&lt;'); }

/**
 * The `<announcements>` block; '' for an empty list.
 * @example
 * renderAnnouncements([{ id: 'a', content: 'x', channel: 'auto' }]);
 * // → '<announcements>\n<announcement id="a">\nx\n</announcement>\n</announcements>'
 */
export function renderAnnouncements(list: readonly Announcement[]): string {
  if (list.length === 0) return '';
  const body = list.map((a) => `<announcement id="${escapeXml(a.id)}">\n${escapeAnnouncementContent(a.content)}\n</announcement>`).join('\n\n');
  return `<announcements>\n${body}\n</announcements>`;
}

/** The anchor line the reference library appends after tail state, verbatim. */
export const ANNOUNCEMENT_ANCHOR = 'Above is the current system state. Use it to guide your next action.';

/** A target's announcement rules (a constant of its adapter). */
export interface AnnouncementPlacement {
  /** What the `auto` channel resolves to on this target. */
  readonly auto: 'system' | 'user_tail';
  /** `system`-channel text with no message to follow: `hoist` it into the top-level system, or insert it `before-prefill`. */
  readonly withoutTail: 'hoist' | 'before-prefill';
}

/** The history with announcements placed, plus the hoisted text ('' unless `withoutTail: 'hoist'` had no tail). */
export interface PlacedMessages { readonly messages: NormalizedMessage[]; readonly hoisted: string }

/**
 * Place the standing announcements into a normalized history: `user_tail` appends one block plus
 * {@link ANNOUNCEMENT_ANCHOR} to the tail user message (or a new user message after the tail tool result); `system`
 * adds one system message after the tail; with no tail, `policy.withoutTail` decides. Pure.
 * @example
 * placeAnnouncements(normalizeMessages([{ role: 'user', content: 'hi' }]),
 *   [{ id: 'a', content: 'x', channel: 'user_tail' }], { auto: 'user_tail', withoutTail: 'before-prefill' }).messages[0].text;
 * // → 'hi\n\n<announcements>\n<announcement id="a">\nx\n</announcement>\n</announcements>\n\nAbove is the current system state. Use it to guide your next action.'
 */
export function placeAnnouncements(messages: readonly NormalizedMessage[], announcements: readonly Announcement[], policy: AnnouncementPlacement): PlacedMessages {
  const out = [...messages];
  const on = (channel: 'system' | 'user_tail') => announcements.filter((a) => (a.channel === 'auto' ? policy.auto : a.channel) === channel);
  const tailList = on('user_tail');
  if (tailList.length > 0) {
    const stitch = `${renderAnnouncements(tailList)}\n\n${ANNOUNCEMENT_ANCHOR}`;
    const tail = lastTail(out);
    const tailMessage = out[tail];
    if (tailMessage?.role === 'user') out[tail] = { ...tailMessage, text: tailMessage.text === '' ? stitch : `${tailMessage.text}\n\n${stitch}` };
    else out.splice(afterTail(out), 0, injected('user', stitch));
  }
  const systemList = on('system');
  if (systemList.length === 0) return { messages: out, hoisted: '' };
  const xml = renderAnnouncements(systemList);
  if (lastTail(out) === -1 && policy.withoutTail === 'hoist') return { messages: out, hoisted: xml };
  out.splice(afterTail(out), 0, injected('system', xml));
  return { messages: out, hoisted: '' };
}

function injected(role: 'user' | 'system', text: string): NormalizedMessage { return { role, text, calls: [], callId: '', name: '', src: -1 }; }

/** Index of the last user or tool message; -1 when there is none. */
function lastTail(messages: readonly NormalizedMessage[]): number { return messages.findLastIndex((m) => m.role === 'user' || m.role === 'tool'); }

/** Insertion point right after the tail; with no tail, before any trailing assistant messages (a prefill). */
function afterTail(messages: readonly NormalizedMessage[]): number {
  const tail = lastTail(messages);
  return tail === -1 ? messages.findLastIndex((m) => m.role !== 'assistant') + 1 : tail + 1;
}
