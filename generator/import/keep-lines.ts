/**
 * Keeps the lines a user wrote when `import mcp` rewrites their spec. `yaml` prints a whole document
 * in its own style (one space before a comment, its own indentation), so a merge would restyle
 * every hand-written line. Every line the import did not change is put back as it was written.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';

/** Past this many cells (lines × lines) a stretch of differing lines is matched through its unique lines only. */
const MAX_CELLS = 4_000_000;

/**
 * `rendered` with every line that is unchanged from `canonical` (the saved spec as `yaml` prints
 * it) written as it is in `saved`. Falls back to `saved`'s lines at `yaml`'s indentation, then to
 * `rendered` itself, whenever putting lines back would change what the spec says.
 *
 * @example
 * keepWrittenLines('tags: [a, b]  # mine\n', 'tags: [a, b] # mine\n', 'tags: [a, b] # mine\nmore: 1\n');
 * // → 'tags: [a, b]  # mine\nmore: 1\n'
 */
export function keepWrittenLines(saved: string, canonical: string, rendered: string): string {
  const written = saved.split('\n').map((line) => line.replace(/\r$/, ''));
  const printed = canonical.split('\n');
  const out = rendered.split('\n');
  // Which saved lines each stretch of printed lines came from: equal but for whitespace, one to one, and
  // between two such lines, the lines `yaml` printed differently (a folded scalar joined, a flow list split).
  const strip = (line: string) => line.replace(/\s+/g, '');
  const from: { printed: [number, number]; written: string[] }[] = [];
  let last: [number, number] = [-1, -1];
  for (const [i, j] of [...matchLines(printed.map(strip), written.map(strip)), [printed.length, written.length] as [number, number]]) {
    const gap = i > last[0] + 1 && j > last[1] + 1;
    if (gap) {
      // Blank lines yaml added around such a stretch are not part of it.
      let [p0, p1] = [last[0] + 1, i];
      while (p0 < p1 && printed[p0] === '') p0++;
      while (p1 > p0 && printed[p1 - 1] === '') p1--;
      if (p0 < p1) from.push({ printed: [p0, p1], written: written.slice(last[1] + 1, j) });
    }
    // Saved lines yaml left out (a second blank line) stay with the line below them.
    if (i < printed.length) from.push({ printed: [i, i + 1], written: written.slice(gap ? j : last[1] + 1, j + 1) });
    last = [i, j];
  }
  // Where each printed line is in the output, when the import left it there.
  const at = new Map<number, number>();
  for (const [i, j] of matchLines(out, printed)) at.set(j, i);
  const meaning = parseDocument(rendered).toJS() as unknown;
  for (const asWritten of [true, false]) {
    const lines: (string | string[])[] = [...out];
    for (const { printed: [p0, p1], written: lines0 } of from) {
      const start = at.get(p0);
      let kept = start !== undefined;
      for (let p = p0 + 1; kept && p < p1; p++) kept = at.get(p) === start! + (p - p0);
      if (!kept) continue;
      if (asWritten) {
        lines[start!] = lines0;
        for (let k = start! + 1; k < start! + (p1 - p0); k++) lines[k] = [];
      } else if (p1 - p0 === 1) {
        // At yaml's indentation: the line's own spacing and comment, in a spec indented otherwise.
        lines[start!] = `${/^\s*/.exec(out[start!]!)![0]}${lines0[lines0.length - 1]!.trimStart()}`;
      }
    }
    const text = lines.flat().join('\n');
    const doc = parseDocument(text);
    if (doc.errors.length === 0 && isDeepStrictEqual(doc.toJS(), meaning)) return text;
  }
  return rendered;
}

/** Index pairs of equal lines of `a` and `b`, in order: a longest common subsequence (exact for stretches up to `MAX_CELLS`). */
export function matchLines(a: readonly string[], b: readonly string[]): [number, number][] {
  const pairs: [number, number][] = [];
  match(a, b, 0, a.length, 0, b.length, pairs);
  return pairs;
}

function match(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number, pairs: [number, number][]): void {
  while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) pairs.push([a0++, b0++]);
  const tail: [number, number][] = [];
  while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) tail.push([--a1, --b1]);
  if (a0 < a1 && b0 < b1) {
    if ((a1 - a0) * (b1 - b0) <= MAX_CELLS) longestCommon(a, b, a0, a1, b0, b1, pairs);
    else {
      // Too long to compare every pair: lines found once on each side anchor the match, and the stretches between them are matched in turn.
      let i = a0;
      let j = b0;
      for (const [ai, bj] of uniqueAnchors(a, b, a0, a1, b0, b1)) {
        match(a, b, i, ai, j, bj, pairs);
        pairs.push([ai, bj]);
        i = ai + 1;
        j = bj + 1;
      }
      if (i > a0) match(a, b, i, a1, j, b1, pairs);
    }
  }
  pairs.push(...tail.reverse());
}

/** The classic dynamic-programming longest common subsequence of `a[a0..a1)` and `b[b0..b1)`. */
function longestCommon(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number, pairs: [number, number][]): void {
  const n = a1 - a0;
  const m = b1 - b0;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[a0 + i] === b[b0 + j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[a0 + i] === b[b0 + j]) {
      pairs.push([a0 + i++, b0 + j++]);
    } else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) i++;
    else j++;
  }
}

/** Lines that occur exactly once in each stretch, as pairs, keeping the longest run in order on both sides. */
function uniqueAnchors(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): [number, number][] {
  const count = (list: readonly string[], from: number, to: number) => {
    const seen = new Map<string, number>();
    for (let i = from; i < to; i++) seen.set(list[i]!, seen.has(list[i]!) ? -1 : i);
    return seen;
  };
  const inA = count(a, a0, a1);
  const inB = count(b, b0, b1);
  const candidates: [number, number][] = [];
  for (const [line, i] of inA) if (i >= 0 && (inB.get(line) ?? -1) >= 0) candidates.push([i, inB.get(line)!]);
  // Longest increasing run of b-indices (patience sorting).
  const tops: number[] = [];
  const previous: number[] = [];
  candidates.forEach(([, j], k) => {
    let lo = 0;
    let hi = tops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[tops[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    previous[k] = lo > 0 ? tops[lo - 1]! : -1;
    tops[lo] = k;
  });
  const run: [number, number][] = [];
  for (let k = tops.length > 0 ? tops[tops.length - 1]! : -1; k >= 0; k = previous[k]!) run.push(candidates[k]!);
  return run.reverse();
}
