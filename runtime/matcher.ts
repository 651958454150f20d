/**
 * The prune matcher: which flat tools a task text selects.
 *
 * Semantics are exactly the seed's (`Pruner.pruneByTask` of the reference
 * library): a tool is kept when `task.toLowerCase()` contains
 * `name.toLowerCase()` or any `tag.toLowerCase()` as a substring (UTF-16 code
 * units, as `String.prototype.includes` compares); untagged tools are always
 * kept.
 *
 * Instead of testing every tool and tag against the task (cost tools × tags ×
 * task), `buildPruneMatcher` builds an Aho–Corasick automaton over the
 * lowercased names and tags once, at codegen time, and serializes it as plain
 * JSON. A prune scans the task once, as `task.toLowerCase()` (without building
 * that string for the usual task: see `scanUtf8`): cost grows with the task
 * length and the number of hits, not with the number of tools or tags. On the
 * first prune the automaton is made complete (`Dfa`: one table read per
 * character) and each keyword's selection becomes word masks (`KeywordMasks`).
 */
import type { PruneMatcherData } from './contract.js';
import { MAX_PLACEMENTS, pruneKernel, type KernelRegion, type PruneKernel } from './prune-kernel.js';

/** What a tool contributes to the matcher: its name and tags as written. */
export interface PruneMatcherInput {
  readonly name: string;
  readonly tags: readonly string[];
}

/**
 * The serialized automaton. Plain JSON (arrays of numbers) so the generator can
 * write it into a `.gen.ts` file; `reviveMatcher` turns it into lookup tables.
 */
export interface AhoCorasickData {
  readonly format: 'aho-corasick/1';
  /** Number of flat tools the matcher was built for. */
  readonly total: number;
  /** Number of states; state 0 is the root. */
  readonly states: number;
  /** Trie edges as flat triples `[from, codeUnit, to, …]`. */
  readonly edges: readonly number[];
  /** Failure link per state. */
  readonly fail: readonly number[];
  /** Keyword id ending exactly at each state, or -1. */
  readonly out: readonly number[];
  /** Nearest state on the failure chain (excluding itself) whose `out` is set, or -1. */
  readonly dict: readonly number[];
  /** Keyword id → flat positions it selects, ascending. */
  readonly keywordTools: readonly (readonly number[])[];
}

/**
 * Runtime form of the automaton, all typed arrays: edges per state in CSR form
 * (`edgeStart[s]` … `edgeStart[s + 1]`), the root's ASCII edges in a direct
 * table (most characters of a task are read at the root), keyword → positions
 * in CSR form too. Plus scratch space reused across calls with a generation
 * counter, so a prune allocates nothing and clears nothing.
 */
interface RevivedMatcher {
  readonly total: number;
  readonly always: Int32Array;
  readonly edgeStart: Int32Array;
  readonly edgeCode: Uint16Array;
  readonly edgeTo: Int32Array;
  readonly fail: Int32Array;
  readonly out: Int32Array;
  readonly dict: Int32Array;
  readonly keywordStart: Int32Array;
  readonly keywordPositions: Int32Array;
  /** Keyword id → generation it was last reported in. */
  readonly keywordSeen: Uint32Array;
  keywordGeneration: number;
  /** Scratch stamps for `markTask` (one per flat position). */
  readonly scratch: Uint32Array;
  scratchGeneration: number;
  /** The word masks `selectTask` reads, built on its first call (see `KeywordMasks`). */
  masks: KeywordMasks | undefined;
  /** `scanTask`'s complete automaton, built on its first call; `null` when it would be too large (see `Dfa`). */
  dfa: Dfa | null | undefined;
  /** `scanTask`'s tables when there is no `dfa`, built on its first call. */
  scan: ScanTables | undefined;
  /** Distinct keyword ids one scan found, in the order found (either scan writes them here). */
  readonly found: Int32Array;
  /** This matcher's tables in the prune kernel (prune-kernel.ts), placed on first use; `null`: it uses the scans here. */
  region: KernelRegion | null | undefined;
  /** How often it was placed (again after the kernel's arena was emptied); at `MAX_PLACEMENTS` it stays here. */
  placements: number;
}

/**
 * The complete automaton `scanTask` steps through: one read per character.
 *
 * The code units the keywords use are numbered as classes (1, 2, …; 0 for
 * every other code unit: it ends every match and leads back to the root), and
 * every state has a row with its transition for every class, failure links
 * already followed. ASCII capitals share their small letter's class, so an
 * ASCII task is matched as `task.toLowerCase()` without building that string.
 * States are renumbered so that those ending a keyword (themselves or down
 * their dictionary chain) come last: `state >= firstReporting` is the only
 * test a character costs when it completes no keyword.
 *
 * Memory: `states << shift` entries of 2 bytes (4 past 65,536 states), built
 * on the first prune: 0.55 MiB at 1,000 flat tools, 3 MiB at 10,000. Past
 * `DFA_MAX_BYTES`, or with more than 64 classes (keywords in many scripts),
 * there is no `Dfa` and the scan uses the sparser `ScanTables`.
 */
