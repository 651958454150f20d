/**
 * The session state: everything about one conversation that `snapshot()`
 * stores and `restore()` reads back, and nothing else. That is the blocklist
 * as set, the loaded toolkits (in load order), the standing announcements and
 * `syncToolAnnouncements`' previous tool set.
 *
 * Kept apart from the catalog (what exists, the same for every conversation)
 * and from the gate's tables (derived from this state and rebuilt by the
 * gate), so a snapshot is exactly this object's content and reading a
 * snapshot is one place: `readSnapshot`. A snapshot is untrusted input (an
 * older, empty, garbage or hostile object); reading one never throws, and
 * each field that is missing or malformed restores as empty.
 */
import { AnnouncementStore } from '../announcements.js';
import type { Catalog } from './catalog.js';
import type { RouterSnapshot } from './types.js';

/** A snapshot's fields after reading: only strings survive, nothing is checked against a catalog yet. */
export interface SnapshotFields {
  readonly blocked: string[];
  readonly loaded: string[];
  readonly announcedTools: string[];
  /** Handed to `AnnouncementStore.restore`, which checks each entry. */
  readonly announcements: unknown;
}

/**
 * Read an untrusted snapshot. Never throws: a non-object, a field of the wrong
 * type or a throwing getter gives empty fields.
 *
 * @example
 * readSnapshot(JSON.parse(saved)).blocked; // → ['delete_file']
 * readSnapshot('garbage').loaded; // → []
 */
export function readSnapshot(snapshot: unknown): SnapshotFields {
  const s = typeof snapshot === 'object' && snapshot !== null && !Array.isArray(snapshot) ? (snapshot as Record<string, unknown>) : {};
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  let blocked: string[] = [];
  let loaded: string[] = [];
  let announcedTools: string[] = [];
  let announcements: unknown = undefined;
  try {
    blocked = strings(s['blocked']);
    loaded = strings(s['loaded']);
    announcedTools = strings(s['announcedTools']);
    announcements = s['announcements'];
  } catch {
    // A hostile object (throwing getter): everything empty.
  }
  return { blocked, loaded, announcedTools, announcements };
}

/**
 * One router's session state. Internal to the router; the gate owns the
 * tables derived from `blockedSet` and `loaded` and must be told when they
 * change (the façade does that).
 *
 * @example
 * const session = new Session();
 * session.setBlocked(['delete_file']);
 * session.blockedSet.has('delete_file'); // → true
 */
export class Session {
  /** The blocklist as set (strings only), in the caller's order. */
  blocked: string[] = [];
  blockedSet = new Set<string>();
  /** Loaded toolkit indices, load order, no duplicates. */
  loaded: number[] = [];
  readonly announcements = new AnnouncementStore();
  /** `syncToolAnnouncements`' previous tool set. */
  announcedTools = new Set<string>();

  /** Replace the blocklist; non-strings are dropped (they could never match a name). */
  setBlocked(names: readonly unknown[]): void {
    this.blocked = [...names].filter((n): n is string => typeof n === 'string');
    this.blockedSet = new Set(this.blocked);
  }

  /** Loaded toolkits' canonical names, load order. */
  loadedNames(catalog: Catalog): string[] {
    return this.loaded.map((k) => catalog.toolkits[k]!.name);
  }

  /** The state as plain JSON. */
  snapshot(catalog: Catalog): RouterSnapshot {
    return {
      format: 'toolroute-router/1',
      spec: catalog.spec.hash,
      blocked: [...this.blocked],
      loaded: this.loadedNames(catalog),
      announcements: this.announcements.list(),
      announcedTools: [...this.announcedTools],
    };
  }

  /**
   * Replace the state with a read snapshot. Toolkits the catalog does not know
   * are skipped (restore matches by name, case-insensitively); announcements
   * that do not read restore as none. The gate must recompute afterwards.
   */
  restore(fields: SnapshotFields, catalog: Catalog): void {
    this.setBlocked(fields.blocked);
    this.loaded = [];
    for (const name of fields.loaded) {
      const k = catalog.findToolkit(name);
      if (k !== undefined && !this.loaded.includes(k)) this.loaded.push(k);
    }
    try {
      this.announcements.restore(fields.announcements);
    } catch {
      this.announcements.restore(undefined);
    }
    this.announcedTools = new Set(fields.announcedTools);
  }

  /**
   * The seed's delta detection: announce `tools:added` / `tools:removed` for
   * what changed since the last call, retract them when nothing did.
   */
  syncToolAnnouncements(next: readonly string[]): { added: string[]; removed: string[] } {
    const previous = this.announcedTools;
    const nextSet = new Set(next);
    const added = next.filter((name) => !previous.has(name));
    const removed = [...previous].filter((name) => !nextSet.has(name));
    if (added.length) this.announcements.announce('tools:added', `Tools newly available: ${added.join(', ')}`);
    else this.announcements.retract('tools:added');
    if (removed.length) this.announcements.announce('tools:removed', `Withdrawn; calls to these will be rejected: ${removed.join(', ')}`);
    else this.announcements.retract('tools:removed');
    this.announcedTools = nextSet;
    return { added, removed };
  }
}
