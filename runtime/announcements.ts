/**
 * Announcements: standing statements about what changed in the model's
 * capabilities, re-rendered on every compile until retracted (the seed's
 * "state, not event"). Never written into the caller's history.
 */

/** Where an announcement is delivered. `auto` routes by target at compile time. */
export const ANNOUNCEMENT_CHANNELS = ['auto', 'user_tail', 'system'] as const;
export type AnnouncementChannel = (typeof ANNOUNCEMENT_CHANNELS)[number];

export interface Announcement {
  readonly id: string;
  readonly content: string;
  readonly channel: AnnouncementChannel;
}

export interface AnnounceOptions {
  /** Default `auto`: Anthropic → `system`, every other target → `user_tail`. */
  readonly channel?: AnnouncementChannel;
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Escape text for an XML attribute or text node.
 *
 * @example
 * escapeXml('a < b & "c"'); // → 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/**
 * The ordered set of standing announcements. Upsert by id keeps the original
 * insertion position, so updating one leaves the rendered block stable.
 *
 * @example
 * const store = new AnnouncementStore();
 * store.announce('tools:added', 'Tools newly available: grep');
 * store.list(); // → [{ id: 'tools:added', content: '…', channel: 'auto' }]
 */
export class AnnouncementStore {
  // A Map keeps insertion order and `set` on an existing key keeps its position:
  // exactly the seed's upsert semantics.
  readonly #entries = new Map<string, Announcement>();
  #version = 0;

  /** Upsert by id; a new id goes last, an existing one keeps its position. */
  announce(id: string, content: string, options?: AnnounceOptions): void {
    this.#entries.set(id, { id, content, channel: options?.channel ?? 'auto' });
    this.#version++;
  }

  /** Remove one; true when something was removed. */
  retract(id: string): boolean {
    const removed = this.#entries.delete(id);
    if (removed) this.#version++;
    return removed;
  }

  /** Copies, in insertion order. */
  list(): Announcement[] {
    return [...this.#entries.values()].map((a) => ({ ...a }));
  }

  /** The live entries without copying, for compile (read-only by contract). */
  entries(): Iterable<Announcement> {
    return this.#entries.values();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Bumped on every change, so compile can memoize renders between changes. */
  get version(): number {
    return this.#version;
  }

  clear(): void {
    if (this.#entries.size > 0) this.#version++;
    this.#entries.clear();
  }

  /** Plain JSON for `snapshot()`. */
  toJSON(): Announcement[] {
    return this.list();
  }

  /**
   * Replace the contents from a snapshot's `announcements` field. Anything that
   * is not a well-formed list (an older snapshot without the field, say) gives an
   * empty set rather than keeping stale announcements alive.
   */
  restore(value: unknown): void {
    this.clear();
    if (!Array.isArray(value)) return;
    for (const item of value) {
      if (typeof item !== 'object' || item === null) continue;
      const { id, content, channel } = item as Record<string, unknown>;
      if (typeof id !== 'string' || typeof content !== 'string') continue;
      const ch = (ANNOUNCEMENT_CHANNELS as readonly unknown[]).includes(channel)
        ? (channel as AnnouncementChannel)
        : 'auto';
      this.announce(id, content, { channel: ch });
    }
  }
}

/**
 * Announcement text as the model should read it: exactly as written, except
 * that a tag of the block itself (`<announcement`, `</announcement`,
 * `<announcements`, `</announcements`, any case) has its `<` written as
 * `&lt;`, so no content can close or open a block early. Wording matters (the
 * seed: state facts, do not command), so quotes, apostrophes, `&` and `>`
 * reach the model unchanged, as the reference library sends them.
 *
 * @example
 * escapeAnnouncementContent("web_search's quota & retries > 3"); // → unchanged
 * escapeAnnouncementContent('x</announcement>y'); // → 'x&lt;/announcement>y'
 */
export function escapeAnnouncementContent(text: string): string {
  return text.replace(/<(?=\/?announcements?(?![A-Za-z0-9_:.-]))/gi, '&lt;');
}

/**
 * Render the seed's `<announcements>` block; '' for an empty list.
 * Ids are escaped as attributes; content is sent as written, with only the
 * block's own tags neutralized (`escapeAnnouncementContent`), so announcement
 * text can never close the block early.
 *
 * @example
 * renderAnnouncements([{ id: 'a', content: 'x', channel: 'auto' }]);
 * // → '<announcements>\n<announcement id="a">\nx\n</announcement>\n</announcements>'
 */
export function renderAnnouncements(list: readonly Announcement[]): string {
  if (list.length === 0) return '';
  const body = list
    .map((a) => `<announcement id="${escapeXml(a.id)}">\n${escapeAnnouncementContent(a.content)}\n</announcement>`)
    .join('\n\n');
  return `<announcements>\n${body}\n</announcements>`;
}
