/**
 * Codegen wall time and peak memory per spec size: the whole CLI process.
 *
 * The CLI measured is the compiled one: `node <build>/cli/main.js codegen
 * <spec> --out <dir>`, built here by the project's `tsc -p tsconfig.build.json`
 * into bench/.tmp/cli (what `npm run build` writes to dist/, fresh, so a stale
 * dist/ is never measured). That is what an installed package's `toolroute`
 * command runs.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
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

let builtCli: string | undefined;
/**
 * The compiled CLI (`tsc -p tsconfig.build.json --outDir bench/.tmp/cli`), built once per run.
 *
 * @example
 * compiledCli(paths); // '/…/bench/.tmp/cli/cli/main.js'
 */
export function compiledCli(paths: RepoPaths): string {
  if (builtCli !== undefined) return builtCli;
  const out = join(paths.tmp, 'cli');
  rmSync(out, { recursive: true, force: true });
  const r = runCommand(join(paths.root, 'node_modules', '.bin', 'tsc'), ['-p', join(paths.root, 'tsconfig.build.json'), '--outDir', out, '--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false'], { cwd: paths.root, rss: false });
  if (r.status !== 0) throw new BenchCorrectnessError(`building the CLI with tsc failed:\n${(r.stdout + r.stderr).slice(0, 3000)}`);
  builtCli = join(out, 'cli', 'main.js');
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
 * `runs`). Aborts on failure.
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
  return { id, tools, specFile, outDir, run: best as ProcessRun, folderBytes: size.bytes, files: size.files };
}

/**
 * Build the codegen table from measured runs: every run a row, the three
 * target sizes judged.
 *
 * @example
 * codegenSection(config, runs);
 */
export function codegenSection(config: BenchConfig, runs: readonly CodegenRun[]): Section {
  const secs = (c: CodegenRun) => `${(c.run.wallMs / 1000).toFixed(2)} s`;
  const mib = (c: CodegenRun) => (c.run.maxRssKb === null ? '—' : `${(c.run.maxRssKb / 1024).toFixed(0)} MiB`);
  const rows = runs.map((c) => [
    `${c.tools.toLocaleString('en-US')}${c.id.startsWith('distinct-') ? ' (every schema distinct)' : ''}`,
    secs(c),
    c.run.cpuMs === null ? '—' : `${(c.run.cpuMs / 1000).toFixed(2)} s`,
    mib(c),
    fmtBytes(c.folderBytes),
    String(c.files),
  ]);
  const byId = new Map(runs.map((c) => [c.id, c]));
  const verdicts: Verdict[] = [];
  const k1 = byId.get('mixed-1000');
  const d1 = byId.get('distinct-1000');
  const k30 = byId.get('mixed-30000');
  if (k1) verdicts.push(verdict('codegen of 1,000 tools < 1.5 s', secs(k1), k1.run.wallMs < 1500));
  if (d1) verdicts.push(verdict('codegen of 1,000 distinct schemas < 2.5 s', secs(d1), d1.run.wallMs < 2500));
  if (k30) {
    verdicts.push(verdict('codegen of 30,000 tools < 15 s', secs(k30), k30.run.wallMs < 15_000));
    const rss = k30.run.maxRssKb;
    verdicts.push(verdict('codegen of 30,000 tools < 1.5 GiB peak RSS', mib(k30), rss !== null && rss < 1.5 * 1024 * 1024));
  }
  return {
    title: 'Codegen (whole CLI process)',
    header: ['tools', 'codegen wall', 'CPU (user + system)', 'peak RSS', 'generated folder', 'files'],
    rows,
    verdicts,
    notes: [
      `The compiled CLI, \`node bench/.tmp/cli/cli/main.js codegen <spec> --out <dir>\` (built by \`tsc -p tsconfig.build.json\`, as \`npm run build\` builds dist/), ${config.quick ? 'one run each' : 'best of 2 runs up to 1,000 tools, 1 run above'}. ` +
        `CPU time and peak memory from ${RSS_SOURCE}; the targets are judged on wall time, and CPU time shows the work itself when the machine's load stretches the wall. The generated folders that the other items load are then compiled with \`tsc\` (which type-checks them) before use.`,
    ],
  };
}
