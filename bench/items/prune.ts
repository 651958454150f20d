/**
 * `pruneByTask` against the reference library, on all-flat specs of 1,000 and
 * 10,000 tagged tools: short tasks (3–10 words naming short tags such as `db`,
 * keeping about half the tools) and long ones (paragraphs of 60–90 words).
 * Each measured call prunes every task of a set once; the table shows the time
 * per prune. Before timing, every task's answer must equal the reference's.
 */
import { makeLongTasks, makeShortTasks } from '../make-spec.js';
import { fmtNs, fmtPaired, same, timePaired, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import type { Loaded } from '../setup.js';

const TASKS = 12;
/** The target: at least this many times faster than the reference. */
const REFERENCE_TARGET = 10;

/** Checks toolroute against the reference on every task; returns the average kept. */
function checkAnswers(l: Loaded, tasks: readonly string[]): number {
  const pruner = l.ref.chef.getPruner();
  let kept = 0;
  for (const task of tasks) {
    const mine = l.router.pruneByTask(task);
    const ref = pruner.pruneByTask(task);
    const what = `${l.made.id}: pruneByTask(${JSON.stringify(task)})`;
    same(`${what} kept tools`, mine.tools.map((t) => t.name), ref.tools.map((t) => t.name));
    same(`${what} removed`, [...mine.removed], ref.removed);
    same(`${what} counts`, [mine.kept, mine.total], [ref.kept, ref.total]);
    kept += ref.kept;
  }
  return kept / tasks.length;
}

/**
 * Run the prune item on the given all-flat specs.
 *
 * @example
 * await benchPrune(config, [flat1000, flat10000]);
 */
export async function benchPrune(config: BenchConfig, specs: readonly Loaded[]): Promise<Section> {
  const rows: string[][] = [];
  const verdicts: Verdict[] = [];
  for (const l of specs) {
    for (const kind of ['short', 'long'] as const) {
      const tasks = kind === 'short' ? makeShortTasks(l.made, TASKS) : makeLongTasks(l.made, TASKS);
      const avgKept = checkAnswers(l, tasks);
      const pruner = l.ref.chef.getPruner();
      // A sink the optimizer cannot drop.
      let sink = 0;
      const t = await timePaired(config, 'toolroute', [
        { name: 'toolroute', fn: () => { for (const task of tasks) sink += l.router.pruneByTask(task).kept; } },
        { name: 'reference', fn: () => { for (const task of tasks) sink += pruner.pruneByTask(task).kept; } },
      ]);
      if (sink < 0) throw new Error('unreachable');
      const ref = t['reference']!;
      const n = l.made.tools.length.toLocaleString('en-US');
      const words = tasks.map((x) => x.split(/\s+/).length);
      rows.push([
        n,
        `${kind} (${Math.min(...words)}–${Math.max(...words)} words)`,
        `${avgKept.toFixed(0)} (${((100 * avgKept) / l.made.tools.length).toFixed(0)} %)`,
        fmtNs(t['toolroute']!.ns / tasks.length),
        fmtNs(ref.ns / tasks.length),
        fmtPaired(ref),
      ]);
      verdicts.push(verdict(`${n} flat tools, ${kind} tasks: identical results and ≥ ${REFERENCE_TARGET}× faster than the reference`, fmtPaired(ref), ref.ratio >= REFERENCE_TARGET));
    }
  }
  return {
    title: '`pruneByTask` on all-flat specs',
    header: ['flat tools', 'tasks', 'avg kept', 'toolroute / prune', 'reference / prune', 'reference ÷ toolroute (IQR)'],
    rows,
    verdicts,
    notes: [
      `${TASKS} tasks per row: short ones name four of the eight short area tags (\`db\`, \`api\`, …; \`makeShortTasks\` in bench/make-spec.ts), long ones are paragraphs of four \`makeTasks\` sentences. ` +
        "Before timing, every task's kept names, removed names and counts were checked equal to the reference's (`getPruner().pruneByTask`).",
    ],
  };
}
