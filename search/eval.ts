/**
 * A routing evaluation: tasks with the tools each must keep (and may name tools it must not), scored for
 * `pruneByTask` and the ranked search (`rankByTask` with its k). `toolroute eval` reads a case file, runs both
 * selections on the spec's router and prints this module's report.
 */

/** The two selections a case is scored for; `gate` names the one whose result decides pass or fail. */
export const SELECTIONS = ['pruneByTask', 'rankByTask'] as const;
export type Selection = (typeof SELECTIONS)[number];

/** One case of a case file, checked. */
export interface EvalCase {
  readonly task: string;
  readonly keep: readonly string[];
  readonly drop: readonly string[];
  readonly gate: Selection;
  /** How many tools `rankByTask` keeps. */
  readonly k: number;
}

/** What one selection kept for one case, scored. */
export interface SelectionScore {
  readonly kept: readonly string[];
  /** Share of `keep` that was kept (1 when `keep` is empty). */
  readonly recall: number;
  /** Share of the kept tools that `keep` names; when nothing was kept, 1 if `keep` is empty, else 0 (an empty selection never scores as exact). */
  readonly precision: number;
  /** Tools of `keep` left out, and tools of `drop` kept: each one fails the case under this selection. */
  readonly missing: readonly string[];
  readonly unwanted: readonly string[];
  readonly pass: boolean;
}

export interface CaseReport extends EvalCase {
  readonly pruneByTask: SelectionScore;
  readonly rankByTask: SelectionScore;
  /** Whether the case passes under its gate. */
  readonly pass: boolean;
}

/** Means over the cases of one selection. */
export interface SelectionSummary {
  readonly recall: number;
  readonly precision: number;
  readonly kept: number;
  /** Cases that pass under this selection, whatever their gate. */
  readonly passed: number;
}

export interface EvalReport {
  readonly spec: string;
  readonly cases: readonly CaseReport[];
  readonly overall: { readonly [S in Selection]: SelectionSummary };
  readonly passed: number;
  readonly failed: number;
}

const DEFAULT_K = 5;

/**
 * Check a parsed case file: `{ gate?, k?, cases: [{ task, keep, drop?, gate?, k? }] }`; a case's `gate` and `k`
 * override the file's (defaults `rankByTask`, 5). Returns the cases, or the problems found, each with its path.
 * @example
 * readCases({ gate: 'pruneByTask', cases: [{ task: 'read the config', keep: ['read_file'] }] });
 * // → { ok: true, cases: [{ task: 'read the config', keep: ['read_file'], drop: [], gate: 'pruneByTask', k: 5 }] }
 */
export function readCases(value: unknown): { ok: true; cases: EvalCase[] } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const names = (v: unknown, where: string): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every((n) => typeof n === 'string' && n !== '')) {
      problems.push(`${where} must be a list of tool names.`);
      return [];
    }
    // A name written twice is a copy-paste mistake: the file's other mistakes are refused too.
    const twice = v.filter((n, i) => v.indexOf(n) !== i);
    if (twice.length > 0) problems.push(`${where} names ${[...new Set(twice)].map((n) => JSON.stringify(n)).join(', ')} more than once.`);
    return v as string[];
  };
  const gate = (v: unknown, where: string, fallback: Selection): Selection => {
    if (v === undefined) return fallback;
    if ((SELECTIONS as readonly unknown[]).includes(v)) return v as Selection;
    problems.push(`${where} must be one of ${SELECTIONS.join(', ')}; got ${JSON.stringify(v)}.`);
    return fallback;
  };
  const k = (v: unknown, where: string, fallback: number): number => {
    if (v === undefined) return fallback;
    if (Number.isInteger(v) && (v as number) > 0) return v as number;
    problems.push(`${where} must be a positive integer; got ${typeof v === 'number' ? String(v) : JSON.stringify(v)}.`);
    return fallback;
  };
  if (!obj(value)) return { ok: false, problems: ['the case file must hold an object { gate?, k?, cases: [...] }.'] };
  for (const key of Object.keys(value)) if (!['gate', 'k', 'cases'].includes(key)) problems.push(`unknown key ${JSON.stringify(key)} (a case file has gate, k and cases).`);
  const fileGate = gate(value['gate'], 'gate', 'rankByTask');
  const fileK = k(value['k'], 'k', DEFAULT_K);
  const list = value['cases'];
  if (!Array.isArray(list) || list.length === 0) return { ok: false, problems: [...problems, 'cases must be a non-empty list.'] };
  const cases = list.map((c: unknown, i): EvalCase => {
    const where = `cases[${i}]`;
    if (!obj(c)) {
      problems.push(`${where} must be an object { task, keep, drop?, gate?, k? }.`);
      return { task: '', keep: [], drop: [], gate: fileGate, k: fileK };
    }
    for (const key of Object.keys(c)) if (!['task', 'keep', 'drop', 'gate', 'k'].includes(key)) problems.push(`${where}: unknown key ${JSON.stringify(key)}.`);
    if (typeof c['task'] !== 'string' || c['task'].trim() === '') problems.push(`${where}.task must be a non-empty string.`);
    const keep = names(c['keep'], `${where}.keep`);
    if (keep.length === 0 && c['keep'] !== undefined) problems.push(`${where}.keep names no tool.`);
    if (c['keep'] === undefined) problems.push(`${where}.keep is required (the tools the task must keep).`);
    const drop = names(c['drop'], `${where}.drop`);
    const both = drop.filter((n) => keep.includes(n));
    if (both.length > 0) problems.push(`${where} names ${both.map((n) => JSON.stringify(n)).join(', ')} in both keep and drop, so it can never pass.`);
    return { task: String(c['task']), keep, drop, gate: gate(c['gate'], `${where}.gate`, fileGate), k: k(c['k'], `${where}.k`, fileK) };
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, cases };
}

