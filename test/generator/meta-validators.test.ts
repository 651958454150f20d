/**
 * The compiled meta-schema validators (generator/validate/meta-validators.gen.ts): the committed file is what
 * ajv writes today, its verdicts and errors are ajv's `validateSchema` ones on every schema of the JSON Schema
 * Test Suite and on broken copies of them, and every spelling of `$schema` the generator accepts is checked
 * against its dialect's meta-schema instead of crashing on an id ajv does not know.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Ajv } from 'ajv';
import { generate } from '../../generator/index.js';
import { metaSchemaErrors } from '../../generator/validate/parameters.js';
import { STRICT } from '../../generator/validate/meta-schema.js';
import { META_VALIDATORS_FILE, metaValidatorsModule } from '../../scripts/meta-validators.js';
import type { SchemaDialect } from '../../generator/validate/schema-keywords.js';
import { loadSuite } from '../spec/json-schema-suite.js';

const require = createRequire(import.meta.url);

/** ajv compiling the meta-schema itself, at run time: `validateSchema` per dialect, the reference the compiled code must match. */
function runtimeAjv(dialect: SchemaDialect): Ajv {
  const AjvClass = (require(dialect === '2020-12' ? 'ajv/dist/2020.js' : 'ajv') as { default: new (o: object) => Ajv }).default;
  const ajv = new AjvClass({ ...STRICT, allErrors: true });
  (require('ajv-formats') as { default: (a: Ajv) => Ajv }).default(ajv);
  return ajv;
}

/** Broken copies of a schema: keyword values of the wrong type or out of range, at the top and one level down. */
function broken(schema: unknown): unknown[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const s = schema as Record<string, unknown>;
  const out: unknown[] = [
    { ...s, type: 'strin' }, { ...s, minLength: -1 }, { ...s, required: ['a', 'a'] }, { ...s, enum: 3 },
    { ...s, pattern: 7 }, { ...s, properties: { x: { type: 5, maxItems: 1.5 } } }, { ...s, allOf: [] }, { ...s, $id: 3 },
  ];
  for (const [key, value] of Object.entries(s)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push({ ...s, [key]: { ...value, minimum: 'zero' } });
  }
  return out;
}

describe('compiled meta-schema validators', () => {
  it('the committed file is what ajv compiles today (npm run regen rewrites it)', () => {
    expect(readFileSync(META_VALIDATORS_FILE, 'utf8'), 'generator/validate/meta-validators.gen.ts is stale: run `npm run regen`').toBe(metaValidatorsModule());
  });

  it("gives ajv's validateSchema verdict and errors on the JSON Schema Test Suite's schemas and broken copies of them", () => {
    const ajv = { '2020-12': runtimeAjv('2020-12'), 'draft-07': runtimeAjv('draft-07') };
    let invalid = 0;
    let compared = 0;
    for (const group of loadSuite()) {
      const dialect: SchemaDialect = group.dialect === 'draft7' ? 'draft-07' : '2020-12';
      // validateSchema picks the meta-schema by `$schema`; the compiled one is the dialect's whatever `$schema` says.
      const strip = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== '$schema')) : v);
      for (const schema of [strip(group.schema), ...broken(strip(group.schema))]) {
        const valid = ajv[dialect].validateSchema(schema as object) === true;
        const errors = metaSchemaErrors(dialect, schema);
        expect(errors, `${group.id}: ${JSON.stringify(schema)}`).toEqual(valid ? [] : ajv[dialect].errors);
        compared++;
        if (!valid) invalid++;
      }
    }
    // Both sides of the check are exercised: the suite's own schemas are valid, most broken copies are not.
    expect(compared).toBeGreaterThan(2000);
    expect(invalid).toBeGreaterThan(compared / 2);
  });

  describe('every accepted spelling of $schema', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolroute-meta-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const spellings = [
      'https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#',
      'http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema', 'https://json-schema.org/draft-07/schema#',
    ];
    it.each(spellings)('%s: a valid schema generates, a broken one is an invalid_schema problem', async (uri) => {
      const spec = (minLength: number) => `version: 1\ntools:\n  - name: read_file\n    description: Read a file.\n    parameters:\n` +
        `      $schema: ${JSON.stringify(uri)}\n      type: object\n      properties:\n        path: { type: string, minLength: ${minLength} }\n`;
      const file = path.join(dir, 'tools.spec.yaml');
      writeFileSync(file, spec(1));
      const good = await generate(file, { out: path.join(dir, 'out'), cwd: dir });
      expect(good.problems).toEqual([]);
      expect(good.ok).toBe(true);
      writeFileSync(file, spec(-1));
      const bad = await generate(file, { out: path.join(dir, 'out-bad'), cwd: dir });
      expect(bad.ok).toBe(false);
      expect(bad.problems.map((p) => [p.code, 'path' in p ? p.path : undefined])).toEqual([['invalid_schema', 'tools[0].parameters.properties.path.minLength']]);
    });
  });
});
