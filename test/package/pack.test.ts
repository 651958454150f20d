/**
 * The published package, as `npm pack` makes it, installed into fresh apps
 * outside the repo (so nothing resolves from the repo's node_modules), the way
 * the README says:
 *
 * - the README's start, followed literally in an empty folder: its install
 *   lines (the tarball for `toolroute`, the repo's pinned versions for the dev
 *   packages), `npx toolroute init`, `npm run codegen`, `npx tsc --noEmit`, and
 *   the built starter run on plain node;
 * - the README's production command on that app's package.json and lock file:
 *   the runtime alone (ajv, ajv-formats, minisearch, stemmer and theirs), nothing of the
 *   generator; both installs are measured, and the README's size table is the
 *   measurement (the test rewrites it when it differs, and fails so the change
 *   is committed); an app type-checks against the installed declarations
 *   (skipLibCheck off) and routes a call; the CLI names the missing generator
 *   packages instead of crashing;
 * - in the README's app: `toolroute codegen` for a YAML and a TypeScript spec,
 *   run from the compiled CLI.
 *
 * npm installs with --prefer-offline: every package is in the local npm cache
 * after `npm ci` (the registry is asked only for what is not).
 *
 * The tarball is the one the test run shares (test/setup/package-build.ts),
 * packed from a staged copy (the files `npm pack` lists for the repo, dist/
 * from the shared build), so the repo's own dist/ is never rebuilt under
 * other tests that run the CLI from it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { packedPackage, REPO, TSC_RUN } from '../setup/package-build.js';
const NPM_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TOOLROUTE_CLI'];
  return env;
})();
const GENERATOR_PACKAGES = ['tsx', 'esbuild', 'zod', 'yaml', 'typescript'];
const PINNED = (name: string) => (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[name];
const README = path.join(REPO, 'README.md');
/** The README's app (its start sequence) and the production install of it. */
const START_APP = 'start-app';
const PRODUCTION_APP = 'runtime-app';

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

/** The shell lines of the README's `sh` block that follows `intro`, comments cut. */
function readmeCommands(intro: string): string[] {
  const text = readFileSync(README, 'utf8');
  const at = text.indexOf(`${intro}\n\n\`\`\`sh\n`);
  expect(at, intro).toBeGreaterThan(0);
  const from = text.indexOf('```sh\n', at) + 6;
  const body = text.slice(from, text.indexOf('\n```', from));
  return body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l !== '');
}

/**
 * A README line as this test runs it: `toolroute` installs the tarball, dev packages get the repo's pinned versions
 * (so the npm cache serves them), `npx` never installs; the rest runs as written in a shell.
 */
function runReadmeLine(line: string, cwd: string) {
  const words = line.split(/\s+/);
  if (line === 'npm install toolroute') return npm(['install', '--prefer-offline', tarball], cwd);
  if (line.startsWith('npm install --save-dev ')) return npm(['install', '--prefer-offline', '--save-dev', ...words.slice(3).map((n) => `${n}@${PINNED(n)}`)], cwd);
  if (line.startsWith('npm ci')) return npm([...words.slice(1), '--prefer-offline'], cwd);
  const r = run('sh', ['-c', line.replace(/(^|&& )npx /g, '$1npx --no-install ')], cwd);
  if (r.code !== 0) throw new Error(`${line} failed (${r.code}):\n${r.stdout}${r.stderr}`);
  return r;
}

