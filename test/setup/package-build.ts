/**
 * The package as `npm run build` makes it (package.json, bin/, dist/), and its
 * tarball as `npm pack` makes it, each built once and shared by every test that
 * installs it (the package tests, the fresh apps, `init`, the README's blocks). The build lives under `<repo>/.tmp/package-build/<key>/`,
 * where the key hashes everything the build reads (sources, tsconfigs,
 * package.json, bin/, the compiler's version): a second test file, or a second
 * run with unchanged sources, reuses it; any edit makes a new one. Test files
 * run in parallel processes, so the first to ask builds under a lock and the
 * others wait for it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
/**
 * How the tests run the repo's `tsc`: with one checker. TypeScript 7 checks with several by default, each building its
 * own type cache; while the suite keeps both cores busy they only repeat each other's work (about a quarter more CPU).
 */
export const TSC_RUN: readonly string[] = [TSC, '--singleThreaded'];

const ROOT = path.join(REPO, '.tmp', 'package-build');
/**
 * What the build reads: tsconfig.build.json's `include` (read from the file, so a folder added there is never left
 * out of the key), the configs, and what ships beside dist/.
 */
function inputs(): string[] {
  // The file's comments are whole `//` lines; the rest is JSON.
  const text = readFileSync(path.join(REPO, 'tsconfig.build.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const include = (JSON.parse(text) as { include?: unknown }).include;
  if (!Array.isArray(include) || !include.every((i) => typeof i === 'string')) throw new Error('tsconfig.build.json: expected an `include` list of paths');
  return [...include, 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'node_modules/typescript/package.json'];
}
/** A build that takes longer than this left its lock behind (a killed run); the next caller takes over. */
const STALE_LOCK_MS = 10 * 60_000;

/** Every file under the inputs, in a stable order, hashed with its path. */
function buildKey(): string {
  const hash = createHash('sha256');
  const visit = (rel: string): void => {
    const abs = path.join(REPO, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isFile()) {
      hash.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
      return;
    }
    const entries = (readdirSync(abs, { withFileTypes: true }) as Dirent[]).map((d) => d.name).filter((n) => n !== '.tmp' && n !== 'node_modules').sort();
    for (const name of entries) visit(`${rel}/${name}`);
  };
  for (const input of inputs()) visit(input);
  return hash.digest('hex').slice(0, 16);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Compiles tsconfig.build.json into `<dir>/dist` and copies package.json and bin/ beside it. */
function build(dir: string): void {
  const result = spawnSync(process.execPath, [...TSC_RUN, '-p', path.join(REPO, 'tsconfig.build.json'), '--outDir', path.join(dir, 'dist')], { cwd: REPO, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed:\n${result.stdout}${result.stderr}`);
  copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
  cpSync(path.join(REPO, 'bin'), path.join(dir, 'bin'), { recursive: true });
}

/**
 * `make(work)` writes a folder once: the first caller makes it under a lock and moves it to `done`, the others wait
 * for it. Returns `done`.
 */
function once(done: string, make: (work: string) => void): string {
  const lock = `${done}.lock`;
  mkdirSync(ROOT, { recursive: true });
  for (;;) {
    if (existsSync(done)) return done;
    try {
      mkdirSync(lock);
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      sleep(100);
      continue;
    }
    try {
      if (existsSync(done)) return done;
      const work = path.join(lock, 'work');
      make(work);
      renameSync(work, done);
      return done;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The folder holding the built package (package.json, bin/, dist/); read it, never write into it.
 *
 * @example
 * cpSync(builtPackage(), path.join(app, 'node_modules/toolroute'), { recursive: true });
 */
export function builtPackage(): string {
  const key = buildKey();
  const done = once(path.join(ROOT, key), build);
  // Builds (and tarballs) of older sources are of no further use.
  for (const name of readdirSync(ROOT)) if (!name.startsWith(key)) rmSync(path.join(ROOT, name), { recursive: true, force: true });
  return done;
}

/**
 * The tarball `npm pack` makes of the package: the files it lists from the repository (no scripts run), with dist/
 * from {@link builtPackage}. Packed once per build and shared; install from it, never write to it.
 *
 * @example
 * spawnSync('npm', ['install', '--prefer-offline', packedPackage()], { cwd: app });
 */
export function packedPackage(): string {
  const built = builtPackage();
  const dir = once(`${built}-packed`, (work) => {
    const stage = path.join(work, 'stage');
    const listing = JSON.parse(npmPack(['--dry-run'], REPO)) as { files: { path: string }[] }[];
    for (const file of (listing[0]?.files ?? []).map((f) => f.path).filter((f) => !f.startsWith('dist/'))) {
      mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      copyFileSync(path.join(REPO, file), path.join(stage, file));
    }
    cpSync(path.join(built, 'dist'), path.join(stage, 'dist'), { recursive: true });
    npmPack(['--pack-destination', work], stage);
    rmSync(stage, { recursive: true, force: true });
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${dir}`);
  return path.join(dir, tarball);
}

/** `npm pack --json` with `args` in `cwd` (no scripts run); its JSON output. */
function npmPack(args: readonly string[], cwd: string): string {
  const r = spawnSync('npm', ['pack', '--json', '--ignore-scripts', ...args, '--loglevel=error'], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack ${args.join(' ')} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}