interface Dfa {
  /** Row width: `1 << shift` entries, at least the number of classes. */
  readonly shift: number;
  /** Byte (of UTF-8) or ASCII code unit → class: capitals as their small letter, 0 from 128 on. */
  readonly bytes: Uint8Array;
  /** Non-ASCII code unit (as lowercased) → class; absent: class 0. */
  readonly wide: ReadonlyMap<number, number>;
  /** State `s`'s transition on class `c` at `(s << shift) | c` (renumbered states). */
  readonly table: Uint16Array | Int32Array;
  readonly firstReporting: number;
  /** Renumbered state → keyword id ending there, or -1. */
  readonly out: Int32Array;
  /** Renumbered state → the next state down its dictionary chain that ends a keyword, or -1. */
  readonly dict: Int32Array;
}

/** Largest `Dfa.table` built (the 10,000-flat-tool benchmark spec needs 3 MiB). */
const DFA_MAX_BYTES = 4 << 20;
/** Most classes (row width 64). */
const DFA_MAX_SHIFT = 6;

/** What `scanTask` adds to a revived matcher without a `Dfa`, on its first call. */
interface ScanTables {
  /** 1 for an ASCII code unit that occurs in no keyword: it ends every match. */
  readonly stop: Uint8Array;
  /**
   * State → its row in `rows`, or -1. A row holds the state's transition for
   * every ASCII code unit with the failure links already followed (0: the
   * root; `REPORTS` set when that state ends a keyword), so a scan in such
   * a state takes one read per character. The root and the states with the
   * most edges (shallow ones: where failure links lead) get rows, at most
   * `DENSE_ROWS` (128 Int32 each).
   */
  readonly rowOf: Int16Array;
  readonly rows: Int32Array;
  /** State → the first state on its dictionary chain (itself included) that ends a keyword, or -1. */
  readonly report: Int32Array;
}

/** Most dense transition rows per matcher (256 KiB), and the fewest edges a non-root state needs for one. */
const DENSE_ROWS = 512;
const DENSE_ROW_EDGES = 2;
/** Set in a `rows` entry whose target state ends a keyword (`report` >= 0): the scan reads `report` only then. */
const REPORTS = 1 << 30;

/**
 * Keyword → selected positions as word masks, for `selectTask`: for each
 * 32-position word holding at least one of the keyword's positions, the
 * word's index and the mask of those positions (bit `p & 31` of word
 * `p >>> 5`). OR-ing a keyword in costs one read-modify-write per word it
 * touches: no more than a store per position (a tool's own name), and for a
 * tag shared by many tools fewer (positions that share a word share the
 * write), never a pass over words it does not touch. At most two numbers
 * per position, built on the first `selectTask`.
 */
interface KeywordMasks {
  /** Keyword id → its masks at pairs `start[k]` … `start[k + 1]` (pair `j` at `pairs[2j]`, `pairs[2j + 1]`); the always-kept positions' at `start[keywords]` … the end. */
  readonly start: Int32Array;
  /**
   * Word index and mask, interleaved: one array read in the OR loop instead
   * of two (each typed array a loop reads costs a map check and three loads
   * per step, which the optimizing compiler does not hoist out of the loop).
   */
  readonly pairs: Int32Array;
  /** The always-kept positions as a whole bitset (`⌈total / 32⌉` words), copied in by `selectTaskFresh`. */
  readonly always: Int32Array;
}

/** Generations run up to this, then the stamps are cleared and counting restarts (never reached in practice). */
export const MAX_GENERATION = 0xffff_fffe;

/**
 * Build the matcher for the flat tools, in flat order. Runs at codegen time
 * (and at run time for dynamically registered tools). Deterministic: the same
 * input gives the same data.
 *
 * @example
 * const m = buildPruneMatcher([{ name: 'read_file', tags: ['file'] }, { name: 'get_time', tags: [] }]);
 * matchTask(m, 'Read the auth.ts file'); // → [0, 1]
 */
