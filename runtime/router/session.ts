/**
 * The session state: what `snapshot()` stores and `restore()` reads back (the blocklist, the loaded toolkits in load
 * order, the announcements, `syncToolAnnouncements`' previous set). A snapshot is untrusted input that decides what is
 * blocked, so `readSnapshot` reads it strictly.
 */
import { ANNOUNCEMENT_CHANNELS, AnnouncementStore, CHANNEL_OPTIONS, type AnnounceOptions, type Announcement, type AnnouncementChannel } from '../announcements.js';
import { TARGETS, type Target } from '../contract.js';
import { isPlainObject } from '../call-shape.js';
import { assertKnownNames, checkOptions } from '../suggest.js';
import { jsonText } from '../targets/history.js';
import type { Catalog } from './catalog.js';
import type { RouterSnapshot } from './types.js';

/** The `format` every snapshot carries; a snapshot without it (or with another) is refused. */
export const SNAPSHOT_FORMAT = 'toolroute-router/1';
/** The keys a snapshot may have; any other is refused, since a misspelt one would restore as if absent (no announcements, say). */
const SNAPSHOT_KEYS: ReadonlySet<string> = new Set(['format', 'spec', 'blocked', 'blockedAllowUnknown', 'loaded', 'announcements', 'announcedTools', 'firstTurn'] satisfies (keyof RouterSnapshot)[]);

/** A snapshot's fields after reading: checked for shape, not yet against a catalog. */
export interface SnapshotFields extends Pick<RouterSnapshot, 'blocked' | 'loaded' | 'announcedTools' | 'announcements' | 'firstTurn'> {
  /** The blocklist was set with `allowUnknown` (its unknown names are kept on restore). */
  readonly blockedAllowUnknown: boolean;
}

/**
 * Read an untrusted snapshot, strictly (it decides what is blocked): throws a `TypeError` listing every problem, and a
 * missing field never means "nothing blocked". `announcements` and `announcedTools` may be absent (the reference library).
 * @example
 * readSnapshot(JSON.parse(saved)).blocked; // → ['delete_file']
 * readSnapshot({}); // TypeError: restore: not a toolroute router snapshot …
 */
export function readSnapshot(snapshot: unknown): SnapshotFields {
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) {
    throw new TypeError(`restore: expected an object from router.snapshot(), got ${snapshot === null ? 'null' : Array.isArray(snapshot) ? 'an array' : typeof snapshot}. Nothing was changed.`);
  }
  const s = snapshot as Record<string, unknown>;
  const problems: string[] = [];
  const strings = (key: string, required: boolean): string[] => {
    const value = s[key];
    if (value === undefined) {
      if (required) problems.push(`\`${key}\` is missing`);
      return [];
    }
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      problems.push(`\`${key}\` must be an array of strings`);
      return [];
    }
    return [...(value as string[])];
  };
  try {
    if (s['format'] !== SNAPSHOT_FORMAT) {
      throw new TypeError(
        `restore: not a toolroute router snapshot (format ${s['format'] === undefined ? 'missing' : JSON.stringify(s['format'])}, expected ${JSON.stringify(SNAPSHOT_FORMAT)}). ` +
          'Restore only what router.snapshot() returned; a snapshot of another library or version cannot say what is blocked. Nothing was changed.',
      );
    }
    assertKnownNames('restore: snapshot', Object.keys(s), SNAPSHOT_KEYS, () => SNAPSHOT_KEYS, 'A snapshot holds only what router.snapshot() writes. Nothing was changed.');
    const blocked = strings('blocked', true);
    const loaded = strings('loaded', true);
    const announcedTools = strings('announcedTools', false);
    const flag = s['blockedAllowUnknown'];
    if (flag !== undefined && typeof flag !== 'boolean') problems.push('`blockedAllowUnknown` must be a boolean');
    const announcements = readAnnouncements(s['announcements'], problems);
    const turns = s['firstTurn'] === undefined ? {} : s['firstTurn'];
    if (s['spec'] !== undefined && typeof s['spec'] !== 'string') problems.push('`spec` must be the hash string snapshot() writes');
    const firstTurn = typeof turns === 'object' && turns !== null && !Array.isArray(turns) ? (turns as Record<string, unknown>) : undefined;
    const firstTurnOk = firstTurn !== undefined && Object.entries(firstTurn).every(([t, names]) => (TARGETS as readonly string[]).includes(t) && Array.isArray(names) && names.every((n) => typeof n === 'string'));
    if (!firstTurnOk) problems.push(`\`firstTurn\` must map targets (${TARGETS.join(', ')}) to arrays of tool names`);
    if (problems.length > 0) throw new TypeError(`restore: bad snapshot: ${problems.join('; ')}. Nothing was changed.`);
    return { blocked, blockedAllowUnknown: flag === true, loaded, announcedTools, announcements, firstTurn: firstTurn as RouterSnapshot['firstTurn'] };
  } catch (error) {
    // The refusals above (all `restore: …`) go out as they are; anything else is a snapshot that could not be read.
    if (error instanceof TypeError && error.message.startsWith('restore:')) throw error;
    throw new TypeError(`restore: the snapshot could not be read (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`);
  }
}

