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
import type { CodegenRun } from './codegen.js';

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

/**
 * Run item 5.
 *
 * @example
 * await benchColdStart(config, paths, jsDir, codegenRun1000, call);
 */
export function benchColdStart(config: BenchConfig, paths: RepoPaths, jsDir: string, at1000: CodegenRun, nc: NamespaceCall): Section {
  const coldDir = join(paths.tmp, 'cold');
  const js = scripts(coldDir, join(jsDir, 'runtime', 'index.js'), join(jsPath(paths, jsDir, at1000.outDir), 'index.js'), nc.call, 'js');
  const ts = scripts(coldDir, join(paths.root, 'runtime', 'index.ts'), join(at1000.outDir, 'index.ts'), nc.call, 'tsx');

  const variants: { name: string; args: string[] }[] = [
    { name: 'js:full', args: [js.full] },
    { name: 'js:runtime', args: [js.runtimeOnly] },
    { name: 'empty', args: [js.empty] },
    { name: 'tsx:full', args: ['--import', 'tsx', ts.full] },
    { name: 'tsx:runtime', args: ['--import', 'tsx', ts.runtimeOnly] },
  ];
  // Correctness and warm-up (tsx cache, OS file cache): every script must succeed.
  for (const v of variants) {
    const r = runNode(v.args, { cwd: paths.root, rss: false });
    if (r.status !== 0) throw new BenchCorrectnessError(`cold-start script ${v.name} failed (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
  }
  const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let i = 0; i < config.spawns; i++) {
    for (const v of variants) {
      const r = runNode(v.args, { cwd: paths.root, rss: false });
      if (r.status !== 0) throw new BenchCorrectnessError(`cold-start script ${v.name} failed: ${r.stderr.slice(0, 2000)}`);
      samples.get(v.name)?.push(r.wallMs);
    }
  }
  const m = (name: string) => median(samples.get(name) ?? []);
  const full = m('js:full');
  const rt = m('js:runtime');
  const empty = m('empty');
  const rows = [
    ['compiled JS: import generated 1,000-tool folder + runtime, createRouter, dispatch 1 call', `${full.toFixed(1)} ms`, fmtRatio(full / rt), `${(full - empty).toFixed(1)} ms`],
    ['compiled JS: import the runtime only', `${rt.toFixed(1)} ms`, '1.00×', `${(rt - empty).toFixed(1)} ms`],
    ['empty node process (floor)', `${empty.toFixed(1)} ms`, fmtRatio(empty / rt), '0 ms'],
    ['tsx (info): generated folder + runtime + dispatch', `${m('tsx:full').toFixed(1)} ms`, fmtRatio(m('tsx:full') / m('tsx:runtime')), `${(m('tsx:full') - empty).toFixed(1)} ms`],
    ['tsx (info): runtime only', `${m('tsx:runtime').toFixed(1)} ms`, '1.00×', `${(m('tsx:runtime') - empty).toFixed(1)} ms`],
  ];
  return {
    title: '5. Cold start (fresh `node` process, 1,000-tool spec)',
    header: ['process', 'wall (median)', 'vs runtime only', 'above empty node'],
    rows,
    verdicts: [
      verdict('full cold start < 150 ms (compiled JS)', `${full.toFixed(1)} ms`, full < 150),
      verdict('full ≤ 3× runtime-only process (compiled JS)', fmtRatio(full / rt), full / rt <= 3),
    ],
    notes: [
      `Median of ${config.spawns} spawns each, interleaved; wall time from spawn to exit measured by the parent. ` +
        `Generated folder of the 1,000-tool spec on disk: ${fmtBytes(at1000.folderBytes)} in ${at1000.files} files ` +
        '(identical argument schemas share one validator; see item 6 for counts).',
    ],
  };
}
