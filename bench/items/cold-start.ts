/**
 * Cold start of a fresh `node` process, on compiled JavaScript (what an
 * application ships: the runtime and the generated folders emitted by the
 * project's `tsc` into bench/.tmp/js).
 *
 * - full: import the generated folder and the runtime, build a handler table
 *   (one function per name of the folder's `TOOL_NAMES`), create the router,
 *   dispatch one namespace call and check it succeeded;
 * - generated code only: import the runtime, the folder's validators and its spec data parsed with the same
 *   `JSON.parse`, and build nothing: what loading the generated code costs before toolroute does any work (the
 *   part of the start that only smaller generated code could make cheaper);
 * - runtime only (the baseline): import the runtime;
 * - empty: `node` running an empty module (the floor on this machine).
 *
 * Spawns are paired: every round runs each script once, and the ratio full ÷
 * runtime only is taken within the round.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsPath, type RepoPaths } from '../emit-js.js';
import { BenchCorrectnessError, fmtBytes, fmtRatio, median, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import { runNode } from '../processes.js';
import type { NamespaceCall } from '../setup.js';
import { folderSize } from './codegen.js';

/** The target: the full start at most this many times a runtime-only process. */
const TARGET = 1.6;

/** One generated folder to start. */
export interface ColdStartInput {
  readonly tools: number;
  readonly genDir: string;
  readonly call: NamespaceCall['call'];
  /** Judged against the target (the others are shown for information). */
  readonly judged: boolean;
}

/** Write the four scripts; returns their paths. */
function scripts(dir: string, runtimeIndex: string, genIndex: string, call: NamespaceCall['call'], tools: number): { full: string; loadOnly: string; runtimeOnly: string; empty: string } {
  mkdirSync(dir, { recursive: true });
  const rt = JSON.stringify(pathToFileURL(runtimeIndex).href);
  const full = join(dir, `full-${tools}.mjs`);
  writeFileSync(
    full,
    `import * as gen from ${JSON.stringify(pathToFileURL(genIndex).href)};\nimport { createRouter } from ${rt};\n` +
      'const handlers = {};\nfor (const name of gen.TOOL_NAMES) handlers[name] = (args) => args;\n' +
      'const router = createRouter(gen, handlers);\n' +
      `const res = await router.dispatch(${JSON.stringify(call)});\n` +
      "if (!res.ok) { process.stderr.write(JSON.stringify(res)); process.exit(3); }\n",
  );
  // The spec data exactly as spec.gen.js parses it: its `JSON.parse(…)` expression, in a module of its own.
  const specJs = readFileSync(join(genIndex, '..', 'spec.gen.js'), 'utf8');
  const start = specJs.indexOf('JSON.parse(');
  const end = specJs.indexOf(');\n', start);
  if (start < 0 || end < 0) throw new BenchCorrectnessError('cold-start: no JSON.parse(…) of the spec data in spec.gen.js');
  const data = join(dir, `data-${tools}.mjs`);
  writeFileSync(data, `export default ${specJs.slice(start, end + 1)};\n`);
  const loadOnly = join(dir, `load-only-${tools}.mjs`);
  writeFileSync(
    loadOnly,
    `import { createRouter } from ${rt};\nimport { validators } from ${JSON.stringify(pathToFileURL(join(genIndex, '..', 'validators.gen.js')).href)};\n` +
      `import data from ${JSON.stringify(pathToFileURL(data).href)};\n` +
      `if (typeof createRouter !== 'function' || data.tools.length !== ${tools} || validators.length === 0) process.exit(2);\n`,
  );
  const runtimeOnly = join(dir, 'runtime-only.mjs');
  writeFileSync(runtimeOnly, `import { createRouter } from ${rt};\nif (typeof createRouter !== 'function') process.exit(2);\n`);
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, '');
  return { full, loadOnly, runtimeOnly, empty };
}

/**
 * Run the cold-start item.
 *
 * @example
 * benchColdStart(config, paths, jsDir, [{ tools: 10000, genDir, call, judged: true }]);
 */
