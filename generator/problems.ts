/** Problems in a spec, as data, formatted in one place. Bugs of toolroute itself are plain `Error`s from `bug()`. */

/** Every kind of problem the front end reports: a new kind is added here, to the table in docs/spec.md and as a fixture. */
export const PROBLEM_CODES = [
  // Reading the file
  'file_not_found', 'unsupported_file_type', 'syntax_error', 'duplicate_key', 'not_json_data', 'ts_load_failed', 'ts_no_spec_export', 'zod_conversion_failed',
  // Warnings: a zod regex flag (`/…/i`) that a JSON Schema `pattern` cannot carry; a zod rule JSON Schema cannot carry.
  'zod_regex_flags', 'zod_not_checked',
  // Shape
  'unknown_key', 'missing_key', 'wrong_type', 'invalid_value', 'unsupported_version', 'empty_description', 'empty_tag',
  // Names and references
  'invalid_name', 'empty_name', 'reserved_name', 'name_collision', 'duplicate_tool', 'duplicate_entry', 'unknown_tool',
  'unknown_policy_target', 'empty_group', 'no_tools', 'all_tools_deferred',
  // Warnings: `offerUngroupedTools: false` leaves a tool in no namespace, no toolkit and not offered; a namespace offers a
  // toolkit's tool before its load.
  'unreachable_tool', 'toolkit_tool_in_namespace',
  // Parameters (JSON Schema)
  'parameters_not_object', 'invalid_shorthand', 'invalid_schema', 'unknown_schema_keyword', 'unsupported_schema_dialect',
  'unsupported_schema_keyword', 'unknown_format', 'required_not_in_properties', 'unresolved_ref', 'remote_ref', 'recursive_ref',
  // A warning: `applyDefaults: true` cannot fill a default of a property named like an `Object.prototype` member.
  'default_not_applied',
  // A warning: with `openaiStrict: true`, a tool strict mode cannot express is sent to OpenAI without it.
  'openai_strict_fallback',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One user mistake in a spec. Line and column are 1-based; 0 means "the whole file". */
export interface Problem {
  code: ProblemCode;
  /** What is wrong, as a sentence. */
  message: string;
  /** How to fix it, as a sentence (may be empty when the message says it all). */
  hint: string;
  /** Display path of the spec file (relative, POSIX separators). */
  file: string;
  line: number;
  column: number;
  /** Spec path, e.g. `namespaces[1].tools[0].parameters.properties.n.type`; empty for the whole file. */
  path: string;
  /** `'warning'` for something worth a look that does not stop generation; absent for an error. */
  severity?: 'warning';
  /** The name the problem is about, listed when the CLI folds many warnings of one code into a line. */
  subject?: string;
}

/**
 * Formats a problem as one line, plus an indented hint line when there is a hint.
 *
 * @example
 * formatProblem({ code: 'unknown_key', file: 'spec.yaml', line: 12, column: 7,
 *   path: 'namespaces[0].namespace', message: 'unknown key "namespace" in a namespace.',
 *   hint: 'Did you mean "name"? Remove the key or fix its spelling.' });
 * // spec.yaml:12:7 - error [unknown_key] namespaces[0].namespace: unknown key "namespace" in a namespace.
 * //   hint: Did you mean "name"? Remove the key or fix its spelling.
 */
export function formatProblem(p: Problem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file;
  const path = p.path === '' ? '' : `${p.path}: `;
  const head = `${where} - ${p.severity ?? 'error'} [${p.code}] ${path}${p.message}`;
  return p.hint === '' ? head : `${head}\n  hint: ${p.hint}`;
}

/**
 * Thrown for user mistakes in a spec; carries every problem found.
 *
 * @example
 * throw new SpecError(problems); // err.message lists them, one formatted problem each
 */
export class SpecError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    const n = problems.length;
    super(`${n} problem${n === 1 ? '' : 's'} in the spec:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'SpecError';
    this.problems = problems;
  }
}

/**
 * An internal error: something toolroute itself got wrong, never the user.
 *
 * @example
 * if (index < 0) throw bug(`tool "${name}" has no index`);
 */
export function bug(what: string): Error {
  return new Error(`${what} (this is a bug in toolroute; please report it with the spec that triggered it)`);
}

/**
 * Formats a spec path from its segments; keys that are not identifiers are quoted.
 *
 * @example
 * formatPath(['tools', 0, 'parameters', 'properties', 'a b']); // 'tools[0].parameters.properties["a b"]'
 */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/**
 * Sorts problems into source order, stable for problems at the same place.
 *
 * @example
 * sortProblems(problems)[0].line; // the earliest line
 */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Damerau-Levenshtein (optimal string alignment) distance, for "did you mean".
 *
 * @example
 * editDistance('descripton', 'description'); // 1
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * cols + j] = v;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidates closest to `word` (case-insensitive, edit distance up to a third of it), best first.
 *
 * @example
 * closest('namespace', ['name', 'namespaces', 'tools']); // ['namespaces']
 */
export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = word.toLowerCase();
  const limit = Math.max(1, Math.floor(word.length / 3));
  const scored: { c: string; d: number; i: number }[] = [];
  let i = 0;
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (d <= limit) scored.push({ c, d, i });
    i++;
  }
  scored.sort((x, y) => x.d - y.d || x.i - y.i);
  return scored.slice(0, max).map((s) => s.c);
}

/**
 * "Did you mean "a" or "b"?" for the closest candidates, or '' when none is close.
 *
 * @example
 * didYouMean('read_fle', ['read_file']); // 'Did you mean "read_file"?'
 */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = closest(word, candidates);
  if (near.length === 0) return '';
  const quoted = near.map((n) => JSON.stringify(n));
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  return `Did you mean ${list}?`;
}
