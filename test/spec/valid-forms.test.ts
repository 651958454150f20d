/**
 * The front end's output: the same spec in YAML, JSON and TS normalizes to
 * the same IR and hash; shorthand, `$ref`s, defaults and type names behave as
 * documented in docs/spec.md; the example spec is valid.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { IRSpec } from '../../generator/ir.js';
import { loadSpec, loadText } from '../../generator/load.js';
import { buildIR, formatProblems, normalizeSpec, uniqueTypeNames } from '../../generator/normalize.js';
import { validateSpec } from '../../generator/validate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FORMS = 'test/fixtures/valid-forms/forms.spec';

async function ir(file: string, cwd = ROOT): Promise<IRSpec> {
  const r = await buildIR(file, { cwd });
  if (!r.ok) throw new Error(`${file} should be valid:\n${formatProblems(r.problems)}`);
  return r.ir;
}

/** An IR from YAML text held in memory. */
function irOf(yaml: string): IRSpec {
  const r = loadText(yaml, 'inline.yaml', 'yaml');
  if (!r.ok) throw new Error(formatProblems(r.problems));
  const problems = validateSpec(r.spec);
  if (problems.length > 0) throw new Error(formatProblems(problems));
  return normalizeSpec(r.spec);
}

/** The IR without what legitimately differs between forms and paths. */
const withoutSources = (spec: IRSpec): unknown =>
  JSON.parse(JSON.stringify(spec, (key, value: unknown) => (key === 'source' || key === 'file' ? undefined : value)));

describe('one spec, three forms', () => {
  it('YAML, JSON and TS (defineSpec + zod) give the same IR, key order included, and the same hash', async () => {
    const [yaml, json, ts] = await Promise.all([ir(`${FORMS}.yaml`), ir(`${FORMS}.json`), ir(`${FORMS}.ts`)]);
    expect(JSON.stringify(withoutSources(json))).toBe(JSON.stringify(withoutSources(yaml)));
    expect(JSON.stringify(withoutSources(ts))).toBe(JSON.stringify(withoutSources(yaml)));
    expect(json.hash).toBe(yaml.hash);
    expect(ts.hash).toBe(yaml.hash);
    expect(yaml.hash).toMatch(/^[0-9a-f]{64}$/);
    expect([yaml.file, json.file, ts.file]).toEqual([`${FORMS}.yaml`, `${FORMS}.json`, `${FORMS}.ts`]);
  });

  it('keeps spec text exactly as written (no trimming, no escaping)', async () => {
    for (const spec of [await ir(`${FORMS}.yaml`), await ir(`${FORMS}.ts`)]) {
      const readFile = spec.tools[0];
      expect(readFile?.description).toBe('Read a file: <path> & "quotes" */ ${x} \\ end ');
      expect(readFile?.parameters.properties).toMatchObject({ encoding: { enum: ['utf8', '</tool>', 'a"b'] } });
      expect(readFile?.tags).toEqual(['file', 'Read']);
    }
  });

  it('records where each tool was defined (TS specs: 1:1)', async () => {
    const yaml = await ir(`${FORMS}.yaml`);
    expect(yaml.tools.map((t) => `${t.source.path}@${t.source.line}:${t.source.column}`)).toEqual([
      'tools[0]@5:5',
      'tools[1]@16:5',
      'namespaces[0].tools[1]@24:9',
      'toolkits[0].tools[0]@31:9',
    ]);
    const ts = await ir(`${FORMS}.ts`);
    expect(ts.tools.every((t) => t.source.line === 1 && t.source.column === 1)).toBe(true);
  });

  it('hash and IR do not depend on the file name, its folder or the cwd', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'toolroute-spec-'));
    try {
      copyFileSync(path.join(ROOT, `${FORMS}.yaml`), path.join(dir, 'other-name.yml'));
      const here = await ir(`${FORMS}.yaml`);
      const there = await ir('other-name.yml', dir);
      const absolute = await ir(path.join(dir, 'other-name.yml'), ROOT);
      expect(there.hash).toBe(here.hash);
      expect(absolute.hash).toBe(here.hash);
      expect(there.file).toBe('other-name.yml');
      expect(path.isAbsolute(absolute.file)).toBe(false);
      expect(absolute.file).not.toContain('\\');
      expect(withoutSources(there)).toEqual(withoutSources(here));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the hash changes when the spec changes, including the order of properties', () => {
    const base = 'version: 1\ntools:\n  - name: a\n    description: A\n    parameters: { x: { type: string }, y: { type: number } }\n';
    const h = irOf(base).hash;
    expect(irOf(base.replace('description: A', 'description: B')).hash).not.toBe(h);
    expect(irOf(base.replace('{ x: { type: string }, y: { type: number } }', '{ y: { type: number }, x: { type: string } }')).hash).not.toBe(h);
    expect(irOf(base.replace('parameters: {', 'parameters:   {')).hash).toBe(h); // formatting is not content
  });

  it('a schema property named `source` is content: changing it changes the hash', () => {
    const spec = (type: string) => `version: 1\ntools:\n  - name: fetch_data\n    description: Fetch\n    parameters: { source: { type: ${type} } }\n`;
    expect(irOf(spec('string')).hash).not.toBe(irOf(spec('number')).hash);
  });
});