export function buildPruneMatcher(flat: readonly PruneMatcherInput[]): PruneMatcherData {
  const always: number[] = [];
  // Keywords in first-seen order, so ids (and the output) are deterministic.
  const keywordIds = new Map<string, number>();
  const keywordTools: number[][] = [];
  flat.forEach((tool, position) => {
    if (tool.tags.length === 0) {
      always.push(position);
      return;
    }
    const words = [tool.name, ...tool.tags].map((w) => w.toLowerCase());
    // '' is a substring of every task: such a tool is always kept.
    if (words.includes('')) {
      always.push(position);
      return;
    }
    for (const word of words) {
      let id = keywordIds.get(word);
      if (id === undefined) {
        id = keywordTools.length;
        keywordIds.set(word, id);
        keywordTools.push([]);
      }
      const list = keywordTools[id]!;
      if (list[list.length - 1] !== position) list.push(position);
    }
  });

  // Trie over UTF-16 code units.
  const children: Map<number, number>[] = [new Map()];
  const out: number[] = [-1];
  for (const [word, id] of keywordIds) {
    let state = 0;
    for (let i = 0; i < word.length; i++) {
      const code = word.charCodeAt(i);
      const row = children[state]!;
      let to = row.get(code);
      if (to === undefined) {
        to = children.length;
        children.push(new Map());
        out.push(-1);
        row.set(code, to);
      }
      state = to;
    }
    out[state] = id;
  }

  // Breadth-first failure and dictionary links.
  const fail = new Array<number>(children.length).fill(0);
  const dict = new Array<number>(children.length).fill(-1);
  const queue: number[] = [];
  for (const to of children[0]!.values()) queue.push(to);
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [code, to] of children[state]!) {
      let f = fail[state]!;
      while (f !== 0 && !children[f]!.has(code)) f = fail[f]!;
      const candidate = children[f]!.get(code);
      fail[to] = candidate !== undefined && candidate !== to ? candidate : 0;
      const ft = fail[to]!;
      dict[to] = out[ft]! >= 0 ? ft : dict[ft]!;
      queue.push(to);
    }
  }

  const edges: number[] = [];
  children.forEach((row, from) => {
    for (const [code, to] of row) edges.push(from, code, to);
  });
  const automaton: AhoCorasickData = {
    format: 'aho-corasick/1',
    total: flat.length,
    states: children.length,
    edges,
    fail,
    out,
    dict,
    keywordTools,
  };
  return { always, automaton };
}

// Revived once per data object, on first use (the first prune), then cached.
const revived = new WeakMap<PruneMatcherData, RevivedMatcher>();

/**
 * Throw (a `TypeError`: a generator bug, never model input) unless `data`
 * is matcher data of the format this runtime reads. Cheap (no tables are
 * built): `createRouter` calls it so a bad generated folder fails at
 * creation, while the lookup tables are built on the first prune, which a
 * process that only dispatches never runs.
 *
 * @example
 * checkMatcher(generated.spec.matcher); // at createRouter
 */
export function checkMatcher(data: PruneMatcherData): void {
  const a = (data as { automaton?: unknown } | null | undefined)?.automaton as AhoCorasickData | null | undefined;
  checkMatcherFormat(a?.format);
}

/**
 * Throws like `checkMatcher` unless `format` is the matcher format this
 * runtime reads: for a packed spec, which ships the matcher's format apart
 * from its data (the data is parsed on the first prune).
 *
 * @example
 * checkMatcherFormat('aho-corasick/1'); // ok
 */
export function checkMatcherFormat(format: unknown): void {
  if (format !== 'aho-corasick/1') {
    throw new TypeError(
      'toolroute: the prune matcher in this generated folder has an unknown format; regenerate it with the same toolroute version as the runtime.',
    );
  }
}

/**
 * Turn serialized matcher data into lookup tables now rather than on the
 * first prune. Idempotent and cached per data object; throws like
 * `checkMatcher` on data that is not a matcher.
 *
 * @example
 * reviveMatcher(generated.spec.matcher); // e.g. while warming up a server
 */
export function reviveMatcher(data: PruneMatcherData): void {
  getRevived(data);
}

function getRevived(data: PruneMatcherData): RevivedMatcher {
  const cached = revived.get(data);
  if (cached) return cached;
  checkMatcher(data);
  const a = data.automaton as AhoCorasickData;
  const states = a.states;
  // Edges come grouped by source state, in state order (buildPruneMatcher writes them so); counted first to be safe.
  const edgeCount = a.edges.length / 3;
  const edgeStart = new Int32Array(states + 1);
  for (let i = 0; i < a.edges.length; i += 3) edgeStart[a.edges[i]! + 1]!++;
  for (let s = 0; s < states; s++) edgeStart[s + 1]! += edgeStart[s]!;
  const fill = edgeStart.slice(0, states);
  const edgeCode = new Uint16Array(edgeCount);
  const edgeTo = new Int32Array(edgeCount);
  for (let i = 0; i < a.edges.length; i += 3) {
    const from = a.edges[i]!;
    const at = fill[from]!++;
    edgeCode[at] = a.edges[i + 1]!;
    edgeTo[at] = a.edges[i + 2]!;
  }
  const keywords = a.keywordTools.length;
  const keywordStart = new Int32Array(keywords + 1);
  for (let k = 0; k < keywords; k++) keywordStart[k + 1] = keywordStart[k]! + a.keywordTools[k]!.length;
  const keywordPositions = new Int32Array(keywordStart[keywords]!);
  for (let k = 0; k < keywords; k++) keywordPositions.set(a.keywordTools[k]!, keywordStart[k]!);
  const r: RevivedMatcher = {
    total: a.total,
    always: Int32Array.from(data.always),
    edgeStart,
    edgeCode,
    edgeTo,
    fail: Int32Array.from(a.fail),
    out: Int32Array.from(a.out),
    dict: Int32Array.from(a.dict),
    keywordStart,
    keywordPositions,
    keywordSeen: new Uint32Array(keywords),
    keywordGeneration: 0,
    scratch: new Uint32Array(a.total),
    scratchGeneration: 0,
    masks: undefined,
    dfa: undefined,
    scan: undefined,
    found: new Int32Array(keywords),
    region: undefined,
    placements: 0,
  };
  revived.set(data, r);
  return r;
}

