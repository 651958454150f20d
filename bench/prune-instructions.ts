/**
 * `npx tsx bench/prune-instructions.ts` — `pruneByTask` against item 3's
 * output floor in instructions per prune (valgrind's callgrind), and where
 * toolroute's instructions go, part by part; the shared machine's load
 * cannot blur these the way it blurs item 3's wall-clock ratios.
 *
 *   npx tsx bench/prune-instructions.ts                 # 1,000 flat tools, long and short tasks
 *   npx tsx bench/prune-instructions.ts --tools=10000   # the other flat spec
 *   npx tsx bench/prune-instructions.ts --tasks=long
 *
 * Needs `valgrind` and the generated flat folders of an earlier
 * `npm run bench` (bench/.tmp/gen/flat-*); the runtime and the folder are
 * compiled to JS into bench/.tmp/prune-instructions (not bench/.tmp/js, so a
 * bench run at the same time keeps its own). Contenders, each in its own
 * plain `node --single-threaded` process, cycling over item 3's 12 tasks:
 * - `floor`: item 3's output floor (the two result arrays gathered from index
 *   lists computed beforehand);
 * - `prune`: `router.pruneByTask(task)`;
 * - `write`: `Buffer#write(task, 0, 'utf16le')` into a reused buffer (how
 *   the prune kernel reads the task's code units; part of `select`);
 * - `select`: `selectTaskFresh`, what `pruneByTask` calls (the scan, the
 *   word masks OR-ed in, the copy into the caller's bitset and the count).
 * `prune` minus `select` is then the fill of the two arrays (and the call's
 * glue). 2,400 uncounted warm-up prunes, counting switched on by
 * `callgrind_control -i on` from the process, then the difference of a
 * 14,400- and a 2,400-prune window divided by 12,000; the collector's
 * functions are left out and shown beside (as in bench/instructions.ts).
 * Not part of `npm test` or `npm run bench`.
 */
import { countInstructions } from './callgrind.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { emitJs, jsPath, type RepoPaths } from './emit-js.js';
import { allSpecs, BENCH_DIR, makeLongTasks, makeShortTasks, TMP_DIR } from './make-spec.js';

const WARMUP = 2_400;
const LOW = 2_400;
const HIGH = 14_400;

const CONTENDERS = ['floor', 'prune', 'write', 'select'] as const;
type Contender = (typeof CONTENDERS)[number];

/** The process valgrind runs: plain JS, so nothing but the measured prunes runs in the counted window. */
const WORKER = `
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const calls = Number(process.argv[3]);
const { createRouter } = await import(pathToFileURL(input.runtimeIndex).href);
const { selectTaskFresh } = await import(pathToFileURL(input.matcherModule).href);
const gen = await import(pathToFileURL(input.genIndex).href);
const handlers = {};
for (const t of gen.spec.tools) handlers[t.name] = (a) => a;
const router = createRouter(gen, handlers);
const tasks = input.tasks;
const flat = gen.spec.flat;
const total = flat.length;
const definitions = flat.map((t) => gen.spec.rendered.neutral.tools[t]);
const names = flat.map((t) => gen.spec.tools[t].name);
const position = new Map(names.map((n, p) => [n, p]));
const picks = tasks.map((task) => {
  const sel = new Uint8Array(total);
  for (const t of router.pruneByTask(task).tools) sel[position.get(t.name)] = 1;
  const kept = [];
  const gone = [];
  for (let p = 0; p < total; p++) (sel[p] === 1 ? kept : gone).push(p);
  return { kept: Int32Array.from(kept), gone: Int32Array.from(gone) };
});
const floorBuild = (pick) => {
  const keptIdx = pick.kept;
  const goneIdx = pick.gone;
  const tools = new Array(keptIdx.length);
  const removed = new Array(goneIdx.length);
  for (let i = 0; i < keptIdx.length; i++) tools[i] = definitions[keptIdx[i]];
  for (let i = 0; i < goneIdx.length; i++) removed[i] = names[goneIdx[i]];
  return { tools, removed, kept: keptIdx.length, total };
};
const matcher = gen.spec.matcher;
const sel = new Int32Array((total + 31) >>> 5);
const units = Buffer.alloc(2 * 8192 + 4);
let sink = 0;
const fns = {
  floor: (i) => { sink += floorBuild(picks[i]).kept; },
  prune: (i) => { sink += router.pruneByTask(tasks[i]).kept; },
  write: (i) => { sink += units.write(tasks[i], 0, 'utf16le'); },
  select: (i) => { sink += selectTaskFresh(matcher, tasks[i], sel); },
};
const fn = fns[input.contender];
const n = tasks.length;
for (let i = 0; i < ${WARMUP}; i++) fn(i % n);
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
for (let i = 0; i < calls; i++) fn(i % n);
if (sink === -1) console.log(sink);
`;

