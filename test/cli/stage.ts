/**
 * Helpers for tests that act as a user of the package: a consumer app under
 * the repo's gitignored `.tmp/` with the package built (the build `npm run
 * build` runs) installed as `app/node_modules/toolroute/`, so `toolroute…` resolves
 * to dist's JavaScript and declarations, never to the repo's sources. Other
 * dependencies (ajv, zod, the SDKs, typescript) resolve from the repo's
 * node_modules, like a hoisted install.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtPackage, REPO } from '../setup/package-build.js';

export { REPO, TSC, TSC_RUN } from '../setup/package-build.js';

/** A fresh folder under `<repo>/.tmp/cli-tests/`; remove it with `removeDir`. */
export function tempDir(prefix: string): string {
  const base = path.join(REPO, '.tmp', 'cli-tests');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes a file, creating its folder. */
export function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * Installs the built package into `<app>/node_modules/toolroute/` (package.json, bin/, dist/): a copy of
 * the one build the test run shares (test/setup/package-build.ts).
 *
 * @example
 * const app = tempDir('docs-'); stagePackage(app);
 */
export function stagePackage(app: string): string {
  const pkg = path.join(app, 'node_modules', 'toolroute');
  cpSync(builtPackage(), pkg, { recursive: true });
  return pkg;
}

/** Plain node, without the test runner's NODE_OPTIONS or a forced CLI mode. */
export function node(args: readonly string[], cwd: string, timeoutMs = 120_000): { code: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TOOLROUTE_CLI'];
  const r: SpawnSyncReturns<string> = spawnSync(process.execPath, [...args], { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A strict NodeNext tsconfig for a consumer app (what the README tells users to use). */
export function consumerTsconfig(include: readonly string[]): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include,
    },
    null,
    2,
  )}\n`;
}
