/**
 * Retained heap of the generated module and its router at 10,000 tools,
 * against the reference library holding the same tools.
 *
 * Each side runs in its own fresh `node --expose-gc` process and reports
 * `heapUsed` after a full GC, before and after loading the tools:
 * - toolroute: compiled JS; baseline after importing the runtime (and
 *   building the handler table from a name list), then the generated folder
 *   is imported and `createRouter` run;
 * - reference: baseline after importing `@context-chef/core` and the bench's
 *   registration code, then the spec JSON is read and parsed and the tools
 *   registered (`makeReference`); the text is dropped, the parsed spec is kept
 *   only through what the library holds.
 * Both then report the retained difference (median of several processes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchCorrectnessError, fmtBytes, fmtRatio, median, verdict, type BenchConfig, type Section } from '../lib.js';
import { runNode } from '../processes.js';

const TARGET = 2;

/** The generated folders and spec files measured, by size. */
export interface MemoryInput {
  readonly tools: number;
  readonly runtimeIndex: string;
  readonly genIndex: string;
  readonly specFile: string;
  readonly toolNames: readonly string[];
}

function scripts(dir: string, root: string, input: MemoryInput): { toolroute: string; reference: string } {
  mkdirSync(dir, { recursive: true });
  const names = join(dir, `names-${input.tools}.json`);
  writeFileSync(names, JSON.stringify(input.toolNames));
  const report =
    "const gc = globalThis.gc; if (typeof gc !== 'function') { process.stderr.write('run with --expose-gc'); process.exit(2); }\n" +
    'const settle = () => { gc(); gc(); return process.memoryUsage().heapUsed; };\n';
  const toolroute = join(dir, `heap-toolroute-${input.tools}.mjs`);
  writeFileSync(
    toolroute,
    `import { readFileSync } from 'node:fs';\nimport { createRouter } from ${JSON.stringify(pathToFileURL(input.runtimeIndex).href)};\n${report}` +
      `const handlers = {};\nfor (const n of JSON.parse(readFileSync(${JSON.stringify(names)}, 'utf8'))) handlers[n] = (args) => args;\n` +
      'const before = settle();\n' +
      `const gen = await import(${JSON.stringify(pathToFileURL(input.genIndex).href)});\n` +
      'const moduleOnly = settle();\n' +
      'const router = createRouter(gen, handlers);\n' +
      'const after = settle();\n' +
      "if (typeof router.dispatch !== 'function') process.exit(3);\n" +
      'process.stdout.write(JSON.stringify({ module: moduleOnly - before, total: after - before, tools: gen.TOOL_NAMES.length }));\n',
  );
  const reference = join(dir, `heap-reference-${input.tools}.mts`);
  writeFileSync(
    reference,
    `import { readFileSync } from 'node:fs';\nimport { makeReference } from ${JSON.stringify(pathToFileURL(join(root, 'bench', 'reference.ts')).href)};\n${report}` +
      'const before = settle();\n' +
      `let text: string | null = readFileSync(${JSON.stringify(input.specFile)}, 'utf8');\n` +
      'const ref = makeReference(JSON.parse(text));\ntext = null;\n' +
      'const after = settle();\n' +
      'const tools = ref.defs.size;\n' +
      'process.stdout.write(JSON.stringify({ module: after - before, total: after - before, tools }));\n',
  );
  return { toolroute, reference };
}

interface HeapSample {
  readonly module: number;
  readonly total: number;
  readonly tools: number;
}

function sample(args: string[], cwd: string, what: string): HeapSample {
  const r = runNode(args, { cwd, rss: false });
  if (r.status !== 0) throw new BenchCorrectnessError(`heap measurement (${what}) failed (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
  return JSON.parse(r.stdout) as HeapSample;
}

/**
 * Run the heap item.
 *
 * @example
 * benchMemory(config, root, tmp, { tools: 10000, … });
 */
export function benchMemory(config: BenchConfig, root: string, tmp: string, input: MemoryInput): Section {
  const s = scripts(join(tmp, 'heap'), root, input);
  const runs = config.quick ? 3 : 5;
  const mine: HeapSample[] = [];
  const refs: HeapSample[] = [];
  for (let i = 0; i < runs; i++) {
    mine.push(sample(['--expose-gc', s.toolroute], root, 'toolroute'));
    refs.push(sample(['--expose-gc', '--import', 'tsx', s.reference], root, 'reference'));
  }
  for (const m of [...mine, ...refs]) {
    if (m.tools !== input.tools) throw new BenchCorrectnessError(`heap measurement saw ${m.tools} tools, expected ${input.tools}`);
  }
  const mod = median(mine.map((m) => m.module));
  const total = median(mine.map((m) => m.total));
  const ref = median(refs.map((m) => m.total));
  const n = input.tools.toLocaleString('en-US');
  return {
    title: `Retained heap at ${n} tools (fresh process per sample, after GC)`,
    header: ['what', 'heap retained (median)', 'vs reference'],
    rows: [
      [`toolroute: generated ${n}-tool module imported`, fmtBytes(mod), fmtRatio(mod / ref)],
      [`toolroute: module + \`createRouter\``, fmtBytes(total), fmtRatio(total / ref)],
      [`reference: the same ${n} tools registered with \`ContextChef\``, fmtBytes(ref), '1.00×'],
    ],
    verdicts: [verdict(`generated module + router at ${n} tools ≤ ${TARGET}× the reference's heap`, fmtRatio(total / ref), total / ref <= TARGET)],
    notes: [
      `Median of ${runs} processes per side (\`node --expose-gc\`, \`heapUsed\` after two full GCs, before and after loading). ` +
        'The reference side parses the spec JSON and registers it through bench/reference.ts (as in every other item); what it retains is what the library keeps. ' +
        'The toolroute side builds its handler table before the baseline, so only the module and the router are counted.',
    ],
  };
}