export function benchColdStart(config: BenchConfig, paths: RepoPaths, jsDir: string, inputs: readonly ColdStartInput[]): Section {
  const dir = join(paths.tmp, 'cold');
  const scripted = inputs.map((input) => ({ input, ...scripts(dir, join(jsDir, 'runtime', 'index.js'), join(jsPath(paths, jsDir, input.genDir), 'index.js'), input.call, input.tools) }));
  const first = scripted[0]!;
  const variants = [
    ...scripted.map((s) => ({ name: `full:${s.input.tools}`, file: s.full })),
    ...scripted.map((s) => ({ name: `load:${s.input.tools}`, file: s.loadOnly })),
    { name: 'runtime', file: first.runtimeOnly },
    { name: 'empty', file: first.empty },
  ];
  const spawn = (v: { name: string; file: string }) => {
    const r = runNode([v.file], { cwd: paths.root, rss: false });
    if (r.status !== 0) throw new BenchCorrectnessError(`cold-start script ${v.name} failed (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
    return r.wallMs;
  };
  // Correctness and warm-up (OS file cache): every script must succeed once before the counted rounds.
  for (const v of variants) spawn(v);
  const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const ratios = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  /** Per round, the full start ÷ the generated-code-only start: what toolroute's own work adds. */
  const own = new Map<number, number[]>(inputs.map((i) => [i.tools, []]));
  for (let round = 0; round < config.spawns; round++) {
    const wall = new Map(variants.map((v) => [v.name, spawn(v)]));
    for (const [name, ms] of wall) samples.get(name)?.push(ms);
    for (const v of variants) ratios.get(v.name)?.push(wall.get(v.name)! / wall.get('runtime')!);
    for (const input of inputs) own.get(input.tools)?.push(wall.get(`full:${input.tools}`)! / wall.get(`load:${input.tools}`)!);
  }
  const m = (name: string) => median(samples.get(name) ?? []);
  const empty = m('empty');
  const rows: string[][] = [];
  const verdicts: Verdict[] = [];
  const ratio = (name: string) => {
    const sorted = [...(ratios.get(name) ?? [])].sort((a, b) => a - b);
    const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * f))]!;
    return { median: median(sorted), text: `${fmtRatio(median(sorted))} (${fmtRatio(q(0.25)).replace('×', '')}–${fmtRatio(q(0.75))})` };
  };
  for (const input of inputs) {
    const n = input.tools.toLocaleString('en-US');
    const full = m(`full:${input.tools}`);
    const r = ratio(`full:${input.tools}`);
    rows.push([`import the generated ${n}-tool folder (${fmtBytes(folderSize(input.genDir).bytes)}) + runtime, handler table, \`createRouter\`, dispatch 1 call`, `${full.toFixed(1)} ms`, r.text, `${(full - empty).toFixed(1)} ms`]);
    const load = m(`load:${input.tools}`);
    rows.push([`generated code only: runtime + the ${n}-tool folder's validators and parsed spec data, nothing built`, `${load.toFixed(1)} ms`, ratio(`load:${input.tools}`).text, `${(load - empty).toFixed(1)} ms`]);
    if (input.judged) verdicts.push(verdict(`cold start at ${n} tools ≤ ${TARGET}× a runtime-only process`, r.text, r.median <= TARGET));
  }
  rows.push(
    ['import the runtime only (baseline)', `${m('runtime').toFixed(1)} ms`, '1.00×', `${(m('runtime') - empty).toFixed(1)} ms`],
    ['empty node process (floor)', `${empty.toFixed(1)} ms`, '—', '0 ms'],
  );
  return {
    title: 'Cold start (fresh `node` process, compiled JS)',
    header: ['process', 'wall (median)', '÷ runtime only (per-round median, IQR)', 'above empty node'],
    rows,
    verdicts,
    notes: [
      `${config.spawns} spawn rounds, each running every script once (interleaved); the ratio is taken per round. Wall time from spawn to exit, measured by the parent. ` +
        "The full script counts the whole start-up of an application of that many tools, its handler table (built from the folder's `TOOL_NAMES`) included. " +
        "The generated-code-only script loads what any router of that spec must load (its validators and its data) and does nothing with it: the full start minus that row is toolroute's own work " +
        `(full ÷ generated code only, per-round median: ${inputs.map((i) => `${fmtRatio(median(own.get(i.tools) ?? []))} at ${i.tools.toLocaleString('en-US')} tools`).join(', ')}).`,
    ],
  };
}
