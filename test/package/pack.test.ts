/**
 * The published package, as `npm pack` makes it, installed into fresh apps
 * outside the repo (so nothing resolves from the repo's node_modules):
 *
 * - runtime-only: `npm install toolroute-<v>.tgz` brings the package and its
 *   real runtime dependencies (ajv, ajv-formats and theirs) and nothing of
 *   the generator (tsx, esbuild, zod,
 *   yaml); node_modules is measured; an app type-checks against the
 *   installed declarations (skipLibCheck off) and routes a call on plain
 *   node; the CLI names the missing generator packages instead of crashing.
 * - with the generator: the same tarball plus the generator's packages as dev
 *   dependencies; `toolroute codegen` works for a YAML and a TypeScript spec.
 *
 * npm installs with --prefer-offline: every package is in the local npm cache
 * after `npm ci` (the registry is asked only for what is not).
 *
 * The tarball is packed from a staged copy (the files `npm pack` lists for
 * the repo, dist/ from the build the package tests share), so the repo's own
 * dist/ is never rebuilt under other tests that run the CLI from it. It is
 * installed once; the app with the generator starts from a copy of that
 * install, as a user adds dev dependencies to an existing app.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { builtPackage, REPO, TSC } from '../setup/package-build.js';
const NPM_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TOOLROUTE_CLI'];
  return env;
})();
const GENERATOR_PACKAGES = ['tsx', 'esbuild', 'json-schema-to-typescript', 'prettier', 'zod', 'yaml'];
const PINNED = (name: string) => (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[name];

let base = '';
let tarball = '';

function run(cmd: string, args: readonly string[], cwd: string) {
  const r = spawnSync(cmd, [...args], { cwd, env: NPM_ENV, encoding: 'utf8', timeout: 300_000 });
  if (r.error !== undefined) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function npm(args: readonly string[], cwd: string) {
  const r = run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.code}):\n${r.stdout}${r.stderr}`);
  return r;
}

/** Apparent size (bytes) and file count of everything under a folder. */
function measure(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]) {
    if (!d.isFile()) continue;
    bytes += lstatSync(path.join(d.parentPath, d.name)).size;
    files++;
  }
  return { bytes, files };
}
/** Package folders directly under node_modules (scoped ones as @scope/name). */
function packagesIn(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(path.join(nodeModules, n)).map((m) => `${n}/${m}`) : [n]))
    .sort();
}
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

