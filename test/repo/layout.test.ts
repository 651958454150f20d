/**
 * The sizes a newcomer can hold: no hand-written TypeScript file over 450 lines anywhere in the repository, and
 * runtime/ and generator/ at most 7,000 lines each. Generated files (`*.gen.ts`, generated folders) and test fixtures
 * are not written by hand and do not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', 'fixtures', '.tmp', '.git', 'scratch-fuzz']);

/** Hand-written TypeScript files under `dir` (relative to the repository), with their line counts. */
function sources(dir: string): { file: string; lines: number }[] {
  const out: { file: string; lines: number }[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(REPO, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(child);
      } else if (/\.m?ts$/.test(entry.name) && !entry.name.endsWith('.gen.ts') && !entry.name.endsWith('.d.ts')) {
        out.push({ file: child, lines: readFileSync(path.join(REPO, child), 'utf8').split('\n').length - 1 });
      }
    }
  };
  walk(dir);
  return out;
}

test('no hand-written TypeScript file is over 450 lines', () => {
  const all = ['runtime', 'generator', 'cli', 'search', 'schema', 'integrations', 'scripts', 'bench', 'test', 'examples'].flatMap(sources);
  expect(all.length).toBeGreaterThan(200);
  expect(all.filter((f) => f.lines > 450).map((f) => `${f.file}: ${f.lines} lines`)).toEqual([]);
});

test.each(['runtime', 'generator'])('%s/ is at most 7,000 lines', (dir) => {
  const total = sources(dir).reduce((sum, f) => sum + f.lines, 0);
  expect(total).toBeGreaterThan(3000);
  expect(total).toBeLessThanOrEqual(7000);
});
