/**
 * Item 4 — codegen wall time and peak memory per spec size (whole CLI process),
 * and `tsc --noEmit` time of each generated folder.
 *
 * The CLI measured is the compiled one: `node <build>/generator/cli.js codegen
 * <spec> --out <dir>`, the build made here by the project's `tsc -p
 * tsconfig.build.json` into bench/.tmp/cli (what `npm run build` writes to
 * dist/, fresh, so a stale dist/ is never measured). That is what an installed
 * package runs: bin/toolroute.js always starts dist/generator/cli.js in a copy
 * below node_modules (test/package/pack.test.ts proves it with a resolve hook
 * on the installed command). The 1,000-tool spec is also run through tsx
 * (`node --import tsx generator/cli.ts`, what a checkout runs before a build)
 * as an info row; tsx's transform cache is warmed by a first run that is not
 * counted.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RepoPaths } from '../emit-js.js';
import { BenchCorrectnessError, fmtBytes, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import { RSS_SOURCE, runCommand, runNode, type ProcessRun } from '../processes.js';


/**
 * Generated folders import the runtime measured beside them: bench/.tmp/gen/<id>
 * and its compiled twin bench/.tmp/js/bench/.tmp/gen/<id> are both four levels
 * below a `runtime/index.js` (the sources through tsx, or the compiled runtime),
 * so one relative specifier serves both and no second runtime copy is loaded.
 */
const RUNTIME_IMPORT = ['--runtime-import', '../../../../runtime/index.js'];

/** The spec also measured through tsx (an info row). */
const TSX_INFO_ID = 'mixed-1000';

let builtCli: string | undefined;
/**
 * The compiled CLI (`tsc -p tsconfig.build.json --outDir bench/.tmp/cli`), built once per run.
 *
 * @example
 * compiledCli(paths); // '/…/bench/.tmp/cli/generator/cli.js'
 */
export function compiledCli(paths: RepoPaths): string {
  if (builtCli !== undefined) return builtCli;
  const out = join(paths.tmp, 'cli');
  rmSync(out, { recursive: true, force: true });
  const r = runCommand(join(paths.root, 'node_modules', '.bin', 'tsc'), ['-p', join(paths.root, 'tsconfig.build.json'), '--outDir', out, '--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false'], { cwd: paths.root, rss: false });
  if (r.status !== 0) throw new BenchCorrectnessError(`building the CLI with tsc failed:\n${(r.stdout + r.stderr).slice(0, 3000)}`);
  builtCli = join(out, 'generator', 'cli.js');
  return builtCli;
}

/** One codegen measurement. */
export interface CodegenRun {
  readonly id: string;
  readonly tools: number;
  readonly specFile: string;
  readonly outDir: string;
  readonly run: ProcessRun;
  readonly folderBytes: number;
  readonly files: number;
  /** The same spec through tsx (`node --import tsx generator/cli.ts`), for the info row; only for TSX_INFO_ID. */
  readonly tsxRun?: ProcessRun;
}

/** Total size and count of the files under `dir`. */
export function folderSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = folderSize(p);
      bytes += sub.bytes;
      files += sub.files;
    } else {
      bytes += statSync(p).size;
      files++;
    }
  }
  return { bytes, files };
}

function failed(what: string, r: ProcessRun): never {
  throw new BenchCorrectnessError(`${what} failed (exit ${r.status}):\n${(r.stderr || r.stdout).slice(0, 3000)}`);
}

/**
 * Generate `specFile` into `outDir` through the compiled CLI, measured (best of
 * `runs`). Aborts on failure. The tsx run of TSX_INFO_ID must write the same bytes.
 *
 * @example
 * codegen(paths, 'mixed-1000', 1000, 'bench/.tmp/specs/mixed-1000.spec.yaml', 'bench/.tmp/gen/mixed-1000');
 */
export function codegen(paths: RepoPaths, id: string, tools: number, specFile: string, outDir: string, runs = 1): CodegenRun {
  const args = ['codegen', relative(paths.root, specFile), '--out', relative(paths.root, outDir), ...RUNTIME_IMPORT];
  const cli = relative(paths.root, compiledCli(paths));
  let best: ProcessRun | null = null;
  for (let i = 0; i < runs; i++) {
    rmSync(outDir, { recursive: true, force: true });
    const r = runNode([cli, ...args], { cwd: paths.root });
    if (r.status !== 0) failed(`codegen of ${id}`, r);
    if (!best || r.wallMs < best.wallMs) best = r;
  }
  const size = folderSize(outDir);
  let tsxRun: ProcessRun | undefined;
  if (id === TSX_INFO_ID) {
    // Into the same folder: check mode, so the tsx CLI must find every byte the compiled one wrote.
    tsxRun = runNode(['--import', 'tsx', 'generator/cli.ts', ...args, '--check'], { cwd: paths.root });
    if (tsxRun.status !== 0) failed(`codegen --check of ${id} through tsx (the compiled CLI wrote other bytes?)`, tsxRun);
  }
  return { id, tools, specFile, outDir, run: best as ProcessRun, folderBytes: size.bytes, files: size.files, ...(tsxRun ? { tsxRun } : {}) };
}