function app(name: string, pkg: object): string {
  const dir = path.join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module', ...pkg }, null, 2)}\n`);
  return dir;
}

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'toolroute-pack-'));
  const stage = path.join(base, 'stage');
  // What npm would pack from the repo (no scripts run), then the same files with a fresh build.
  const listing = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], REPO).stdout) as { files: { path: string }[] }[];
  const listed = listing[0]?.files.map((f) => f.path) ?? [];
  for (const file of listed.filter((f) => !f.startsWith('dist/'))) {
    mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
    copyFileSync(path.join(REPO, file), path.join(stage, file));
  }
  cpSync(path.join(builtPackage(), 'dist'), path.join(stage, 'dist'), { recursive: true });
  const out = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', base], stage).stdout) as { filename: string }[];
  tarball = path.join(base, out[0]?.filename ?? '');
  // One install of the tarball; the app with the generator starts from a copy of it.
  npm(['install', '--prefer-offline', tarball], app('runtime-app', {}));
}, 300_000);
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('npm pack output', () => {
  it('is publishable: not private, license, engines, exports and files in place', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg['private']).toBeUndefined();
    expect(pkg['license']).toBe('MIT');
    expect(pkg['engines']).toEqual({ node: '>=20.10' });
    expect(Object.keys(pkg['dependencies'] as object).sort()).toEqual(['ajv', 'ajv-formats', 'minisearch']);
    const peers = pkg['peerDependenciesMeta'] as Record<string, { optional: boolean }>;
    for (const name of ['tsx', 'esbuild', 'zod', 'yaml']) {
      expect(peers[name], name).toEqual({ optional: true });
      // The repo itself runs the generator: each is pinned as a dev dependency.
      expect(PINNED(name), name).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(tarball).toMatch(/toolroute-\d+\.\d+\.\d+\.tgz$/);
  });

  it('runtime-only install: no generator packages, small node_modules, an app compiles and routes on plain node', async () => {
    const dir = path.join(base, 'runtime-app');
    const nm = path.join(dir, 'node_modules');
    const installed = packagesIn(nm);
    for (const p of GENERATOR_PACKAGES) expect(installed, p).not.toContain(p);
    expect(installed).toEqual(['ajv', 'ajv-formats', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse', 'minisearch', 'require-from-string', 'toolroute']);
    const total = measure(nm);
    const own = measure(path.join(nm, 'toolroute'));
    const ajv = measure(path.join(nm, 'ajv'));
    const sizes = { total: mb(total.bytes), toolroute: mb(own.bytes), ajv: mb(ajv.bytes), files: total.files };
    writeFileSync(path.join(REPO, '.tmp', 'install-size-runtime.json'), `${JSON.stringify(sizes)}\n`);
    // The goal: under 5 MB beside ajv.
    expect(total.bytes - ajv.bytes, JSON.stringify(sizes)).toBeLessThan(5e6);

    // A generated folder (made by the repo's generator), and an app on `toolroute/runtime`.
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    copyFileSync(path.join(REPO, 'examples/tools.spec.yaml'), path.join(dir, 'tools.spec.yaml'));
    const g = await generate('tools.spec.yaml', { out: 'src/generated', cwd: dir });
    expect(g.problems).toEqual([]);
    writeFileSync(
      path.join(dir, 'src/app.ts'),
      `import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';
import type { Handlers } from './generated/index.js';

const handlers = {
  read_file: ({ path }) => \`read \${path}\`, run_bash: () => null, get_time: () => 'now', write_file: () => null, delete_file: () => null,
  tail_logs: () => null, get_forecast: () => null, get_current_weather: () => null, run_query: () => null, describe_table: () => null,
} satisfies Handlers;
const router = createRouter(generated, handlers);
const ok = await router.dispatch({ name: 'file_ops', arguments: { action: 'read_file', args: { path: 'a.txt' } } });
const bad = await router.dispatch({ name: 'read_file', arguments: '{}' });
// No @types/node in this app: the runtime's declarations need none.
export const result = [ok, bad.ok];
`,
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, rootDir: 'src', outDir: 'out', types: [] }, include: ['src'] }),
    );
    const tsc = run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    const node = run(process.execPath, ['--input-type=module', '-e', "const { result } = await import('./out/app.js'); process.stdout.write(JSON.stringify(result));"], dir);
    expect(node.stderr).toBe('');
    expect(JSON.parse(node.stdout)).toEqual([{ ok: true, tool: 'read_file', result: 'read a.txt', callId: undefined }, false]);

    // The CLI is there, and says what to install rather than crashing on a missing import.
    const cli = run(process.execPath, ['node_modules/toolroute/bin/toolroute.js', 'codegen', 'tools.spec.yaml', '--out', 'gen'], dir);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('the code generator needs yaml, zod, tsx, esbuild');
    expect(cli.stderr).toContain('npm install --save-dev tsx yaml zod esbuild');
  }, 300_000);

  it('with the generator packages as dev dependencies: codegen works for YAML and TypeScript specs', () => {
    const runtimeApp = path.join(base, 'runtime-app');
    const dependencies = (JSON.parse(readFileSync(path.join(runtimeApp, 'package.json'), 'utf8')) as { dependencies: object }).dependencies;
    expect(dependencies).toEqual({ toolroute: expect.stringMatching(/^file:.*toolroute-\d+\.\d+\.\d+\.tgz$/) });
    const dir = app('codegen-app', { dependencies });
    for (const f of ['package-lock.json', 'node_modules']) cpSync(path.join(runtimeApp, f), path.join(dir, f), { recursive: true, verbatimSymlinks: true });
    const dev = ['tsx', 'yaml', 'zod', 'esbuild'].map((n) => `${n}@${PINNED(n)}`);
    npm(['install', '--prefer-offline', '--save-dev', ...dev], dir);
    const nm = path.join(dir, 'node_modules');
    writeFileSync(path.join(REPO, '.tmp', 'install-size-codegen.json'), `${JSON.stringify({ total: mb(measure(nm).bytes), packages: packagesIn(nm).length })}\n`);

    copyFileSync(path.join(REPO, 'examples/tools.spec.yaml'), path.join(dir, 'tools.spec.yaml'));
    const yaml = run('npx', ['--no-install', 'toolroute', 'codegen', 'tools.spec.yaml', '--out', 'gen'], dir);
    expect(yaml.stderr).toBe('');
    expect(yaml.stdout).toMatch(/^toolroute: wrote 9 of 9 files \(10 tools, 2 namespaces, 2 toolkits\)/);

    // What the installed command runs is the compiled CLI (dist/), not the sources through tsx:
    // a resolve hook names every cli/main module the process loads. (The bench's codegen
    // timings measure dist/cli/main.js for this reason.)
    const hook = `data:text/javascript,${encodeURIComponent("import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); if (/\\/cli\\/main\\.[jt]s$/.test(r.url)) writeSync(2, 'cli: ' + r.url + '\\n'); return r; }")}`;
    const register = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(hook)});`)}`;
    const traced = run(process.execPath, ['--import', register, 'node_modules/toolroute/bin/toolroute.js', 'codegen', 'tools.spec.yaml', '--out', 'gen'], dir);
    expect(traced.code).toBe(0);
    expect(traced.stderr).toMatch(/^cli: file:\/\/\S+\/node_modules\/toolroute\/dist\/cli\/main\.js\n$/);

    writeFileSync(
      path.join(dir, 'time.spec.ts'),
      `import { z } from 'zod';
import { defineSpec } from 'toolroute';
export default defineSpec({ version: 1, tools: [{ name: 'get_time', description: 'Get the time', parameters: z.object({ tz: z.string().optional() }) }] });
`,
    );
    const ts = run('npx', ['--no-install', 'toolroute', 'codegen', 'time.spec.ts', '--out', 'time'], dir);
    expect(ts.stderr).toBe('');
    expect(ts.stdout).toMatch(/^toolroute: wrote 9 of 9 files \(1 tool, 0 namespaces, 0 toolkits\)/);
    expect(readFileSync(path.join(dir, 'time/types.gen.ts'), 'utf8')).toContain('tz?: string');
  }, 600_000);
});