/** The README's size table for the two measured installs. */
function sizeTable(runtime: { packages: number; bytes: number }, full: { packages: number; bytes: number }): string {
  const mb1 = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  return [
    '| install | packages | on disk |',
    '| --- | ---: | ---: |',
    `| \`npm ci --omit=dev\`: the runtime | ${runtime.packages} | ${mb1(runtime.bytes)} |`,
    `| the sequence above: with the generator and TypeScript | ${full.packages} | ${mb1(full.bytes)} |`,
  ].join('\n');
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

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'toolroute-pack-'));
  tarball = packedPackage();
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
    expect(Object.keys(pkg['dependencies'] as object).sort()).toEqual(['ajv', 'ajv-formats', 'minisearch', 'stemmer']);
    // The generator's packages are no peers: an optional peer that the app has as a dev dependency is `devOptional`
    // in the app's lock file, and `npm ci --omit=dev` installs it (npm omits only what is dev and nothing else).
    const peers = Object.keys(pkg['peerDependencies'] as object);
    for (const name of ['tsx', 'esbuild', 'zod', 'yaml', 'gpt-tokenizer']) {
      expect(peers, name).not.toContain(name);
      // The repo itself runs the generator: each is pinned as a dev dependency.
      expect(PINNED(name), name).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(tarball).toMatch(/toolroute-\d+\.\d+\.\d+\.tgz$/);
  });

  it("the README's start, followed literally in an empty folder, gives a type-checked starter that runs", () => {
    const dir = path.join(base, START_APP);
    mkdirSync(dir);
    const lines = readmeCommands('Start a project in an empty folder:');
    expect(lines[0]).toBe('npm install toolroute');
    expect(lines.some((l) => /^npm install --save-dev .*\btypescript\b/.test(l)), 'TypeScript is installed before tsc runs').toBe(true);
    expect(lines.slice(2)).toEqual(['npx toolroute init', 'npm run codegen', 'npx tsc --noEmit', 'npx tsc && node dist/main.js']);
    const out = lines.map((line) => runReadmeLine(line, dir));
    // init ran after the installs: package.json existed, and it became an ES module package with the script.
    expect(out[2]!.stdout).toContain('wrote tools.spec.yaml, src/handlers.ts, src/main.ts, package.json, tsconfig.json');
    expect(out[2]!.stdout).not.toContain('README');
    // The starter's reference, and every page the installed README links to, are in the installed package.
    const reference = /node_modules\/toolroute\/[\w/.-]+\.md/.exec(readFileSync(path.join(dir, 'tools.spec.yaml'), 'utf8'))?.[0];
    expect(reference).toBe('node_modules/toolroute/docs/spec.md');
    const installedReadme = readFileSync(path.join(dir, 'node_modules/toolroute/README.md'), 'utf8');
    const pages = [...new Set([...installedReadme.matchAll(/\]\((docs\/[\w.-]+\.md)/g)].map((m) => m[1]!))];
    expect(pages.length).toBeGreaterThan(5);
    for (const page of [reference!, ...pages.map((p) => `node_modules/toolroute/${p}`)]) expect(existsSync(path.join(dir, page)), page).toBe(true);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    expect(pkg['type']).toBe('module');
    expect(Object.keys(pkg['devDependencies']!).sort()).toEqual(['@types/node', 'esbuild', 'tsx', 'typescript', 'yaml', 'zod']);
    expect(out[3]!.stdout).toMatch(/toolroute: wrote 8 of 8 files \(2 tools, 0 namespaces, 0 toolkits\)/);
    expect(out[4]!.stdout + out[4]!.stderr).toBe('');
    // The starter: two calls run, the third is rejected with a reason for the model.
    const printed = out[5]!.stdout.split('\n');
    expect(printed[0]).toMatch(/^get_time \S/);
    expect(printed[1]).toBe('read_note Edit tools.spec.yaml, run npm run codegen, then add the new handler here.');
    expect(printed[2]).toMatch(/^read_note rejected \(invalid_arguments\): Invalid arguments for "read_note":\n?/);
    expect(out[5]!.stdout).toContain('/title: missing (required, expected string)');
  }, 600_000);

  it("the README's production command installs the runtime alone; the README's size table is what was measured", () => {
    const start = path.join(base, START_APP);
    const dir = path.join(base, PRODUCTION_APP);
    mkdirSync(dir);
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(start, f), path.join(dir, f));
    const [command, ...more] = readmeCommands('generator out:');
    expect(more).toEqual([]);
    expect(command).toBe('npm ci --omit=dev');
    runReadmeLine(command!, dir);
    const nm = path.join(dir, 'node_modules');
    const installed = packagesIn(nm);
    for (const p of GENERATOR_PACKAGES) expect(installed, p).not.toContain(p);
    expect(installed).toEqual(['ajv', 'ajv-formats', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse', 'minisearch', 'require-from-string', 'stemmer', 'toolroute']);
    const total = measure(nm);
    const own = measure(path.join(nm, 'toolroute'));
    const ajv = measure(path.join(nm, 'ajv'));
    const sizes = { total: mb(total.bytes), toolroute: mb(own.bytes), ajv: mb(ajv.bytes), files: total.files };
    // The goal: under 5 MB beside ajv.
    expect(total.bytes - ajv.bytes, JSON.stringify(sizes)).toBeLessThan(5e6);

    const full = path.join(start, 'node_modules');
    const table = sizeTable({ packages: installed.length, bytes: total.bytes }, { packages: packagesIn(full).length, bytes: measure(full).bytes });
    const readme = readFileSync(README, 'utf8');
    const block = /(<!-- install-sizes:[^\n]*-->\n)([\s\S]*?)\n(<!-- \/install-sizes -->)/;
    expect(readme).toMatch(block);
    const current = block.exec(readme)![2]!;
    // Stale: another package count, or a size more than 5 % off. Every change of the package's own files moves its size
    // by a few kB, which the table's 0.1 MB would otherwise turn into a failure of unrelated changes.
    const rows = (text: string) => [...text.matchAll(/\|\s*(\d+)\s*\|\s*([\d.]+) MB\s*\|/g)].map((m) => ({ packages: Number(m[1]), mb: Number(m[2]) }));
    const [was, now] = [rows(current), rows(table)];
    const stale = was.length !== now.length || was.some((row, i) => row.packages !== now[i]!.packages || Math.abs(row.mb - now[i]!.mb) > 0.05 * now[i]!.mb);
    if (stale) writeFileSync(README, readme.replace(block, (_, open: string, _old: string, close: string) => `${open}${table}\n${close}`));
    expect(stale ? current : table, 'README.md install sizes were stale and are rewritten now: commit README.md').toBe(table);
  }, 600_000);

  it('the production install: an app compiles against the declarations and routes on plain node; the CLI names what is missing', async () => {
    const dir = path.join(base, PRODUCTION_APP);
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
    const tsc = run(process.execPath, [...TSC_RUN, '-p', 'tsconfig.json'], dir);
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
    // `--version` and `--help` answer without the generator: what is installed, and what to add.
    const version = run(process.execPath, ['node_modules/toolroute/bin/toolroute.js', '--version'], dir);
    expect([version.code, version.stdout, version.stderr]).toEqual([0, `${(JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version}\n`, '']);
    const help = run(process.execPath, ['node_modules/toolroute/bin/toolroute.js', '--help'], dir);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('npm install --save-dev tsx yaml zod esbuild');
  }, 300_000);

  it("in the README's app: codegen works for YAML and TypeScript specs, run by the compiled CLI", () => {
    const dir = path.join(base, START_APP);
    copyFileSync(path.join(REPO, 'examples/tools.spec.yaml'), path.join(dir, 'tools.spec.yaml'));
    const yaml = run('npx', ['--no-install', 'toolroute', 'codegen', 'tools.spec.yaml', '--out', 'gen'], dir);
    expect(yaml.stderr).toBe('');
    expect(yaml.stdout).toMatch(/^toolroute: wrote 8 of 8 files \(10 tools, 2 namespaces, 2 toolkits\)/);

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
    expect(ts.stdout).toMatch(/^toolroute: wrote 8 of 8 files \(1 tool, 0 namespaces, 0 toolkits\)/);
    expect(readFileSync(path.join(dir, 'time/types.gen.ts'), 'utf8')).toContain('tz?: string');
  }, 600_000);
});
