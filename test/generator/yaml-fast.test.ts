/**
 * The YAML fast path (generator/load/yaml-fast.ts) against the `yaml` path it
 * stands in for (loadYamlDocument): for every text, the fast path either
 * declines or gives the same value (same keys in the same order, -0, NaN,
 * Infinity, own `__proto__`) and the same positions for every path in the
 * value, as raw offsets and as line and column, value and key mode, plus
 * paths that do not exist. The texts: every YAML file in the repo, the bench's
 * specs, a table of tricky scalars and documents, random values stringified by
 * `yaml` in many styles, and random mutations of valid texts (where the fast
 * path must never accept what the `yaml` path rejects).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify, type ToStringOptions } from 'yaml';
import { makeMixedSpec } from '../../bench/make-spec.js';
import { loadText, type LoadedSpec, type SpecPath } from '../../generator/load.js';
import { parseYamlFast, resolvePlain } from '../../generator/load/yaml-fast.js';
import { loadFastYaml, loadYamlDocument, locateOffset } from '../../generator/load/yaml.js';
import { parseDocument } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A value written out so that every difference shows: key order, -0, NaN, prototypes. */
function show(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(show).join(',')}]`;
  if (typeof v === 'object') {
    if (Object.getPrototypeOf(v) !== Object.prototype) return `<${Object.prototype.toString.call(v)}>`;
    return `{${Reflect.ownKeys(v).map((k) => `${String(k)}:${show((v as Record<string, unknown>)[k as string])}`).join(',')}}`;
  }
  return `<${typeof v}>`;
}

/** Every path in a value, plus one past the end of each sequence and a missing key under each mapping. */
function allPaths(v: unknown, p: (string | number)[] = [], out: SpecPath[] = []): SpecPath[] {
  out.push(p);
  if (Array.isArray(v)) {
    v.forEach((x, i) => allPaths(x, [...p, i], out));
    out.push([...p, v.length], [...p, 'x']);
  } else if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) allPaths((v as Record<string, unknown>)[k], [...p, k], out);
    out.push([...p, '\u0000missing', 0], [...p, 0]);
  } else out.push([...p, 0]);
  return out;
}

/**
 * The fast path's verdict on `text`, checked against the `yaml` path. Returns
 * 'declined' or 'same'; throws (fails the test) on any difference.
 */
function compare(text: string): 'declined' | 'same' {
  const fast = parseYamlFast(text);
  if (!fast) return 'declined';
  const slow = loadYamlDocument(text, 'x.yaml', 'yaml');
  if (!slow.ok) throw new Error(`the fast path accepts a text the yaml path rejects (${slow.problems[0]?.message}):\n${JSON.stringify(text)}`);
  expect(show(fast.value), JSON.stringify(text)).toBe(show(slow.spec.value));
  const fastLoaded = loadFastYaml(text, 'x.yaml', fast);
  if (!fastLoaded.ok) throw new Error('loadFastYaml failed');
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, strict: true });
  for (const p of allPaths(slow.spec.value)) {
    for (const mode of ['value', 'key'] as const) {
      const raw = fast.offset(p, mode);
      if (raw !== undefined) expect(raw, `${JSON.stringify(text)} ${JSON.stringify(p)} ${mode}`).toBe(locateOffset(doc, p, mode));
      expect(fastLoaded.spec.locate(p, mode), `${JSON.stringify(text)} ${JSON.stringify(p)} ${mode}`).toEqual(slow.spec.locate(p, mode));
    }
  }
  return 'same';
}

/** YAML files of the repo (fixtures, examples, test inputs), outside node_modules and scratch folders. */
function repoYamlFiles(dir = ROOT, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git' || entry.name === '.tmp' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) repoYamlFiles(full, out);
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out;
}

describe('the YAML fast path reads exactly what the yaml path reads', () => {
  it('on every YAML file in the repo', () => {
    const files = repoYamlFiles();
    expect(files.length).toBeGreaterThan(30);
    const verdicts = files.map((f) => {
      let text = readFileSync(f, 'utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return [path.relative(ROOT, f), compare(text)] as const;
    });
    // The valid specs all take the fast path; what declines is what the yaml path must word.
    expect(verdicts.filter(([, v]) => v === 'declined').map(([f]) => f).sort()).toEqual([
      'test/fixtures/invalid/duplicate-key.yaml',
      'test/fixtures/invalid/empty-file.yaml',
      'test/fixtures/invalid/yaml-syntax.yaml',
    ]);
  });

  it("on the bench's specs (shared and distinct schemas, both namespace encodings), as the bench writes them", () => {
    for (const made of [makeMixedSpec(40), makeMixedSpec(20, 'schema'), makeMixedSpec(20, 'compact', true)]) {
      const text = stringify(made.spec, { lineWidth: 0, aliasDuplicateObjects: false });
      expect(compare(text)).toBe('same');
    }
  });

  it('on tricky scalars, keys and documents', () => {
    const scalars = ['0o17', '0x1F', '0x1f', '+.inf', '-.Inf', '.INF', '.NaN', '.nan', '.NAN', '~', 'null', 'Null', 'NULL', 'nULL', 'TRUE', 'True', 'true', 'tRUE', 'False', 'FALSE',
      'yes', 'no', 'on', 'off', 'y', 'n', '1_000', '0b101', '2024-01-01', '2024-01-01T10:00:00Z', '<<', '=', '-0', '+0', '-0.0', '007', '08', '0o8', '1e3', '1E+3', '.5', '-.5e-3',
      '1.', '1.0', '12345678901234567890', '0x', '0o', '+', '-', '.', '1.2.3', '1e', 'e3', ':x', 'a:b', 'a #b', '%x', '12:30', '0.1e1_0', 'NaN', 'Infinity', '-Infinity', 'inf'];
    const outcomes = new Map<string, string>();
    for (const s of scalars) {
      for (const text of [`v: ${s}\n`, `- ${s}\n`, `${s}: v\n`, `{k: ${s}}\n`, `[${s}]\n`, `v: "${s}"\n`, `v: '${s}'\n`]) outcomes.set(text, compare(text));
    }
    const documents = [
      'a: !!str 1\n', 'a: !!int "1"\n', 'a: !!binary aGVsbG8=\n', 'a: !!set {x, y}\n', 'a: !custom x\n', '!!map {a: 1}\n',
      'a: &x 1\nb: *x\n', 'a: &x [1]\nb: *x\n', '<<: {a: 1}\nb: 2\n', 'a:\n  <<: {b: 1}\n',
      '1: a\n2: b\n', 'true: a\nfalse: b\n', '1.0: a\n1: b\n', '0x1F: a\n31: b\n', '~: a\n', ': a\n', 'null: a\n"null": b\n', '"": a\n',
      '__proto__: {polluted: 1}\n', 'toString: x\nconstructor: y\n', 'a: 1\na: 2\n', '"a": 1\na: 2\n',
      'text: |\n  line 1\n  line 2\n', 'text: >\n  folded\n  lines\n\n  para\n', 'text: |-\n  keep\n', 'text: |+\n  keep\n\n', 'text: >2\n   indented\n',
      'text: "multi\n  line"\n', "text: 'it''s\n\n  two'\n", 'text: plain\n  continued\n  again\n', 'text: "esc \\t \\u00e9 \\x41 \\\\ \\" \\/"\n',
      'a: 1\r\nb:\r\n  - x\r\n  - y\r\n', 'a:\tb\n', 'a: b\t\n', 'a:\n\t- x\n', '- a\n-\n- c\n', '- - a\n  - b\n- []\n- {}\n',
      '---\na: 1\n', '---\na: 1\n...\n', 'a: 1\n---\nb: 2\n', '%YAML 1.1\n---\na: yes\n', '%YAML 1.2\n---\na: 1\n', '%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n',
      '', '# only a comment\n', 'plain\n', '"quoted"\n', '[1, 2,]\n', '[1, 2,,]\n', 'a: 1\r', 'a: 1\rb: 2\n', '{a: 1, b: }\n', '{a, b: 2}\n', '[a: 1, b]\n', '? a\n: 1\n', '? [a]\n: 1\n', '? a\n',
      'a: {b: [c, {d: e}]}\n', 'a: [\n  1,\n  2\n]\n', 'a: # comment\n  b: 1\n', 'a: 1 # c\n# c\nb: 2\n',
      `${'k'.repeat(1030)}: v\n`, `a: ${'x'.repeat(2000)}\n`, 'a: "unclosed\n', "a: 'unclosed\n", 'a: [1, 2\n', 'a: b: c\n', 'a:\n  - b\n c: d\n',
      `${'['.repeat(120)}${']'.repeat(120)}\n`, 'a: @x\n', 'a: `x\n', 'a: "x"y\n', 'a: x #c\n', 'a: x#c\n', 'a:x\n', '- a\nb: c\n', 'a: b\n- c\n',
    ];
    for (const text of documents) outcomes.set(text, compare(text));
    // What the fast path must leave to the yaml path (it has no exact answer for these).
    for (const text of ['a: !!str 1\n', 'a: !!binary aGVsbG8=\n', 'a: !!set {x, y}\n', 'a: &x 1\nb: *x\n', 'a: 1\na: 2\n', '"a": 1\na: 2\n', '1.0: a\n1: b\n', '0x1F: a\n31: b\n', '~: a\n',
      'a: 1\n---\nb: 2\n', '%YAML 1.1\n---\na: yes\n', '', '[1, 2,,]\n', 'plain\n', '? [a]\n: 1\n', 'a: b: c\n']) {
      expect(outcomes.get(text), JSON.stringify(text)).toBe('declined');
    }
    // …and what it does read, so the table cannot pass by declining everything.
    expect([...outcomes.values()].filter((v) => v === 'same').length).toBeGreaterThan(300);
  });

  it('resolves plain scalars as yaml 1.2 core does', () => {
    expect(['0o17', '0x1F', '+.inf', '.NaN', '~', 'Null', 'TRUE', 'yes', '1_000', '0b101', '2024-01-01', '<<', '-0', '1e3'].map(resolvePlain)).toEqual(
      [15, 31, Infinity, NaN, null, null, true, 'yes', '1_000', '0b101', '2024-01-01', '<<', -0, 1000]);
    const fromFast = loadText('a: 0o17\nb: yes\nc: 2024-01-01\n<<: x\n', 'x.yaml', 'yaml');
    expect(fromFast.ok && fromFast.spec.value).toEqual({ a: 15, b: 'yes', c: '2024-01-01', '<<': 'x' });
  });

  it('on random values stringified by yaml in block, flow and every scalar style', () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('1', '0x1F', 'true', 'null', '~', '-0', '1e3', '<<', '__proto__', 'toString', 'a b', 'a: b', '#x', '- x', ' x', ''));
    const scalar = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\t', ':', '#', '-', '"', "'", '\\', '|', '>', '{', '[', ',', '\r', '\u00e9', '\u2028', '\u0085'), maxLength: 16 }),
      fc.constantFrom('0o17', '0x1F', '+.inf', '.NaN', '~', 'Null', 'TRUE', 'yes', '1_000', '0b101', '2024-01-01', '<<', '', ' ', '- a', 'a: b', 'line\nline', 'trailing \n', '\n\nlead'),
      fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(-0),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('node'), { maxLength: 4 }),
      map: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
    })).node;
    const styles: ToStringOptions[] = [
      {}, { collectionStyle: 'flow' }, { defaultStringType: 'QUOTE_DOUBLE' }, { defaultStringType: 'QUOTE_SINGLE' }, { defaultStringType: 'BLOCK_LITERAL' },
      { defaultStringType: 'BLOCK_FOLDED', lineWidth: 20, minContentWidth: 5 }, { indent: 4, indentSeq: false }, { lineWidth: 0, defaultKeyType: 'PLAIN' }, { flowCollectionPadding: false, collectionStyle: 'flow', lineWidth: 30 },
    ];
    let same = 0;
    fc.assert(
      fc.property(value, fc.constantFrom(...styles), fc.boolean(), (v, style, crlf) => {
        let text = stringify(v, { ...style, aliasDuplicateObjects: false });
        if (crlf) text = text.replace(/\n/g, '\r\n');
        if (compare(text) === 'same') same++;
      }),
      { numRuns: 1500, seed: 14 },
    );
    expect(same).toBeGreaterThan(1000);
  });

  it('never accepts a mutated text the yaml path rejects, nor reads it differently', () => {
    const bases = [
      'version: 1\ntools:\n  - name: read_file\n    description: Read a file.\n    tags: [fs, read]\n    parameters:\n      type: object\n      properties:\n        path: {type: string}\n      required: [path]\n',
      'a:\n  b: "x y"\n  c: \'z\'\n  d:\n    - 1\n    - -2.5\n    - ~\n  e: |\n    text\n  f: {g: [h, i], j: k}\n# end\n',
      '- name: x\n  v: [1, {a: b}]\n- plain text\n  more\n- "q\\"uoted"\n- >-\n  folded\n',
    ];
    const alphabet = [':', '-', ' ', ' ', '\t', '\n', '#', "'", '"', '{', '}', '[', ']', ',', '&', '*', '!', '|', '>', '?', '%', '@', '\r', 'a', '1', '~', '\\', '.', '\u00a0', '\ufeff', '\u0000'];
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'replace'), char: fc.constantFrom(...alphabet) });
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(edit, { minLength: 1, maxLength: 4 }), (base, edits) => {
        let text = base;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = e.kind === 'insert' ? text.slice(0, at) + e.char + text.slice(at) : e.kind === 'delete' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + e.char + text.slice(at + 1);
        }
        if (compare(text) === 'same') accepted++;
      }),
      { numRuns: 3000, seed: 14 },
    );
    expect(accepted).toBeGreaterThan(500);
  });
});

describe('a text the fast path reads', () => {
  it('asks a yaml Document only for positions its events cannot give (a block scalar)', () => {
    const text = 'tools:\n  - name: x\n    description: |\n      Long text.\n';
    const loaded = loadText(text, 'x.yaml', 'yaml');
    if (!loaded.ok) throw new Error('did not load');
    const spec: LoadedSpec = loaded.spec;
    expect(parseYamlFast(text)?.offset(['tools', 0, 'description'], 'value')).toBeUndefined();
    expect(spec.locate(['tools', 0, 'description'])).toEqual({ line: 3, column: 18 });
    expect(spec.locate(['tools', 0, 'name'])).toEqual({ line: 2, column: 11 });
  });
});
