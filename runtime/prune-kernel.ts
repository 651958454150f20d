/**
 * The prune kernel: `selectTaskFresh`'s scan of a task and its keyword
 * masks, in one typed array the optimizing compiler knows as a constant.
 *
 * Why a separate kernel. V8 (Node 20) compiles a read from a typed array held
 * in a variable as a map check and three loads (its length and the two halves
 * of its data pointer) before the bounds check and the read itself, on every
 * loop step: it does not hoist them out of loops. A typed array the compiler
 * knows as a constant is read with one bounds check and one load from a fixed
 * address. Module-level `const`s and the variables of a closure that exists
 * once in the process are such constants. A matcher's tables cannot be
 * module-level constants (their size is the matcher's), and a closure per
 * matcher loses it as soon as a second matcher exists (V8 then compiles the
 * shared function for any closure). So the kernel is one closure set, made on
 * the first prune, over one arena (`Int32Array`) that holds every placed
 * matcher's tables side by side, plus a buffer for the task's code units.
 *
 * What a placed matcher (a `KernelRegion`) holds in the arena:
 * - the complete automaton with every entry the arena offset of its target's
 *   row (`base + (state << shift)`), so a step is `state = A[state + class]`:
 *   one add, no shift; rows of states that end a keyword come last, so
 *   `state >= firstRow` is the one test a step needs;
 * - per state, the keyword ending there and the next reporting state down its
 *   dictionary chain (as `Dfa.out` / `Dfa.dict`), the per-keyword "seen"
 *   generation and the found list;
 * - the always-kept bitset, and each keyword's word masks as pairs of an
 *   absolute scratch word offset and a mask, so OR-ing a keyword in is
 *   `A[A[j]] |= A[j + 1]`;
 * - a scratch bitset the masks are OR-ed into, copied out to the caller's.
 * The first 65,536 words are the class of each UTF-16 code unit for the
 * active region (its ASCII classes, capitals as small letters, written when
 * the active region changes; every other code unit is class 0 but for the
 * Kelvin sign, which lowercases to `k`).
 *
 * The task is read as UTF-16 code units by `Buffer#write(task, 0, 'utf16le')`
 * (a copy, about a quarter of `TextEncoder.encodeInto`'s instructions on the
 * benchmark's tasks), two units per 32-bit read. Only matchers whose keywords
 * are all ASCII are placed: then the one code unit whose lowercase is more
 * than one unit that matters (U+0130, `İ` → `i̇`) sends the task back to the
 * matcher's general scan, and every other non-ASCII unit only ends matches.
 *
 * Memory: the arena is `ARENA_WORDS` × 4 bytes (16 MiB), allocated on the
 * first prune that can use it; pages never written cost no memory (the OS
 * maps them on first write), so what a process holds is what its matchers
 * use: about 1.2 MiB at 1,000 flat tools, 7 MiB at 10,000. A matcher that does
 * not fit after the arena is emptied (and, to avoid thrashing, one placed
 * `MAX_PLACEMENTS` times already) stays on the general scan. Without Node's
 * `Buffer` or on a big-endian machine there is no kernel.
 */

/** What `placeRegion` copies in: the complete automaton and the keyword masks (see matcher.ts `Dfa`, `KeywordMasks`). */
export interface KernelInput {
  readonly shift: number;
  readonly table: Uint16Array | Int32Array;
  readonly firstReporting: number;
  readonly out: Int32Array;
  readonly dict: Int32Array;
  /** Byte / ASCII code unit → class (capitals as their small letter). */
  readonly classes: Uint8Array;
  /** Keyword id → its pairs at `start[k]` … `start[k + 1]`. */
  readonly start: Int32Array;
  /** Word index and mask, interleaved. */
  readonly pairs: Int32Array;
  /** The always-kept positions as a bitset. */
  readonly always: Int32Array;
}