function scanTables(m: RevivedMatcher): ScanTables {
  const { edgeStart, edgeCode, edgeTo, fail } = m;
  const states = edgeStart.length - 1;
  const stop = new Uint8Array(128).fill(1);
  for (let e = 0; e < edgeCode.length; e++) if (edgeCode[e]! < 128) stop[edgeCode[e]!] = 0;
  // Rows for the root and the states with the most edges (the shallow ones, where
  // failure links lead), at most DENSE_ROWS of them.
  const candidates: number[] = [];
  for (let s = 1; s < states; s++) if (edgeStart[s + 1]! - edgeStart[s]! >= DENSE_ROW_EDGES) candidates.push(s);
  candidates.sort((a, b) => edgeStart[b + 1]! - edgeStart[b]! - (edgeStart[a + 1]! - edgeStart[a]!) || a - b);
  const chosen = [0, ...candidates.slice(0, DENSE_ROWS - 1)];
  const report = new Int32Array(states);
  for (let s = 0; s < states; s++) report[s] = m.out[s]! >= 0 ? s : m.dict[s]!;
  const rowOf = new Int16Array(states).fill(-1);
  const rows = new Int32Array(chosen.length * 128);
  const goto = (s: number, code: number): number => {
    for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) if (edgeCode[e] === code) return edgeTo[e]!;
    return -1;
  };
  chosen.forEach((s, row) => {
    rowOf[s] = row;
    for (let code = 0; code < 128; code++) {
      // The transition with the failure links already followed, as the scan would.
      let at = s;
      let to = goto(at, code);
      while (to < 0 && at !== 0) {
        at = fail[at]!;
        to = goto(at, code);
      }
      const target = to < 0 ? 0 : to;
      rows[row * 128 + code] = report[target]! >= 0 ? target | REPORTS : target;
    }
  });
  return { stop, rowOf, rows, report };
}

/**
 * Scan a task once with the automaton: the distinct keyword ids it contains
 * (as substrings of `task.toLowerCase()`), written to `m.found`; returns how
 * many. A keyword already reported had its whole dictionary chain reported
 * at that time, so the walk stops there: output work is bounded by the
 * number of distinct keywords, not by the task length. Allocation-free
 * after the first call (but for a task that needs `toLowerCase`, see
 * `scanUtf8`); never throws.
 */
function scanTask(m: RevivedMatcher, task: string): number {
  let dfa = m.dfa;
  if (dfa === undefined) dfa = m.dfa = buildDfa(m);
  if (dfa === null) return scanSparse(m, task, nextGeneration(m));
  const k = pruneKernel();
  if (k !== null) {
    const r = regionOf(m, dfa, k);
    if (r !== null) {
      const count = k.scan(r, task, m.found);
      if (count >= 0) return count;
    }
  }
  return scanUtf8(m, dfa, task);
}

/**
 * `m`'s region in the prune kernel: placed on first use, and again when the
 * kernel's arena was emptied to make room (at most `MAX_PLACEMENTS` times, so
 * matchers that do not fit together cannot make every prune copy tables);
 * `null` when it cannot be placed or has keywords that are not ASCII (the
 * kernel's classes cover ASCII only): then the scans of this file run.
 */
function regionOf(m: RevivedMatcher, d: Dfa, k: PruneKernel): KernelRegion | null {
  const r = m.region;
  if (r !== undefined && (r === null || k.holds(r))) return r;
  if (d.wide.size > 0 || m.placements >= MAX_PLACEMENTS) return (m.region = null);
  m.placements++;
  const masks = m.masks ?? (m.masks = keywordMasks(m));
  return (m.region = k.place({
    shift: d.shift,
    table: d.table,
    firstReporting: d.firstReporting,
    out: d.out,
    dict: d.dict,
    classes: d.bytes,
    start: masks.start,
    pairs: masks.pairs,
    always: masks.always,
  }));
}

/** A fresh generation for `keywordSeen` (no keyword carries it yet). */
function nextGeneration(m: RevivedMatcher): number {
  if (m.keywordGeneration >= MAX_GENERATION) {
    m.keywordSeen.fill(0);
    m.keywordGeneration = 0;
  }
  return ++m.keywordGeneration;
}

