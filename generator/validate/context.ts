/** What every validation rule shares: `Context` (problems with positions) and readers of an untrusted value. */
import type { LoadedSpec, SpecPath } from '../load.js';
import { formatPath } from '../problems.js';
import type { Problem, ProblemCode } from '../problems.js';

/**
 * Collects problems with their positions.
 *
 * @example
 * const ctx = new Context(loaded.spec);
 * ctx.add('empty_tag', ['tools', 0, 'tags', 1], 'this tag is empty.', 'Remove it.');
 */
export class Context {
  readonly problems: Problem[] = [];
  /** Problems that do not stop generation (`severity: 'warning'`). */
  readonly warnings: Problem[] = [];
  constructor(readonly spec: LoadedSpec) {}

  /**
   * Reports a problem at the value at `path` (or its key with `at: 'key'`); a
   * warning with `severity: 'warning'`; `subject` names what it is about (Problem.subject).
   */
  add(code: ProblemCode, path: SpecPath, message: string, hint: string, at: 'value' | 'key' = 'value', severity?: 'warning', subject?: string): void {
    const { line, column } = this.spec.locate(path, at);
    const problem: Problem = { code, message, hint, file: this.spec.file, line, column, path: formatPath(path), ...(subject === undefined ? {} : { subject }) };
    if (severity === 'warning') this.warnings.push({ ...problem, severity });
    else this.problems.push(problem);
  }

  /** Where `path` was written, for "first defined at line N". */
  where(path: SpecPath): string {
    const p = formatPath(path);
    return this.spec.format === 'ts' ? p : `${p}, line ${this.spec.locate(path).line}`;
  }

  /** Problems (or, with `'warnings'`, warnings) with duplicates (same code and path) removed; the first one wins. */
  unique(which: 'problems' | 'warnings' = 'problems'): Problem[] {
    const seen = new Set<string>();
    return this[which].filter((p) => {
      const key = `${p.code}\u0000${p.path}\u0000${p.line}:${p.column}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}

/**
 * Sets `obj[key] = value` as an own data property, also for the key
 * `__proto__` (a plain assignment would set the prototype instead and the
 * property would vanish: a property may be named `__proto__`).
 *
 * @example
 * setOwn({}, '__proto__', { type: 'number' }); // { ['__proto__']: { type: 'number' } }, an own key
 */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** Whether `v` is a mapping (not null, not a list). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `v` when it is a list, else an empty list: rules read malformed specs too. */
export const listAt = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * How a JSON value reads in a message: `a string ("x")`, `a list`, `a number (3)`.
 *
 * @example
 * describe([1]); // 'a list'
 */
export function describe(v: unknown): string {
  if (v === null) return 'null (an empty value)';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
    case 'number':
      return `a number (${v})`;
    case 'boolean':
      return `a boolean (${v})`;
    case 'object':
      return 'a mapping';
    case 'undefined':
      return 'nothing';
    default:
      return `a ${typeof v}`;
  }
}

/** Text after a comma inside `{ … }` becomes a key of its own in YAML: the commonest way to get a key with spaces and no value. */
export const COMMA_HINT =
  'This looks like the rest of a value cut at a comma: inside `{ ... }` YAML splits unquoted text at commas. Quote the whole value, e.g. `description: "Path of the file, relative to the root"`.';
