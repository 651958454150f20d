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

/** Runtime form of the automaton: one edge map, the rest as typed arrays. */
interface RevivedMatcher {
  readonly total: number;
  readonly always: Uint8Array;
  readonly next: Map<number, number>;
  readonly fail: Int32Array;
  readonly out: Int32Array;
  readonly dict: Int32Array;
  readonly keywordTools: readonly (readonly number[])[];
}

// Edge keys pack (state, code unit) into one number: state * 2^16 + code.
// Safe up to 2^37 states, far beyond any spec.
const CODE_SPAN = 0x10000;

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

// Revived once per data object (createRouter calls it up front; standalone
// `matchTask` calls hit the same cache).
const revived = new WeakMap<PruneMatcherData, RevivedMatcher>();

/**
 * Turn serialized matcher data into lookup tables. Idempotent and cached per
 * data object; throws on data that is not a matcher (a generator bug, never
 * model input).
 *
 * @example
 * reviveMatcher(generated.spec.matcher); // once, at createRouter
 */
export function reviveMatcher(data: PruneMatcherData): void {
  getRevived(data);
}

function getRevived(data: PruneMatcherData): RevivedMatcher {
  const cached = revived.get(data);
  if (cached) return cached;
  const a = data.automaton as AhoCorasickData | null;
  if (!a || a.format !== 'aho-corasick/1') {
    throw new TypeError(
      'toolroute: the prune matcher in this generated folder has an unknown format; regenerate it with the same toolroute version as the runtime.',
    );
  }
  const next = new Map<number, number>();
  for (let i = 0; i < a.edges.length; i += 3) {
    next.set(a.edges[i]! * CODE_SPAN + a.edges[i + 1]!, a.edges[i + 2]!);
  }
  const total = a.total;
  const always = new Uint8Array(total);
  for (const p of data.always) always[p] = 1;
  const r: RevivedMatcher = {
    total,
    always,
    next,
    fail: Int32Array.from(a.fail),
    out: Int32Array.from(a.out),
    dict: Int32Array.from(a.dict),
    keywordTools: a.keywordTools,
  };
  revived.set(data, r);
  return r;
}

/**
 * Mark the flat positions the task selects in `selected` (length ≥ the
 * matcher's tool count): 1 for kept. Returns the number kept.
 * The allocation-free core of `matchTask`, used by the router.
 *
 * @example
 * const sel = new Uint8Array(flatCount);
 * markTask(matcher, 'Read the auth.ts file', sel);
 */
export function markTask(data: PruneMatcherData, task: string, selected: Uint8Array): number {
  const m = getRevived(data);
  selected.set(m.always);
  const lower = task.toLowerCase();
  const matched = new Uint8Array(m.keywordTools.length);
  const { next, fail, out, dict } = m;
  let state = 0;
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    let to = next.get(state * CODE_SPAN + code);
    while (to === undefined && state !== 0) {
      state = fail[state]!;
      to = next.get(state * CODE_SPAN + code);
    }
    state = to ?? 0;
    // Report keywords ending here. A keyword already matched had its whole
    // dictionary chain reported at that time, so stop there: total output work
    // is bounded by the number of distinct keywords, not by the task length.
    let s = out[state]! >= 0 ? state : dict[state]!;
    while (s >= 0) {
      const k = out[s]!;
      if (matched[k] === 1) break;
      matched[k] = 1;
      for (const p of m.keywordTools[k]!) selected[p] = 1;
      s = dict[s]!;
    }
  }
  let kept = 0;
  for (let p = 0; p < m.total; p++) kept += selected[p]!;
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
