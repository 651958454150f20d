import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { displayPath, jsonSyntaxError, loadSpec, loadText } from '../../generator/load.js';
import { formatProblems } from '../../generator/normalize.js';
import { removeDir, tempDir } from '../generator/helpers.js';

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
    expect(ts.ok ? '' : ts.problems[0]?.message).toBe('cannot read the spec file (ENOENT).');
    // A folder named like a spec: the same code whatever the format.
    const folder = tempDir('spec-folder-');
    try {
      for (const name of ['tools.spec.ts', 'tools.spec.yaml']) {
        mkdirSync(path.join(folder, name));
        const r = await loadSpec(name, { cwd: folder });
        expect(r.ok ? '' : r.problems[0]?.message, name).toBe('cannot read the spec file (EISDIR).');
      }
    } finally {
      removeDir(folder);
    }
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

  it('refuses a second YAML document at its `---`, saying so in the spec\'s terms', () => {
    const r = loadText('version: 1\n---\nversion: 2\n', 'x.yaml', 'yaml');
    expect(r.ok ? [] : r.problems.map((p) => `${p.code}@${p.line}:${p.column} ${p.message} / ${p.hint}`)).toEqual([
      'syntax_error@2:1 invalid YAML: the file holds more than one YAML document (a second `---`); a spec is one document. / Keep one document: remove the `---` line and what follows it, or merge the two.',
    ]);
  });

  it('reads keys as written: numbers, null and hex spellings stay distinct names', () => {
    const r = loadText('01: a\n1.0: b\n1: c\n~: d\nnull: e\n0x1F: f\n', 'x.yaml', 'yaml');
    expect(r.ok ? Object.keys(r.spec.value as object).sort() : r.problems).toEqual(['01', '0x1F', '1', '1.0', 'null', '~']);
  });

  it('reads what YAML may say of JSON data: a shared part through an alias, core tags, scalar keys as names', () => {
    const r = loadText('shared: &s { type: string }\nuses: [*s, *s]\nforced: !!str 10\ncount: !!int "3"\n1: one\ntrue: yes\n', 'x.yaml', 'yaml');
    expect(r.ok ? r.spec.value : r.problems).toEqual({
      shared: { type: 'string' }, uses: [{ type: 'string' }, { type: 'string' }], forced: '10', count: 3, 1: 'one', true: 'yes',
    });
  });
});