/** Build the compiled CLI and warm tsx's transform cache for the generator (the tsx info row), neither counted. */
export function warmCodegen(paths: RepoPaths, specFile: string): void {
  compiledCli(paths);
  const out = join(paths.tmp, 'gen', '_warm');
  const r = runNode(['--import', 'tsx', 'generator/cli.ts', 'codegen', relative(paths.root, specFile), '--out', relative(paths.root, out), ...RUNTIME_IMPORT], { cwd: paths.root, rss: false });
  if (r.status !== 0) failed('codegen warm-up', r);
}

/**
 * `tsc --noEmit` over one generated folder (and what it imports), with a temp tsconfig
 * extending the project's. Aborts if the output does not type-check.
 */
export function typecheck(paths: RepoPaths, id: string, outDir: string): ProcessRun {
  const dir = join(paths.tmp, 'tsc', id);
  mkdirSync(dir, { recursive: true });
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    `${JSON.stringify({ extends: relative(dir, join(paths.root, 'tsconfig.json')), compilerOptions: { noEmit: true, incremental: false }, include: [relative(dir, outDir)], exclude: [] }, null, 2)}\n`,
  );
  const r = runCommand(join(paths.root, 'node_modules', '.bin', 'tsc'), ['-p', tsconfig], { cwd: paths.root });
  if (r.status !== 0) failed(`tsc --noEmit of ${id}`, r);
  return r;
}

/**
 * Build item 4's table from measured runs.
 *
 * @example
 * codegenSection(runs, checks);
 */
export function codegenSection(config: BenchConfig, runs: readonly CodegenRun[], tscRuns: ReadonlyMap<string, ProcessRun>): Section {
  const rows = runs.map((c) => {
    const tsc = tscRuns.get(c.id);
    return [
      `${c.tools.toLocaleString('en-US')}${c.id.startsWith('distinct-') ? ' (every schema distinct)' : ''}`,
      `${(c.run.wallMs / 1000).toFixed(2)} s`,
      c.run.maxRssKb === null ? '—' : `${(c.run.maxRssKb / 1024).toFixed(0)} MiB`,
      tsc ? `${(tsc.wallMs / 1000).toFixed(2)} s` : '—',
      tsc?.maxRssKb ? `${(tsc.maxRssKb / 1024).toFixed(0)} MiB` : '—',
      fmtBytes(c.folderBytes),
      String(c.files),
    ];
  });
  const info = runs.find((c) => c.tsxRun !== undefined);
  if (info?.tsxRun) {
    rows.push([`${info.tools.toLocaleString('en-US')}, through tsx (info: a checkout before \`npm run build\`; \`--check\`)`, `${(info.tsxRun.wallMs / 1000).toFixed(2)} s`,
      info.tsxRun.maxRssKb === null ? '—' : `${(info.tsxRun.maxRssKb / 1024).toFixed(0)} MiB`, '—', '—', '—', '—']);
  }
  const byId = new Map(runs.map((c) => [c.id, c]));
  const verdicts: Verdict[] = [];
  const secs = (c: CodegenRun) => `${(c.run.wallMs / 1000).toFixed(2)} s`;
  const k1 = byId.get('mixed-1000');
  const d1 = byId.get('distinct-1000');
  const k30 = byId.get('mixed-30000');
  if (k1) verdicts.push(verdict('codegen of 1,000 tools < 1.5 s', secs(k1), k1.run.wallMs < 1500));
  if (d1) verdicts.push(verdict('codegen of 1,000 tools, every schema distinct, < 2 s', secs(d1), d1.run.wallMs < 2000));
  if (k30) {
    verdicts.push(verdict('codegen of 30,000 tools < 15 s', secs(k30), k30.run.wallMs < 15_000));
    const rss = k30.run.maxRssKb;
    verdicts.push(verdict('codegen of 30,000 tools < 1.5 GiB peak RSS', rss === null ? '—' : `${(rss / 1024).toFixed(0)} MiB`, rss !== null && rss < 1.5 * 1024 * 1024));
  }
  const t1 = k1 ? tscRuns.get(k1.id) : undefined;
  if (t1) verdicts.push(verdict('`tsc --noEmit` of the 1,000-tool output < 10 s', `${(t1.wallMs / 1000).toFixed(2)} s`, t1.wallMs < 10_000));
  return {
    title: '4. Codegen (whole CLI process) and type check of the output',
    header: ['tools', 'codegen wall', 'codegen peak RSS', '`tsc --noEmit` wall', 'tsc peak RSS', 'generated folder', 'files'],
    rows,
    verdicts,
    notes: [
      `Codegen: the compiled CLI, \`node bench/.tmp/cli/generator/cli.js codegen <spec> --out <dir>\` (built by \`tsc -p tsconfig.build.json\`, as \`npm run build\` builds dist/; an installed package's \`toolroute\` command runs dist/generator/cli.js), best of ${config.quick ? 1 : 2} runs for ≤ 1,000 tools, 1 run above; the tsx row is \`node --import tsx generator/cli.ts … --check\` on the same folder, cache warm. The 30,000-tool spec is generated only (not type-checked or loaded). ` +
        `Peak memory from ${RSS_SOURCE}. Type check: \`node_modules/.bin/tsc -p <temp tsconfig extending ./tsconfig.json>\` including only the generated folder (and the runtime files it imports).`,
    ],
  };
}
