/**
 * Same spec → same bytes: twice in a row, and from two different working
 * folders (spec copied to each, paths given relative to each cwd). And a
 * change to one tool's description changes only that tool's lines.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** The lines only `a` has and the lines only `b` has (a longest-common-subsequence diff), by index. */
function lineDiff(a: readonly string[], b: readonly string[]): { removed: number[]; added: number[] } {
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  }
  const removed: number[] = [];
  const added: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) (i++, j++);
    else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) added.push(j++);
    else removed.push(i++);
  }
  return { removed, added };
}

describe('a change to one tool', () => {
  it("changes that tool's lines only (and the spec's hash), in every generated file", async () => {
    const before = 'description: Run a command';
    const after = 'description: Run a command in a login shell';
    const source = readFileSync(path.join(REPO, 'examples/tools.spec.yaml'), 'utf8');
    expect(source.split(before).length).toBe(2);
    const outputs: Record<string, string>[] = [];
    const hashes: string[] = [];
    for (const text of [source, source.replace(before, after)]) {
      const cwd = tempDir('one-tool-');
      dirs.push(cwd);
      writeFileSync(path.join(cwd, 'tools.spec.yaml'), text);
      const result = await generate('tools.spec.yaml', { out: 'gen', cwd });
      expect(result.problems).toEqual([]);
      outputs.push(readFolder(path.join(cwd, 'gen')));
      hashes.push((JSON.parse(outputs[outputs.length - 1]!['manifest.json']!) as { hash: string }).hash);
    }
    const [old, changed] = outputs as [Record<string, string>, Record<string, string>];
    expect(Object.keys(changed)).toEqual(Object.keys(old));
    const changedFiles = Object.keys(old).filter((f) => old[f] !== changed[f]);
    expect(changedFiles).toContain('spec.gen.ts');
    for (const file of Object.keys(old)) {
      const a = old[file]!.split('\n');
      const b = changed[file]!.split('\n');
      const { removed, added } = lineDiff(a, b);
      const allowed = (line: string) =>
        line.includes('Run a command') || hashes.some((h) => line.includes(h)) || (file === 'manifest.json' && changedFiles.some((f) => line.includes(`"${f}"`)));
      for (const i of removed) expect(allowed(a[i]!), `${file}:${i + 1} ${a[i]}`).toBe(true);
      for (const j of added) expect(allowed(b[j]!), `${file}:${j + 1} ${b[j]}`).toBe(true);
      if (file !== 'spec.gen.ts') continue;
      // In the spec data, the changed line is run_bash's own line.
      const line = a.findIndex((text) => text.startsWith('    {"name": "run_bash", '));
      expect(line).toBeGreaterThan(0);
      expect(removed.filter((i) => !hashes.some((h) => a[i]!.includes(h)))).toEqual([line]);
      expect(removed.length).toBe(2); // the hash and the tool's line
      expect(added.length).toBe(2);
    }
  });
});
