/**
 * Small helpers every spec loader shares: a one-problem failure result, a
 * Node error code for a message, an error message as a sentence, and a
 * line/column from a text offset.
 */
import type { Problem } from '../problems.js';
import type { LoadResult } from '../load.js';

/**
 * A load result with one whole-file problem (line and column 0).
 *
 * @example
 * fail('spec.txt', 'unsupported_file_type', '".txt" is not a spec file type.', 'Name it *.yaml.');
 */
export function fail(file: string, code: Problem['code'], message: string, hint: string): LoadResult {
  return { ok: false, problems: [{ code, message, hint, file, line: 0, column: 0, path: '' }] };
}

/** The `code` of a Node error (`ENOENT`), or "unreadable". */
export function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unreadable';
}

/** "Map keys must be unique" → "map keys must be unique." */
export function sentence(s: string): string {
  const t = s.trim().split('\n')[0] ?? '';
  const lowered = t.length > 1 && /^[A-Z][a-z]/.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
  return /[.!?]$/.test(lowered) ? lowered : `${lowered}.`;
}

/** 1-based line and column of `offset` in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: end - last };
}

/**
 * Offsets where each line starts (the first line at 0), as yaml's LineCounter records them.
 *
 * @example
 * lineStarts('a\nb'); // [0, 2]
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let n = text.indexOf('\n'); n !== -1; n = text.indexOf('\n', n + 1)) starts.push(n + 1);
  return starts;
}

/**
 * 1-based line and column of an offset (yaml's `LineCounter.linePos`, so every path agrees).
 *
 * @example
 * linePos(lineStarts('a\nb'), 2); // { line: 2, column: 1 }
 */
export function linePos(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((starts[mid] ?? 0) < offset) low = mid + 1;
    else high = mid;
  }
  if (starts[low] === offset) return { line: low + 1, column: 1 };
  return { line: low, column: offset - (starts[low - 1] ?? 0) + 1 };
}