/** A matcher placed in the arena (arena offsets in words). Opaque outside this file. */
export interface KernelRegion {
  /** The kernel that placed it, and its arena's epoch then (`holds`). */
  readonly owner: object;
  readonly epoch: number;
  readonly base: number;
  readonly shift: number;
  readonly firstRow: number;
  readonly classes: Int32Array;
  readonly kelvin: number;
  readonly out: number;
  readonly dict: number;
  readonly seen: number;
  readonly found: number;
  readonly keywords: number;
  readonly always: number;
  readonly starts: number;
  readonly scratch: number;
  readonly words: number;
  /** Generation of the last scan (`seen` entries equal to it were found by it). */
  gen: number;
}

/** The kernel's operations (one closure set per process). */
export interface PruneKernel {
  /** Copy a matcher in; `null` when it cannot be placed (too large even in an empty arena). */
  place(input: KernelInput): KernelRegion | null;
  /** Whether `region` is still in the arena (an emptied arena drops every region). */
  holds(region: KernelRegion): boolean;
  /**
   * Scan `task` and write its selection into `sel` (`words` words; the rest of
   * `sel` cleared): the always-kept bits and every found keyword's. Returns the
   * number of set bits, or -1 when this task needs the general scan (nothing
   * written).
   */
  select(region: KernelRegion, task: string, sel: Int32Array): number;
  /** Scan `task` and copy the distinct keyword ids found into `found`; returns how many, or -1 as `select`. */
  scan(region: KernelRegion, task: string, found: Int32Array): number;
}

/** Arena size in 32-bit words (16 MiB of address space, see the file comment). */
const ARENA_WORDS = 1 << 22;
/** The code-unit class table at the arena's start. */
const CLASS_WORDS = 0x10000;
/** Longest task the kernel reads (its buffer); longer ones take the general scan. */
const MAX_UNITS = 8192;
/** Tasks this long or longer are walked as two halves at once (see `scan`). */
const SPLIT_AT = 48;
/** Placements per matcher (the first, and after the arena was emptied); past this it stays on the general scan. */
export const MAX_PLACEMENTS = 3;
/** Generations run up to this, then a region's `seen` entries are cleared. */
const MAX_GEN = 0x7fff_fffe;

let kernel: PruneKernel | null | undefined;

/**
 * The process's prune kernel, made on first call; `null` where it cannot run
 * (no `Buffer`, a big-endian machine).
 *
 * @example
 * const k = pruneKernel();
 * const region = k?.place(input) ?? null;
 */
export function pruneKernel(): PruneKernel | null {
  if (kernel === undefined) kernel = createPruneKernel();
  return kernel;
}

/**
 * For tests: make `k` the process's kernel (`undefined`: make a fresh one on
 * next use); returns the one it replaces. Regions of another kernel are never
 * taken for this one's (`holds`), so matchers place themselves again.
 *
 * @example
 * const before = usePruneKernel(createPruneKernel(1 << 18));
 * // … prune …
 * usePruneKernel(before);
 */
export function usePruneKernel(k: PruneKernel | null | undefined): PruneKernel | null | undefined {
  const before = kernel;
  kernel = k;
  return before;
}

/**
 * A new kernel over an arena of `arenaWords` 32-bit words (the process's
 * own is `pruneKernel()`; a second kernel makes V8 compile the kernel's
 * functions for any closure, so this is for tests). `null` where it cannot run.
 *
 * @example
 * const small = createPruneKernel(1 << 18); // 1 MiB: fills after a few matchers
 */