/** A snapshot's `announcements`: absent is none (the reference library); anything present must be what `snapshot()` writes. */
function readAnnouncements(value: unknown, problems: string[]): Announcement[] {
  const list: unknown[] = Array.isArray(value) ? value : [];
  if (value !== undefined && !Array.isArray(value)) problems.push('`announcements` must be an array');
  return list.flatMap((item, i): Announcement[] => {
    const a = isPlainObject(item) ? item : {};
    const channel = a['channel'] ?? 'auto';
    // A misspelt key would restore as if absent, and a repeated id would lose the first entry's text.
    if (typeof a['id'] === 'string' && typeof a['content'] === 'string' && (ANNOUNCEMENT_CHANNELS as readonly unknown[]).includes(channel)
      && Object.keys(a).every((k) => k === 'id' || k === 'content' || k === 'channel') && list.findIndex((o) => isPlainObject(o) && o['id'] === a['id']) === i) {
      return [{ id: a['id'], content: a['content'], channel: channel as AnnouncementChannel }];
    }
    problems.push(`\`announcements[${i}]\` must be { id: string, content: string, channel: ${ANNOUNCEMENT_CHANNELS.map((c) => JSON.stringify(c)).join(' | ')} }, with an id of its own`);
    return [];
  });
}

/**
 * One router's session state. Internal to the router; the gate owns the tables derived from `blockedSet` and `loaded`
 * and must be told when they change (the façade does that).
 */
export class Session {
  /** The blocklist as set (strings only), in the caller's order. */
  blocked: string[] = [];
  blockedSet = new Set<string>();
  /** The blocklist was set with `allowUnknown`: a restore keeps its unknown names. */
  blockedAllowUnknown = false;
  /** Loaded toolkit indices, load order, no duplicates. */
  loaded: number[] = [];
  readonly announcements = new AnnouncementStore();
  /** `syncToolAnnouncements`' previous tool set. */
  announcedTools = new Set<string>();
  /** Per target, from its first compile on: the run-time tools it had then (one registered later is "after the first turn"). */
  firstTurn = new Map<Target, ReadonlySet<string>>();

  /** Replace the blocklist (the gate has checked every name already). */
  setBlocked(names: readonly unknown[], allowUnknown: boolean): void {
    this.blocked = [...names].filter((n): n is string => typeof n === 'string');
    this.blockedSet = new Set(this.blocked);
    this.blockedAllowUnknown = allowUnknown;
  }

  /** Loaded toolkits' canonical names, load order. */
  loadedNames(catalog: Catalog): string[] { return this.loaded.map((k) => catalog.toolkits[k]!.name); }

  /** The state as plain JSON. */
  snapshot(catalog: Catalog): RouterSnapshot {
    return {
      format: SNAPSHOT_FORMAT,
      spec: catalog.spec.hash,
      blocked: [...this.blocked],
      ...(this.blockedAllowUnknown ? { blockedAllowUnknown: true } : {}),
      loaded: this.loadedNames(catalog),
      announcements: this.announcements.list(),
      announcedTools: [...this.announcedTools],
      firstTurn: Object.fromEntries([...this.firstTurn].map(([target, names]) => [target, [...names]])),
    };
  }

  /** Replace the state with a read snapshot, all or nothing (an unknown toolkit throws first); the gate must recompute. */
  restore(fields: SnapshotFields, catalog: Catalog): void {
    const loaded: number[] = [];
    const unknown: string[] = [];
    for (const name of fields.loaded) {
      const k = catalog.findToolkit(name);
      if (k === undefined) unknown.push(name);
      else if (!loaded.includes(k)) loaded.push(k);
    }
    if (unknown.length > 0) {
      throw new TypeError(`restore: the snapshot has loaded toolkit${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')} that this router does not know ` +
        `(toolkits: ${catalog.toolkits.map((kit) => kit.name).join(', ') || '(none)'}). Register run-time toolkits before restoring. Nothing was changed.`);
    }
    this.setBlocked(fields.blocked, fields.blockedAllowUnknown);
    this.loaded = loaded;
    this.announcements.restore(fields.announcements);
    this.announcedTools = new Set(fields.announcedTools);
    this.firstTurn = new Map(Object.entries(fields.firstTurn ?? {}).map(([target, names]) => [target as Target, new Set(names)]));
  }

  /** The reference library's delta detection: announce `tools:added` / `tools:removed` for what changed since the last call, retract them when nothing did. */
  syncToolAnnouncements(next: readonly string[], options?: AnnounceOptions): { added: string[]; removed: string[] } {
    checkOptions('syncToolAnnouncements', options, CHANNEL_OPTIONS);
    if (!Array.isArray(next) || next.some((name) => typeof name !== 'string')) throw new TypeError(`syncToolAnnouncements: the tool set must be an array of tool names; got ${jsonText(next) ?? String(next)}.`);
    const nextSet = new Set(next);
    const added = next.filter((name) => !this.announcedTools.has(name));
    const removed = [...this.announcedTools].filter((name) => !nextSet.has(name));
    if (added.length) this.announcements.announce('tools:added', `Tools newly available: ${added.join(', ')}`, options);
    else this.announcements.retract('tools:added');
    if (removed.length) this.announcements.announce('tools:removed', `Withdrawn; calls to these will be rejected: ${removed.join(', ')}`, options);
    else this.announcements.retract('tools:removed');
    this.announcedTools = nextSet;
    return { added, removed };
  }
}
