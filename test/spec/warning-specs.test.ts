/**
 * Every spec in test/fixtures/warnings/ is valid and produces exactly the
 * warnings in its sibling `.expected.txt` (file, line, column, path, message,
 * hint), and generation goes on: the folder is written, the warnings are in
 * the structured result. With test/fixtures/invalid/ (invalid-specs.test.ts),
 * every problem code has a fixture whose exact text is pinned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { loadSpec } from '../../generator/load.js';
import { formatProblems } from '../../generator/normalize.js';
import { PROBLEM_CODES, type ProblemCode } from '../../generator/problems.js';
import { checkSpec } from '../../generator/validate.js';
import { removeDir, tempDir } from '../generator/helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = 'test/fixtures/warnings';

const CASES: readonly { readonly file: string; readonly codes: readonly ProblemCode[] }[] = [
  { file: 'unreachable-tool.yaml', codes: ['unreachable_tool', 'unreachable_tool'] },
  { file: 'toolkit-tool-in-namespace.yaml', codes: ['toolkit_tool_in_namespace'] },
  { file: 'unknown-format.yaml', codes: ['unknown_format', 'unknown_format', 'unknown_format'] },
  { file: 'default-not-applied.yaml', codes: ['default_not_applied', 'default_not_applied', 'default_not_applied'] },
  { file: 'zod-regex-flags.ts', codes: ['zod_regex_flags', 'zod_regex_flags', 'zod_regex_flags'] },
  { file: 'zod-not-checked.ts', codes: ['zod_not_checked', 'zod_not_checked', 'zod_not_checked', 'zod_not_checked', 'zod_not_checked'] },
  { file: 'openai-strict-fallback.yaml', codes: ['openai_strict_fallback', 'openai_strict_fallback', 'openai_strict_fallback'] },
  { file: 'openai-strict-namespaces.yaml', codes: ['openai_strict_fallback', 'openai_strict_fallback', 'openai_strict_fallback'] },
];

/** Codes no fixture file can show: the file is missing, or its extension is not a spec's. */
const WITHOUT_FIXTURE: readonly ProblemCode[] = ['file_not_found', 'unsupported_file_type'];

const out = tempDir('warnings-out-');
afterAll(() => removeDir(out));

describe('warning specs', () => {
  it('has a case for every fixture, and a fixture and expected output for every case', () => {
    const files = readdirSync(path.join(ROOT, DIR));
    const specs = files.filter((f) => !f.endsWith('.expected.txt')).sort();
    expect(CASES.map((c) => c.file).sort()).toEqual(specs);
    for (const spec of specs) expect(files).toContain(spec.replace(/\.[^.]+$/, '.expected.txt'));
  });

  it.each(CASES)('$file: exactly the expected warnings, no error', async ({ file, codes }) => {
    const loaded = await loadSpec(`${DIR}/${file}`, { cwd: ROOT });
    if (!loaded.ok) throw new Error(`${file} must load`);
    const { problems, warnings } = checkSpec(loaded.spec);
    expect(problems).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(codes);
    for (const w of warnings) {
      expect(w.severity).toBe('warning');
      expect(w.file).toBe(`${DIR}/${file}`);
      expect(w.line).toBeGreaterThan(0);
      expect(w.path).not.toBe('');
      expect(w.hint).not.toBe('');
    }
    const expected = readFileSync(path.join(ROOT, DIR, file.replace(/\.[^.]+$/, '.expected.txt')), 'utf8');
    expect(`${formatProblems(warnings)}\n`).toBe(expected);
  });

  it.each(CASES)('$file: generation goes on, with the same warnings in its result', async ({ file }) => {
    const target = path.join(out, file.replace(/\.[^.]+$/, ''));
    const result = await generate(`${DIR}/${file}`, { out: target, cwd: ROOT });
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([]);
    expect(readdirSync(target)).toContain('index.ts');
    const expected = readFileSync(path.join(ROOT, DIR, file.replace(/\.[^.]+$/, '.expected.txt')), 'utf8');
    expect(`${formatProblems(result.warnings)}\n`).toBe(expected);
  });

  it('every problem code has a fixture (invalid or warning) whose exact output is pinned', () => {
    const shown = new Set<string>();
    for (const dir of ['test/fixtures/invalid', DIR]) {
      for (const f of readdirSync(path.join(ROOT, dir)).filter((n) => n.endsWith('.expected.txt'))) {
        for (const m of readFileSync(path.join(ROOT, dir, f), 'utf8').matchAll(/^\S.* - (?:error|warning) \[([a-z_]+)\] /gm)) shown.add(m[1]!);
      }
    }
    const missing = PROBLEM_CODES.filter((c) => !shown.has(c) && !WITHOUT_FIXTURE.includes(c));
    expect(missing).toEqual([]);
    // Warnings live here, errors in invalid/: a fixture never mixes the two up.
    for (const f of readdirSync(path.join(ROOT, DIR)).filter((n) => n.endsWith('.expected.txt'))) {
      expect(readFileSync(path.join(ROOT, DIR, f), 'utf8')).not.toMatch(/ - error \[/);
    }
  });
});
