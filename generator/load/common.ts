/** Small helpers the spec loaders share. */
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

/**
 * What was thrown, as text, whatever it is: an object without a string form (`Object.create(null)`) or with a throwing
 * `toString` or `message` must not turn a user's mistake into a crash.
 * @example errorText(new Error('boom')); // → 'boom'
 */
export function errorText(err: unknown): string {
  try {
    const text: unknown = err instanceof Error ? err.message : err;
    return typeof text === 'string' ? text : String(text);
  } catch {
    return 'a thrown value that has no text';
  }
}

/** "Map keys must be unique" → "map keys must be unique." */
export function sentence(s: string): string {
  const t = s.trim().split('\n')[0] ?? '';
  const lowered = t.length > 1 && /^[A-Z][a-z]/.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
  return /[.!?]$/.test(lowered) ? lowered : `${lowered}.`;
}
