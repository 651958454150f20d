/**
 * A target's knowledge lives in its adapter (runtime/targets/): no source
 * file outside that folder compares a value with a target's name or switches
 * on one. What differs by target is asked of `adapterFor(target)`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { TARGETS } from '../../runtime/contract.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['runtime', 'generator', 'integrations', 'index.ts'];
const EXEMPT = ['runtime/targets/'];

function sources(path: string): string[] {
  if (statSync(path).isFile()) return path.endsWith('.ts') ? [path] : [];
  return readdirSync(path).flatMap((name) => sources(join(path, name)));
}

const name = `['"\`](?:${TARGETS.map((t) => t.replace(/[-]/g, '\\-')).join('|')})['"\`]`;
const BRANCH = new RegExp(`(?:[=!]==?\\s*${name})|(?:${name}\\s*[=!]==?)|(?:case\\s+${name}\\s*:)`);

it('no source file outside runtime/targets/ branches on a target name', () => {
  const found: string[] = [];
  for (const file of SCANNED.flatMap((p) => sources(join(ROOT, p)))) {
    const rel = relative(ROOT, file).split('\\').join('/');
    if (EXEMPT.some((dir) => rel.startsWith(dir))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (BRANCH.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

it('the scan recognizes a comparison and a case label', () => {
  expect(BRANCH.test("if (target === 'anthropic') {")).toBe(true);
  expect(BRANCH.test("    case 'openai-responses':")).toBe(true);
  expect(BRANCH.test("'gemini' !== target")).toBe(true);
  expect(BRANCH.test("router.compile({ target: 'gemini' })")).toBe(false);
});