/**
 * Score what a selection kept against a case.
 * @example
 * scoreSelection(['read_file', 'get_time'], { keep: ['read_file'], drop: ['run_bash'] }); // → recall 1, precision 0.5, pass
 */
export function scoreSelection(kept: readonly string[], c: Pick<EvalCase, 'keep' | 'drop'>): SelectionScore {
  const set = new Set(kept);
  const missing = c.keep.filter((n) => !set.has(n));
  const unwanted = c.drop.filter((n) => set.has(n));
  const hits = c.keep.length - missing.length;
  return {
    kept: [...kept],
    recall: c.keep.length === 0 ? 1 : hits / c.keep.length,
    precision: kept.length === 0 ? (c.keep.length === 0 ? 1 : 0) : kept.filter((n) => c.keep.includes(n)).length / kept.length,
    missing,
    unwanted,
    pass: missing.length === 0 && unwanted.length === 0,
  };
}

/** The report of scored cases: per case, means per selection, and the cases that fail under their gate. */
export function evalReport(spec: string, scored: readonly { readonly c: EvalCase; readonly kept: { readonly [S in Selection]: readonly string[] } }[]): EvalReport {
  const cases = scored.map(({ c, kept }): CaseReport => {
    const pruneByTask = scoreSelection(kept.pruneByTask, c);
    const rankByTask = scoreSelection(kept.rankByTask, c);
    return { ...c, pruneByTask, rankByTask, pass: (c.gate === 'pruneByTask' ? pruneByTask : rankByTask).pass };
  });
  const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const summary = (s: Selection): SelectionSummary => ({
    recall: mean(cases.map((c) => c[s].recall)),
    precision: mean(cases.map((c) => c[s].precision)),
    kept: mean(cases.map((c) => c[s].kept.length)),
    passed: cases.filter((c) => c[s].pass).length,
  });
  const passed = cases.filter((c) => c.pass).length;
  return { spec, cases, overall: { pruneByTask: summary('pruneByTask'), rankByTask: summary('rankByTask') }, passed, failed: cases.length - passed };
}

/** The report as terminal text: one block per case, then the means. */
export function formatEvalText(report: EvalReport): string {
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  const line = (s: SelectionScore) => `recall ${pct(s.recall)}, precision ${pct(s.precision)}, kept ${s.kept.length}`;
  const out: string[] = [`toolroute eval: ${report.spec}, ${report.cases.length} case${report.cases.length === 1 ? '' : 's'}`, ''];
  for (const c of report.cases) {
    out.push(`${c.pass ? 'pass' : 'FAIL'}  ${JSON.stringify(c.task)}  (gate: ${c.gate === 'rankByTask' ? `rankByTask, k ${c.k}` : 'pruneByTask'})`);
    for (const s of SELECTIONS) {
      const score = c[s];
      const why = [score.missing.length > 0 ? `missing ${score.missing.join(', ')}` : '', score.unwanted.length > 0 ? `kept ${score.unwanted.join(', ')} (drop)` : ''].filter(Boolean).join('; ');
      out.push(`      ${s.padEnd(11)}  ${line(score)}${why ? `; ${why}` : ''}`);
    }
  }
  out.push('', 'overall (means over the cases):');
  for (const s of SELECTIONS) {
    const o = report.overall[s];
    out.push(`  ${s.padEnd(11)}  recall ${pct(o.recall)}, precision ${pct(o.precision)}, kept ${o.kept.toFixed(1)}, ${o.passed} of ${report.cases.length} pass`);
  }
  const n = report.cases.length;
  out.push('', report.failed === 0
    ? (n === 1 ? 'The case passes under its gate.' : `All ${n} cases pass under their gate.`)
    : `${report.failed} of ${n} case${n === 1 ? '' : 's'} ${report.failed === 1 ? 'fails' : 'fail'} under ${report.failed === 1 ? 'its' : 'their'} gate.`);
  return `${out.join('\n')}\n`;
}
