/**
 * ajv's record of evaluated properties, which only `unevaluatedProperties` / `unevaluatedItems` read, is left out of
 * validators that have neither: in ajv 8.20 that bookkeeping throws on valid arguments beside `patternProperties`,
 * and dispatch then refused a valid call. Checked on the arguments JSON Schema accepts and refuses, through dispatch.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { tracksEvaluated } from '../../generator/emit/validators.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(REPO, '.tmp', 'runtime-tests', 'evaluated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const X = { '^x-': { type: 'string' } };
const TOOLS = [
  { name: 'fetch_source', description: 'if / then / else beside patternProperties',
    parameters: { type: 'object', patternProperties: X, if: { required: ['path'] }, then: { required: ['mode'] }, else: { properties: { url: { type: 'string' } }, required: ['url'] } } },
  { name: 'lookup', description: 'an anyOf branch with additionalProperties beside patternProperties',
    parameters: { type: 'object', patternProperties: X, anyOf: [{ properties: { id: { type: 'integer' } }, required: ['id'] }, { additionalProperties: { type: 'string' } }] } },
  { name: 'strict_bag', description: 'unevaluatedProperties: the record is kept',
    parameters: { type: 'object', properties: { a: { type: 'string' } }, patternProperties: X, unevaluatedProperties: false } },
];

describe('validators without unevaluated* keywords', () => {
  test('accept what JSON Schema accepts beside patternProperties, and refuse what it refuses', async () => {
    writeFileSync(path.join(dir, 'spec.json'), JSON.stringify({ version: 1, tools: TOOLS }));
    const result = await generate(path.join(dir, 'spec.json'), { out: path.join(dir, 'out'), cwd: REPO });
    expect(result.problems).toEqual([]);
    const gen = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule;
    const router = createRouter(gen, { fetch_source: () => 'ok', lookup: () => 'ok', strict_bag: () => 'ok' } as never);
    const cases: [string, object, boolean][] = [
      ['fetch_source', { path: 'a', mode: 'r', 'x-trace': 't' }, true],
      ['fetch_source', { url: 'u', 'x-trace': 't' }, true],
      ['fetch_source', { path: 'a', 'x-trace': 't' }, false],
      ['fetch_source', { url: 'u', 'x-trace': 1 }, false],
      ['lookup', { 'x-a': 's' }, true],
      ['lookup', { name: 's', 'x-a': 's' }, true],
      ['lookup', { id: 1, 'x-a': 's' }, true],
      ['lookup', { name: 1 }, false],
      ['strict_bag', { a: 's', 'x-b': 's' }, true],
      ['strict_bag', { a: 's', other: 's' }, false],
    ];
    for (const [name, args, valid] of cases) {
      const r = await router.dispatch({ name, arguments: JSON.stringify(args) });
      expect(r.ok, `${name} ${JSON.stringify(args)}: ${r.ok ? 'accepted' : r.reason}`).toBe(valid);
      if (!valid) expect(r).toMatchObject({ code: 'invalid_arguments' });
    }
    // Only the schema that reads the record carries it.
    const code = readFileSync(path.join(dir, 'out', 'validators.gen.ts'), 'utf8');
    expect(code.match(/const (plain|ownProperties)\w*/g)).toEqual(['const plain1', 'const plainTracked1']);
    expect(code.slice(0, code.indexOf('const plainTracked1'))).not.toContain('evaluated');
  });

  test('a chain of 30 derived types (allOf + unevaluatedProperties: false at each level) is typed once per level', async () => {
    // Each level was typed again by every level above it, doubling the work per level: 15 levels took 46 s, 30 would
    // never finish. The test finishes, and every level's field is in the type.
    const levels = 30;
    let schema: Record<string, unknown> = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], unevaluatedProperties: false };
    for (let k = 1; k <= levels; k++) schema = { type: 'object', allOf: [schema], properties: { [`field_${k}`]: { type: 'integer' } }, unevaluatedProperties: false };
    writeFileSync(path.join(dir, 'chain.json'), JSON.stringify({ version: 1, tools: [{ name: 'derived', description: 'Derived', parameters: schema }] }));
    const result = await generate(path.join(dir, 'chain.json'), { out: path.join(dir, 'chain'), cwd: REPO });
    expect(result.problems).toEqual([]);
    const types = readFileSync(path.join(dir, 'chain', 'types.gen.ts'), 'utf8');
    for (const k of [1, 15, levels]) expect(types).toContain(`field_${k}?: number`);
  });

  test('tracksEvaluated looks at every subschema, not at property names', () => {
    expect(tracksEvaluated({ type: 'object', properties: { a: { type: 'array', unevaluatedItems: false } } })).toBe(true);
    expect(tracksEvaluated({ type: 'object', properties: { unevaluatedProperties: { type: 'string' } } })).toBe(false);
    expect(tracksEvaluated({ type: 'object', anyOf: [{ unevaluatedProperties: { type: 'string' } }] })).toBe(true);
  });
});
