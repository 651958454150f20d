/**
 * One callgrind run of a bench worker script, shared by bench/instructions.ts
 * (dispatch) and bench/prune-instructions.ts (prune): the worker switches
 * counting on itself (`callgrind_control -i on`) after its warm-up, so the
 * count is the steady-state work only, and the collector's share is read
 * from `callgrind_annotate` by function name so it can be reported apart
 * (its timing is not the measured code's). Needs valgrind.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** V8's collector and compiler, by function name (the compiler only runs if something deoptimizes). */
const GC = /Marking|MarkCompact|Sweep|Scaveng|Evacuat|IteratePointers|ConcurrentMarking|Heap::|GCTracer|MemoryChunk|RecordMigratedSlot|compiler::/;

/**
 * Instructions counted in one worker run: all, and those of the collector.
 * `label` names the calling script in errors.
 *
 * @example
 * const { all, gc } = countInstructions('instructions', worker, input, 40_000, dir);
 */
export function countInstructions(label: string, workerFile: string, inputFile: string, calls: number, dir: string): { all: number; gc: number } {
  const out = join(dir, `callgrind.${process.pid}.out`);
  const r = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', workerFile, inputFile, String(calls)],
    { encoding: 'utf8' },
  );
  if (r.error) throw new Error(`${label}: cannot run valgrind (${r.error.message}); install it (Debian: apt-get install valgrind)`);
  if (r.status !== 0) throw new Error(`${label}: the worker failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
  const summary = /^summary: (\d+)$/m.exec(readFileSync(out, 'utf8'));
  if (!summary) throw new Error(`${label}: no summary in ${out}`);
  const annotated = spawnSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (annotated.status !== 0) throw new Error(`${label}: callgrind_annotate failed:\n${annotated.stderr}`);
  let gc = 0;
  for (const line of annotated.stdout.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$/.exec(line);
    if (m && !m[2]!.includes('PROGRAM TOTALS') && GC.test(m[2]!)) gc += Number(m[1]!.replaceAll(',', ''));
  }
  return { all: Number(summary[1]), gc };
}
