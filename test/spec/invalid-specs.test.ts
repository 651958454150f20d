/**
 * Every invalid spec in test/fixtures/invalid/ produces exactly the problems
 * in its sibling `.expected.txt` (file, line, column, path, message, hint).
 * The expected files are the product text: review a diff in them as you would
 * review a change to an error message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildIR, formatProblems } from '../../generator/normalize.js';
import type { ProblemCode } from '../../generator/problems.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = 'test/fixtures/invalid';

interface Case {
  /** Fixture file name in test/fixtures/invalid/. */
  readonly file: string;
  /** The problem codes, in the order reported (source order). */
  readonly codes: readonly ProblemCode[];
}

const CASES: readonly Case[] = [
  { file: 'yaml-syntax.yaml', codes: ['syntax_error'] },
  { file: 'json-syntax.json', codes: ['syntax_error'] },
  { file: 'empty-file.yaml', codes: ['wrong_type'] },
  { file: 'duplicate-key.yaml', codes: ['duplicate_key'] },
  { file: 'json-duplicate-key.json', codes: ['duplicate_key'] },
  { file: 'yaml-complex-key.yaml', codes: ['syntax_error'] },
  { file: 'yaml-unknown-tag.yaml', codes: ['syntax_error'] },
  { file: 'yaml-float-tag.yaml', codes: ['syntax_error'] },
  { file: 'yaml-merge-key.yaml', codes: ['syntax_error'] },
  { file: 'not-json-yaml-alias.yaml', codes: ['not_json_data'] },
  { file: 'not-json-yaml-numbers.yaml', codes: ['not_json_data', 'not_json_data'] },
  { file: 'yaml-1-1-directive.yaml', codes: ['syntax_error'] },
  { file: 'json-infinity.json', codes: ['not_json_data'] },
  { file: 'too-deep.json', codes: ['not_json_data'] },
  { file: 'ts-not-json.ts', codes: ['not_json_data', 'not_json_data', 'not_json_data'] },
  { file: 'zod-not-json.ts', codes: ['not_json_data', 'not_json_data'] },
  { file: 'unknown-key-root.yaml', codes: ['unknown_key'] },
  { file: 'unknown-key-tool.yaml', codes: ['missing_key', 'unknown_key', 'unknown_key'] },
  { file: 'wrong-type.yaml', codes: ['invalid_value', 'wrong_type', 'wrong_type', 'wrong_type', 'wrong_type'] },
  { file: 'missing-description.yaml', codes: ['missing_key', 'missing_key'] },
  { file: 'empty-description.yaml', codes: ['empty_description', 'empty_description'] },
  { file: 'unsupported-version.yaml', codes: ['unsupported_version'] },
  { file: 'missing-version.yaml', codes: ['missing_key'] },
  { file: 'duplicate-tool.yaml', codes: ['duplicate_tool'] },
  { file: 'duplicate-entry.yaml', codes: ['duplicate_entry'] },
  { file: 'unknown-tool-ref.yaml', codes: ['unknown_tool', 'unknown_tool'] },
  { file: 'empty-group.yaml', codes: ['empty_group', 'empty_group'] },
  { file: 'namespace-collides-tool.yaml', codes: ['name_collision', 'name_collision'] },
  { file: 'toolkit-name-case.yaml', codes: ['name_collision', 'name_collision'] },
  { file: 'reserved-name.yaml', codes: ['reserved_name', 'reserved_name'] },
  { file: 'invalid-name.yaml', codes: ['invalid_name', 'invalid_name', 'invalid_name', 'invalid_name'] },
  { file: 'params-invalid-schema.yaml', codes: ['invalid_schema', 'invalid_schema', 'invalid_schema'] },
  { file: 'params-bad-pattern.yaml', codes: ['invalid_schema', 'invalid_schema', 'invalid_schema', 'invalid_schema'] },
  { file: 'params-not-object.yaml', codes: ['parameters_not_object', 'parameters_not_object'] },
  { file: 'params-shorthand-bad.yaml', codes: ['invalid_shorthand', 'invalid_shorthand'] },
  { file: 'unresolved-ref.yaml', codes: ['unresolved_ref', 'unresolved_ref'] },
  { file: 'remote-ref.yaml', codes: ['remote_ref', 'remote_ref'] },
  { file: 'recursive-ref.yaml', codes: ['recursive_ref'] },
  { file: 'policy-unknown.yaml', codes: ['unknown_policy_target', 'unknown_policy_target', 'wrong_type'] },
  { file: 'policy-proto.yaml', codes: ['invalid_name'] },
  { file: 'all-deferred.yaml', codes: ['all_tools_deferred'] },
  { file: 'empty-tag.yaml', codes: ['empty_tag', 'empty_tag'] },
  { file: 'unknown-schema-keyword.yaml', codes: ['unknown_schema_keyword', 'unknown_schema_keyword'] },
  { file: 'required-not-in-properties.yaml', codes: ['required_not_in_properties', 'required_not_in_properties'] },
  { file: 'unsupported-dialect.yaml', codes: ['unsupported_schema_dialect', 'invalid_schema', 'unknown_schema_keyword', 'unsupported_schema_keyword'] },
  { file: 'no-tools.yaml', codes: ['no_tools'] },
  { file: 'json-problems.json', codes: ['wrong_type', 'invalid_schema', 'unknown_tool'] },
  { file: 'empty-name.yaml', codes: ['empty_name', 'empty_name'] },
  { file: 'ts-no-export.ts', codes: ['ts_no_spec_export'] },
  { file: 'ts-throws.ts', codes: ['ts_load_failed'] },
  { file: 'ts-throws-no-text.ts', codes: ['ts_load_failed'] },
  { file: 'ts-missing-import.ts', codes: ['ts_load_failed'] },
  { file: 'ts-syntax.ts', codes: ['ts_load_failed'] },
  { file: 'ref-out-of-range.yaml', codes: ['unresolved_ref'] },
  { file: 'lone-surrogate.json', codes: ['not_json_data', 'not_json_data'] },
  { file: 'proto-in-const.json', codes: ['invalid_schema', 'invalid_schema', 'invalid_schema'] },
  { file: 'not-utf8.yaml', codes: ['syntax_error'] },
  { file: 'ref-chain-too-deep.json', codes: ['invalid_schema'] },
  { file: 'ts-zod-unrepresentable.ts', codes: ['zod_conversion_failed'] },
  { file: 'toolkit-loading-target.yaml', codes: ['invalid_value'] },
  { file: 'tools-not-a-list.yaml', codes: ['wrong_type'] },
  { file: 'required-on-property.yaml', codes: ['invalid_schema', 'invalid_schema'] },
  { file: 'default-wrong-type.yaml', codes: ['invalid_schema', 'invalid_schema'] },
  { file: 'yaml-alias-duplicate.yaml', codes: ['duplicate_tool'] },
  { file: 'shorthand-dollar-key.yaml', codes: ['unknown_schema_keyword', 'unknown_schema_keyword'] },
  { file: 'nested-schema-dialect.yaml', codes: ['unsupported_schema_dialect', 'invalid_schema'] },
  { file: 'hand-written-types.yaml', codes: ['invalid_schema', 'unknown_schema_keyword', 'invalid_schema'] },
  { file: 'enum-type-mismatch.yaml', codes: ['invalid_schema', 'invalid_schema', 'invalid_schema'] },
  { file: 'ts-problems.ts', codes: ['duplicate_tool', 'unknown_tool', 'empty_description', 'unknown_policy_target'] },
  {
    file: 'many-problems.yaml',
    codes: ['empty_tag', 'missing_key', 'invalid_name', 'unknown_key', 'name_collision', 'unknown_tool', 'empty_group', 'remote_ref', 'unknown_policy_target'],
  },
];

