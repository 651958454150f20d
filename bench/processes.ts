/**
 * Whole-process measurements: wall time (measured here, high resolution), and
 * CPU time and peak resident memory (from `/usr/bin/time -v` when the machine
 * has it, otherwise from `process.resourceUsage()` inside the child via a
 * preloaded hook). CPU time shows the work itself when a shared machine's load
 * stretches the wall time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TMP_DIR } from './make-spec.js';

/** One finished child process. */
export interface ProcessRun {
  readonly wallMs: number;
  /** Peak RSS in KiB; null when it could not be read. */
  readonly maxRssKb: number | null;
  /** User + system CPU time in ms; null when it could not be read. */
  readonly cpuMs: number | null;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const TIME = '/usr/bin/time';
/** How peak memory and CPU time are read on this machine, for the README. */
export const RSS_SOURCE = existsSync(TIME) ? '/usr/bin/time -v' : 'process.resourceUsage() in the child';

let hookPath: string | null = null;
function rssHook(): string {
  if (hookPath) return hookPath;
  mkdirSync(TMP_DIR, { recursive: true });
  hookPath = join(TMP_DIR, 'rss-hook.mjs');
  writeFileSync(
    hookPath,
    "import { writeFileSync } from 'node:fs';\n" +
      "process.on('exit', () => { const f = process.env.BENCH_RSS_FILE; const u = process.resourceUsage();\n" +
      "  if (f) writeFileSync(f, JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n",
  );
  return hookPath;
}

/**
 * Run `node ...nodeArgs` and measure it.
 *
 * @example
 * const r = runNode(['--import', 'tsx', 'cli/main.ts', 'codegen', spec, '--out', dir], { cwd });
 */
export function runNode(nodeArgs: readonly string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; rss?: boolean }): ProcessRun {
  return runCommand(process.execPath, nodeArgs, opts);
}

/**
 * Run any command and measure it. Peak memory needs `/usr/bin/time`, or a
 * node command (the RSS hook is preloaded into node children only).
 *
 * @example
 * runCommand('node_modules/.bin/tsc', ['-p', 'tsconfig.json'], { cwd });
 */
export function runCommand(cmd: string, cmdArgs: readonly string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; rss?: boolean }): ProcessRun {
  const env = { ...process.env, ...opts.env };
  const wantRss = opts.rss ?? true;
  let file = cmd;
  let args = [...cmdArgs];
  let rssFile: string | null = null;
  const viaTime = wantRss && existsSync(TIME);
  if (viaTime) {
    file = TIME;
    args = ['-v', cmd, ...cmdArgs];
  } else if (wantRss && cmd === process.execPath) {
    rssFile = join(TMP_DIR, `rss-${process.pid}.txt`);
    rmSync(rssFile, { force: true });
    env['BENCH_RSS_FILE'] = rssFile;
    args = ['--import', rssHook(), ...cmdArgs];
  }
  const t0 = performance.now();
  const r = spawnSync(file, args, { cwd: opts.cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - t0;
  let stderr = r.stderr ?? '';
  let maxRssKb: number | null = null;
  let cpuMs: number | null = null;
  if (viaTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    maxRssKb = m ? Number(m[1]) : null;
    const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
    const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
    cpuMs = user && system ? (Number(user[1]) + Number(system[1])) * 1000 : null;
    // Strip time's report so callers see only the child's own stderr.
    const at = stderr.lastIndexOf('\tCommand being timed:');
    if (at >= 0) stderr = stderr.slice(0, at);
  } else if (rssFile && existsSync(rssFile)) {
    ({ maxRssKb, cpuMs } = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKb: number; cpuMs: number });
  }
  if (r.error) stderr += String(r.error);
  return { wallMs, maxRssKb, cpuMs, status: r.status, stdout: r.stdout ?? '', stderr };
}
