/**
 * The package's entry points, pinned: the root is the runtime plus
 * `defineSpec` (and nothing from the generator, so an application never loads
 * the code generator's dependencies); `toolroute/generator` is the pipeline.
 */
import { readFileSync } from 'node:fs';
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

test('package.json maps every entry point to these files and names the CLI', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, { default: string } | string>;
    bin: Record<string, string>;
  };
  expect(Object.keys(pkg.exports)).toEqual(['.', './runtime', './generator', './package.json']);
  expect(pkg.exports['.']).toMatchObject({ default: './index.ts' });
  expect(pkg.exports['./runtime']).toMatchObject({ default: './runtime/index.ts' });
  expect(pkg.exports['./generator']).toMatchObject({ default: './generator/index.ts' });
  expect(pkg.bin).toEqual({ toolroute: './bin/toolroute.js' });
});

test('importing the root does not load the generator', async () => {
  // The generator pulls in json-schema-to-typescript; the root must not.
  const src = readFileSync(new URL('../../index.ts', import.meta.url), 'utf8');
  const imports = [...src.matchAll(/^(?:import|export)[^;]*from '([^']+)'/gm)].map((m) => m[1]);
  expect(imports).toEqual(['./runtime/index.js', './generator/define-spec.js']);
  const defineSpecSrc = readFileSync(new URL('../../generator/define-spec.ts', import.meta.url), 'utf8');
  // define-spec only imports types.
  expect([...defineSpecSrc.matchAll(/^import (?!type)[^;]*;/gm)]).toEqual([]);
});
