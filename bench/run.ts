/**
 * `npm run bench` — toolroute vs the reference library (@context-chef/core 4.2.1)
 * vs the bare minimum, in one process run; prints one table per item, with ratios.
 *
 *   npm run bench                 # everything (a few minutes on 2 cores)
 *   npm run bench -- --quick      # smoke run: sizes up to 1,000, short sampling
 *   npm run bench -- --readme     # also write the tables into bench/README.md
 *   npm run bench -- --tsx        # measure the TS sources through tsx instead of compiled JS
 *   npm run bench -- --runtime=path/to/runtime/index.js   # A/B: measure another runtime build
 *   npm run bench -- --only=1,2   # run only some items (codegen still runs: the others need its output)
 *
 * Pipeline: write specs → codegen each through the CLI (item 4 measures these
 * runs) → type-check the output → import the generated folders → for each
 * item, check that the compared implementations give the same answers, then
 * time them. A failed check aborts the run (exit 1): a fast wrong answer
 * cannot win.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { benchColdStart } from './items/cold-start.js';
import { emitJs, jsPath, type RepoPaths } from './emit-js.js';
import { codegen, codegenSection, typecheck, warmCodegen, type CodegenRun } from './items/codegen.js';
import { benchCompile } from './items/compile.js';
import { benchDispatch } from './items/dispatch.js';
import { benchPayload } from './items/payload.js';
import { benchMemory } from './items/memory.js';
import { benchPrune } from './items/prune.js';
import { BenchCorrectnessError, configFrom, progress, renderSection, type Section } from './lib.js';
import { allSpecs, BENCH_DIR, TMP_DIR, writeSpec, type BenchSpec, type MadeSpec } from './make-spec.js';
import type { ProcessRun } from './processes.js';
import { load, namespaceCall, type CodeSource, type Loaded } from './setup.js';

/** The machine, for the README: ratios only mean something next to it. */
function machine(): string {
  let cpu = 'unknown';
  try {
    cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // Not Linux: leave it unknown.
  }
  return `${availableParallelism()} cores (nproc), CPU: ${cpu}, Node ${process.version}, ${process.platform}/${process.arch}`;
}

/**
 * The example spec as a MadeSpec (it has no generated tool facts).
 *
 * `as-shipped` keeps the spec's own options. The other two set what the mixed
 * specs set for item 6's like-for-like comparison with the reference, whose
 * `compile()` sends only namespace tools and the toolkit loader: no ungrouped
 * flat tools (the example's `get_time`; the reference offers flat tools through
 * `pruneByTask`) and `append` toolkit loading (no deferred tools or
 * `call_toolkit_tool`, which toolroute adds so the list survives a load).
 */
function exampleSpec(root: string, encoding: 'compact' | 'schema' | 'as-shipped'): MadeSpec {
  const spec = parseYaml(readFileSync(join(root, 'examples', 'tools.spec.yaml'), 'utf8')) as BenchSpec;
  if (encoding !== 'as-shipped') spec.options = { ...spec.options, namespaceEncoding: encoding, offerUngroupedTools: false, toolkitLoading: 'append' };
  return {
    id: encoding === 'compact' ? 'example' : `example-${encoding}`,
    spec,
    tools: [],
    exampleArgs: (name) => {
      throw new Error(`bench: no example arguments for ${name}`);
    },
  };
}

function fmtLoad(l: readonly number[]): string {
  return l.map((x) => x.toFixed(1)).join(' / ');
}