function counted(inputFile: string, workerFile: string, calls: number, dir: string): { all: number; gc: number } {
  return countInstructions('prune-instructions', workerFile, inputFile, calls, dir);
}

function main(): void {
  const argv = process.argv.slice(2);
  const tools = Number(argv.find((a) => a.startsWith('--tools='))?.slice('--tools='.length) ?? '1000');
  const kinds = (argv.find((a) => a.startsWith('--tasks='))?.slice('--tasks='.length) ?? 'long,short').split(',');
  const only = argv.find((a) => a.startsWith('--contenders='))?.slice('--contenders='.length).split(',') as Contender[] | undefined;
  const id = `flat-${tools}`;
  const made = allSpecs(false).find((m) => m.id === id);
  if (!made) throw new Error(`prune-instructions: no bench spec ${id} (sizes: 1000, 10000)`);
  const genDir = join(TMP_DIR, 'gen', id);
  if (!existsSync(join(genDir, 'index.ts'))) throw new Error(`prune-instructions: ${genDir} is missing; run \`npm run bench\` once first`);
  const dir = join(TMP_DIR, 'prune-instructions');
  const paths: RepoPaths = { root: resolve(BENCH_DIR, '..'), tmp: dir };
  const jsDir = emitJs(paths, [genDir]);
  const workerFile = join(dir, 'worker.mjs');
  writeFileSync(workerFile, WORKER);
  console.log(`${id}: instructions per prune (callgrind, ${HIGH.toLocaleString('en-US')} − ${LOW.toLocaleString('en-US')} counted prunes after ${WARMUP.toLocaleString('en-US')} uncounted)`);
  for (const kind of kinds) {
    const tasks = kind === 'short' ? makeShortTasks(made, 12) : makeLongTasks(made, 12);
    const per: Partial<Record<Contender, number>> = {};
    const gcShare: Partial<Record<Contender, number>> = {};
    for (const contender of only ?? CONTENDERS) {
      const inputFile = join(dir, `${id}-${kind}-${contender}.json`);
      writeFileSync(
        inputFile,
        JSON.stringify({
          contender,
          tasks,
          runtimeIndex: join(jsDir, 'runtime', 'index.js'),
          matcherModule: join(jsDir, 'runtime', 'matcher.js'),
          genIndex: join(jsPath(paths, jsDir, genDir), 'index.js'),
        }),
      );
      mkdirSync(dir, { recursive: true });
      const high = counted(inputFile, workerFile, HIGH, dir);
      const low = counted(inputFile, workerFile, LOW, dir);
      per[contender] = (high.all - high.gc - (low.all - low.gc)) / (HIGH - LOW);
      gcShare[contender] = (high.gc - low.gc) / (HIGH - LOW);
    }
    const fmt = (c: Contender) => (per[c] === undefined ? '—' : `${Math.round(per[c]!)} (collector ${Math.round(gcShare[c]!)})`);
    console.log(`  ${kind} tasks: ${(only ?? CONTENDERS).map((c) => `${c} ${fmt(c)}`).join(', ')}`);
    if (per.prune !== undefined && per.floor !== undefined) console.log(`    prune ÷ floor ${(per.prune / per.floor).toFixed(3)}x`);
    if (per.prune !== undefined && per.select !== undefined) console.log(`    fill and glue (prune − select) ${Math.round(per.prune - per.select)}`);
  }
}

main();
