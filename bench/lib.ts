/**
 * Shared harness pieces: timing with mitata, ratio tables, correctness checks.
 *
 * Ratios, not absolute times, are the result: the machines are shared and
 * noisy. Each contender of a comparison is measured in the same process,
 * interleaved over several rounds; a contender's time is the lowest of its
 * per-round medians (noise only ever adds time).
 */
import { isDeepStrictEqual } from 'node:util';
import { measure } from 'mitata';

/** Harness settings from the command line. */
export interface BenchConfig {
  /** Fast smoke run: fewer sizes, shorter sampling, fewer process spawns. */
  readonly quick: boolean;
  /** Rounds of interleaved measurement per comparison. */
  readonly rounds: number;
  /** mitata `min_cpu_time` per measurement, in ns. */
  readonly minCpuNs: number;
  /** Process spawns per cold-start measurement. */
  readonly spawns: number;
}

/** Build the config from argv. */
export function configFrom(argv: readonly string[]): BenchConfig {
  const quick = argv.includes('--quick');
  return quick
    ? { quick, rounds: 1, minCpuNs: 60e6, spawns: 5 }
    : { quick, rounds: 3, minCpuNs: 250e6, spawns: 15 };
}

/** One contender in a comparison. May be sync or async. */
export interface Contender {
  readonly name: string;
  readonly fn: () => unknown;
}

/** The time per call of each contender, in ns. */
export type Timings = Record<string, number>;

/**
 * Measure contenders interleaved over `config.rounds` rounds; per contender,
 * the lowest per-round median.
 *
 * @example
 * const t = await timeAll(config, [{ name: 'a', fn: () => 1 }, { name: 'b', fn: () => 2 }]);
 */
export async function timeAll(config: BenchConfig, contenders: readonly Contender[]): Promise<Timings> {
  const best: Timings = {};
  for (let round = 0; round < config.rounds; round++) {
    for (const c of contenders) {
      const stats = await measure(c.fn, { min_cpu_time: config.minCpuNs });
      const prev = best[c.name];
      best[c.name] = prev === undefined ? stats.p50 : Math.min(prev, stats.p50);
    }
  }
  return best;
}

/** Format a duration in ns for a table cell. */
export function fmtNs(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

/** Format bytes for a table cell. */
export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

/** Format a ratio: `3.42×`. */
export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return '—';
  return r >= 100 ? `${r.toFixed(0)}×` : `${r.toFixed(2)}×`;
}

/** One target line: what was asked, what we got, met or not. */
export interface Verdict {
  readonly target: string;
  readonly actual: string;
  readonly met: boolean;
}

/** A verdict helper: `verdict('≤ 1.25× minimum', r, r <= 1.25)`. */
export function verdict(target: string, actual: string, met: boolean): Verdict {
  return { target, actual, met };
}

/** A printed section: a title, a markdown table, target verdicts, notes. */
export interface Section {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly verdicts: readonly Verdict[];
  readonly notes: readonly string[];
}

/** Render a section as markdown. */
export function renderSection(s: Section): string {
  const lines = [`### ${s.title}`, ''];
  lines.push(`| ${s.header.join(' | ')} |`);
  lines.push(`| ${s.header.map((h, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const row of s.rows) lines.push(`| ${row.join(' | ')} |`);
  if (s.verdicts.length > 0) {
    lines.push('');
    lines.push('| target | actual | met |');
    lines.push('| --- | ---: | :---: |');
    for (const v of s.verdicts) lines.push(`| ${v.target} | ${v.actual} | ${v.met ? 'yes' : '**NO**'} |`);
  }
  for (const n of s.notes) lines.push('', n);
  lines.push('');
  return lines.join('\n');
}

/** A failed correctness check: the harness aborts rather than time a wrong answer. */
export class BenchCorrectnessError extends Error {
  override readonly name = 'BenchCorrectnessError';
}

/**
 * Abort the run loudly unless `actual` deep-equals `expected`.
 *
 * @example
 * same('prune names', toolrouteNames, referenceNames);
 */
export function same(what: string, actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) {
    const show = (v: unknown) => {
      const text = JSON.stringify(v);
      return text && text.length > 600 ? `${text.slice(0, 600)}…` : text;
    };
    throw new BenchCorrectnessError(`correctness check failed: ${what}\n  toolroute: ${show(actual)}\n  expected:  ${show(expected)}`);
  }
}

/** Abort unless `cond`. */
export function check(what: string, cond: boolean): void {
  if (!cond) throw new BenchCorrectnessError(`correctness check failed: ${what}`);
}

/** Median of a list of numbers. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Progress line on stderr (the tables go to stdout). */
export function progress(text: string): void {
  process.stderr.write(`· ${text}\n`);
}
