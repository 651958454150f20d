/**
 * A bad spec never makes the generator write a partial output: for every
 * invalid spec in test/fixtures/invalid/, `generate()` into a folder that
 * already holds a previous generation (plus a file of the user's) reports the
 * problems and leaves every file, byte and modification time as it was.
 */
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { readFolder, removeDir, REPO, tempDir } from './helpers.js';

const INVALID = 'test/fixtures/invalid';
const specs = readdirSync(path.join(REPO, INVALID))
  .filter((f) => /\.(ya?ml|json|ts)$/.test(f))
  .sort();

/** Names, bytes and mtimes: what "untouched" means. */
function fingerprint(dir: string): Record<string, { text: string; mtimeMs: number }> {
  const texts = readFolder(dir);
  return Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, { text, mtimeMs: statSync(path.join(dir, name)).mtimeMs }]));
}

describe('an invalid spec leaves the output folder untouched', () => {
  let out: string;
  let before: ReturnType<typeof fingerprint>;

  beforeAll(() => {
    out = tempDir('invalid-out-');
    // A previous, valid generation, and a file the user put there.
    cpSync(path.join(REPO, 'generated'), out, { recursive: true });
    writeFileSync(path.join(out, 'NOTES.md'), 'my own notes\n');
    before = fingerprint(out);
  });
  afterAll(() => removeDir(out));

  it('has at least 25 invalid specs to try', () => expect(specs.length).toBeGreaterThanOrEqual(25));

  it.each(specs)('%s', async (file) => {
    const result = await generate(path.join(INVALID, file), { out: path.relative(REPO, out), cwd: REPO });
    expect(result.ok).toBe(false);
    expect(result.problems.length).toBeGreaterThan(0);
    expect(fingerprint(out)).toEqual(before);
    // No temp folder left beside the output either.
    expect(readdirSync(path.dirname(out)).filter((n) => n.startsWith(`.${path.basename(out)}.toolroute-`))).toEqual([]);
  });
});
