/**
 * The compiled package, as a production application gets it: no tsx, no
 * loader, no TypeScript sources.
 *
 * `tsconfig.build.json` (what `npm run build` compiles, built once for the
 * package tests by test/setup/package-build.ts) is copied into a staged
 * install, `<tmp>/app/node_modules/toolroute/` (package.json, bin/, dist/ and
 * nothing else), inside the repo's gitignored `.tmp/` so the package's own
 * dependencies (ajv, yaml, tsx, zod …) resolve from the repo's node_modules like
 * a hoisted install. The repo's dist/ is left alone: other test files may be
 * running the CLI from it meanwhile. The consumer app has its own package.json,
 * so `toolroute` resolves through node_modules, not to the repo by self-reference.
 *
 * Then, all on plain `node`: the staged CLI generates a router folder from
 * examples/tools.spec.yaml (byte-identical to what the sources generate) and
 * from a TypeScript spec that imports `defineSpec` from the installed package;
 * the app is type-checked against dist's .d.ts (a missing handler must be a
 * compile error there too) and compiled to JS with tsc; and the app runs:
 * createRouter from `toolroute/runtime`, one valid and one invalid dispatch.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { builtPackage, REPO, TSC_RUN } from '../setup/package-build.js';

let base = '';
let app = '';
let pkg = '';

/** Plain node: no NODE_OPTIONS (no --import/--loader from the test runner), no forced CLI mode. */
function node(args: string[], cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TOOLROUTE_CLI'];
  const r = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Every file under a folder, relative, POSIX separators. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

const APP = `import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';

const handlers = {
  read_file: ({ path, encoding }: { path: string; encoding?: 'utf8' | 'base64' }) => ({ path: path.toUpperCase(), encoding: encoding ?? 'utf8' }),
  run_bash: () => null,
  get_time: () => null,
  write_file: () => null,
  delete_file: () => null,
  tail_logs: () => null,
  get_forecast: () => null,
  get_current_weather: () => null,
  run_query: () => null,
  describe_table: () => null,
};
const router = createRouter(generated, handlers);

// The generated Handlers type reaches the consumer through dist's declarations: a missing
// handler is a compile error (an unused directive would fail tsc). Type-checked, never called.
export function missingHandler(): unknown {
  const { describe_table: _omitted, ...missingOne } = handlers;
  // @ts-expect-error describe_table has no handler
  return createRouter(generated, missingOne);
}

const valid = await router.dispatch({ id: 'call_1', name: 'read_file', input: { path: 'notes.txt' } });
const invalid = await router.dispatch({ name: 'read_file', arguments: '{"encoding":"latin1"}' });
process.stdout.write(JSON.stringify({
  runtime: import.meta.resolve('toolroute/runtime'),
  execArgv: process.execArgv,
  manifestVersion: generated.manifest.version,
  valid,
  invalid,
}) + '\\n');
`;

beforeAll(() => {
  const root = path.join(REPO, '.tmp', 'package-tests');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'dist-'));
  app = path.join(base, 'app');
  pkg = path.join(app, 'node_modules', 'toolroute');

  // The build `npm run build` runs (shared with the other package tests), into the staged install.
  cpSync(builtPackage(), pkg, { recursive: true });

  write(path.join(app, 'package.json'), `${JSON.stringify({ name: 'consumer-app', private: true, type: 'module' })}\n`);
  copyFileSync(path.join(REPO, 'examples/tools.spec.yaml'), path.join(app, 'tools.spec.yaml'));
});
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('the built package on plain node', () => {
  test('the staged install holds JavaScript and declarations only, for every entry point', () => {
    const files = filesUnder(pkg);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    for (const entry of ['index', 'runtime/index', 'generator/index', 'cli/main']) {
      expect(files).toContain(`dist/${entry}.js`);
      expect(files).toContain(`dist/${entry}.d.ts`);
    }
    // Not tests, benchmarks, examples or generated output.
    expect(files.filter((f) => /^dist\/(test|bench|examples|generated)\//.test(f))).toEqual([]);
  });

  test('the CLI generates from the example spec, the same bytes as the sources generate', async () => {
    const r = node([path.join(pkg, 'bin/toolroute.js'), 'codegen', 'tools.spec.yaml', '--out', 'generated'], app);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^toolroute: wrote 8 of 8 files \(10 tools, 2 namespaces, 2 toolkits\) in \d+ ms\.\n$/);
    // Check mode of the in-repo (source) generator against what the built CLI wrote.
    const check = await generate('tools.spec.yaml', { out: 'generated', cwd: app, check: true });
    expect(check.problems).toEqual([]);
    expect(check.stale).toEqual([]);
    expect(check.ok).toBe(true);
  });

  test('the CLI loads a TypeScript spec (through tsx) that imports defineSpec from the installed package', () => {
    write(
      path.join(app, 'time.spec.ts'),
      `import { z } from 'zod';
import { defineSpec } from 'toolroute';

export default defineSpec({
  version: 1,
  tools: [{ name: 'get_time', description: 'Get timestamp', parameters: z.object({ timezone: z.string().optional() }) }],
});
`,
    );
    const r = node([path.join(pkg, 'bin/toolroute.js'), 'codegen', 'time.spec.ts', '--out', 'time-out'], app);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^toolroute: wrote 8 of 8 files \(1 tool, 0 namespaces, 0 toolkits\)/);
  });

  test('an app type-checks against dist .d.ts, compiles to JS, and routes calls on plain node', () => {
    write(path.join(app, 'app.ts'), APP);
    write(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          strict: true,
          verbatimModuleSyntax: true,
          skipLibCheck: false,
        },
        include: ['app.ts'],
      }),
    );
    const tsc = node([...TSC_RUN, '-p', 'tsconfig.json', '--listFiles'], app);
    expect(tsc.stderr).toBe('');
    expect(tsc.code, tsc.stdout).toBe(0);
    const listed = tsc.stdout.split('\n').filter(Boolean).map((f) => path.resolve(app, f));
    // The package's types come from its dist declarations, never from the repo's sources.
    expect(listed).toContain(path.join(pkg, 'dist/runtime/index.d.ts'));
    expect(listed.filter((f) => f.startsWith(REPO + path.sep) && !f.startsWith(base) && !f.includes(`${path.sep}node_modules${path.sep}`))).toEqual([]);

    const run = node(['app.js'], app);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      runtime: pathToFileURL(path.join(pkg, 'dist/runtime/index.js')).href,
      execArgv: [],
      manifestVersion: (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version,
      valid: { ok: true, tool: 'read_file', result: { path: 'NOTES.TXT', encoding: 'utf8' }, callId: 'call_1' },
      invalid: { ok: false, code: 'invalid_arguments', reason: expect.stringContaining('read_file') as unknown, callId: undefined },
    });
    // Both argument problems are named: the missing path and the encoding outside its enum.
    const reason = (out['invalid'] as { reason: string }).reason;
    expect(reason).toMatch(/path/);
    expect(reason).toMatch(/\/encoding/);
  });
});
