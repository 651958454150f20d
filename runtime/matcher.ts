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
 * JSON. `matchTask` lowercases the task exactly as the reference does and scans
 * it once: cost grows with the task length and the number of hits, not with the
 * number of tools or tags.
 */
import type { PruneMatcherData } from './contract.js';

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
  /** The bitset form `selectTask` reads, built on its first call (see `KeywordBits`). */
  bits: KeywordBits | undefined;
  /** `scanTask`'s tables, built on its first call. */
  scan: ScanTables | undefined;
}

/** What `scanTask` adds to a revived matcher, on its first call. */
interface ScanTables {
  /** Distinct keyword ids one scan found, in the order found. */
  readonly found: Int32Array;
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
 * Keyword → selected positions as bitsets (bit `p & 31` of word `p >>> 5`),
 * for `selectTask`: a keyword that selects many tools (a tag like `db`) is
 * OR-ed in one word per 32 positions instead of one store per position. Only
 * keywords that select at least one position in `DENSE_FACTOR` get one (an
 * average of two or more bits per word), so the bitsets never take more than
 * half the memory of the position lists they stand for; the rest (a tool's
 * own name) keep setting one bit per position.
 */
interface KeywordBits {
  /** Words per bitset: `ceil(total / 32)`. */
  readonly words: number;
  /** The always-kept (untagged) positions. */
  readonly always: Int32Array;
  /** Keyword id → offset of its bitset in `dense`, or -1 (set its listed positions one by one). */
  readonly at: Int32Array;
  readonly dense: Int32Array;
}

/** See `KeywordBits`: a bitset of `total / 32` words replaces a list of at least `total / DENSE_FACTOR` positions. */
const DENSE_FACTOR = 16;

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
  if (!a || a.format !== 'aho-corasick/1') {
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
    bits: undefined,
    scan: undefined,
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
  return { found: new Int32Array(m.keywordSeen.length), stop, rowOf, rows, report };
}

/**
 * Scan a task once with the automaton: the distinct keyword ids it contains
 * (as substrings of `task.toLowerCase()`), written to `m.scan.found`; returns how
 * many. A keyword already reported had its whole dictionary chain reported
 * at that time, so the walk stops there: output work is bounded by the
 * number of distinct keywords, not by the task length. Allocation-free
 * after the first call (but for the lowercased task); never throws.
 */
function scanTask(m: RevivedMatcher, task: string): number {
  const { found, stop, rowOf, rows, report } = m.scan ?? (m.scan = scanTables(m));
  if (m.keywordGeneration >= MAX_GENERATION) {
    m.keywordSeen.fill(0);
    m.keywordGeneration = 0;
  }
  const seenGeneration = ++m.keywordGeneration;
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
  const found = m.scan!.found;
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

/** The bitsets of `m` (built once, on the first `selectTask`). */
function keywordBits(m: RevivedMatcher): KeywordBits {
  const total = m.total;
  const words = (total + 31) >>> 5;
  const { keywordStart, keywordPositions } = m;
  const keywords = keywordStart.length - 1;
  const at = new Int32Array(keywords).fill(-1);
  let dense = 0;
  for (let k = 0; k < keywords; k++) if ((keywordStart[k + 1]! - keywordStart[k]!) * DENSE_FACTOR >= total) at[k] = words * dense++;
  const bits = new Int32Array(words * dense);
  for (let k = 0; k < keywords; k++) {
    const base = at[k]!;
    if (base < 0) continue;
    for (let j = keywordStart[k]!; j < keywordStart[k + 1]!; j++) {
      const p = keywordPositions[j]!;
      bits[base + (p >>> 5)]! |= 1 << (p & 31);
    }
  }
  const always = new Int32Array(words);
  for (let j = 0; j < m.always.length; j++) {
    const p = m.always[j]!;
    always[p >>> 5]! |= 1 << (p & 31);
  }
  return { words, always, at, dense: bits };
}

/** OR `words` words of `src` from `from` into `sel`, shifted to start at bit `offset`. */
function orBits(sel: Int32Array, src: Int32Array, from: number, words: number, offset: number): void {
  const o = offset >>> 5;
  const shift = offset & 31;
  if (shift === 0) {
    for (let w = 0; w < words; w++) sel[o + w]! |= src[from + w]!;
    return;
  }
  for (let w = 0; w < words; w++) {
    const v = src[from + w]!;
    if (v === 0) continue;
    sel[o + w]! |= v << shift;
    const high = v >>> (32 - shift);
    if (high !== 0) sel[o + w + 1]! |= high;
  }
}

/**
 * Set the bits of the flat positions the task selects in the bitset `sel`
 * (position `p` of this matcher is bit `(offset + p) & 31` of word
 * `(offset + p) >>> 5`); bits already set stay set, so several matchers can
 * select into one bitset. The caller clears `sel` and counts the result.
 * `sel` must hold `offset + total` bits. Allocation-free after the first
 * call (but for the lowercased task); never throws for any task string.
 *
 * @example
 * const sel = new Int32Array((flatCount + 31) >>> 5);
 * selectTask(matcher, 'check the db', sel, 0); // (sel[p >>> 5] >>> (p & 31)) & 1 — position p kept
 */
export function selectTask(data: PruneMatcherData, task: string, sel: Int32Array, offset: number): void {
  const m = getRevived(data);
  const bits = m.bits ?? (m.bits = keywordBits(m));
  const words = bits.words;
  if (m.always.length > 0) orBits(sel, bits.always, 0, words, offset);
  const count = scanTask(m, task);
  const found = m.scan!.found;
  const { at, dense } = bits;
  const { keywordStart, keywordPositions } = m;
  for (let f = 0; f < count; f++) {
    const k = found[f]!;
    const base = at[k]!;
    if (base >= 0) {
      orBits(sel, dense, base, words, offset);
      continue;
    }
    const end = keywordStart[k + 1]!;
    for (let j = keywordStart[k]!; j < end; j++) {
      const p = offset + keywordPositions[j]!;
      sel[p >>> 5]! |= 1 << (p & 31);
    }
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