describe('normalization', () => {
  const spec = irOf(`
version: 1
tools:
  - name: no_args
    description: Takes nothing
  - name: short
    description: Shorthand
    parameters: { path: { type: string }, depth: { type: integer, minimum: 0 } }
  - name: empty_short
    description: Empty shorthand
    parameters: {}
  - name: refs
    description: Refs
    parameters:
      type: object
      properties:
        a: { $ref: "#/$defs/A" }
        b: { $ref: "#/definitions/B", description: Bee }
        c: { $ref: "#/properties/a" }
      $defs:
        A: { type: object, properties: { inner: { $ref: "#/$defs/Leaf" } } }
        Leaf: { type: string, minLength: 1 }
      definitions:
        B: { type: integer, description: Original }
  - name: tuple07
    description: Draft-07 tuple
    parameters:
      $schema: "http://json-schema.org/draft-07/schema#"
      type: object
      properties:
        pair: { type: array, items: [{ type: string }, { type: number }], additionalItems: false }
        x: { $ref: "#/definitions/X", description: ignored in draft-07 }
      dependencies: { x: [pair] }
      definitions:
        X: { type: boolean }
`);
  const tool = (name: string) => {
    const t = spec.tools.find((x) => x.name === name);
    if (!t) throw new Error(name);
    return t;
  };

  it('gives a tool without parameters a closed empty object schema', () => {
    expect(tool('no_args').parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(tool('no_args').hasParameters).toBe(false);
  });

  it('expands the shorthand to { type: object, properties } with every property optional', () => {
    expect(tool('short').parameters).toEqual({
      type: 'object',
      properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 0 } },
    });
    expect(tool('short').parameters).not.toHaveProperty('required');
    expect(tool('short').hasParameters).toBe(true);
    expect(tool('empty_short').parameters).toEqual({ type: 'object', properties: {} });
  });

  it('inlines local $refs (siblings applied in 2020-12) and removes $defs/definitions', () => {
    const p = tool('refs').parameters;
    const a = { type: 'object', properties: { inner: { type: 'string', minLength: 1 } } };
    expect(p).toEqual({ type: 'object', properties: { a, b: { type: 'integer', description: 'Bee' }, c: a } });
    expect(JSON.stringify(p)).not.toMatch(/\$ref|\$defs|definitions/);
  });

  it('rewrites draft-07 into 2020-12 form (one dialect in the IR), ignoring $ref siblings as draft-07 does', () => {
    expect(tool('tuple07').parameters).toEqual({
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        x: { type: 'boolean' },
      },
      dependentRequired: { x: ['pair'] },
    });
  });

  it('fills defaults and indices', () => {
    expect(spec.options).toEqual({ namespaceEncoding: 'compact', openaiStrict: false, offerUngroupedTools: true, applyDefaults: false });
    expect(spec.flat).toEqual([0, 1, 2, 3, 4]);
    expect(spec.namespaces).toEqual([]);
    expect(spec.policies).toEqual([]);
  });

  it('gives tools whose type names collide unique, deterministic names', () => {
    const s = irOf(`
version: 1
tools:
  - { name: read_file, description: a }
  - { name: read-file, description: b }
  - { name: readFile, description: c }
  - { name: _1st, description: d }
  - { name: tool, description: e }
  - { name: Handlers, description: f }
`);
    expect(s.tools.map((t) => t.typeName)).toEqual(['ReadFileArgs', 'ReadFileArgs_2', 'ReadFileArgs_3', 'Tool1stArgs', 'ToolArgs_2', 'HandlersArgs']);
    expect(uniqueTypeNames(['a-b', 'a_b'])).toEqual(uniqueTypeNames(['a-b', 'a_b']));
  });

  it('lists a tool referred to from several groups once, with all its groups', () => {
    const s = irOf(`
version: 1
tools:
  - read_file
namespaces:
  - name: file_ops
    description: Files
    tools:
      - { name: read_file, description: Read }
      - { name: write_file, description: Write }
  - name: more
    description: More
    tools: [write_file, read_file]
toolkits:
  - { name: Kit, description: Kit, tools: [read_file] }
policies:
  prod: [Kit, more, read_file]
`);
    expect(s.tools.map((t) => t.name)).toEqual(['read_file', 'write_file']);
    expect(s.tools[0]).toMatchObject({ flat: true, namespaces: [0, 1], toolkits: [0] });
    expect(s.tools[0]?.source.path).toBe('namespaces[0].tools[0]');
    expect(s.flat).toEqual([0]);
    expect(s.namespaces.map((n) => n.tools)).toEqual([[0, 1], [1, 0]]);
    expect(s.toolkits[0]?.tools).toEqual([0]);
    expect(s.policies).toMatchObject([{ name: 'prod', block: ['Kit', 'more', 'read_file'] }]);
  });

  it('accepts read-file and read_file as two distinct tools (only their type names differ)', () => {
    expect(() => irOf('version: 1\ntools:\n  - { name: read-file, description: a }\n  - { name: read_file, description: b }\n')).not.toThrow();
  });

  it('does not call a spec "all deferred" when a namespace or load_toolkit is not deferred', () => {
    const s = irOf('version: 1\ntools:\n  - { name: a, description: A, deferLoading: true }\ntoolkits:\n  - { name: K, description: K, tools: [{ name: b, description: B, deferLoading: true }] }\n');
    expect(s.tools.every((t) => t.deferLoading)).toBe(true);
  });
});

describe('examples/tools.spec.yaml', () => {
  it('validates with no problems', async () => {
    const loaded = await loadSpec('examples/tools.spec.yaml', { cwd: ROOT });
    if (!loaded.ok) throw new Error(formatProblems(loaded.problems));
    expect(formatProblems(validateSpec(loaded.spec))).toBe('');
  });
});