/** The complete automaton of `m` (see `Dfa`), or `null` when it would be too large. */
function buildDfa(m: RevivedMatcher): Dfa | null {
  const { edgeStart, edgeCode, edgeTo, fail, out, dict } = m;
  const states = edgeStart.length - 1;
  const ascii = new Uint8Array(256);
  const wide = new Map<number, number>();
  let classes = 1;
  for (let e = 0; e < edgeCode.length; e++) {
    const code = edgeCode[e]!;
    // A capital never occurs in a lowercased task: such an edge (never written by buildPruneMatcher) is never taken.
    if (code >= 65 && code <= 90) continue;
    if (code < 128) {
      if (ascii[code] === 0) ascii[code] = classes++;
    } else if (!wide.has(code)) wide.set(code, classes++);
  }
  let shift = 0;
  while (1 << shift < classes) shift++;
  const bytes = states > 0x10000 ? 4 : 2;
  if (shift > DFA_MAX_SHIFT || states * (1 << shift) * bytes > DFA_MAX_BYTES) return null;
  for (let code = 65; code <= 90; code++) ascii[code] = ascii[code + 32]!;
  // Renumbered: the states that report (end a keyword, themselves or down the dictionary chain) last; the root stays 0.
  const id = new Int32Array(states);
  let next = 0;
  for (let s = 0; s < states; s++) if (out[s]! < 0 && dict[s]! < 0) id[s] = next++;
  const firstReporting = next;
  for (let s = 0; s < states; s++) if (out[s]! >= 0 || dict[s]! >= 0) id[s] = next++;
  const table = bytes === 2 ? new Uint16Array(states << shift) : new Int32Array(states << shift);
  // Breadth first, so a state's failure target (shallower) has its row already: a state's row is its
  // failure target's with its own edges written over it.
  const queue = new Int32Array(states);
  let tail = 1;
  for (let head = 0; head < tail; head++) {
    const s = queue[head]!;
    const row = id[s]! << shift;
    if (s !== 0) {
      const from = id[fail[s]!]! << shift;
      table.copyWithin(row, from, from + (1 << shift));
    }
    for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) {
      const code = edgeCode[e]!;
      if (code >= 65 && code <= 90) continue;
      table[row + (code < 128 ? ascii[code]! : wide.get(code)!)] = id[edgeTo[e]!]!;
      queue[tail++] = edgeTo[e]!;
    }
  }
  const outById = new Int32Array(states);
  const dictById = new Int32Array(states);
  for (let s = 0; s < states; s++) {
    outById[id[s]!] = out[s]!;
    dictById[id[s]!] = dict[s]! >= 0 ? id[dict[s]!]! : -1;
  }
  return { shift, bytes: ascii, wide, table, firstReporting, out: outById, dict: dictById };
}

/**
 * Code unit → its lowercase code unit where that is what `toLowerCase` makes
 * of it anywhere in a string (one unit, whatever surrounds it); 1: it is not
 * (a surrogate, whose case goes with its pair; `Σ`, final or not by its
 * neighbours; `İ`, which becomes two units); 0: not asked yet. Shared by
 * every matcher, allocated on the first non-ASCII character.
 */
let lowerUnits: Uint16Array | undefined;

function lowerUnit(code: number): number {
  const units = (lowerUnits ??= new Uint16Array(0x10000));
  let lower = units[code]!;
  if (lower === 0) {
    lower = 1;
    if ((code < 0xd800 || code > 0xdfff) && code !== 0x3a3) {
      const text = String.fromCharCode(code).toLowerCase();
      if (text.length === 1) lower = text.charCodeAt(0);
    }
    units[code] = lower;
  }
  return lower;
}

/**
 * `scanTask` with the complete automaton, reading the task as UTF-8 bytes:
 * `TextEncoder.encodeInto` writes them into a reused buffer much faster than
 * a `charCodeAt` per code unit reads them, and `Dfa.bytes` gives each byte
 * its class (an ASCII capital its small letter's). That is exact when every
 * keyword is ASCII (tool names and tags almost always are): then a non-ASCII
 * character only ends matches, whatever it lowercases to, but for the two
 * whose lowercase holds an ASCII letter (U+0130 `İ` → `i̇`, U+212A Kelvin
 * sign → `k`). Everything else goes to `scanUnits`: a task holding one of
 * those two, any non-ASCII task when some keyword is not ASCII, and a task
 * too long for the buffer.
 *
 * Each step reads the previous step's result, so one walk costs a memory
 * read's latency per byte. A task of `SPLIT_AT` bytes or more is walked as
 * two halves at once, the second starting after a class-0 byte at or past
 * the middle (after one the automaton is at the root whatever came before,
 * and no keyword spans it): the two walks do not wait on each other, and the
 * processor overlaps them.
 *
 * The joint loop steps both walks until either reaches a reporting state,
 * with one test for both (`(s0 - first) & (s1 - first)` is negative only
 * when both are below `first`); the reporting is done outside it. A loop
 * with no call and no store in it keeps its values in registers: the
 * earlier form (four walks, `report` inlined four times into the loop) spent
 * most of its instructions moving values between registers and the stack
 * (callgrind, 1,000 flat tools, 335-character tasks: 21,000 instructions per
 * scan with its encode, about 16,800 now, in about two thirds of the time).
 * More walks than two measured no faster in this form.
 */