export function createPruneKernel(arenaWords: number = ARENA_WORDS): PruneKernel | null {
  if (!Number.isInteger(arenaWords) || arenaWords < 2 * CLASS_WORDS) throw new RangeError(`toolroute: a prune kernel's arena needs at least ${2 * CLASS_WORDS} words, got ${arenaWords}`);
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (typeof NodeBuffer?.from !== 'function') return null;
  // The walk reads two UTF-16LE units per 32-bit word, the first in its low half.
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) return null;
  // Everything the loops read is a `const` of this closure: the optimizing compiler embeds it (see the file comment).
  const A = new Int32Array(arenaWords);
  const units = new Uint16Array(MAX_UNITS + 2);
  const unitPairs = new Uint32Array(units.buffer);
  const unitBytes = NodeBuffer.from(units.buffer, 0, units.byteLength);
  const owner = {};
  let top = CLASS_WORDS;
  let epoch = 0;
  let active: KernelRegion | null = null;
  /** The state the last `walkPairs` ended in. */
  let lastState = 0;

  function place(input: KernelInput): KernelRegion | null {
    const { shift, table, out, dict, start, pairs, always } = input;
    const states = out.length;
    const keywords = start.length - 1;
    const words = always.length;
    const size = (states << shift) + 2 * states + 2 * keywords + words + (keywords + 1) + pairs.length + words;
    if (CLASS_WORDS + size > arenaWords) return null;
    if (top + size > arenaWords) {
      // Full: empty the arena. Every region is dropped and placed again on its next prune.
      epoch++;
      top = CLASS_WORDS;
      active = null;
    }
    const base = top;
    top += size;
    const a = A;
    for (let i = 0, n = states << shift; i < n; i++) a[base + i] = base + (table[i]! << shift);
    const outAt = base + (states << shift);
    const dictAt = outAt + states;
    const seenAt = dictAt + states;
    const foundAt = seenAt + keywords;
    const alwaysAt = foundAt + keywords;
    const startsAt = alwaysAt + words;
    const pairsAt = startsAt + keywords + 1;
    const scratchAt = pairsAt + pairs.length;
    a.set(out, outAt);
    a.set(dict, dictAt);
    a.fill(0, seenAt, foundAt);
    a.set(always, alwaysAt);
    for (let k = 0; k <= keywords; k++) a[startsAt + k] = pairsAt + 2 * start[k]!;
    for (let j = 0; j < pairs.length; j += 2) {
      a[pairsAt + j] = scratchAt + pairs[j]!;
      a[pairsAt + j + 1] = pairs[j + 1]!;
    }
    const classes = new Int32Array(128);
    for (let c = 0; c < 128; c++) classes[c] = input.classes[c]!;
    return {
      owner,
      epoch,
      base,
      shift,
      firstRow: base + (input.firstReporting << shift),
      classes,
      kelvin: input.classes[0x6b]!,
      out: outAt,
      dict: dictAt,
      seen: seenAt,
      found: foundAt,
      keywords,
      always: alwaysAt,
      starts: startsAt,
      scratch: scratchAt,
      words,
      gen: 0,
    };
  }

  /** Report the keywords ending at reporting row `row` (as matcher.ts `report`); returns the new count. */
  function report(r: KernelRegion, row: number, count: number): number {
    const a = A;
    const { out, dict, seen, found, gen } = r;
    const state = (row - r.base) >> r.shift;
    let s = a[out + state]! >= 0 ? state : a[dict + state]!;
    while (s >= 0) {
      const k = a[out + s]!;
      if (a[seen + k] === gen) break;
      a[seen + k] = gen;
      a[found + count++] = k;
      s = a[dict + s]!;
    }
    return count;
  }

  /** One walk over unit pairs `p` … `e` from row `s`, reporting outside the stepping loop; sets `lastState`. */
  function walkPairs(r: KernelRegion, s: number, p: number, e: number, count: number): number {
    const a = A;
    const w = unitPairs;
    const first = r.firstRow;
    while (p < e) {
      let t: number;
      do {
        const x = w[p++]!;
        t = a[(s + a[x & 0xffff]!) | 0]!;
        s = a[(t + a[x >>> 16]!) | 0]!;
      } while (((t - first) & (s - first)) < 0 && p < e);
      if (t >= first) count = report(r, t, count);
      if (s >= first) count = report(r, s, count);
    }
    lastState = s;
    return count;
  }

  /**
   * The distinct keywords of `task` into the region's found list; returns
   * how many, or -1 (the task needs the general scan).
   *
   * Each step reads the previous step's result, so one walk costs a memory
   * read's latency per unit: a task of `SPLIT_AT` units or more is walked as
   * two halves at once, the second starting at an even unit at or before a
   * class-0 unit at or past the middle (after one the automaton is at the
   * root, and no keyword spans it; starting a little earlier only finds
   * matches again). The joint loop steps both walks two units at a time until
   * one of the four states reached is a reporting one (`(x - first) & …`
   * is negative only when all are below `first`), and reports outside it.
   */
  function scanUnits(r: KernelRegion, task: string): number {
    const length = task.length;
    if (length > MAX_UNITS || task.includes('\u0130')) return -1;
    const a = A;
    const u = units;
    const w = unitPairs;
    unitBytes.write(task, 0, 'utf16le');
    if (active !== r) {
      a.set(r.classes, 0);
      a[0x212a] = r.kelvin;
      active = r;
    }
    if (r.gen >= MAX_GEN) {
      a.fill(0, r.seen, r.seen + r.keywords);
      r.gen = 0;
    }
    r.gen++;
    const first = r.firstRow;
    let split = length;
    if (length >= SPLIT_AT) {
      for (let j = length >>> 1; j < length; j++) {
        if (a[u[j]!] === 0) {
          split = j + 1;
          break;
        }
      }
    }
    // No separator: the first walk takes the whole task (its odd last unit included).
    const whole = split === length;
    const end0 = split >>> 1;
    const end1 = length >>> 1;
    let p0 = 0;
    let p1 = end0;
    const stop = Math.min(end0, end1 - p1);
    let s0 = r.base;
    let s1 = r.base;
    let count = 0;
    while (p0 < stop) {
      let t0: number;
      let t1: number;
      do {
        const x = w[p0++]!;
        const y = w[p1++]!;
        t0 = a[(s0 + a[x & 0xffff]!) | 0]!;
        t1 = a[(s1 + a[y & 0xffff]!) | 0]!;
        s0 = a[(t0 + a[x >>> 16]!) | 0]!;
        s1 = a[(t1 + a[y >>> 16]!) | 0]!;
      } while (((t0 - first) & (s0 - first) & (t1 - first) & (s1 - first)) < 0 && p0 < stop);
      if (t0 >= first) count = report(r, t0, count);
      if (s0 >= first) count = report(r, s0, count);
      if (t1 >= first) count = report(r, t1, count);
      if (s1 >= first) count = report(r, s1, count);
    }
    count = walkPairs(r, s0, p0, end0, count);
    const last0 = lastState;
    count = walkPairs(r, s1, p1, end1, count);
    if ((length & 1) !== 0) {
      const s = a[((whole ? last0 : lastState) + a[u[length - 1]!]!) | 0]!;
      if (s >= first) count = report(r, s, count);
    }
    return count;
  }

  function select(r: KernelRegion, task: string, sel: Int32Array): number {
    const count = scanUnits(r, task);
    if (count < 0) return -1;
    const a = A;
    const { always, starts, scratch, found, words } = r;
    a.copyWithin(scratch, always, always + words);
    for (let f = 0; f < count; f++) {
      const k = a[found + f]!;
      const end = a[starts + k + 1]!;
      let j = a[starts + k]!;
      // Two pairs per step (a keyword of one tool has one pair; a shared tag, dozens).
      for (; j + 2 < end; j += 4) {
        a[a[j]!]! |= a[j + 1]!;
        a[a[j + 2]!]! |= a[j + 3]!;
      }
      if (j < end) a[a[j]!]! |= a[j + 1]!;
    }
    // Copied out and counted in one pass.
    let kept = 0;
    for (let i = 0; i < words; i++) {
      let x = a[scratch + i]!;
      sel[i] = x;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      x = (x + (x >>> 4)) & 0x0f0f0f0f;
      kept += Math.imul(x, 0x01010101) >>> 24;
    }
    if (sel.length > words) sel.fill(0, words);
    return kept;
  }

  function scan(r: KernelRegion, task: string, found: Int32Array): number {
    const count = scanUnits(r, task);
    for (let f = 0; f < count; f++) found[f] = A[r.found + f]!;
    return count;
  }

  return { place, holds: (r) => r.owner === owner && r.epoch === epoch, select, scan };
}
