/**
 * Tools whose schemas differ only in annotations share one validator
 * (generator/emit/validation-schema.ts, `distinctSchemas` in
 * emit/context.ts). These tests prove the shared validator is the same
 * validator: on every schema of the JSON Schema Test Suite (both drafts, with
 * and without `useDefaults`), ajv compiled from the schema and from its
 * validation schema gives the same verdict, the same error list and the same
 * filled arguments on every suite instance and a few generic values. And
 * that only annotation keywords at schema positions go: a property named
 * `description`, an `enum` value or a `const` that looks like a keyword stay.
 */
import type { Ajv, Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { distinctSchemas } from '../../generator/emit/context.js';
import { validationSchema } from '../../generator/emit/validation-schema.js';
import { schemaForAjv } from '../../generator/emit/ajv-schema.js';
import { expandParameters } from '../../generator/validate/parameters.js';
import type { JsonSchema } from '../../generator/ir.js';
import { loadSuite, wrapSuiteSchema } from '../spec/json-schema-suite.js';

const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** Annotations added at every schema node of a suite schema, so the suite's schemas carry them everywhere. */
function annotated(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].includes(k) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, annotated(s, depth + 1)]));
    } else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'].includes(k)) {
      out[k] = Array.isArray(v) ? v.map((s) => annotated(s, depth + 1)) : annotated(v, depth + 1);
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(k) && Array.isArray(v)) {
      out[k] = v.map((s) => annotated(s, depth + 1));
    } else {
      out[k] = v;
    }
  }
  return { title: `t${depth}`, description: 'what the model reads', examples: [1, 'x'], $comment: 'c', readOnly: false, ...out };
}

/** Compiles as validators.ts does (the emitted validators' options; toolroute's schemas are 2020-12, refs inlined). */
function compilers(useDefaults: boolean) {
  const options: Options = { allErrors: true, strictNumbers: true, strict: false, logger: false, ...(useDefaults ? { useDefaults: true } : {}) };
  const original = addFormats(new Ajv2020(options));
  const seen = addFormats(new Ajv2020(options));
  return (schema: JsonSchema) => ({ original: original.compile(schema), seen: seen.compile(validationSchema(schema, useDefaults)) });
}

/** Each suite schema as toolroute compiles it, annotations added everywhere: wrapped as tool parameters, expanded, refs inlined. */
function suiteParameters(): { id: string; schema: JsonSchema; data: unknown[] }[] {
  const out: { id: string; schema: JsonSchema; data: unknown[] }[] = [];
  for (const group of loadSuite()) {
    {
      const expanded = expandParameters(wrapSuiteSchema(annotated(group.schema), group.dialect));
      if (expanded.problems.length > 0) continue;
      out.push({ id: group.id, schema: schemaForAjv(expanded.schema), data: [...group.tests.map((t) => t.data), null, 1.5, 'x', [], {}, { a: 1, b: [null] }].map((d) => ({ value: d })) });
    }
  }
  return out;
}

describe('validationSchema', () => {
  it('drops annotations at schema positions only', () => {
    const schema = JSON.parse(`{
      "type": "object", "title": "T", "description": "D", "examples": [{}], "$comment": "c", "deprecated": true, "readOnly": true, "writeOnly": false,
      "properties": {
        "description": { "type": "string", "description": "a property named description", "default": "x" },
        "title": { "const": { "description": "data, not a keyword" } },
        "mode": { "enum": [{ "title": "kept" }], "default": { "title": "kept" } }
      },
      "anyOf": [{ "description": "in a branch" }, true]
    }`) as JsonSchema;
    expect(validationSchema(schema, false)).toEqual({
      type: 'object',
      properties: { description: { type: 'string' }, title: { const: { description: 'data, not a keyword' } }, mode: { enum: [{ title: 'kept' }] } },
      anyOf: [{}, true],
    });
    // With applyDefaults, ajv's useDefaults writes `default`: it stays.
    expect(validationSchema(schema, true)).toEqual({
      type: 'object',
      properties: { description: { type: 'string', default: 'x' }, title: { const: { description: 'data, not a keyword' } }, mode: { enum: [{ title: 'kept' }], default: { title: 'kept' } } },
      anyOf: [{}, true],
    });
  });

  for (const useDefaults of [false, true]) {
    it(`gives ajv's verdicts, errors and filled arguments on the JSON Schema Test Suite, annotated${useDefaults ? ', useDefaults' : ''}`, () => {
      let compared = 0;
      let rejected = 0;
      const compile = compilers(useDefaults);
      for (const { id, schema, data: instances } of suiteParameters()) {
        {
          const both = compile(schema);
          const group = { id };
          for (const data of instances) {
            const a = structuredClone(data);
            const b = structuredClone(data);
            let okA: unknown;
            let okB: unknown;
            try {
              okA = both.original(a);
            } catch (e) {
              okA = (e as Error).name;
            }
            try {
              okB = both.seen(b);
            } catch (e) {
              okB = (e as Error).name;
            }
            expect(okB, group.id).toBe(okA);
            expect(JSON.stringify(both.seen.errors), group.id).toBe(JSON.stringify(both.original.errors));
            expect(JSON.stringify(b), group.id).toBe(JSON.stringify(a));
            compared++;
            if (okA === false) rejected++;
          }
        }
      }
      expect(compared).toBeGreaterThan(2000);
      expect(rejected).toBeGreaterThan(500);
    });
  }
});

describe('distinctSchemas', () => {
  const a: JsonSchema = { type: 'object', properties: { path: { type: 'string', description: 'File to read' } }, required: ['path'] };
  const b: JsonSchema = { type: 'object', properties: { path: { type: 'string', description: 'File to delete' } }, required: ['path'] };
  const c: JsonSchema = { type: 'object', properties: { path: { type: 'string', default: 'x' } }, required: ['path'] };
  const d: JsonSchema = { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'] };

  it('gives schemas that differ only in annotations one validator and keeps their types apart', () => {
    const r = distinctSchemas([a, b, a, c, d], false);
    expect(r.schemas.map((s) => s.tools)).toEqual([[0, 2], [1], [3], [4]]);
    expect(r.validatorOf).toEqual([0, 0, 0, 0, 1]);
    expect(r.validators.map((v) => v.tools)).toEqual([[0, 1, 2, 3], [4]]);
    expect(r.validators[0]?.schema).toEqual({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    expect(r.parameterTexts[1]).toContain('File to delete');
  });

  it('keeps a validator apart for a default it fills (applyDefaults)', () => {
    const r = distinctSchemas([a, b, c], true);
    expect(r.validatorOf).toEqual([0, 0, 1]);
    expect(r.validators[1]?.schema).toEqual(c);
  });
});
