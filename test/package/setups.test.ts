/**
 * A generated folder in ordinary application setups,
 * each a small app against the built package (a staged install of dist/, as
 * test/package/dist.test.ts makes it), type-checked under the strictest
 * common flags (strict, noPropertyAccessFromIndexSignature,
 * exactOptionalPropertyTypes, noUncheckedIndexedAccess, verbatimModuleSyntax,
 * isolatedModules, isolatedDeclarations) and run on plain node:
 *
 * - an ESM package compiled with `tsc --outDir dist` and run from dist/
 *   (validators.gen.ts is emitted like every other file; no allowJs);
 * - a package without `"type"`: codegen adds `package.json` `{"type":"module"}`
 *   to the folder, so tsc and node treat it as ES modules (without it tsc fails
 *   with TS1287/TS1295), and a CommonJS app imports it; compiled in place and
 *   with `--outDir` (plus the documented copy of that package.json);
 * - bundled by esbuild into one file that runs from a folder with no
 *   node_modules at all.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isEsmScope, PACKAGE_JSON_CONTENT } from '../../generator/emit/package-json.js';
import { builtPackage, REPO, TSC_RUN } from '../setup/package-build.js';

let base = '';
let pkg = '';

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

const SPEC = `version: 1
tools:
  - name: schedule
    description: Schedule an event
    parameters:
      type: object
      properties:
        at: { type: string, format: date-time }
        title: { type: string, minLength: 2 }
        labels: { type: object, additionalProperties: { type: string } }
      required: [at, title]
  - name: get_time
    description: Get the time
namespaces:
  - name: calendar
    description: Calendar operations
    tools: [schedule]
toolkits:
  - name: Extra
    description: Extra tools
    tools:
      - name: ping
        description: Ping
        parameters: { type: object, properties: { n: { type: integer } } }
`;

/** The strictest common flags; each setup adds its module and emit settings. */
const STRICT = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  noPropertyAccessFromIndexSignature: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  // Libraries and monorepos that publish declarations: every export of the generated folder carries its type.
  declaration: true,
  isolatedDeclarations: true,
  skipLibCheck: false,
};

const HANDLERS = `{
  schedule: ({ at, title, labels }) => \`\${title} at \${at}\${labels === undefined ? '' : \` [\${Object.keys(labels).join(',')}]\`}\`,
  get_time: () => 'noon',
  ping: ({ n }) => \`pong \${n ?? 0}\`,
} satisfies Handlers`;

const CALLS = `[
    await router.dispatch({ name: 'schedule', arguments: '{"at":"2024-01-01T00:00:00Z","title":"ok","labels":{"a":"b"}}' }),
    // Both failures come from ajv runtime helpers in the validators (formats, imported; ucs2length, copied in).
    await router.dispatch({ name: 'calendar', arguments: { action: 'schedule', args: { at: 'yesterday', title: '😀' } } }),
    await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'Extra' } }),
    await router.dispatch({ name: 'ping', arguments: { n: 3 } }),
  ]`;

const REPORT = `process.stdout.write(\`\${JSON.stringify(results.map((r) => (r.ok ? r.result : { code: r.code, reason: r.reason })))}\\n\`);`;

/** An ESM app: static imports and top-level await. */
const ESM_APP = `import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';
import type { Handlers } from './generated/index.js';

const handlers = ${HANDLERS};
const router = createRouter(generated, handlers);
const results = ${CALLS};
${REPORT}
`;

/** A CommonJS app (a package without "type"): type-only imports and import(), as verbatimModuleSyntax requires there. */
const CJS_APP = `import type { Handlers } from './generated/index.js';

async function main(): Promise<void> {
  const { createRouter } = await import('toolroute/runtime');
  const generated = await import('./generated/index.js');
  const handlers = ${HANDLERS};
  const router = createRouter(generated, handlers);
  const results = ${CALLS};
  ${REPORT}
}
void main();
`;

/** What every app prints: one valid flat call, one namespace call with two argument errors, a load, a toolkit call. */
function expectRun(r: { code: number | null; stdout: string; stderr: string }): void {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as unknown[];
  expect(out[0]).toBe('ok at 2024-01-01T00:00:00Z [a]');
  expect(out[1]).toMatchObject({ code: 'invalid_arguments' });
  const reason = (out[1] as { reason: string }).reason;
  expect(reason).toMatch(/\/at/);
  expect(reason).toMatch(/\/title/);
  expect(out[2]).toEqual(expect.stringContaining('Extra'));
  expect(out[3]).toBe('pong 3');
}

function app(name: string, packageJson: Record<string, unknown>): string {
  const dir = path.join(base, name);
  write(path.join(dir, 'package.json'), `${JSON.stringify({ name, private: true, ...packageJson })}\n`);
  write(path.join(dir, 'tools.spec.yaml'), SPEC);
  const r = node([path.join(pkg, 'bin/toolroute.js'), 'codegen', 'tools.spec.yaml', '--out', 'generated'], dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return dir;
}

function tsc(dir: string, compilerOptions: Record<string, unknown>, include: string[]) {
  write(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...STRICT, ...compilerOptions }, include }));
  const r = node([...TSC_RUN, '-p', 'tsconfig.json', '--pretty', 'false'], dir);
  return { code: r.code, output: r.stdout + r.stderr };
}

