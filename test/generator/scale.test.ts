/**
 * A 1,000-tool spec generates, and its output type-checks with tsc. Wall
 * times are attached as test annotations (no timing assertions: the machine
 * decides those).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { manyToolsSpec } from './many-tools.js';
import { REPO, removeDir, tempDir } from './helpers.js';
import { TSC_RUN } from '../setup/package-build.js';

const dir = tempDir('scale-');
afterAll(() => removeDir(dir));

it('generates a 1,000-tool spec whose output type-checks and validates', async ({ annotate }) => {
  writeFileSync(path.join(dir, 'spec.json'), manyToolsSpec(1000));
  const result = await generate('spec.json', { out: 'out', cwd: dir });
  expect(result.problems).toEqual([]);
  expect(result.counts).toEqual({ tools: 1000, namespaces: 40, toolkits: 20 });

  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: path.relative(dir, path.join(REPO, 'tsconfig.json')), compilerOptions: { noEmit: true, noUnusedLocals: true }, include: ['out'], exclude: [] }),
  );
  const started = performance.now();
  const tsc = spawnSync(process.execPath, [...TSC_RUN, '--noEmit', '-p', dir], { encoding: 'utf8' });
  const tscMs = performance.now() - started;
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);

  // The generated folder runs in a child `node` as a bundled application runs it (esbuild, the runtime from its
  // sources): vitest's own transform of 6 MB of validators takes several times longer than the rest of the test, and
  // tsx's, with its inline source map, twice as long as bundling.
  writeFileSync(
    path.join(dir, 'check.mts'),
    [
      "import * as gen from './out/index.js';",
      'const tool = gen.spec.tools[999]!;',
      'const validate = gen.spec.validators[tool.validator]!;',
      "console.log(JSON.stringify({ fits: validate({ id: 'x', mode: 'fast_999' }), other: validate({ id: 'x', mode: 'fast_998' }), validators: new Set(gen.spec.tools.map((t) => t.validator)).size }));",
    ].join('\n'),
  );
  await build({ entryPoints: [path.join(dir, 'check.mts')], outfile: path.join(dir, 'check.mjs'), bundle: true, platform: 'node', format: 'esm', conditions: ['toolroute-source'], logLevel: 'silent' });
  const run = spawnSync(process.execPath, ['check.mjs'], { cwd: dir, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({ fits: true, other: false, validators: 1000 });

  const t = result.timings;
  const ms = (n: number) => `${Math.round(n)} ms`;
  await annotate(
    `codegen ${ms(t.total)} (load ${ms(t.load)}, validate ${ms(t.validate)}, normalize ${ms(t.normalize)}, emit ${ms(t.emit)}, write ${ms(t.write)}); tsc ${ms(tscMs)}`,
  );
  // Not a timing assertion: a few seconds on an idle machine, but codegen, tsc over 6 MB of
  // validators and the child's import all run in one test, which a shared, loaded machine can stretch past a minute.
}, 300_000);