function scanUtf8(m: RevivedMatcher, d: Dfa, task: string): number {
  if (task.length > UTF8_MAX_UNITS) return scanUnits(m, d, task);
  const buffer = utf8;
  const length = encoder.encodeInto(task, buffer).written;
  // More bytes than code units: the task is not ASCII.
  if (length !== task.length && (d.wide.size > 0 || task.includes('\u0130') || task.includes('\u212a'))) return scanUnits(m, d, task);
  const { table, shift, bytes: classes, firstReporting } = d;
  const generation = nextGeneration(m);
  // The second walk starts after a class-0 byte at or past the middle (none found: the first walk takes it all).
  const start1 = length >= SPLIT_AT ? afterSeparator(classes, buffer, length >>> 1, length) : length;
  // The first walk ends before the separator the second starts after (it leads to the root and reports nothing).
  const end0 = start1 === length ? length : start1 - 1;
  let count = 0;
  let a0 = 0;
  let a1 = start1;
  let s0 = 0;
  let s1 = 0;
  const stop = Math.min(end0, length - start1);
  while (a0 < stop) {
    do {
      s0 = table[(s0 << shift) | classes[buffer[a0++]!]!]!;
      s1 = table[(s1 << shift) | classes[buffer[a1++]!]!]!;
    } while (((s0 - firstReporting) & (s1 - firstReporting)) < 0 && a0 < stop);
    if (s0 >= firstReporting) count = report(m, d, s0, generation, count);
    if (s1 >= firstReporting) count = report(m, d, s1, generation, count);
  }
  // Each walk's rest (the whole task, for a short one).
  count = walkRest(m, d, buffer, s0, a0, end0, generation, count);
  return walkRest(m, d, buffer, s1, a1, length, generation, count);
}

/** One walk from `state` over `buffer[from..to)`, reporting as `scanUtf8`'s joint loop does (outside the stepping loop); returns the new count. */
function walkRest(m: RevivedMatcher, d: Dfa, buffer: Uint8Array, state: number, from: number, to: number, generation: number, count: number): number {
  const { table, shift, bytes: classes, firstReporting } = d;
  let i = from;
  while (i < to) {
    do state = table[(state << shift) | classes[buffer[i++]!]!]!;
    while (state < firstReporting && i < to);
    if (state >= firstReporting) count = report(m, d, state, generation, count);
  }
  return count;
}

/** The index after the first class-0 byte of `buffer` at or after `from` (before `length`), or `length`. */
function afterSeparator(classes: Uint8Array, buffer: Uint8Array, from: number, length: number): number {
  for (let j = from; j < length; j++) if (classes[buffer[j]!] === 0) return j + 1;
  return length;
}

/** Tasks of this many bytes or more are walked as two halves at once (see `scanUtf8`). */
const SPLIT_AT = 48;
/** Longest task `scanUtf8` reads as UTF-8 (its buffer: 3 bytes per code unit, 24 KiB); longer ones go to `scanUnits`. */
const UTF8_MAX_UNITS = 8192;
const encoder = new TextEncoder();
/**
 * `scanUtf8`'s buffer, one per process (24 KiB of external memory, none of
 * the heap). A module-level `const` on purpose: the optimizing compiler
 * then knows the array (its map, length and address are constants in the
 * loop), where one read from a variable costs a map check and three loads
 * per loop step (callgrind: about 2,000 of the 19,000 instructions of a
 * 335-character scan, and a tenth of its wall time).
 */
const utf8 = new Uint8Array(UTF8_MAX_UNITS * 3);

/** A code unit's class, as its lowercase; -1 when its lowercase depends on its neighbours (see `lowerUnit`). */
function classOf(d: Dfa, code: number): number {
  if (code < 128) return d.bytes[code]!;
  const lower = lowerUnit(code);
  if (lower === 1) return -1;
  return lower < 128 ? d.bytes[lower]! : (d.wide.get(lower) ?? 0);
}

/**
 * `scanUtf8` by UTF-16 code units (`charCodeAt`), for what it leaves. A code
 * unit whose lowercase depends on its neighbours (`lowerUnit`) sends the
 * task to `scanLowered`.
 */
function scanUnits(m: RevivedMatcher, d: Dfa, task: string): number {
  const { table, shift, bytes, firstReporting } = d;
  const generation = nextGeneration(m);
  let count = 0;
  let state = 0;
  for (let i = 0; i < task.length; i++) {
    const code = task.charCodeAt(i);
    const cls = code < 128 ? bytes[code]! : classOf(d, code);
    if (cls < 0) return scanLowered(m, d, task.toLowerCase());
    state = table[(state << shift) | cls]!;
    if (state >= firstReporting) count = report(m, d, state, generation, count);
  }
  return count;
}

/**
 * Report the keywords ending at reporting state `state` into `m.found`
 * (from `count` on), down its dictionary chain until one already reported in
 * this generation (its chain was reported with it); returns the new count.
 */
function report(m: RevivedMatcher, d: Dfa, state: number, generation: number, count: number): number {
  const { out, dict } = d;
  const seen = m.keywordSeen;
  let s = out[state]! >= 0 ? state : dict[state]!;
  while (s >= 0) {
    const k = out[s]!;
    if (seen[k] === generation) break;
    seen[k] = generation;
    m.found[count++] = k;
    s = dict[s]!;
  }
  return count;
}

/** `scanUnits` on a task already lowercased whole (a fresh generation: what the first attempt found is dropped). */
function scanLowered(m: RevivedMatcher, d: Dfa, lower: string): number {
  const { table, shift, bytes, wide, firstReporting } = d;
  const generation = nextGeneration(m);
  let count = 0;
  let state = 0;
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    state = table[(state << shift) | (code < 128 ? bytes[code]! : (wide.get(code) ?? 0))]!;
    if (state >= firstReporting) count = report(m, d, state, generation, count);
  }
  return count;
}

