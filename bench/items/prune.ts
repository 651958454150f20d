/**
 * Item 3 — `pruneByTask` on all-flat specs of 1,000 and 10,000 tagged tools,
 * on short tasks (3–10 words naming short tags such as `db`, keeping about half
 * the tools) and on long ones (paragraphs of 60–90 words). Each measured call
 * prunes every task of a set once; the table shows the time per prune.
 *
 * Contenders, paired per round:
 * - toolroute `router.pruneByTask(task)`;
 * - the reference's `pruner.pruneByTask(task)`;
 * - the output floor: building the two result arrays alone (the kept
 *   definitions and the removed names, allocated at their final size and
 *   gathered from the kept and removed index lists of a selection computed
 *   beforehand): what any prune must return, with no matching and no test per tool.
 */
import type { ToolDefinition } from '../../runtime/contract.js';
import { makeLongTasks, makeShortTasks } from '../make-spec.js';
import { fmtNs, fmtPaired, fmtRatio, same, timePaired, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import type { Loaded } from '../setup.js';

const TASKS = 12;
const REFERENCE_TARGET = 20;
const FLOOR_TARGET = 1.3;

/** Checks toolroute against the reference on every task; returns each task's selection (for the floor) and the average kept. */
function checkAnswers(l: Loaded, tasks: readonly string[]): { selections: Uint8Array[]; avgKept: number } {
  const pruner = l.ref.chef.getPruner();
  const position = new Map(l.gen.spec.flat.map((t, p) => [l.gen.spec.tools[t]!.name, p]));
  const selections: Uint8Array[] = [];
  let kept = 0;
  for (const task of tasks) {
    const mine = l.router.pruneByTask(task);
    const ref = pruner.pruneByTask(task);
    same(`${l.made.id}: pruneByTask(${JSON.stringify(task)}) kept tools`, mine.tools.map((t) => t.name), ref.tools.map((t) => t.name));
    same(`${l.made.id}: pruneByTask(${JSON.stringify(task)}) removed`, [...mine.removed], ref.removed);
    same(`${l.made.id}: pruneByTask(${JSON.stringify(task)}) counts`, [mine.kept, mine.total], [ref.kept, ref.total]);
    const sel = new Uint8Array(l.gen.spec.flat.length);
    for (const t of mine.tools) sel[position.get(t.name)!] = 1;
    selections.push(sel);
    kept += ref.kept;
  }
  return { selections, avgKept: kept / tasks.length };
}

/**
 * Run item 3 on the given all-flat specs.
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
      const { selections, avgKept } = checkAnswers(l, tasks);
      const pruner = l.ref.chef.getPruner();
      const definitions = l.gen.spec.flat.map((t) => l.gen.spec.rendered.neutral.tools[t] as ToolDefinition);
      const names = l.gen.spec.flat.map((t) => l.gen.spec.tools[t]!.name);
      const total = definitions.length;
      // The selection, computed beforehand, as the two index lists the answer is gathered from:
      // the least work that builds the result (two loads and one store per tool, no test of a
      // bit or a byte). A per-position loop branching on a selection byte is not the floor:
      // toolroute's own word-by-word fill from a bitset beat it by about 2x.
      const picks = selections.map((sel) => {
        const kept: number[] = [];
        const gone: number[] = [];
        for (let p = 0; p < total; p++) (sel[p] === 1 ? kept : gone).push(p);
        return { kept: Int32Array.from(kept), gone: Int32Array.from(gone) };
      });
      const floorBuild = (pick: { kept: Int32Array; gone: Int32Array }) => {
        const keptIdx = pick.kept;
        const goneIdx = pick.gone;
        const tools = new Array<ToolDefinition>(keptIdx.length);
        const removed = new Array<string>(goneIdx.length);
        for (let i = 0; i < keptIdx.length; i++) tools[i] = definitions[keptIdx[i]!]!;
        for (let i = 0; i < goneIdx.length; i++) removed[i] = names[goneIdx[i]!]!;
        return { tools, removed, kept: keptIdx.length, total };
      };
      // The floor builds the same arrays toolroute returns.
      for (let i = 0; i < tasks.length; i++) {
        const f = floorBuild(picks[i]!);
        const mine = l.router.pruneByTask(tasks[i]!);
        same(`${l.made.id}: the output floor builds the same kept tools`, f.tools, [...mine.tools]);
        same(`${l.made.id}: the output floor builds the same removed names`, f.removed, [...mine.removed]);
      }
      let sink = 0;
      const t = await timePaired(config, 'toolroute', [
        { name: 'toolroute', fn: () => { for (const task of tasks) sink += l.router.pruneByTask(task).kept; } },
        { name: 'reference', fn: () => { for (const task of tasks) sink += pruner.pruneByTask(task).kept; } },
        { name: 'floor', fn: () => { for (let i = 0; i < tasks.length; i++) sink += floorBuild(picks[i]!).kept; } },
      ]);
      if (sink < 0) throw new Error('unreachable');
      const ref = t['reference']!;
      const floor = t['floor']!;
      const refOverTr = ref.ratio;
      const trOverFloor = 1 / floor.ratio;
      const trOverFloorLo = 1 / floor.hi;
      const trOverFloorHi = 1 / floor.lo;
      const n = l.made.tools.length.toLocaleString('en-US');
      const words = tasks.map((x) => x.split(/\s+/).length);
      rows.push([
        n,
        `${kind} (${Math.min(...words)}–${Math.max(...words)} words)`,
        `${avgKept.toFixed(0)} (${((100 * avgKept) / total).toFixed(0)} %)`,
        fmtNs(t['toolroute']!.ns / tasks.length),
        fmtNs(ref.ns / tasks.length),
        fmtNs(floor.ns / tasks.length),
        fmtPaired(ref),
        `${fmtRatio(trOverFloor)} (${fmtRatio(trOverFloorLo).replace('×', '')}–${fmtRatio(trOverFloorHi)})`,
      ]);
      verdicts.push(verdict(`${n} flat tools, ${kind} tasks: identical results and ≥ ${REFERENCE_TARGET}× faster than the reference`, fmtPaired(ref), refOverTr >= REFERENCE_TARGET));
      verdicts.push(
        verdict(`${n} flat tools, ${kind} tasks: ≤ ${FLOOR_TARGET}× the output floor`, `${fmtRatio(trOverFloor)} (${fmtRatio(trOverFloorLo).replace('×', '')}–${fmtRatio(trOverFloorHi)})`, trOverFloor <= FLOOR_TARGET),
      );
    }
  }
  return {
    title: '3. `pruneByTask` on all-flat specs',
    header: ['flat tools', 'tasks', 'avg kept', 'toolroute / prune', 'reference / prune', 'output floor / prune', 'reference ÷ toolroute (IQR)', 'toolroute ÷ floor (IQR)'],
    rows,
    verdicts,
    notes: [
      `${TASKS} tasks per row: short ones name four of the eight short area tags (\`db\`, \`api\`, …; \`makeShortTasks\` in bench/make-spec.ts), long ones are paragraphs of four \`makeTasks\` sentences. ` +
        "Before timing, every task's kept names, removed names and counts are checked equal to the reference's, and the output floor's arrays equal to toolroute's. " +
        'The output floor gathers the two result arrays from the kept and removed index lists of a selection computed beforehand (no matching, no test per tool): the cost of the answer alone.',
    ],
  };
}
