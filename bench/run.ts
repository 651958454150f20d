/**
 * `npm run bench`: the performance guard rail. toolroute against the honest
 * floor, its peers (the AI SDK's tool execution, the MCP SDK's `tools/call`)
 * and the reference library (@context-chef/core 4.2.1), in one process run;
 * prints one table per item, with paired ratios and the targets judged.
 *
 *   npm run bench                    # every item (several minutes on 2 cores)
 *   npm run bench -- --quick         # smoke run: sizes up to 1,000, short sampling
 *   npm run bench -- --readme        # also write the tables into bench/README.md
 *   npm run bench -- --only=peers    # some items: dispatch, peers, prune, heap, cold-start, codegen
 *   npm run bench -- --reuse         # keep generated folders of an earlier run (codegen not measured)
 *   npm run bench -- --tsx           # measure the TS sources through tsx instead of compiled JS
 *   npm run bench -- --runtime=path/to/runtime/index.js   # another runtime build (A/B; in-process items)
 *
 * Pipeline: write the specs the chosen items need, generate each through the
 * compiled CLI (the codegen item measures these runs), compile the runtime
 * and the generated folders with `tsc` (which type-checks them), import them,
 * and for each item check that the compared implementations give the same
 * answers before timing them. A failed check aborts the run (exit 1): a fast
 * wrong answer cannot win. A missed target prints its table and exits 2.
 * Only the public surface is used: `toolroute/runtime`'s index, the generated
 * folders' index and the CLI.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { emitJs, jsPath, type RepoPaths } from './emit-js.js';
import { benchColdStart } from './items/cold-start.js';
import { codegen, codegenSection, compiledCli, type CodegenRun } from './items/codegen.js';
import { benchDispatch } from './items/dispatch.js';
import { benchMemory } from './items/memory.js';
import { benchPeers } from './items/peers.js';
import { benchPrune } from './items/prune.js';
import { BenchCorrectnessError, configFrom, progress, renderSection, type BenchConfig, type Section } from './lib.js';
import { BENCH_DIR, makeSpec, TMP_DIR, writeSpec, type MadeSpec } from './make-spec.js';
import { load, namespaceCall, type CodeSource, type Loaded } from './setup.js';

const ITEMS = ['dispatch', 'peers', 'prune', 'heap', 'cold-start', 'codegen'] as const;
type Item = (typeof ITEMS)[number];

/** The spec ids an item needs (see `makeSpec`); a quick run keeps sizes up to 1,000. */
function specsOf(item: Item, quick: boolean): string[] {
  const upTo1000 = (ids: string[]) => (quick ? ids.filter((id) => Number(id.split('-')[1]) <= 1_000) : ids);
  switch (item) {
    case 'dispatch':
      return upTo1000(['mixed-10', 'mixed-1000', 'mixed-10000']);
    case 'peers':
      return ['mixed-1000'];
    case 'prune':
      return upTo1000(['flat-1000', 'flat-10000']);
    case 'heap':
      return [quick ? 'mixed-1000' : 'mixed-10000'];
    case 'cold-start':
      return upTo1000(['mixed-1000', 'mixed-10000']);
    case 'codegen':
      return upTo1000(['mixed-1000', 'distinct-1000', 'mixed-30000']);
  }
}

/** Specs that are generated only (codegen), never loaded. */
const codegenOnly = (id: string) => id.startsWith('distinct-') || id === 'mixed-30000';

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

/**
 * The distinct spec must need one validator per tool, or its row measures less
 * work than it claims: its schemas must still differ once annotations are gone.
 */
function checkDistinct(made: MadeSpec): void {
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip)
      : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !['description', 'title', 'default', 'examples'].includes(k)).map(([k, x]) => [k, strip(x)]))
      : v;
  const distinct = new Set(made.tools.map((t) => JSON.stringify(strip(t.def.parameters)))).size;
  if (distinct !== made.tools.length) throw new BenchCorrectnessError(`bench: ${made.id} has ${distinct} distinct schemas for ${made.tools.length} tools`);
}

/** Which items to run, from `--only=a,b`. */
function chosenItems(argv: readonly string[]): Item[] {
  const flag = argv.find((a) => a.startsWith('--only='));
  if (!flag) return [...ITEMS];
  const names = flag.slice('--only='.length).split(',').map((x) => x.trim());
  for (const n of names) if (!(ITEMS as readonly string[]).includes(n)) throw new Error(`bench: unknown item ${n} (items: ${ITEMS.join(', ')})`);
  return ITEMS.filter((i) => names.includes(i));
}

