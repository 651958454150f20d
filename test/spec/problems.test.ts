import { describe, expect, it } from 'vitest';
import { closest, didYouMean, formatPath, formatProblem, SpecError } from '../../generator/problems.js';
import type { Problem } from '../../generator/problems.js';

const p: Problem = {
  code: 'unknown_key', message: 'unknown key "namespace" in the spec (top level).', hint: 'Did you mean "namespaces"? Remove the key or fix its spelling.',
  file: 'spec.yaml', line: 12, column: 7, path: 'namespace',
};

describe('formatProblem', () => {
  it('is one line plus an indented hint line', () => {
    expect(formatProblem(p)).toBe('spec.yaml:12:7 - error [unknown_key] namespace: unknown key "namespace" in the spec (top level).\n  hint: Did you mean "namespaces"? Remove the key or fix its spelling.');
  });
  it('omits an empty hint, an empty path and a 0 position', () => {
    expect(formatProblem({ ...p, hint: '', path: '', line: 0, column: 0 })).toBe('spec.yaml - error [unknown_key] unknown key "namespace" in the spec (top level).');
  });
  it('SpecError carries the problems and lists them in its message', () => {
    const err = new SpecError([p, p]);
    expect(err.problems).toHaveLength(2);
    expect(err.message.startsWith('2 problems in the spec:\nspec.yaml:12:7')).toBe(true);
  });
});

describe('formatPath', () => {
  it.each([
    { given: [], want: '' },
    { given: ['tools', 0, 'name'], want: 'tools[0].name' },
    { given: ['namespaces', 1, 'tools', 0, 'parameters', 'properties', 'n', 'type'], want: 'namespaces[1].tools[0].parameters.properties.n.type' },
    { given: ['policies', 'my policy', 0], want: 'policies["my policy"][0]' },
    { given: ['parameters', '$ref'], want: 'parameters.$ref' },
  ])('$want', ({ given, want }) => expect(formatPath(given)).toBe(want));
});

describe('did you mean', () => {
  it('suggests close names, case-insensitive matches first, and nothing when nothing is close', () => {
    expect(closest('namespace', ['name', 'namespaces', 'tools'])).toEqual(['namespaces']);
    expect(closest('Read_File', ['read_fil', 'read_file'])).toEqual(['read_file', 'read_fil']);
    expect(closest('descripton', ['description'])).toEqual(['description']);
    expect(closest('xyz', ['description'])).toEqual([]);
    expect(didYouMean('wrte', ['write', 'wrote', 'read'])).toBe('Did you mean "write" or "wrote"?');
    expect(didYouMean('zzz', ['read'])).toBe('');
  });
});
