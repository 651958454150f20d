/**
 * "Did you mean …": the closest real names to a name the model got wrong. Built once per set of candidate names; a
 * lookup compares only names of similar length, with a distance bound that stops each comparison early.
 */
import { listNames } from './reasons.js';
import { jsonText } from './targets/history.js';

/** How many wrong names a configuration error lists before it counts the rest. */
const LISTED = 10;
/** Longest name compared; longer input is not a near-miss of any tool name. */
const MAX_QUERY = 128;

/**
 * Optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions), or `bound + 1` as soon as it
 * must exceed `bound`.
 * @example
 * boundedDistance('raed_file', 'read_file', 2); // → 1
 */
export function boundedDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return bound + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n]!, bound + 1);
}

/**
 * An index of candidate names for suggestions.
 * @example
 * const s = new Suggester(['read_file', 'write_file', 'run_bash']);
 * s.closest('reed_file'); // → ['read_file']
 */
export class Suggester {
  readonly #byLength = new Map<number, { readonly name: string; readonly lower: string; readonly index: number }[]>();
  readonly #byLower = new Map<string, string>();
  readonly #names: readonly string[];

  constructor(names: Iterable<string>) {
    this.#names = [...names];
    this.#names.forEach((name, index) => {
      const lower = name.toLowerCase();
      if (!this.#byLower.has(lower)) this.#byLower.set(lower, name);
      const bucket = this.#byLength.get(lower.length) ?? [];
      bucket.push({ name, lower, index });
      this.#byLength.set(lower.length, bucket);
    });
  }

  /** The candidate names, in the order given. */
  get names(): readonly string[] { return this.#names; }

  /** Up to `limit` names closest to `query`, best first (case-insensitive; ties keep candidate order). A case-only difference is always the best. */
  closest(query: string, limit = 3): string[] {
    if (query.length === 0 || query.length > MAX_QUERY) return [];
    const lower = query.toLowerCase();
    const exact = this.#byLower.get(lower);
    if (exact !== undefined && exact !== query) return [exact];
    // Allow about one edit per three characters, at least one, at most three.
    const bound = Math.max(1, Math.min(3, Math.floor(lower.length / 3)));
    const found: { name: string; d: number; order: number }[] = [];
    for (let len = lower.length - bound; len <= lower.length + bound; len++) {
      for (const c of this.#byLength.get(len) ?? []) {
        const d = boundedDistance(lower, c.lower, bound);
        if (d <= bound && c.name !== query) found.push({ name: c.name, d, order: c.index });
      }
    }
    found.sort((x, y) => x.d - y.d || x.order - y.order);
    return found.slice(0, limit).map((f) => f.name);
  }
}

/**
 * Throw a `TypeError` naming the entries of `names` that are not strings or not in `known` (the first ten, with the
 * closest known names; the rest counted), before anything changes: configuration from files and environment variables
 * gets no help from the types.
 * @example
 * assertKnownNames('setBlockedTools', ['git_psh'], new Set(['git_push']), () => ['git_push'], 'Known names: …');
 * // TypeError: setBlockedTools: unknown name "git_psh" (did you mean "git_push"?). …
 */
export function assertKnownNames(where: string, names: readonly unknown[], known: { has(name: string): boolean }, candidates: () => Iterable<string>, fix: string): void {
  if (!Array.isArray(names)) throw new TypeError(`${where}: expected an array of names, got ${names === null ? 'null' : typeof names}.`);
  const unknown = names.filter((name) => typeof name !== 'string' || !known.has(name));
  if (unknown.length === 0) return;
  // Ten listed, the rest counted; suggestions for the listed only: each scans the candidates, and a thousand mistakes say no more.
  const suggester = new Suggester(candidates());
  const named = (name: string) => `${JSON.stringify(name)}${meaning(suggester.closest(name))}`;
  const problems = unknown.map((name, i) => (i >= LISTED ? '' : typeof name === 'string' ? named(name) : `${JSON.stringify(name) ?? String(name)} is not a string`));
  throw new TypeError(`${where}: unknown name${unknown.length > 1 ? 's' : ''} ${listNames(problems, LISTED)}. ${fix}`);
}

const meaning = (closest: readonly string[]): string => (closest.length > 0 ? ` (did you mean ${closest.map((c) => JSON.stringify(c)).join(' or ')}?)` : '');

/** Per option name: whether a value is one the option takes, those values in words, and for a choice of strings, the strings. */
export type OptionRules = Readonly<Record<string, readonly [(value: unknown) => boolean, string, (readonly string[])?]>>;

/** The rule of an option that takes one of `values`: a misspelt value is refused naming the closest. @example oneOf(['system', 'developer']) */
export const oneOf = (values: readonly string[]): OptionRules[string] =>
  [(v) => values.includes(v as string), values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1'), values];

/**
 * Throw a `TypeError` for options the types refuse (from JavaScript, or read from configuration): options that are no
 * object, an unknown name (with the closest known ones), or a value its option does not take. `undefined` is no options.
 * @example
 * checkOptions('compile', { cacheBreakPoints: ['tools'] }, rules);
 * // TypeError: compile options: unknown name "cacheBreakPoints" (did you mean "cacheBreakpoints"?). …
 */
export function checkOptions(where: string, options: unknown, rules: OptionRules): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`${where}: options must be an object; got ${jsonText(options) ?? `a ${typeof options}`}.`);
  const names = new Set(Object.keys(rules));
  assertKnownNames(`${where} options`, Object.keys(options), names, () => names, `Options are ${[...names].join(', ')}.`);
  const [key, value] = Object.entries(options).find(([k, v]) => v !== undefined && !rules[k]![0](v)) ?? [];
  if (key === undefined) return;
  const [, words, values] = rules[key]!;
  throw new TypeError(`${where}: options.${key} takes ${words}; got ${jsonText(value) ?? `a ${typeof value}`}${typeof value === 'string' && values ? meaning(new Suggester(values).closest(value)) : ''}.`);
}
