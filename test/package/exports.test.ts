/**
 * The package's entry points, pinned: the root is the runtime plus
 * `defineSpec` (and nothing from the generator, so an application never loads
 * the code generator's dependencies); `toolroute/generator` is the pipeline.
 * Each maps to its TypeScript source under the repo's own `toolroute-source`
 * condition and to dist/ for everyone else (test/package/dist.test.ts runs
 * that build on plain node).
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as root from '../../index.js';
import * as generator from '../../generator/index.js';
import * as runtime from '../../runtime/index.js';

test('the root entry is the runtime plus defineSpec', () => {
  expect(Object.keys(root).sort()).toEqual([...Object.keys(runtime), 'defineSpec'].sort());
});

test('the generator entry exports the pipeline', () => {
  expect(Object.keys(generator).sort()).toEqual(['DEFAULT_RUNTIME_IMPORT', 'VERSION', 'formatGenerateProblem', 'generate']);
});

test('package.json maps every entry point to its source (in this repo) and its build (for consumers), and names the CLI', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, Record<string, string> | string>;
    bin: Record<string, string>;
    files: string[];
    scripts: Record<string, string>;
  };
  expect(Object.keys(pkg.exports)).toEqual(['.', './runtime', './generator', './search', './mcp', './ai-sdk', './openai-agents', './package.json']);
  const entries = {
    '.': 'index',
    './runtime': 'runtime/index',
    './generator': 'generator/index',
    './search': 'search/index',
    './mcp': 'integrations/mcp/index',
    './ai-sdk': 'integrations/ai-sdk/index',
    './openai-agents': 'integrations/openai-agents/index',
  } as const;
  for (const [key, file] of Object.entries(entries)) {
    const entry = pkg.exports[key];
    // Order matters: the first matching condition wins, so the repo's own condition comes first
    // and `types` before `default`.
    expect(Object.keys(entry as object), key).toEqual(['toolroute-source', 'types', 'default']);
    expect(entry, key).toEqual({ 'toolroute-source': `./${file}.ts`, types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` });
    expect(existsSync(new URL(`../../${file}.ts`, import.meta.url)), `${file}.ts`).toBe(true);
  }
  expect(pkg.exports['./package.json']).toBe('./package.json');
  expect(pkg.bin).toEqual({ toolroute: './bin/toolroute.js' });
  // Everything the map and the CLI point at is published, and installs build dist/.
  expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'index.ts', 'runtime', 'search', 'generator', 'integrations', 'bin']));
  expect(pkg.scripts['prepare']).toBe('npm run build');
  expect(pkg.scripts['build']).toMatch(/\btsc -p tsconfig\.build\.json$/);
});

test("the repo's type check resolves the package to its sources; the build does not", () => {
  // tsconfig files are JSONC: drop whole-line comments before parsing.
  const jsonc = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as {
    compilerOptions: Record<string, unknown>;
    include: string[];
  };
  expect(jsonc('tsconfig.json').compilerOptions['customConditions']).toEqual(['toolroute-source']);
  const build = jsonc('tsconfig.build.json');
  expect(build.compilerOptions).toMatchObject({ noEmit: false, allowImportingTsExtensions: false, outDir: 'dist', rootDir: '.', declaration: true, customConditions: [] });
  expect(build.include).toEqual(['index.ts', 'runtime', 'search', 'generator', 'schema', 'integrations', 'cli']);
});

test('importing the root does not load the generator', async () => {
  // The generator pulls in its own packages (yaml, zod, tsx); the root must not.
  const src = readFileSync(new URL('../../index.ts', import.meta.url), 'utf8');
  const imports = [...src.matchAll(/^(?:import|export)[^;]*from '([^']+)'/gm)].map((m) => m[1]);
  expect(imports).toEqual(['./runtime/index.js', './generator/define-spec.js']);
  const defineSpecSrc = readFileSync(new URL('../../generator/define-spec.ts', import.meta.url), 'utf8');
  // define-spec only imports types.
  expect([...defineSpecSrc.matchAll(/^import (?!type)[^;]*;/gm)]).toEqual([]);
});
