import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { displayPath, jsonSyntaxError, loadSpec, loadText } from '../../generator/load.js';
import { formatProblems } from '../../generator/normalize.js';

describe('locate', () => {
  const text = 'version: 1\ntools:\n  - name: read_file\n    description:\n    tags: [a, b]\n';
  const r = loadText(text, 'x.yaml', 'yaml');
  if (!r.ok) throw new Error(formatProblems(r.problems));
  const { locate } = r.spec;

  it('points at values by default and at keys on request', () => {
    expect(locate(['tools', 0, 'name'])).toEqual({ line: 3, column: 11 });
    expect(locate(['tools', 0, 'name'], 'key')).toEqual({ line: 3, column: 5 });
    expect(locate(['tools', 0, 'tags', 1])).toEqual({ line: 5, column: 15 });
  });

  it('points at the key of an empty value, and at the deepest existing node of a missing path', () => {
    expect(locate(['tools', 0, 'description'])).toEqual({ line: 4, column: 5 });
    expect(locate(['tools', 0, 'parameters', 'type'])).toEqual({ line: 3, column: 5 });
    expect(locate(['tools', 7])).toEqual({ line: 3, column: 3 });
  });
});

describe('loadSpec', () => {
  it('reports a missing file and an unsupported extension without throwing', async () => {
    const missing = await loadSpec('nope/missing.yaml', { cwd: '/tmp' });
    expect(missing.ok ? '' : formatProblems(missing.problems)).toBe(
      'nope/missing.yaml - error [file_not_found] cannot read the spec file (ENOENT).\n  hint: Check the path; it is resolved from the current directory.',
    );
    const txt = await loadSpec('spec.txt');
    expect(txt.ok ? '' : txt.problems[0]?.code).toBe('unsupported_file_type');
    const ts = await loadSpec('nope/missing.ts', { cwd: '/tmp' });
    expect(ts.ok ? '' : ts.problems[0]?.code).toBe('file_not_found');
  });

  it('makes display paths relative with POSIX separators', () => {
    expect(displayPath('/a/b', '/a/b/c/d.yaml')).toBe('c/d.yaml');
    expect(displayPath('/a/b', '/a/x.yaml')).toBe('../x.yaml');
    expect(displayPath('/a/b', path.join('/a/b', 'spec.json'))).toBe('spec.json');
  });

  it('refuses non-JSON syntax in .json files even where YAML would accept it', () => {
    expect(loadText('{"a": 1, /* c */ "b": 2}', 'x.json', 'json').ok).toBe(false);
    expect(loadText('{"a": [1, 2,]}', 'x.json', 'json').ok).toBe(false);
    expect(loadText('{"a": [1, 2]}', 'x.yaml', 'yaml').ok).toBe(true);
  });

  it('reports an excessive alias expansion as a problem, not a crash', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    const r = loadText(bomb, 'bomb.yaml', 'yaml');
    expect(r.ok ? '' : r.problems[0]?.code).toBe('syntax_error');
  });
});

describe('jsonSyntaxError', () => {
  const cases: { given: string; want: { offset: number; message: string } | undefined }[] = [
    { given: '{"a": [1, 2.5e3, true, null, "x\\n\\u00e9"]}', want: undefined },
    { given: '{"a": 1,}', want: { offset: 7, message: 'trailing comma before "}" (JSON allows none)' } },
    { given: "{'a': 1}", want: { offset: 1, message: 'expected a key in double quotes but found "\'"' } },
    { given: '{"a" 1}', want: { offset: 5, message: 'expected ":" after the key but found "1"' } },
    { given: '{"a": 1', want: { offset: 7, message: 'expected "," or "}" but found the end of the file' } },
    { given: '[1] x', want: { offset: 4, message: 'expected the end of the file after the JSON value but found "x"' } },
    { given: '"a\tb"', want: { offset: 2, message: 'a string contains a raw control character (a line break or tab must be written \\n or \\t)' } },
    { given: '[01]', want: { offset: 2, message: 'expected "," or "]" but found "1"' } },
    { given: '', want: { offset: 0, message: 'expected a value (a string in double quotes, number, true, false, null, { or [) but found the end of the file' } },
  ];
  it.each(cases)('$given', ({ given, want }) => {
    expect(jsonSyntaxError(given)).toEqual(want);
    expect(jsonSyntaxError(given) === undefined).toBe((() => {
      try {
        JSON.parse(given);
        return true;
      } catch {
        return false;
      }
    })());
  });
});
