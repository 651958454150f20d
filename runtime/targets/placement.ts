/**
 * Announcement placement, shared by every target: where the standing
 * `<announcements>` blocks go in a normalized history. What differs by target
 * is only data, the adapter's {@link AnnouncementPlacement} (which channel
 * `auto` means, and what to do with `system`-channel text when the history has
 * no tail to put it after); the block itself is rendered by
 * `renderAnnouncements` (runtime/announcements.ts).
 */
import { renderAnnouncements, type Announcement } from '../announcements.js';
import type { NormalizedMessage } from './history.js';

/**
 * The anchor line the reference library appends after tail state, verbatim
 * (context-chef `tailPhase`): announcements are system state.
 */
export const ANNOUNCEMENT_ANCHOR = 'Above is the current system state. Use it to guide your next action.';

/** A target's announcement rules (a constant of its adapter). */
export interface AnnouncementPlacement {
  /** What the `auto` channel resolves to on this target. */
  readonly auto: 'system' | 'user_tail';
  /**
   * `system`-channel text with no user or tool message to follow:
   * `hoist` returns it as {@link PlacedMessages.hoisted} for the top-level system
   * (Anthropic rejects a leading mid-conversation system message);
   * `before-prefill` inserts it before any trailing assistant prefill.
   */
  readonly withoutTail: 'hoist' | 'before-prefill';
}

/** The history with announcements placed, plus the no-tail fallback text. */
export interface PlacedMessages {
  readonly messages: NormalizedMessage[];
  /** `<announcements>` text to hoist into the top-level system (`withoutTail: 'hoist'`, no tail); '' otherwise. */
  readonly hoisted: string;
}

/**
 * Place the standing announcements into a (normalized, system-less) history,
 * exactly as the seed's three channels describe:
 *
 * - channel resolution: `auto` is `policy.auto` (`system` on Anthropic,
 *   `user_tail` elsewhere: by target, not model; Sonnet 5 has no
 *   mid-conversation system messages, so announce with `user_tail` explicitly there);
 * - `user_tail`: one `<announcements>` block plus {@link ANNOUNCEMENT_ANCHOR},
 *   appended (after a blank line) to the last message when it is the tail user
 *   message; when the tail is a tool result, a new user message right after it;
 *   with no user/tool message at all, a new user message before any trailing
 *   assistant prefill;
 * - `system`: one positional system message right after the tail (the last
 *   user or tool message), so before any assistant prefill. With no tail:
 *   `hoisted` when `policy.withoutTail` is `hoist` (Anthropic, where it would
 *   precede every user/tool message, which the API rejects); otherwise before
 *   the trailing assistant prefill.
 *
 * Each block lists its announcements in insertion order. Pure: the input array
 * and its messages are never modified.
 *
 * @example
 * placeAnnouncements(normalizeMessages([{ role: 'user', content: 'hi' }]),
 *   [{ id: 'a', content: 'x', channel: 'user_tail' }], { auto: 'user_tail', withoutTail: 'before-prefill' }).messages[0].text;
 * // → 'hi\n\n<announcements>\n<announcement id="a">\nx\n</announcement>\n</announcements>\n\nAbove is the current system state. Use it to guide your next action.'
 */
export function placeAnnouncements(
  messages: readonly NormalizedMessage[],
  announcements: readonly Announcement[],
  policy: AnnouncementPlacement,
): PlacedMessages {
  const out = [...messages];
  if (announcements.length === 0) return { messages: out, hoisted: '' };
  const { stitch, xml } = renderedAnnouncements(announcements, policy.auto);

  if (stitch !== '') {
    const tail = lastTail(out);
    const tailMessage = tail === -1 ? undefined : out[tail];
    if (tailMessage !== undefined && tailMessage.role === 'user') {
      out[tail] = { ...tailMessage, text: tailMessage.text === '' ? stitch : `${tailMessage.text}\n\n${stitch}` };
    } else {
      out.splice(tail === -1 ? beforePrefill(out) : tail + 1, 0, injected('user', stitch));
    }
  }

  let hoisted = '';
  if (xml !== '') {
    const tail = lastTail(out);
    if (tail !== -1) out.splice(tail + 1, 0, injected('system', xml));
    else if (policy.withoutTail === 'hoist') hoisted = xml;
    else out.splice(beforePrefill(out), 0, injected('system', xml));
  }
  return { messages: out, hoisted };
}

interface RenderedAnnouncements {
  /** The `user_tail` block plus the anchor line; '' when no announcement goes there. */
  readonly stitch: string;
  /** The `system` channel block; '' when none goes there. */
  readonly xml: string;
}

// Rendered blocks per (frozen) announcement list and `auto` resolution: the router
// passes the same frozen list until an announcement changes, so a turn's compile
// does not re-render and re-escape standing state that did not change. (The
// rendering depends on the target only through `auto`, so that is the key.)
const renderedMemo = new WeakMap<readonly Announcement[], Map<AnnouncementPlacement['auto'], RenderedAnnouncements>>();

function renderedAnnouncements(announcements: readonly Announcement[], auto: AnnouncementPlacement['auto']): RenderedAnnouncements {
  const memo = Object.isFrozen(announcements) ? renderedMemo.get(announcements) : undefined;
  const hit = memo?.get(auto);
  if (hit !== undefined) return hit;
  const tailList = announcements.filter((a) => (a.channel === 'auto' ? auto : a.channel) === 'user_tail');
  const systemList = announcements.filter((a) => (a.channel === 'auto' ? auto : a.channel) === 'system');
  const value: RenderedAnnouncements = {
    stitch: tailList.length > 0 ? `${renderAnnouncements(tailList)}\n\n${ANNOUNCEMENT_ANCHOR}` : '',
    xml: systemList.length > 0 ? renderAnnouncements(systemList) : '',
  };
  if (Object.isFrozen(announcements)) {
    let forList = renderedMemo.get(announcements);
    if (forList === undefined) {
      forList = new Map();
      renderedMemo.set(announcements, forList);
    }
    forList.set(auto, value);
  }
  return value;
}

function injected(role: 'user' | 'system', text: string): NormalizedMessage {
  return { role, text, calls: [], callId: '', name: '', positional: role === 'system', src: -1 };
}

/** Index of the conversational tail: the last user or tool message; -1 when there is none. */
function lastTail(messages: readonly NormalizedMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = messages[i]!.role;
    if (role === 'user' || role === 'tool') return i;
  }
  return -1;
}

/** Insertion point before any trailing assistant messages (a prefill). */
function beforePrefill(messages: readonly NormalizedMessage[]): number {
  let at = messages.length;
  while (at > 0 && messages[at - 1]!.role === 'assistant') at--;
  return at;
}
