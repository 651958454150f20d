/**
 * A TypeScript spec that imports a module with a syntax error: the problem points at that module (its path, line and
 * column), not at the spec, whose own lines are fine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadSpec } from '../../generator/load.js';
import { removeDir, tempDir } from '../generator/helpers.js';

const dir = tempDir('ts-import-error-');
afterAll(() => removeDir(dir));

test('a syntax error in a module the spec imports is reported at that module', async () => {
  mkdirSync(path.join(dir, 'specs'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(path.join(dir, 'schemas.ts'), "export const A = {\n  type: 'object',\n  properties: { b: { type: 'boolean' } },,\n};\n");
  writeFileSync(path.join(dir, 'specs', 'tools.spec.ts'), "import { A } from '../schemas.ts';\nexport default { version: 1, tools: [{ name: 't', description: 'T', parameters: A }] };\n");
  const r = await loadSpec('specs/tools.spec.ts', { cwd: dir });
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.problems).toMatchObject([{ code: 'ts_load_failed', file: 'schemas.ts', line: 3, column: 42, hint: 'Fix the error in schemas.ts, which the spec imports; it must import cleanly with tsx.' }]);
});
