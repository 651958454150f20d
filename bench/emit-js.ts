/**
 * Compiled JavaScript for the measured code: the runtime and the generated
 * folders, emitted by the project's own `tsc` into bench/.tmp/js (mirroring
 * the repository layout), plus the generated folders' other files (ajv
 * standalone `.js` validators, data) copied beside them.
 *
 * The benchmarks measure this output rather than the `.ts` sources through
 * tsx, because it is what an application ships, and because tsx's transform
 * adds `__name(...)` wrappers around every function expression (esbuild
 * `keepNames`), which costs time on per-call closures and would penalize
 * toolroute against the reference library's plain JS.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BenchCorrectnessError } from './lib.js';
import { runCommand } from './processes.js';

/** Repository root and scratch dir. */
export interface RepoPaths {
  readonly root: string;
  readonly tmp: string;
}

/**
 * Emit the runtime and `genDirs` as JS; returns the output root (`<out>/runtime/index.js` etc.).
 *
 * @example
 * const js = emitJs(paths, ['/…/bench/.tmp/gen/mixed-1000']);
 */
export function emitJs(paths: RepoPaths, genDirs: readonly string[]): string {
  const dir = join(paths.tmp, 'js');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tsconfig = join(paths.tmp, 'tsconfig.emit.json');
  writeFileSync(
    tsconfig,
    `${JSON.stringify(
      {
        extends: relative(paths.tmp, join(paths.root, 'tsconfig.json')),
        compilerOptions: {
          noEmit: false,
          allowImportingTsExtensions: false,
          outDir: relative(paths.tmp, dir),
          rootDir: relative(paths.tmp, paths.root),
          sourceMap: false,
          declaration: false,
          incremental: false,
        },
        include: [relative(paths.tmp, join(paths.root, 'runtime')), ...genDirs.map((g) => relative(paths.tmp, g))],
        exclude: [],
      },
      null,
      2,
    )}\n`,
  );
  const r = runCommand(join(paths.root, 'node_modules', '.bin', 'tsc'), ['-p', tsconfig], { cwd: paths.root, rss: false });
  if (r.status !== 0) throw new BenchCorrectnessError(`emitting JS with tsc failed:\n${(r.stdout + r.stderr).slice(0, 3000)}`);
  for (const genDir of genDirs) {
    const target = jsPath(paths, dir, genDir);
    // What tsc does not emit from .ts sources (ajv's standalone .js, data files) is copied as is.
    for (const f of readdirSync(genDir, { withFileTypes: true })) if (f.isFile() && !f.name.endsWith('.ts')) copyFileSync(join(genDir, f.name), join(target, f.name));
  }
  return dir;
}

/** Where a source path lands in the emitted tree. */
export function jsPath(paths: RepoPaths, jsDir: string, sourcePath: string): string {
  return join(jsDir, relative(paths.root, sourcePath));
}
