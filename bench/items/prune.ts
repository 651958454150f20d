/**
 * Item 3 — `pruneByTask` on all-flat specs of 1,000 and 10,000 tagged tools,
 * over a fixed set of realistic task sentences. Each measured call prunes
 * every sentence once; the table shows the time per prune.
 */
import { makeTasks } from '../make-spec.js';
import { fmtNs, fmtRatio, same, timeAll, verdict, type BenchConfig, type Section } from '../lib.js';
import type { Loaded } from '../setup.js';

const TASKS = 12;

function checkAnswers(l: Loaded, tasks: readonly string[]): number {
  const pruner = l.ref.chef.getPruner();
  let kept = 0;
  for (const task of tasks) {
    const mine = l.router.pruneByTask(task);
    const ref = pruner.pruneByTask(task);
    same(`${l.made.id}: pruneByTask(${JSON.stringify(task)}) kept tools`, mine.tools.map((t) => t.name), ref.tools.map((t) => t.name));
    same(`${l.made.id}: pruneByTask(${JSON.stringify(task)}) removed`, [...mine.removed], ref.removed);
    same(`${l.made.id}: pruneByTask(${JSON.stringify(task)}) counts`, [mine.kept, mine.total], [ref.kept, ref.total]);
    kept += ref.kept;
  }
  return kept / tasks.length;
}

/**
 * Run item 3 on the given all-flat specs.
 *
 * @example
 * await benchPrune(config, [flat1000, flat10000]);
 */
export async function benchPrune(config: BenchConfig, specs: readonly Loaded[]): Promise<Section> {
  const rows: string[][] = [];
  const verdicts = [];
  for (const l of specs) {
    const tasks = makeTasks(l.made, TASKS);
    const avgKept = checkAnswers(l, tasks);
    const pruner = l.ref.chef.getPruner();
    const t = await timeAll(config, [
      { name: 'toolroute', fn: () => { for (const task of tasks) l.router.pruneByTask(task); } },
      { name: 'reference', fn: () => { for (const task of tasks) pruner.pruneByTask(task); } },
    ]);
    const tr = (t['toolroute'] as number) / tasks.length;
    const ref = (t['reference'] as number) / tasks.length;
    const n = l.made.tools.length.toLocaleString('en-US');
    rows.push([n, `${avgKept.toFixed(0)}`, fmtNs(tr), fmtNs(ref), fmtRatio(ref / tr)]);
    verdicts.push(verdict(`identical results and ≥ 20× faster at ${n} flat tools`, fmtRatio(ref / tr), ref / tr >= 20));
  }
  return {
    title: '3. `pruneByTask` on all-flat specs',
    header: ['flat tools', 'avg kept', 'toolroute / prune', 'reference / prune', 'reference ÷ toolroute'],
    rows,
    verdicts,
    notes: [
      `${TASKS} task sentences per size (see \`makeTasks\` in bench/make-spec.ts); before timing, every sentence's kept names, removed names and counts are checked equal to the reference's.`,
    ],
  };
}
