/**
 * JSON Schema 2020-12 identifiers in `parameters`: `$anchor` refs, refs
 * relative to a nested `$id`, and `$dynamicRef` / `$dynamicAnchor` (a
 * recursive tree). Each spec generates, its argument types compile and accept
 * what the validator accepts, and dispatch accepts and rejects what ajv does
 * on the schema as written. `$vocabulary` is ignored with a warning; the
 * draft 2019-09 `$recursiveRef` / `$recursiveAnchor` are refused.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGenerateProblem, generate } from '../../generator/index.js';
import { expandParameters } from '../../generator/validate.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';
import { TSC_RUN } from '../setup/package-build.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const TREE = {
  $id: 'https://example.com/tree',
  $dynamicAnchor: 'node',
  type: 'object',
  properties: { data: { type: 'string' }, children: { type: 'array', items: { $dynamicRef: '#node' } } },
  required: ['data'],
};

/** Each tool: its parameters, arguments the validator accepts, arguments it rejects. */
const TOOLS: Record<string, { parameters: Record<string, unknown>; valid: unknown[]; invalid: unknown[] }> = {
  anchor_ref: {
    parameters: {
      type: 'object',
      $defs: { point: { $anchor: 'point', type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
      properties: { from: { $ref: '#point' }, to: { $ref: '#point' } },
      required: ['from'],
    },
    valid: [{ from: { x: 1, y: 2 } }, { from: { x: 1, y: 2 }, to: { x: 0, y: 0 } }],
    invalid: [{ from: { x: 1 } }, { from: { x: 'a', y: 2 } }, {}],
  },
  nested_id: {
    parameters: {
      $id: 'https://example.com/tools/ship',
      type: 'object',
      properties: {
        // Inside `address`, `#/$defs/zip` is read against its own `$id`: the zip code below, not a root `$defs`.
        address: {
          $id: 'address/',
          $defs: { zip: { type: 'string', pattern: '^[0-9]{5}$' } },
          type: 'object',
          properties: { zip: { $ref: '#/$defs/zip' } },
          required: ['zip'],
        },
        billingZip: { $ref: 'address/#/$defs/zip' },
      },
      required: ['address'],
      $defs: { zip: { type: 'integer' } },
    },
    valid: [{ address: { zip: '12345' } }, { address: { zip: '12345' }, billingZip: '54321' }],
    invalid: [{ address: { zip: 12345 } }, { address: { zip: '1234' } }, { address: { zip: '12345' }, billingZip: 5 }],
  },
  dynamic_tree: {
    parameters: { type: 'object', properties: { root: TREE }, required: ['root'] },
    valid: [{ root: { data: 'a' } }, { root: { data: 'a', children: [{ data: 'b', children: [{ data: 'c' }] }] } }],
    invalid: [{ root: { data: 'a', children: [{ data: 1 }] } }, { root: { data: 'a', children: [{ children: [] }] } }, { root: {} }],
  },
  // The same `$id` in another tool, with another meaning: each schema keeps its own.
  dynamic_tree_numbers: {
    parameters: { type: 'object', properties: { root: { ...TREE, properties: { ...TREE.properties, data: { type: 'number' } } } }, required: ['root'] },
    valid: [{ root: { data: 1, children: [{ data: 2 }] } }],
    invalid: [{ root: { data: 1, children: [{ data: 'b' }] } }],
  },
};

let base = '';
let gen: GeneratedModule | undefined;
let generateErrors: string[] = [];
let tsc = { status: null as number | null, output: '' };

beforeAll(async () => {
  const root = path.join(REPO, '.tmp', 'identifiers');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'run-'));
  const spec = { version: 1, tools: Object.entries(TOOLS).map(([name, t]) => ({ name, description: name, parameters: t.parameters })) };
  writeFileSync(path.join(base, 'tools.spec.json'), `${JSON.stringify(spec, null, 1)}\n`);
  const result = await generate('tools.spec.json', { out: 'out', cwd: base });
  generateErrors = result.problems.map(formatGenerateProblem);
  if (!result.ok) return;
  gen = (await import(pathToFileURL(path.join(base, 'out', 'index.ts')).href)) as GeneratedModule;
  // Every valid value assigned to its tool's argument type: the types accept what the validator accepts.
  const lines = ["import type { ToolArgs } from './out/index.js';"];
  for (const [name, t] of Object.entries(TOOLS)) t.valid.forEach((v, i) => lines.push(`export const ${name}_${i}: ToolArgs[${JSON.stringify(name)}] = ${JSON.stringify(v)};`));
  lines.push('// @ts-expect-error a string is no arguments object (proves the file is checked)', 'export const notArguments: ToolArgs["anchor_ref"] = "x";');
  lines.push('// @ts-expect-error an anchor ref resolved locally keeps its type', 'export const wrongPoint: ToolArgs["anchor_ref"] = { from: { x: "1", y: 2 } };');
  writeFileSync(path.join(base, 'values.ts'), `${lines.join('\n')}\n`);
  writeFileSync(path.join(base, 'tsconfig.json'), JSON.stringify({
    extends: path.relative(base, path.join(REPO, 'tsconfig.json')),
    compilerOptions: { noEmit: true, exactOptionalPropertyTypes: true },
    include: ['out', 'values.ts'],
    exclude: [],
  }));
  const run = spawnSync(process.execPath, [...TSC_RUN, '--noEmit', '--pretty', 'false', '-p', base], { encoding: 'utf8' });
  // Only the generated files and the values: the runtime's own sources are not checked under these flags here.
  tsc = { status: run.status, output: (run.stdout + run.stderr).split('\n').filter((l) => /^(out\/|values\.ts)/.test(l)).join('\n') };
}, 300_000);

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('2020-12 identifiers in parameters', () => {
  it('generates, and the argument types compile and accept every valid value', () => {
    expect(generateErrors).toEqual([]);
    expect(tsc.status).not.toBeNull();
    expect(tsc.output).toBe('');
  });

  it('dispatch accepts and rejects what ajv does on the schema as written', async () => {
    if (!gen) throw new Error('the spec did not generate');
    const router = createRouter(gen, Object.fromEntries(Object.keys(TOOLS).map((n) => [n, () => 'ok'])) as never);
    for (const [name, t] of Object.entries(TOOLS)) {
      const validate = new Ajv2020.default({ strict: false }).compile(t.parameters);
      for (const [values, verdict] of [[t.valid, true], [t.invalid, false]] as const) {
        for (const v of values) {
          expect(validate(v), `ajv: ${name} ${JSON.stringify(v)}`).toBe(verdict);
          const r = await router.dispatch({ name, arguments: JSON.stringify(v) });
          expect(r.ok, `${name} ${JSON.stringify(v)}`).toBe(verdict);
        }
      }
    }
  });

  it('inlines static refs (anchors, nested ids) and keeps a dynamic scope for ajv', () => {
    const anchor = expandParameters(TOOLS.anchor_ref!.parameters);
    expect(anchor.problems).toEqual([]);
    expect(JSON.stringify(anchor.schema)).not.toMatch(/\$ref|\$anchor|\$defs/);
    const nested = expandParameters(TOOLS.nested_id!.parameters);
    expect(nested.problems).toEqual([]);
    expect(nested.schema.properties).toMatchObject({ address: { properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } } }, billingZip: { type: 'string' } });
    const tree = expandParameters(TOOLS.dynamic_tree!.parameters);
    expect(tree.problems).toEqual([]);
    expect(tree.schema.properties).toMatchObject({ root: { $id: 'https://example.com/tree', $dynamicAnchor: 'node' } });
  });

  it('ignores $vocabulary with a warning and refuses the 2019-09 recursive refs', () => {
    const vocabulary = expandParameters({ type: 'object', $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true }, properties: {} });
    expect(vocabulary.problems).toEqual([]);
    expect(vocabulary.warnings.map((w) => w.path)).toEqual([['$vocabulary']]);
    expect(vocabulary.schema).toEqual({ type: 'object', properties: {} });
    const recursive = expandParameters({ type: 'object', $recursiveAnchor: true, properties: { next: { $recursiveRef: '#' } } });
    expect(recursive.problems.map((p) => [p.code, p.path])).toEqual([['unsupported_schema_keyword', ['$recursiveAnchor']], ['unsupported_schema_keyword', ['properties', 'next', '$recursiveRef']]]);
    expect(recursive.problems[0]?.hint).toContain('$dynamicAnchor');
  });

  it('still refuses a ref to another document and a ref to an anchor nobody declares', () => {
    const remote = expandParameters({ $id: 'https://example.com/a', type: 'object', properties: { b: { $ref: 'b.json' } } });
    expect(remote.problems.map((p) => p.code)).toEqual(['remote_ref']);
    const missing = expandParameters({ type: 'object', properties: { b: { $ref: '#nobody' } } });
    expect(missing.problems.map((p) => p.code)).toEqual(['unresolved_ref']);
  });
});
