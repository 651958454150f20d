/**
 * Shared helpers for the generator tests: the repo root, temp folders inside
 * the repo (so generated code resolves `ajv` and `toolroute/runtime` like
 * in-repo output does), and reading a generated folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The valid fixture specs whose output is committed under `test/fixtures/<name>/expected/`. */
export const FIXTURES = ['example', 'flat-only', 'schema-encoding', 'escaping', 'ungrouped-off', 'apply-defaults'] as const;

/**
 * A fresh temp folder under `<repo>/.tmp/` (gitignored, excluded from tsc).
 *
 * @example
 * const dir = tempDir('write-'); // …/.tmp/write-AbC123
 */
export function tempDir(prefix: string): string {
  const base = path.join(REPO, '.tmp', 'generator-tests');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}

/** Removes a temp folder made by `tempDir`. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Every file of a folder (top level) → its text.
 *
 * @example
 * readFolder('generated')['index.ts'];
 */
export function readFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = readFileSync(path.join(dir, name), 'utf8');
  return out;
}