/** `scanTask` without a `Dfa`: sparse edges, dense rows for the busiest states only. */
function scanSparse(m: RevivedMatcher, task: string, seenGeneration: number): number {
  const { stop, rowOf, rows, report } = m.scan ?? (m.scan = scanTables(m));
  const found = m.found;
  const seen = m.keywordSeen;
  const lower = task.toLowerCase();
  const { fail, out, dict, edgeStart, edgeCode, edgeTo } = m;
  let count = 0;
  let state = 0;
  scan: for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    // The transition, following failure links, as the automaton defines it; a state
    // with a dense row answers an ASCII code unit in one read.
    let to = -1;
    for (;;) {
      if (code < 128) {
        const row = rowOf[state]!;
        if (row >= 0) {
          to = rows[(row << 7) + code]!;
          if (to < REPORTS) {
            // The usual case: the target ends no keyword, nothing to report.
            state = to;
            continue scan;
          }
          to -= REPORTS;
          break;
        }
        // An ASCII character no keyword contains (a space, most punctuation) ends
        // every match: back to the root without walking the failure chain.
        if (stop[code] === 1) {
          to = 0;
          break;
        }
      }
      const end = edgeStart[state + 1]!;
      for (let e = edgeStart[state]!; e < end; e++) {
        if (edgeCode[e] === code) {
          to = edgeTo[e]!;
          break;
        }
      }
      if (to >= 0 || state === 0) break;
      state = fail[state]!;
    }
    state = to < 0 ? 0 : to;
    if (state === 0) continue;
    let s = report[state]!;
    while (s >= 0) {
      const k = out[s]!;
      if (seen[k] === seenGeneration) break;
      seen[k] = seenGeneration;
      found[count++] = k;
      s = dict[s]!;
    }
  }
  return count;
}

/**
 * Stamp the flat positions the task selects: `stamps[offset + p] = generation`
 * for each selected position `p` of this matcher. Returns how many positions
 * it stamped that did not already carry `generation` (counted while marking,
 * so no pass over all positions is needed). The caller owns `stamps` and
 * bumps `generation` per prune; positions never stamped with the current
 * generation are the unselected ones. Allocation-free; never throws for any
 * task string.
 *
 * @example
 * const stamps = new Uint32Array(flatCount);
 * const kept = stampTask(matcher, 'read the auth.ts file', stamps, 1, 0);
 */
export function stampTask(data: PruneMatcherData, task: string, stamps: Uint32Array, generation: number, offset: number): number {
  const m = getRevived(data);
  let kept = 0;
  const always = m.always;
  for (let j = 0; j < always.length; j++) {
    const p = offset + always[j]!;
    if (stamps[p] !== generation) {
      stamps[p] = generation;
      kept++;
    }
  }
  const count = scanTask(m, task);
  const found = m.found;
  const { keywordStart, keywordPositions } = m;
  for (let f = 0; f < count; f++) {
    const k = found[f]!;
    const end = keywordStart[k + 1]!;
    for (let j = keywordStart[k]!; j < end; j++) {
      const p = offset + keywordPositions[j]!;
      if (stamps[p] !== generation) {
        stamps[p] = generation;
        kept++;
      }
    }
  }
  return kept;
}

/** The word masks of `m` (built once, on the first `selectTask`). */
function keywordMasks(m: RevivedMatcher): KeywordMasks {
  const { keywordStart, keywordPositions } = m;
  const keywords = keywordStart.length - 1;
  const start = new Int32Array(keywords + 1);
  const pairs: number[] = [];
  // A list's positions ascend (buildPruneMatcher writes them so): the positions of one word are adjacent.
  const add = (positions: Int32Array, from: number, to: number): void => {
    const first = pairs.length;
    for (let j = from; j < to; j++) {
      const p = positions[j]!;
      const w = p >>> 5;
      if (pairs.length > first && pairs[pairs.length - 2] === w) pairs[pairs.length - 1]! |= 1 << (p & 31);
      else pairs.push(w, 1 << (p & 31));
    }
  };
  for (let k = 0; k < keywords; k++) {
    start[k] = pairs.length >>> 1;
    add(keywordPositions, keywordStart[k]!, keywordStart[k + 1]!);
  }
  start[keywords] = pairs.length >>> 1;
  add(m.always, 0, m.always.length);
  const always = new Int32Array((m.total + 31) >>> 5);
  for (let j = 0; j < m.always.length; j++) always[m.always[j]! >>> 5]! |= 1 << (m.always[j]! & 31);
  return { start, pairs: Int32Array.from(pairs), always };
}