describe('invalid specs', () => {
  it('has a case for every fixture, and a fixture and expected output for every case', () => {
    const files = readdirSync(path.join(ROOT, DIR));
    const specs = files.filter((f) => !f.endsWith('.expected.txt')).sort();
    expect(CASES.map((c) => c.file).sort()).toEqual(specs);
    for (const spec of specs) expect(files).toContain(spec.replace(/\.[^.]+$/, '.expected.txt'));
    expect(CASES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES)('$file', async ({ file, codes }) => {
    const result = await buildIR(`${DIR}/${file}`, { cwd: ROOT });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.code)).toEqual(codes);
    for (const p of result.problems) {
      expect(p.file).toBe(`${DIR}/${file}`);
      expect(p.message).not.toBe('');
      expect(p.hint).not.toBe('');
    }
    const expected = readFileSync(path.join(ROOT, DIR, file.replace(/\.[^.]+$/, '.expected.txt')), 'utf8');
    expect(`${formatProblems(result.problems)}\n`).toBe(expected);
  });

  it('reports several different problems of one spec at once, in source order', async () => {
    const result = await buildIR(`${DIR}/many-problems.yaml`, { cwd: ROOT });
    if (result.ok) throw new Error('many-problems.yaml must be invalid');
    expect(new Set(result.problems.map((p) => p.code)).size).toBeGreaterThanOrEqual(8);
    const positions = result.problems.map((p) => p.line * 10_000 + p.column);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('never puts an absolute path in a message', async () => {
    for (const { file } of CASES) {
      const result = await buildIR(path.join(ROOT, DIR, file), { cwd: ROOT });
      if (result.ok) throw new Error(`${file} must be invalid`);
      expect(formatProblems(result.problems)).not.toContain(ROOT);
    }
  });
});