beforeAll(() => {
  const root = path.join(REPO, '.tmp', 'package-tests');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'setups-'));
  pkg = path.join(base, 'node_modules', 'toolroute');
  cpSync(builtPackage(), pkg, { recursive: true });
});

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('a generated folder in ordinary setups', () => {
  test('ESM package, strictest flags, tsc --outDir: the emitted JavaScript runs on plain node', () => {
    const dir = app('esm-outdir', { type: 'module' });
    // Inside an ESM package the folder needs nothing extra.
    expect(existsSync(path.join(dir, 'generated/package.json'))).toBe(false);
    write(path.join(dir, 'app.ts'), ESM_APP);
    const r = tsc(dir, { outDir: 'dist', rootDir: '.' }, ['app.ts']);
    expect(r.output).toBe('');
    expect(r.code).toBe(0);
    // tsc emits the validators (a .ts file) with the rest: no allowJs needed.
    for (const f of ['app.js', 'generated/index.js', 'generated/spec.gen.js', 'generated/validators.gen.js']) expect(existsSync(path.join(dir, 'dist', f)), f).toBe(true);
    expectRun(node(['dist/app.js'], dir));
  });

  test('package without "type": the folder gets package.json {"type":"module"}, a CommonJS app type-checks and runs', () => {
    const dir = app('no-type', {});
    expect(readFileSync(path.join(dir, 'generated/package.json'), 'utf8')).toBe(PACKAGE_JSON_CONTENT);
    expect(JSON.parse(PACKAGE_JSON_CONTENT)).toMatchObject({ type: 'module' });
    const manifest = JSON.parse(readFileSync(path.join(dir, 'generated/manifest.json'), 'utf8')) as { files: Record<string, string> };
    expect(Object.keys(manifest.files)).toContain('package.json');
    write(path.join(dir, 'app.ts'), CJS_APP);

    // In place (JavaScript next to the sources).
    const inPlace = tsc(dir, {}, ['app.ts']);
    expect(inPlace.output).toBe('');
    expect(inPlace.code).toBe(0);
    expectRun(node(['app.js'], dir));

    // With --outDir, plus the one documented step: copy the folder's package.json next to its JavaScript.
    const outDir = tsc(dir, { outDir: 'dist', rootDir: '.' }, ['app.ts']);
    expect(outDir.output).toBe('');
    copyFileSync(path.join(dir, 'generated/package.json'), path.join(dir, 'dist/generated/package.json'));
    expectRun(node(['dist/app.js'], dir));

    // Without that package.json the same folder is CommonJS to tsc, and it fails: the package.json is what makes the generated folder ESM outside an ESM package.
    rmSync(path.join(dir, 'generated/package.json'));
    const without = tsc(dir, { noEmit: true }, ['app.ts']);
    expect(without.code).not.toBe(0);
    expect(without.output).toMatch(/error TS(1287|1295|1286)/);
  });

  test('bundled by esbuild: one file that runs where no node_modules can be found', async () => {
    const dir = app('esbuild', { type: 'module' });
    write(path.join(dir, 'app.ts'), ESM_APP);
    const checked = tsc(dir, { noEmit: true }, ['app.ts']);
    expect(checked.output).toBe('');
    const outside = mkdtempSync(path.join(os.tmpdir(), 'toolroute-bundle-'));
    try {
      const result = await build({
        entryPoints: [path.join(dir, 'app.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: path.join(outside, 'app.mjs'),
        absWorkingDir: dir,
        logLevel: 'silent',
      });
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expectRun(node(['app.mjs'], outside));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('isEsmScope', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'toolroute-scope-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('follows the nearest package.json, skipping the one toolroute wrote into the folder itself', () => {
    const esm = tmp();
    write(path.join(esm, 'package.json'), '{"type":"module"}');
    expect(isEsmScope(path.join(esm, 'src/generated'))).toBe(true);

    const cjs = tmp();
    write(path.join(cjs, 'package.json'), '{"name":"app"}');
    expect(isEsmScope(path.join(cjs, 'src/generated'))).toBe(false);
    // Toolroute's own package.json in the output folder does not count: the package around it decides.
    write(path.join(cjs, 'src/generated/package.json'), PACKAGE_JSON_CONTENT);
    expect(isEsmScope(path.join(cjs, 'src/generated'))).toBe(false);
    // A package.json of the user's own in a subfolder does.
    write(path.join(cjs, 'src/package.json'), '{"type":"module"}');
    expect(isEsmScope(path.join(cjs, 'src/generated'))).toBe(true);
    write(path.join(cjs, 'src/package.json'), '{"type":"commonjs"}');
    expect(isEsmScope(path.join(cjs, 'src/generated'))).toBe(false);

    const broken = tmp();
    write(path.join(broken, 'package.json'), '{ not json');
    expect(isEsmScope(path.join(broken, 'out'))).toBe(false);
  });

  test('in this repo (an ESM package) generated output gets no package.json, so the output is what it always was', () => {
    expect(isEsmScope(path.join(REPO, 'generated'))).toBe(true);
    expect(existsSync(path.join(REPO, 'generated/package.json'))).toBe(false);
  });
});
