/**
 * `npm run regen`: rewrite every generated file the repository checks in,
 * after a change of the generator's output or of ajv. Four kinds, each checked
 * by a test that fails when it is stale:
 *
 * - `generator/validate/meta-validators.gen.ts` (ajv's compiled meta-schemas,
 *   which the generator itself runs: written first; meta-validators.test.ts),
 * - `generated/` (the README's example spec; `npm test` runs `codegen --check`),
 * - `examples/mcp/generated/` (examples.test.ts checks it with `--check`),
 * - `test/fixtures/<name>/expected/` (fixtures.test.ts compares byte for byte).
 *
 * Each run goes through the CLI (the fixtures through their test with
 * UPDATE_SNAPSHOTS=1, which is how they are defined), so the bytes are exactly
 * what a user's codegen writes. Stops at the first failure with its output.
 *
 * @example
 * npm run regen
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { META_VALIDATORS_FILE, metaValidatorsModule } from './meta-validators.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const CLI = path.join(ROOT, 'cli/main.ts');

const steps: { what: string; args: string[]; cwd: string; env?: NodeJS.ProcessEnv }[] = [
  { what: 'generated/', args: [TSX, CLI, 'codegen', 'examples/tools.spec.yaml', '--out', 'generated'], cwd: ROOT },
  { what: 'examples/mcp/generated/', args: [TSX, CLI, 'codegen', 'tools.spec.yaml', '--out', 'generated'], cwd: path.join(ROOT, 'examples/mcp') },
  {
    what: 'test/fixtures/*/expected/',
    args: [VITEST, 'run', 'test/generator/fixtures.test.ts'],
    cwd: ROOT,
    env: { ...process.env, UPDATE_SNAPSHOTS: '1' },
  },
];

writeFileSync(META_VALIDATORS_FILE, metaValidatorsModule());
process.stdout.write('regen: generator/validate/meta-validators.gen.ts up to date\n');

for (const step of steps) {
  const r = spawnSync(process.execPath, step.args, { cwd: step.cwd, env: step.env ?? process.env, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`regen: ${step.what} failed (exit ${r.status})\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
  process.stdout.write(`regen: ${step.what} up to date\n`);
}