describe('TypeScript specs in a CommonJS package', () => {
  it('read the default export and `export const spec` as in an ES module package', async () => {
    const dir = tempDir('cjs-spec-');
    try {
      writeFileSync(path.join(dir, 'package.json'), '{ "type": "commonjs" }\n');
      writeFileSync(path.join(dir, 'default.spec.ts'), "export default { version: 1, tools: [{ name: 'a', description: 'A' }] };\n");
      writeFileSync(path.join(dir, 'named.spec.ts'), "export const spec = { version: 1, tools: [{ name: 'b', description: 'B' }] };\n");
      for (const [file, name] of [['default.spec.ts', 'a'], ['named.spec.ts', 'b']] as const) {
        const r = await loadSpec(file, { cwd: dir });
        if (!r.ok) throw new Error(formatProblems(r.problems));
        expect(r.spec.value).toEqual({ version: 1, tools: [{ name, description: name.toUpperCase() }] });
      }
    } finally {
      removeDir(dir);
    }
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
    { given: '{"a": [1, {}, []], "b": {"c": [2,]}}', want: { offset: 32, message: 'trailing comma before "]" (JSON allows none)' } },
    { given: '{"a":}', want: { offset: 5, message: 'expected a value (a string in double quotes, number, true, false, null, { or [) but found "}"' } },
    { given: '[tru]', want: { offset: 1, message: 'expected a value (a string in double quotes, number, true, false, null, { or [) but found "t"' } },
    { given: '["a\\x"]', want: { offset: 3, message: 'invalid escape in a string' } },
    { given: '["\\u12"]', want: { offset: 2, message: 'invalid \\u escape in a string (it needs 4 hex digits)' } },
    { given: '{"a": "b', want: { offset: 8, message: 'a string is not closed (missing ")' } },
    { given: '{"a": 1 "b": 2}', want: { offset: 8, message: 'expected "," or "}" but found "\\""' } },
    { given: ' {} ', want: undefined },
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

describe('JSON specs', () => {
  // Valid JSON is parsed natively and `locate` is answered from the text; reading the
  // same text as YAML is the oracle for both.
  const asYaml = (text: string) => loadText(text, 'x.json', 'yaml');
  const everyPath = (value: unknown): (string | number)[][] => {
    const out: (string | number)[][] = [];
    const walk = (v: unknown, p: (string | number)[]) => {
      out.push(p, [...p, 'missing'], [...p, 7]);
      if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...p, i]));
      else if (typeof v === 'object' && v !== null) for (const k of Object.getOwnPropertyNames(v)) walk((v as Record<string, unknown>)[k], [...p, k]);
    };
    walk(value, []);
    return out;
  };

  const cases: { name: string; text: () => Promise<string> | string }[] = [
    {
      name: 'the example spec, pretty-printed',
      text: async () => {
        const r = await loadSpec('examples/tools.spec.yaml');
        if (!r.ok) throw new Error(formatProblems(r.problems));
        return `${JSON.stringify(r.spec.value, null, 2)}\n`;
      },
    },
    {
      name: 'CRLF line ends, tabs, escapes, a __proto__ key and odd numbers',
      text: () => '{\r\n "version": 1,\r\n\t"tools": [ {"name": "a\\u0062", "description": "x\\"y\\n", "tags": ["t", "\\u00e9"]} ],\r\n "__proto__": {"k": [1, -0, 2.5e3, 1e300]}, "": {"\\"": null}\r\n}\r\n',
    },
    // Strings ending in backslashes: an even run before a quote closes the string, an odd one escapes it.
    { name: 'strings ending in escaped backslashes and quotes', text: () => '{"a\\\\": ["x\\\\", "\\\\\\"", "\\\\\\\\"], "b": {"c\\"\\\\": "\\\\", "d": 1}}' },
    { name: 'compact, on one line', text: () => '{"version":1,"tools":[{"name":"a","description":"d","parameters":{"type":"object","properties":{"p":{"type":"string"}}}}]}' },
  ];

  it.each(cases)('$name: the same value, and the same position for every path (and missing ones), as the YAML reading', async ({ text }) => {
    const source = await text();
    const json = loadText(source, 'x.json', 'json');
    const yaml = asYaml(source);
    if (!json.ok || !yaml.ok) throw new Error('both readings should load');
    expect(json.spec.value).toStrictEqual(yaml.spec.value);
    expect(Object.getOwnPropertyNames(json.spec.value)).toEqual(Object.getOwnPropertyNames(yaml.spec.value));
    const paths = everyPath(json.spec.value);
    const where = (locate: typeof json.spec.locate) => paths.flatMap((p) => [locate(p), locate(p, 'key')]);
    expect(where(json.spec.locate)).toEqual(where(yaml.spec.locate));
  });

  it('reports every duplicate key, an escaped spelling of the same key included, exactly like the YAML reading', () => {
    const source = '{"a": 1,\n "b": {"c": 1, "c": 2},\n "a": 3, "l": [{"x": 1, "\\u0078": 2}]}';
    const json = loadText(source, 'x.json', 'json');
    const yaml = asYaml(source);
    expect(json.ok ? [] : json.problems.map((p) => `${p.path}@${p.line}:${p.column}`)).toEqual(['b.c@2:16', 'a@3:2', 'l[0].x@3:25']);
    expect(json).toEqual(yaml);
  });

  it('accepts what JSON allows and YAML may not: a number longer than 400 characters', () => {
    const r = loadText(`{"version": 1, "n": 0.${'1'.repeat(500)}}`, 'x.json', 'json');
    expect(r.ok).toBe(true);
  });

  it('refuses a number the text overflows (1e400 reads as Infinity, which JSON cannot write back), at its place, in both readings', () => {
    const source = '{"version": 1,\n "n": [1, 1e400, -1e400]}';
    for (const r of [loadText(source, 'x.json', 'json'), asYaml(source)]) {
      expect(r.ok ? [] : r.problems.map((p) => `${p.code} ${p.path}@${p.line}:${p.column} ${p.message}`)).toEqual([
        'not_json_data n[1]@2:11 this value is Infinity, a number JSON cannot write.',
        'not_json_data n[2]@2:18 this value is -Infinity, a number JSON cannot write.',
      ]);
    }
  });
});
