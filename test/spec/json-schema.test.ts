/**
 * schema/toolspec.schema.json is emitted from the zod spec schema and
 * committed for editors; it must never go stale, and it must agree with the
 * generator on what a spec's shape is.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AjvDraft7 from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_FILE, renderSpecJsonSchema } from '../../schema/emit-json-schema.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('schema/toolspec.schema.json', () => {
  it('equals a fresh emission from schema/spec-schema.ts (run `npx tsx schema/emit-json-schema.ts` to update)', () => {
    expect(readFileSync(JSON_SCHEMA_FILE, 'utf8')).toBe(renderSpecJsonSchema());
  });

  const validate = new AjvDraft7.default({ allErrors: true, strict: false }).compile(JSON.parse(renderSpecJsonSchema()) as object);

  it('accepts the valid specs and rejects a typo such as `namespace:` in editors too', () => {
    for (const file of ['examples/tools.spec.yaml', 'test/fixtures/valid-forms/forms.spec.yaml']) {
      expect(validate(parse(readFileSync(`${ROOT}/${file}`, 'utf8'))), file).toBe(true);
    }
    expect(validate(parse(readFileSync(`${ROOT}/test/fixtures/invalid/unknown-key-root.yaml`, 'utf8')))).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', params: { additionalProperty: 'namespace' } });
  });

  it('documents every field for editors', () => {
    const text = renderSpecJsonSchema();
    const schema = JSON.parse(text) as { properties: Record<string, { description?: string }> };
    for (const [key, field] of Object.entries(schema.properties)) expect(field.description, key).toBeTruthy();
  });
});
