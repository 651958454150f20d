/**
 * Item 5 — cold start of a fresh `node` process.
 *
 * Judged on compiled JavaScript (what an application ships): the runtime and
 * the generated 1,000-tool folder are emitted with the project's `tsc` into
 * bench/.tmp/js, and each measured process imports those `.js` files.
 * The same scripts under `node --import tsx` (importing the `.ts` sources, tsx
 * cache warm) are reported beside them, for development set-ups.
 *
 * - full: import the generated folder + runtime, create the router with one
 *   handler per tool, dispatch one namespace call, check it succeeded;
 * - runtime only: import the runtime;
 * - empty: `node` running an empty module (the floor on this machine).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsPath, type RepoPaths } from '../emit-js.js';
import { BenchCorrectnessError, fmtBytes, fmtRatio, median, verdict, type BenchConfig, type Section } from '../lib.js';
import { runNode } from '../processes.js';
import type { NamespaceCall } from '../setup.js';
import { folderSize } from './codegen.js';

function scripts(dir: string, runtimeIndex: string, genIndex: string, call: NamespaceCall['call'], tag: string): { full: string; runtimeOnly: string; empty: string } {
  mkdirSync(dir, { recursive: true });
  const rt = JSON.stringify(pathToFileURL(runtimeIndex).href);
  const gen = JSON.stringify(pathToFileURL(genIndex).href);
  const full = join(dir, `full-${tag}.mjs`);
  writeFileSync(
    full,
    `import * as gen from ${gen};\nimport { createRouter } from ${rt};\n` +
      'const handlers = {};\nfor (const t of gen.spec.tools) handlers[t.name] = (args) => args;\n' +
      'const router = createRouter(gen, handlers);\n' +
      `const res = await router.dispatch(${JSON.stringify(call)});\n` +
      "if (!res.ok) { process.stderr.write(JSON.stringify(res)); process.exit(3); }\n",
  );
  const runtimeOnly = join(dir, `runtime-only-${tag}.mjs`);
  writeFileSync(runtimeOnly, `import { createRouter } from ${rt};\nif (typeof createRouter !== 'function') process.exit(2);\n`);
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, '');
  return { full, runtimeOnly, empty };
}

/** One generated folder to start: its size label, source folder and compiled folder. */
export interface ColdStartInput {
  readonly tools: number;
  readonly genDir: string;
  readonly call: NamespaceCall['call'];
  /** Judged against the target (the others are shown for information). */
  readonly judged: boolean;
}

/**
 * Run item 5.
 *
 * @example
 * benchColdStart(config, paths, jsDir, [{ tools: 10000, genDir, call, judged: true }]);
 */
export function benchColdStart(config: BenchConfig, paths: RepoPaths, jsDir: string, inputs: readonly ColdStartInput[]): Section {
  const coldDir = join(paths.tmp, 'cold');
  const variants: { name: string; args: string[] }[] = [];
  const first = inputs[0] as ColdStartInput;
  for (const input of inputs) {
    const js = scripts(coldDir, join(jsDir, 'runtime', 'index.js'), join(jsPath(paths, jsDir, input.genDir), 'index.js'), input.call, `js-${input.tools}`);
    variants.push({ name: `js:full:${input.tools}`, args: [js.full] });
    if (input === first) {
      variants.push({ name: 'js:runtime', args: [js.runtimeOnly] }, { name: 'empty', args: [js.empty] });
      const ts = scripts(coldDir, join(paths.root, 'runtime', 'index.ts'), join(input.genDir, 'index.ts'), input.call, `tsx-${input.tools}`);
      variants.push({ name: 'tsx:full', args: ['--import', 'tsx', ts.full] }, { name: 'tsx:runtime', args: ['--import', 'tsx', ts.runtimeOnly] });
    }
  }
  // Correctness and warm-up (tsx cache, OS file cache): every script must succeed.
  for (const v of variants) {
    const r = runNode(v.args, { cwd: paths.root, rss: false });
    if (r.status !== 0) throw new BenchCorrectnessError(`cold-start script ${v.name} failed (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
  }
  const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  // Paired: each spawn round runs every variant once; per round, full ÷ runtime-only.
  const ratios = new Map<number, number[]>(inputs.map((i) => [i.tools, []]));
  for (let i = 0; i < config.spawns; i++) {
    const round = new Map<string, number>();
    for (const v of variants) {
      const r = runNode(v.args, { cwd: paths.root, rss: false });
      if (r.status !== 0) throw new BenchCorrectnessError(`cold-start script ${v.name} failed: ${r.stderr.slice(0, 2000)}`);
      samples.get(v.name)?.push(r.wallMs);
      round.set(v.name, r.wallMs);
    }
    for (const input of inputs) ratios.get(input.tools)?.push((round.get(`js:full:${input.tools}`) as number) / (round.get('js:runtime') as number));
  }
  const m = (name: string) => median(samples.get(name) ?? []);
  const rt = m('js:runtime');
  const empty = m('empty');
  const rows: string[][] = [];
  const verdicts = [];
  for (const input of inputs) {
    const full = m(`js:full:${input.tools}`);
    const sorted = [...(ratios.get(input.tools) ?? [])].sort((a, b) => a - b);
    const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * f))] as number;
    const r = median(sorted);
    const n = input.tools.toLocaleString('en-US');
    const size = folderSize(input.genDir);
    rows.push([
      `compiled JS: import generated ${n}-tool folder (${fmtBytes(size.bytes)}) + runtime, createRouter, dispatch 1 call`,
      `${full.toFixed(1)} ms`,
      `${fmtRatio(r)} (${fmtRatio(q(0.25)).replace('×', '')}–${fmtRatio(q(0.75))})`,
      `${(full - empty).toFixed(1)} ms`,
    ]);
    if (input.judged) verdicts.push(verdict(`cold start at ${n} tools ≤ 1.5× a runtime-only process (compiled JS)`, fmtRatio(r), r <= 1.5));
  }
  rows.push(
    ['compiled JS: import the runtime only', `${rt.toFixed(1)} ms`, '1.00×', `${(rt - empty).toFixed(1)} ms`],
    ['empty node process (floor)', `${empty.toFixed(1)} ms`, fmtRatio(empty / rt), '0 ms'],
    [`tsx (info): ${first.tools.toLocaleString('en-US')}-tool folder + runtime + dispatch`, `${m('tsx:full').toFixed(1)} ms`, fmtRatio(m('tsx:full') / m('tsx:runtime')), `${(m('tsx:full') - empty).toFixed(1)} ms`],
    ['tsx (info): runtime only', `${m('tsx:runtime').toFixed(1)} ms`, '1.00×', `${(m('tsx:runtime') - empty).toFixed(1)} ms`],
  );
  return {
    title: '5. Cold start (fresh `node` process)',
    header: ['process', 'wall (median)', 'vs runtime only (per-round median, IQR)', 'above empty node'],
    rows,
    verdicts,
    notes: [
      `${config.spawns} spawn rounds, each running every process once (interleaved); the ratio is taken per round. Wall time from spawn to exit, measured by the parent.`,
    ],
  };
}
