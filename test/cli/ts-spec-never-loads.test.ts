/**
 * A TypeScript spec whose top-level await never settles empties the event loop, and Node would exit (code 13) without
 * a word. Through the real CLI (`node bin/toolroute.js`, spawned): the CLI reports it as the spec's problem instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { REPO, removeDir, tempDir } from '../generator/helpers.js';

const dir = tempDir('ts-never-loads-');
afterAll(() => removeDir(dir));

test('a spec module that never finishes loading is a ts_load_failed problem, exit 1, nothing written', () => {
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(path.join(dir, 'tools.spec.ts'), "await new Promise(() => {});\nexport default { version: 1, tools: [{ name: 'a', description: 'A' }] };\n");
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin/toolroute.js'), 'codegen', 'tools.spec.ts', '--out', 'generated'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toContain('tools.spec.ts - error [ts_load_failed] importing the TypeScript spec failed: the module never finished loading');
  expect(r.status).toBe(1);
  expect(existsSync(path.join(dir, 'generated'))).toBe(false);
});