async function runItems(items: readonly Item[], config: BenchConfig, paths: RepoPaths, argv: readonly string[]): Promise<{ sections: Section[]; source: CodeSource }> {
  const ids = [...new Set(items.flatMap((i) => specsOf(i, config.quick)))];
  const made = new Map(ids.map((id) => [id, makeSpec(id)]));
  const get = (id: string) => made.get(id)!;
  const genDir = (id: string) => join(paths.tmp, 'gen', id);

  progress('codegen');
  compiledCli(paths);
  const runs: CodegenRun[] = [];
  const measure = items.includes('codegen');
  const reuse = argv.includes('--reuse');
  for (const m of made.values()) {
    if (m.id.startsWith('distinct-')) checkDistinct(m);
    if (reuse && existsSync(join(genDir(m.id), 'index.ts'))) continue;
    progress(`  codegen ${m.id}`);
    const specFile = writeSpec(m, join(paths.tmp, 'specs'));
    runs.push(codegen(paths, m.id, m.tools.length, specFile, genDir(m.id), measure && m.tools.length <= 1_000 && !config.quick ? 2 : 1));
    // A spec only codegen needs (30,000 tools, say) is dropped once written: held on, it is heap every later timing
    // loop's garbage collections must walk, which penalizes whichever contender allocates more.
    if (codegenOnly(m.id)) made.delete(m.id);
  }

  // Measured code: compiled JS (what ships) unless --tsx asks for the TS sources through tsx.
  progress('compiling the runtime and the generated folders (tsc)');
  // The codegen item alone loads nothing.
  const loadable = items.every((i) => i === 'codegen') ? [] : [...made.values()];
  const jsDir = loadable.length > 0 ? emitJs(paths, loadable.map((m) => genDir(m.id))) : join(paths.tmp, 'js');
  const base: CodeSource = argv.includes('--tsx')
    ? { runtimeIndex: join(paths.root, 'runtime', 'index.ts'), genIndex: (g) => join(g, 'index.ts') }
    : { runtimeIndex: join(jsDir, 'runtime', 'index.js'), genIndex: (g) => join(jsPath(paths, jsDir, g), 'index.js') };
  const runtimeFlag = argv.find((a) => a.startsWith('--runtime='));
  const source: CodeSource = runtimeFlag ? { ...base, runtimeIndex: resolve(runtimeFlag.slice('--runtime='.length)) } : base;

  const loaded = new Map<string, Loaded>();
  const L = async (id: string): Promise<Loaded> => {
    let l = loaded.get(id);
    if (!l) loaded.set(id, (l = await load(source, get(id), genDir(id))));
    return l;
  };
  const sections: Section[] = [];
  for (const item of items) {
    progress(item);
    const specs = specsOf(item, config.quick);
    switch (item) {
      case 'dispatch':
        sections.push(await benchDispatch(config, await Promise.all(specs.map(L))));
        break;
      case 'peers':
        sections.push(await benchPeers(config, await L('mixed-1000'), paths.tmp));
        break;
      case 'prune':
        sections.push(await benchPrune(config, await Promise.all(specs.map(L))));
        break;
      case 'heap': {
        const m = get(specs[0]!);
        sections.push(
          benchMemory(config, paths.root, paths.tmp, {
            tools: m.tools.length,
            runtimeIndex: join(jsDir, 'runtime', 'index.js'),
            genIndex: join(jsPath(paths, jsDir, genDir(m.id)), 'index.js'),
            specFile: writeSpec(m, join(paths.tmp, 'specs-json'), 'json'),
            toolNames: m.tools.map((t) => t.def.name),
          }),
        );
        break;
      }
      case 'cold-start': {
        const largest = specs[specs.length - 1];
        const inputs = specs.map((id) => ({ tools: get(id).tools.length, genDir: genDir(id), call: namespaceCall(get(id), 'search').call, judged: id === largest }));
        sections.push(benchColdStart(config, paths, jsDir, inputs));
        break;
      }
      case 'codegen':
        if (!reuse) sections.push(codegenSection(config, runs.filter((r) => !r.id.startsWith('flat-')).sort((a, b) => a.tools - b.tools || a.id.localeCompare(b.id))));
        break;
    }
  }
  return { sections, source };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const config = configFrom(argv);
  const paths: RepoPaths = { root: resolve(BENCH_DIR, '..'), tmp: TMP_DIR };
  const started = Date.now();
  const loadAtStart = loadavg();
  const { sections, source } = await runItems(chosenItems(argv), config, paths, argv);

  const verdicts = sections.flatMap((s) => s.verdicts);
  const met = verdicts.filter((v) => v.met).length;
  const shownArgs = argv.filter((a) => a !== '--readme');
  const runtimeFlag = argv.some((a) => a.startsWith('--runtime='));
  const header = [
    `Machine: ${machine()}.`,
    `Load average (1 / 5 / 15 min) at start ${fmtLoad(loadAtStart)}, at end ${fmtLoad(loadavg())}: the machine is shared, so read the paired ratios, not the absolute times.`,
    `Command: \`npm run bench${shownArgs.length > 0 ? ` -- ${shownArgs.join(' ')}` : ''}\` (${((Date.now() - started) / 1000).toFixed(0)} s). ` +
      `Measured code: ${runtimeFlag ? `runtime from ${relative(paths.root, source.runtimeIndex)}, ` : ''}${argv.includes('--tsx') ? 'TS sources through tsx' : 'compiled JS (tsc output in bench/.tmp/js)'}. Targets met: ${met} / ${verdicts.length}.`,
    '',
  ].join('\n');
  const text = `${header}\n${sections.map((s, i) => renderSection({ ...s, title: `${i + 1}. ${s.title}` })).join('\n')}`;
  process.stdout.write(`${text}\n`);
  mkdirSync(paths.tmp, { recursive: true });
  writeFileSync(join(paths.tmp, 'latest.md'), `${text}\n`);
  if (argv.includes('--readme')) updateReadme(text);
  if (met < verdicts.length) process.exitCode = 2;
}

main().catch((error: unknown) => {
  if (error instanceof BenchCorrectnessError) {
    process.stderr.write(`\nBENCH ABORTED — ${error.message}\n`);
  } else {
    process.stderr.write(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
