/**
 * toolroute as a new user installs it: the package as `npm pack` makes it
 * (the tarball the test run shares, test/setup/package-build.ts), installed into a fresh app outside
 * the repo with one plain `npm install` beside the SDK packages the app uses,
 * at the versions installed in the repo. The app's code is generated from the
 * example spec, type-checked with the repo's `tsc` against the installed
 * declarations and run on this process's Node.
 *
 * npm installs with --prefer-offline: every package is in the local npm cache
 * after the repo's own install.
 */
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate, type GenerateResult } from '../../generator/index.js';
import { packedPackage, REPO, TSC_RUN } from '../setup/package-build.js';

/** The environment of the app's processes: without the test runner's NODE_OPTIONS or a forced CLI mode. */
const APP_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TOOLROUTE_CLI'];
  return env;
})();

interface Output {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(cmd: string, args: readonly string[], cwd: string): Output {
  const r = spawnSync(cmd, [...args], { cwd, env: APP_ENV, encoding: 'utf8', timeout: 300_000 });
  if (r.error !== undefined) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function npm(args: readonly string[], cwd: string): Output {
  const r = run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.code}):\n${r.stdout}${r.stderr}`);
  return r;
}

/**
 * `name@version` of a package installed in the repo, read from its folder
 * (some packages, `@openai/agents` among them, do not export package.json).
 *
 * @example
 * installed('ai') // 'ai@6.0.1'
 */
export function installed(name: string): string {
  const { version } = JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return `${name}@${version}`;
}

/**
 * A new folder under the system's temp folder (outside the repo, so nothing resolves from the repo's node_modules)
 * for an app, and the packed toolroute tarball the test run shares. Remove `base` when done.
 *
 * @example
 * const { base, tarball } = packToolroute('toolroute-ai-sdk-app-');
 */
export function packToolroute(prefix: string): { base: string; tarball: string } {
  return { base: mkdtempSync(path.join(os.tmpdir(), prefix)), tarball: packedPackage() };
}

/**
 * The start of an app's `src/app.ts` after its imports (it imports `Handlers`
 * from './generated/index.js'): `handlers` for the example spec's tools
 * (`get_forecast` answers `{ city, days, forecast: 'sunny' }`), and what the
 * app uses of `process`, since it has no `@types/node`.
 */
export const APP_PRELUDE = `declare const process: { env: Record<string, string | undefined>; stdout: { write(text: string): void } };

const handlers = {
  read_file: ({ path }) => \`read \${path}\`, run_bash: () => null, get_time: () => 'now', write_file: () => null, delete_file: () => null,
  tail_logs: () => null, get_forecast: ({ city, days }) => ({ city, days: days ?? 1, forecast: 'sunny' }), get_current_weather: () => null,
  run_query: () => null, describe_table: () => null,
} satisfies Handlers;
`;

export interface FreshApp {
  readonly dir: string;
  /** The app's package.json `dependencies` after the install. */
  readonly dependencies: Record<string, string>;
  /** What `generate` reported for the example spec (`src/generated`). */
  readonly problems: GenerateResult['problems'];
  /** The repo's `tsc` on the app (it emits `out/app.js`). */
  readonly tsc: Output;
  /** Runs `out/app.js` with these variables added; rejects when it exits with an error. */
  run(env: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
}

/**
 * Makes `<base>/app`: installs the tarball and `packages` with one plain
 * `npm install`, generates `src/generated` from examples/tools.spec.yaml,
 * writes `source` as `src/app.ts` and type-checks it (strict, NodeNext, no
 * `@types/node`: the app declares what it uses of `process`).
 *
 * @example
 * const app = await freshApp(base, tarball, [installed('ai')], APP);
 * const { stdout } = await app.run({ MODEL_URL: server.url });
 */
export async function freshApp(base: string, tarball: string, packages: readonly string[], source: string): Promise<FreshApp> {
  const dir = path.join(base, 'app');
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: {} }, null, 2)}\n`);
  // One plain install (no --legacy-peer-deps, no --force): the peer ranges must agree.
  npm(['install', '--prefer-offline', tarball, ...packages], dir);
  const { dependencies } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

  copyFileSync(path.join(REPO, 'examples/tools.spec.yaml'), path.join(dir, 'tools.spec.yaml'));
  const { problems } = await generate('tools.spec.yaml', { out: 'src/generated', cwd: dir });
  writeFileSync(path.join(dir, 'src/app.ts'), source);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, rootDir: 'src', outDir: 'out', types: [] }, include: ['src'] }),
  );
  const tsc = run(process.execPath, [...TSC_RUN, '-p', 'tsconfig.json'], dir);

  // Asynchronous: a fake model server in the test's process answers while the app runs.
  const runApp = (env: Record<string, string>) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, ['out/app.js'], { cwd: dir, env: { ...APP_ENV, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve({ stdout, stderr });
      });
    });
  return { dir, dependencies, problems, tsc, run: runApp };
}