/** OR the masks `from` … `to` (pair indices) of `masks` into `sel`, shifted to start at bit `offset`. */
function orMasks(sel: Int32Array, masks: KeywordMasks, from: number, to: number, offset: number): void {
  const pairs = masks.pairs;
  const o = offset >>> 5;
  const shift = offset & 31;
  if (shift === 0) {
    for (let j = from << 1, end = to << 1; j < end; j += 2) sel[o + pairs[j]!]! |= pairs[j + 1]!;
    return;
  }
  for (let j = from << 1, end = to << 1; j < end; j += 2) {
    const v = pairs[j + 1]!;
    const w = o + pairs[j]!;
    sel[w]! |= v << shift;
    const high = v >>> (32 - shift);
    if (high !== 0) sel[w + 1]! |= high;
  }
}

/**
 * Set the bits of the flat positions the task selects in the bitset `sel`
 * (position `p` of this matcher is bit `(offset + p) & 31` of word
 * `(offset + p) >>> 5`); bits already set stay set, so several matchers can
 * select into one bitset. The caller clears `sel` and counts the result.
 * `sel` must hold `offset + total` bits. Allocation-free after the first
 * call; never throws for any task string.
 *
 * @example
 * const sel = new Int32Array((flatCount + 31) >>> 5);
 * selectTask(matcher, 'check the db', sel, 0); // (sel[p >>> 5] >>> (p & 31)) & 1 — position p kept
 */
export function selectTask(data: PruneMatcherData, task: string, sel: Int32Array, offset: number): void {
  const m = getRevived(data);
  const masks = m.masks ?? (m.masks = keywordMasks(m));
  const start = masks.start;
  orMasks(sel, masks, start[start.length - 1]!, masks.pairs.length >>> 1, offset);
  orFound(sel, masks, m, scanTask(m, task), offset);
}

/**
 * `selectTask` at offset 0 into a bitset it overwrites: `sel` becomes
 * exactly the task's selection (the always-kept positions copied in whole,
 * every other word of `sel` cleared, then the keywords OR-ed in), so the
 * caller neither clears it nor ORs the always-kept positions word by word.
 * Returns the number of selected positions (`countSelected(sel)`). `sel`
 * must hold at least `total` bits. Allocation-free after the first call;
 * never throws for any task string.
 *
 * @example
 * const sel = new Int32Array((flatCount + 31) >>> 5);
 * const kept = selectTaskFresh(matcher, 'check the db', sel); // whatever sel held before
 */
export function selectTaskFresh(data: PruneMatcherData, task: string, sel: Int32Array): number {
  const m = getRevived(data);
  let dfa = m.dfa;
  if (dfa === undefined) dfa = m.dfa = buildDfa(m);
  if (dfa !== null) {
    // The usual case: the kernel scans, ORs the masks and counts in one call (prune-kernel.ts).
    const k = pruneKernel();
    const r = k === null ? null : regionOf(m, dfa, k);
    if (r !== null) {
      const kept = k!.select(r, task, sel);
      if (kept >= 0) return kept;
    }
  }
  const masks = m.masks ?? (m.masks = keywordMasks(m));
  const always = masks.always;
  if (sel.length === always.length) sel.set(always);
  else {
    sel.fill(0, always.length);
    sel.set(always);
  }
  orFound(sel, masks, m, scanTask(m, task), 0);
  return countSelected(sel);
}

/** OR in the masks of the `count` keywords the last scan wrote to `m.found`. */
function orFound(sel: Int32Array, masks: KeywordMasks, m: RevivedMatcher, count: number, offset: number): void {
  const { start } = masks;
  const found = m.found;
  for (let f = 0; f < count; f++) {
    const k = found[f]!;
    orMasks(sel, masks, start[k]!, start[k + 1]!, offset);
  }
}

/**
 * How many bits of `sel` are set.
 *
 * @example
 * countSelected(Int32Array.of(0b1011, -1)); // → 35
 */
export function countSelected(sel: Int32Array): number {
  let n = 0;
  for (let w = 0; w < sel.length; w++) {
    let x = sel[w]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    n += Math.imul(x, 0x01010101) >>> 24;
  }
  return n;
}

/**
 * Mark the flat positions the task selects in `selected` (length ≥ the
 * matcher's tool count): 1 for kept, 0 for the rest. Returns the number kept.
 *
 * @example
 * const sel = new Uint8Array(flatCount);
 * markTask(matcher, 'Read the auth.ts file', sel);
 */
export function markTask(data: PruneMatcherData, task: string, selected: Uint8Array): number {
  const m = getRevived(data);
  if (m.scratchGeneration >= MAX_GENERATION) {
    m.scratch.fill(0);
    m.scratchGeneration = 0;
  }
  const generation = ++m.scratchGeneration;
  const kept = stampTask(data, task, m.scratch, generation, 0);
  const scratch = m.scratch;
  for (let p = 0; p < m.total; p++) selected[p] = scratch[p] === generation ? 1 : 0;
  return kept;
}

/**
 * Flat positions the task selects, ascending.
 *
 * @example
 * matchTask(matcher, 'Read the auth.ts file'); // → [0, 2]
 */
export function matchTask(matcher: PruneMatcherData, task: string): number[] {
  const m = getRevived(matcher);
  const selected = new Uint8Array(m.total);
  markTask(matcher, task, selected);
  const result: number[] = [];
  for (let p = 0; p < m.total; p++) if (selected[p] === 1) result.push(p);
  return result;
}