function updateReadme(text: string): void {
  const file = join(BENCH_DIR, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- bench:results:start -->';
  const end = '<!-- bench:results:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) throw new Error(`bench/README.md lacks the ${start} … ${end} markers`);
  writeFileSync(file, `${readme.slice(0, a + start.length)}\n${text}\n${readme.slice(b)}`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const config = configFrom(argv);
  const paths: RepoPaths = { root: resolve(BENCH_DIR, '..'), tmp: TMP_DIR };
  const started = Date.now();
  const loadAtStart = loadavg();

  progress('writing specs');
  const made = allSpecs(config.quick);
  made.push(exampleSpec(paths.root, 'compact'), exampleSpec(paths.root, 'schema'), exampleSpec(paths.root, 'as-shipped'));
  const specFiles = new Map<string, string>();
  for (const m of made) specFiles.set(m.id, writeSpec(m, join(paths.tmp, 'specs'), m.id.startsWith('example') ? 'json' : undefined));
  const byId = new Map(made.map((m) => [m.id, m]));
  const get = (id: string): MadeSpec => {
    const m = byId.get(id);
    if (!m) throw new Error(`bench: no spec ${id}`);
    return m;
  };

  progress('codegen (item 4)');
  warmCodegen(paths, specFiles.get('mixed-10') as string);
  const genDir = (id: string) => join(paths.tmp, 'gen', id);
  const runs = new Map<string, CodegenRun>();
  // --reuse (development): keep generated folders from an earlier run; item 4 is then not measured.
  const reuse = argv.includes('--reuse');
  for (const m of made) {
    if (reuse && existsSync(join(genDir(m.id), 'index.ts'))) continue;
    const measured = (m.id.startsWith('mixed-') && !m.id.endsWith('-schema')) || m.id.startsWith('distinct-');
    const n = m.tools.length;
    progress(`  codegen ${m.id}`);
    runs.set(m.id, codegen(paths, m.id, n, specFiles.get(m.id) as string, genDir(m.id), measured && n <= 1_000 && !config.quick ? 2 : 1));
  }
  // The distinct spec must compile one validator per tool, or its row measures less work than it claims.
  for (const m of made.filter((x) => x.id.startsWith('distinct-'))) {
    const file = join(genDir(m.id), 'validators.gen.ts');
    if (!existsSync(file)) continue;
    const list = /export const validators[^\n]*\(\[([^\]]*)\]\)/.exec(readFileSync(file, 'utf8'));
    const count = list ? list[1]!.split(',').filter((x) => x.trim() !== '').length : -1;
    if (count !== m.tools.length) {
      throw new BenchCorrectnessError(`bench: ${m.id} compiled ${count} validators for ${m.tools.length} tools: its schemas must differ in what the validator checks`);
    }
  }
  const measuredRuns = [...runs.values()]
    .filter((r) => (r.id.startsWith('mixed-') && !r.id.endsWith('-schema')) || r.id.startsWith('distinct-'))
    .sort((a, b) => a.tools - b.tools || a.id.localeCompare(b.id));
  const tscRuns = new Map<string, ProcessRun>();
  for (const r of reuse ? [] : measuredRuns.filter((x) => x.tools <= 10_000 && x.id.startsWith('mixed-'))) {
    progress(`  tsc --noEmit ${r.id}`);
    tscRuns.set(r.id, typecheck(paths, r.id, r.outDir));
  }
  const section4 = codegenSection(config, measuredRuns, tscRuns);

  // Measured code: compiled JS (what ships) unless --tsx asks for the TS sources through tsx.
  progress('emitting JS (tsc) for the runtime and generated folders');
  // Only the folders the in-process items load (the 30,000-tool and distinct specs are codegen-only).
  const loadable = made.filter((m) => m.tools.length <= 10_000 && !m.id.startsWith('distinct-'));
  const jsDir = emitJs(paths, loadable.map((m) => genDir(m.id)));
  const base: CodeSource = argv.includes('--tsx')
    ? { runtimeIndex: join(paths.root, 'runtime', 'index.ts'), genIndex: (g) => join(g, 'index.ts') }
    : { runtimeIndex: join(jsDir, 'runtime', 'index.js'), genIndex: (g) => join(jsPath(paths, jsDir, g), 'index.js') };
  // --runtime=<file>: measure another build of the runtime (e.g. a patched copy) against the same generated folders.
  const runtimeFlag = argv.find((a) => a.startsWith('--runtime='));
  const source: CodeSource = runtimeFlag ? { ...base, runtimeIndex: resolve(runtimeFlag.slice('--runtime='.length)) } : base;

  progress('importing generated folders');
  const loaded = new Map<string, Loaded>();
  for (const m of loadable) loaded.set(m.id, await load(source, m, genDir(m.id)));
  const L = (id: string): Loaded => loaded.get(id) as Loaded;

  const onlyFlag = argv.find((a) => a.startsWith('--only='));
  const only = onlyFlag ? new Set(onlyFlag.slice('--only='.length).split(',').map((x) => x.trim())) : null;
  const want = (item: number) => only === null || only.has(String(item));
  const sections: Section[] = [];
  if (want(1)) {
    progress('1. dispatch');
    sections.push(...(await benchDispatch(config, [L('mixed-10'), L('mixed-1000'), ...(config.quick ? [] : [L('mixed-10000')])])));
  }
  if (want(2)) {
    progress('2. compile');
    sections.push(await benchCompile(config, L('mixed-1000'), L('mixed-10'), config.quick ? null : L('mixed-10000')));
  }
  if (want(3)) {
    progress('3. pruneByTask');
    sections.push(await benchPrune(config, made.filter((m) => m.id.startsWith('flat-')).map((m) => L(m.id))));
  }
  if (want(4) && !reuse) sections.push(section4);
  if (want(5)) {
    progress('5. cold start');
    const sizes = config.quick ? [1_000] : [1_000, 10_000];
    sections.push(
      benchColdStart(
        config,
        paths,
        jsDir,
        sizes.map((n) => ({ tools: n, genDir: genDir(`mixed-${n}`), call: namespaceCall(get(`mixed-${n}`), 'search').call, judged: n === 10_000 || config.quick })),
      ),
    );
  }
  if (want(7)) {
    progress('7. retained heap');
    const n = config.quick ? 1_000 : 10_000;
    const id = `mixed-${n}`;
    sections.push(
      benchMemory(config, paths.root, paths.tmp, {
        tools: n,
        runtimeIndex: join(jsDir, 'runtime', 'index.js'),
        genIndex: join(jsPath(paths, jsDir, genDir(id)), 'index.js'),
        specFile: writeSpec(get(id), join(paths.tmp, 'specs-json'), 'json'),
        toolNames: get(id).tools.map((t) => t.def.name),
      }),
    );
  }
  if (want(6)) {
    progress('6. payload');
    sections.push(
      benchPayload([
        { label: 'example spec', compact: L('example'), schema: L('example-schema'), asShipped: L('example-as-shipped') },
        { label: '1,000 tools', compact: L('mixed-1000'), schema: L('mixed-1000-schema') },
      ]),
    );
  }

  const verdicts = sections.flatMap((s) => s.verdicts);
  const met = verdicts.filter((v) => v.met).length;
  const shownArgs = argv.filter((a) => a !== '--readme');
  const header = [
    `Machine: ${machine()}.`,
    `Load average (1 / 5 / 15 min) at start ${fmtLoad(loadAtStart)}, at end ${fmtLoad(loadavg())}: the machine is shared, so read the paired ratios, not the absolute times.`,
    `Command: \`npm run bench${shownArgs.length > 0 ? ` -- ${shownArgs.join(' ')}` : ''}\` (${((Date.now() - started) / 1000).toFixed(0)} s). ` +
      `Measured code: ${runtimeFlag ? `runtime from ${relative(paths.root, source.runtimeIndex)}, ` : ''}${argv.includes('--tsx') ? 'TS sources through tsx' : 'compiled JS (tsc output in bench/.tmp/js)'}. Targets met: ${met} / ${verdicts.length}.`,
    '',
  ].join('\n');
  const text = `${header}\n${sections.map(renderSection).join('\n')}`;
  process.stdout.write(`${text}\n`);
  mkdirSync(paths.tmp, { recursive: true });
  writeFileSync(join(paths.tmp, 'latest.md'), `${text}\n`);
  if (argv.includes('--readme')) updateReadme(text);
}

main().catch((error: unknown) => {
  if (error instanceof BenchCorrectnessError) {
    process.stderr.write(`\nBENCH ABORTED — ${error.message}\n`);
  } else {
    process.stderr.write(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
