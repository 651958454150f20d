/**
 * Shared harness pieces: paired timing, ratio tables, correctness checks.
 *
 * Ratios, not absolute times, are the result: the machines are shared and
 * noisy. Contenders of a comparison are timed in the same process in paired,
 * interleaved rounds (A B, B A, …); each round gives a ratio, and the result
 * is the median ratio over rounds with its interquartile spread.
 */
import { isDeepStrictEqual } from 'node:util';

/** Harness settings from the command line. */
export interface BenchConfig {
  /** Fast smoke run: fewer sizes, shorter sampling, fewer process spawns. */
  readonly quick: boolean;
  /** Paired rounds per comparison (each round times every contender once, order rotated). */
  readonly rounds: number;
  /** Target wall time of one contender's batch in one round, in ms. */
  readonly batchMs: number;
  /** Process spawns per cold-start measurement. */
  readonly spawns: number;
}

/** Build the config from argv. */
export function configFrom(argv: readonly string[]): BenchConfig {
  const quick = argv.includes('--quick');
  return quick ? { quick, rounds: 9, batchMs: 3, spawns: 5 } : { quick, rounds: 31, batchMs: 6, spawns: 15 };
}

/** One contender in a comparison. May be sync or async (a returned promise is awaited per call). */
export interface Contender {
  readonly name: string;
  readonly fn: () => unknown;
}

/** A paired comparison's result for one contender against the baseline. */
export interface PairedStat {
  /** Median time per call over rounds, ns. */
  readonly ns: number;
  /** Median over rounds of (this ÷ baseline), both timed in the same round. */
  readonly ratio: number;
  /** Interquartile range of the per-round ratios. */
  readonly lo: number;
  readonly hi: number;
}

export type PairedTimings = Record<string, PairedStat>;

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const i = Math.floor(at);
  const f = at - i;
  const a = sorted[i] as number;
  const b = sorted[Math.min(i + 1, sorted.length - 1)] as number;
  return a + (b - a) * f;
}

/**
 * Time `n` calls of `fn`, awaiting each call that returns a promise; ns per
 * call, by the wall clock (process CPU time is too coarse on Linux for
 * batches of a few milliseconds).
 */
async function batch(fn: () => unknown, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const r = fn();
    if (r instanceof Promise) await r;
  }
  return Number(process.hrtime.bigint() - t0) / n;
}

/** Calls per batch so one batch takes about `ms` (after a warm-up of a few batches). */
async function calibrate(fn: () => unknown, ms: number): Promise<number> {
  let n = 1;
  for (;;) {
    const per = await batch(fn, n);
    if (per * n >= 1e6 * Math.min(ms, 2) || n >= 1 << 24) {
      const calls = Math.max(1, Math.round((ms * 1e6) / Math.max(per, 1)));
      // Warm-up: ~3 batches, so every contender is optimized before round 1.
      for (let w = 0; w < 3; w++) await batch(fn, calls);
      return calls;
    }
    n *= 4;
  }
}

/**
 * Paired, interleaved measurement: every round times each contender once (a
 * batch of calls sized to `config.batchMs`), in an order rotated per round
 * (A B C, B C A, …), and each contender's time is divided by the baseline's
 * *from the same round*. Load on a shared machine comes and goes between
 * rounds; within a round it hits the contenders alike, so the median of the
 * per-round ratios is what to read. The spread is their interquartile range.
 *
 * @example
 * const t = await timePaired(config, 'floor', [{ name: 'floor', fn: a }, { name: 'toolroute', fn: b }]);
 * t['toolroute'].ratio; // e.g. 1.08
 */
export async function timePaired(config: BenchConfig, baseline: string, contenders: readonly Contender[]): Promise<PairedTimings> {
  if (!contenders.some((c) => c.name === baseline)) throw new Error(`bench: baseline ${baseline} is not a contender`);
  const sizes = new Map<string, number>();
  for (const c of contenders) sizes.set(c.name, await calibrate(c.fn, config.batchMs));
  const per = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const ratios = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < config.rounds; round++) {
    const times = new Map<string, number>();
    for (let j = 0; j < contenders.length; j++) {
      const c = contenders[(round + j) % contenders.length] as Contender;
      times.set(c.name, await batch(c.fn, sizes.get(c.name) as number));
    }
    const base = times.get(baseline) as number;
    for (const c of contenders) {
      const t = times.get(c.name) as number;
      per.get(c.name)?.push(t);
      ratios.get(c.name)?.push(t / base);
    }
  }
  const out: PairedTimings = {};
  for (const c of contenders) {
    const r = [...(ratios.get(c.name) as number[])].sort((x, y) => x - y);
    out[c.name] = { ns: median(per.get(c.name) as number[]), ratio: quantile(r, 0.5), lo: quantile(r, 0.25), hi: quantile(r, 0.75) };
  }
  return out;
}

/** `1.08× (1.05–1.11)`: a paired ratio with its interquartile spread. */
export function fmtPaired(s: PairedStat): string {
  return `${fmtRatio(s.ratio)} (${fmtRatio(s.lo).replace('×', '')}–${fmtRatio(s.hi)})`;
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
