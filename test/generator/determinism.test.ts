/**
 * Same spec → same bytes: twice in a row, and from two different working
 * folders (spec copied to each, paths given relative to each cwd).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { FIXTURES, readFolder, REPO, removeDir, tempDir } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

describe.each(FIXTURES)('determinism of %s', (name) => {
  it('gives identical bytes from two working folders, and rewrites nothing the second time', async () => {
    const outputs: Record<string, string>[] = [];
    for (const sub of ['first', 'second/deeper']) {
      const root = tempDir('determinism-');
      dirs.push(root);
      const cwd = path.join(root, sub);
      mkdirSync(path.join(cwd, 'specs'), { recursive: true });
      copyFileSync(path.join(REPO, 'test/fixtures', name, 'spec.yaml'), path.join(cwd, 'specs', 'tools.spec.yaml'));
      const result = await generate('specs/tools.spec.yaml', { out: 'gen', cwd });
      expect(result.problems).toEqual([]);
      const again = await generate('specs/tools.spec.yaml', { out: 'gen', cwd });
      expect(again.written).toEqual([]);
      expect(again.files).toEqual(result.files);
      outputs.push(readFolder(path.join(cwd, 'gen')));
    }
    expect(outputs[1]).toEqual(outputs[0]);
    for (const [file, text] of Object.entries(outputs[0]!)) {
      expect(text.endsWith('\n'), file).toBe(true);
      expect(text, file).not.toContain('\r');
      expect(text, file).not.toContain(REPO);
      expect(text, file).not.toMatch(/\b20\d\d-\d\d-\d\dT/); // no timestamps
    }
  });
});
