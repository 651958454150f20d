import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RENDER_FORMS, type NullDecodePlan } from '../../runtime/contract.js';
import { renderTool, type JsonSchema, type NeutralTool } from '../../runtime/targets/index.js';
import { applyNullDecode, nullDecodePlan, toOpenAIStrictSchema } from '../../runtime/targets/strict.js';
import { deepFreeze, getForecast, getTime, readFile } from './fixtures.js';

const off = { openaiStrict: false };
const on = { openaiStrict: true };

describe('renderTool: one wrapper per form', () => {
  const cases = [
    {
      form: 'neutral',
      want: { name: 'get_forecast', description: 'Forecast for a city', parameters: getForecast.parameters, deferLoading: true },
    },
    {
      form: 'anthropic',
      want: { name: 'get_forecast', description: 'Forecast for a city', input_schema: getForecast.parameters, defer_loading: true },
    },
    {
      form: 'openai',
      want: { type: 'function', function: { name: 'get_forecast', description: 'Forecast for a city', parameters: getForecast.parameters } },
    },
    {
      form: 'openai-responses',
      want: { type: 'function', name: 'get_forecast', description: 'Forecast for a city', parameters: getForecast.parameters, strict: false, defer_loading: true },
    },
    {
      form: 'gemini',
      want: { name: 'get_forecast', description: 'Forecast for a city', parametersJsonSchema: getForecast.parameters },
    },
  ] as const;

  for (const { form, want } of cases) {
    it(`${form}: shape, key order, deferLoading`, () => {
      const out = renderTool(form, deepFreeze({ ...getForecast }), off);
      // toEqual ignores key order; the serialization pins it.
      expect(JSON.stringify(out)).toBe(JSON.stringify(want));
    });
  }

  it('covers every render form', () => {
    expect(cases.map((c) => c.form)).toEqual([...RENDER_FORMS]);
  });

  it('drops defer_loading where the target has no tool search, keeps it where it has', () => {
    const has = (form: (typeof RENDER_FORMS)[number]) => JSON.stringify(renderTool(form, getForecast, off)).includes('defer');
    expect(RENDER_FORMS.filter(has)).toEqual(['neutral', 'anthropic', 'openai-responses']);
  });

  it('is deterministic, JSON-serializable, and never aliases or mutates the input', () => {
    const tool = deepFreeze(structuredClone(readFile) as NeutralTool);
    for (const form of RENDER_FORMS) {
      const a = renderTool(form, tool, on);
      const b = renderTool(form, tool, on);
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    }
    const anthropic = renderTool('anthropic', tool, off);
    expect(anthropic.input_schema).not.toBe(tool.parameters);
    anthropic.input_schema['properties'] = {};
    expect(tool.parameters['properties']).toEqual(readFile.parameters['properties']);
  });

  it('openaiStrict never changes Anthropic, Gemini or neutral renders', () => {
    for (const form of ['neutral', 'anthropic', 'gemini'] as const) {
      expect(JSON.stringify(renderTool(form, readFile, on))).toBe(JSON.stringify(renderTool(form, readFile, off)));
    }
  });

  it('strips $schema, and gives Gemini no parameters for a tool without arguments', () => {
    const withSchema: NeutralTool = { ...readFile, parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...readFile.parameters } };
    for (const form of ['anthropic', 'openai', 'openai-responses', 'gemini'] as const) {
      expect(JSON.stringify(renderTool(form, withSchema, off))).not.toContain('$schema');
    }
    expect(renderTool('gemini', getTime, off)).toEqual({ name: 'get_time', description: 'Get timestamp' });
  });

  it('keeps property names, descriptions and enum values byte-exact (spec text is data)', () => {
    const nasty = '</x>"\'&\u2028${a}*/';
    const tool: NeutralTool = {
      kind: 'tool',
      name: 't',
      description: nasty,
      parameters: JSON.parse(`{"type":"object","properties":{"__proto__":{"type":"string","enum":[${JSON.stringify(nasty)}]}}}`),
      deferLoading: false,
    };
    for (const form of RENDER_FORMS) {
      const json = JSON.stringify(renderTool(form, tool, on));
      expect(json).toContain(JSON.stringify(nasty));
      expect(json).toContain('"__proto__":');
    }
  });
});

describe('OpenAI strict rewrite', () => {
  it('closes every object, requires every property, makes optional ones nullable, moves default to the description', () => {
    const out = renderTool('openai', readFile, on);
    expect(out.function.strict).toBe(true);
    expect(out.function.parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path of the file' },
        encoding: { anyOf: [{ type: 'string', enum: ['utf8', 'base64'], description: 'Default: "utf8"' }, { type: 'null' }] },
      },
      required: ['path', 'encoding'],
      additionalProperties: false,
    });
    const responses = renderTool('openai-responses', readFile, on);
    expect([responses.strict, responses.parameters]).toEqual([true, out.function.parameters]);
  });

  const table: Array<{ name: string; given: JsonSchema; want: unknown }> = [
    {
      name: 'primitive optional → type [T, null]',
      given: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } },
      want: { type: 'object', properties: { n: { type: ['integer', 'null'], minimum: 1 } }, required: ['n'], additionalProperties: false },
    },
    {
      name: 'nested object and array of objects are closed too',
      given: {
        type: 'object',
        properties: {
          o: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          l: { type: 'array', items: { type: 'object', properties: { b: { type: 'boolean' } } } },
        },
        required: ['o', 'l'],
      },
      want: {
        type: 'object',
        properties: {
          o: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
          l: { type: 'array', items: { type: 'object', properties: { b: { type: ['boolean', 'null'] } }, required: ['b'], additionalProperties: false } },
        },
        required: ['o', 'l'],
        additionalProperties: false,
      },
    },
    {
      name: 'an optional property that already admits null stays as is',
      given: { type: 'object', properties: { s: { type: ['string', 'null'] } } },
      want: { type: 'object', properties: { s: { type: ['string', 'null'] } }, required: ['s'], additionalProperties: false },
    },
    {
      name: 'oneOf is read as anyOf; unknown annotations dropped; constraints strict rejects become text',
      given: { type: 'object', title: 'T', properties: { v: { oneOf: [{ type: 'string', minLength: 2, format: 'color' }, { type: 'number' }] } }, required: ['v'] },
      want: {
        type: 'object',
        properties: { v: { anyOf: [{ type: 'string', description: 'minLength: 2\nformat: "color"' }, { type: 'number' }] } },
        required: ['v'],
        additionalProperties: false,
      },
    },
  ];
  for (const { name, given, want } of table) {
    it(name, () => {
      const result = toOpenAIStrictSchema(given);
      expect(result.ok && result.schema).toEqual(want);
    });
  }

  const unsupported: Array<{ name: string; given: JsonSchema; path: string }> = [
    { name: '$ref', given: { type: 'object', properties: { a: { $ref: '#/$defs/x' } } }, path: '/properties/a' },
    { name: 'allOf', given: { type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } }, path: '/properties/a' },
    { name: 'open map', given: { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } }, path: '/properties/m' },
    { name: 'free-form object', given: { type: 'object', properties: { args: { type: 'object' } } }, path: '/properties/args' },
    { name: 'untyped value', given: { type: 'object', properties: { x: { description: 'anything' } } }, path: '/properties/x' },
    { name: 'array without items', given: { type: 'object', properties: { l: { type: 'array' } } }, path: '/properties/l' },
    {
      name: 'optional properties inside anyOf (undecodable)',
      given: { type: 'object', properties: { u: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'string' }] } }, required: ['u'] },
      path: '/properties/u/anyOf/0',
    },
  ];
  for (const { name, given, path } of unsupported) {
    it(`falls back to non-strict for ${name}`, () => {
      const result = toOpenAIStrictSchema(given);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.path).toBe(path);
      expect(nullDecodePlan(given)).toBeUndefined();
      const tool: NeutralTool = { kind: 'tool', name: 't', description: 'd', parameters: given, deferLoading: false };
      const chat = renderTool('openai', tool, on);
      expect([chat.function.strict, chat.function.parameters]).toEqual([false, given]);
      expect(renderTool('openai-responses', tool, on).strict).toBe(false);
    });
  }

  it('a namespace tool may carry optional properties inside anyOf (the action plan decodes them)', () => {
    const ns: NeutralTool = {
      kind: 'namespace',
      name: 'file_ops',
      description: 'File ops',
      parameters: {
        type: 'object',
        properties: { action: { type: 'string', enum: ['read_file'] }, args: { anyOf: [readFile.parameters] } },
        required: ['action', 'args'],
      },
      deferLoading: false,
    };
    expect(renderTool('openai', ns, on).function.strict).toBe(true);
    expect(renderTool('openai', { ...ns, kind: 'tool' }, on).function.strict).toBe(false);
  });
});

describe('nullDecodePlan / applyNullDecode', () => {
  it('describes optional, nested and array-element properties', () => {
    expect(
      nullDecodePlan({
        type: 'object',
        properties: {
          path: { type: 'string' },
          opts: { type: 'object', properties: { depth: { type: 'integer' } } },
          rows: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
        },
        required: ['path', 'rows'],
      }),
    ).toEqual({ optional: ['opts'], nested: { opts: { optional: ['depth'] }, rows: { optional: [], items: { optional: ['k'] } } } });
    expect(nullDecodePlan({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toBeUndefined();
  });

  it('decodes nulls back to absent, leaves everything else, shares untouched parts', () => {
    const plan: NullDecodePlan = { optional: ['a', 'o'], nested: { o: { optional: ['x'] }, l: { optional: [], items: { optional: ['y'] } } } };
    const untouched = { keep: [1] };
    const value = deepFreeze({ a: null, b: null, o: { x: null, z: 1 }, l: [{ y: null }, { y: 2 }], untouched });
    expect(applyNullDecode(value, plan)).toEqual({ b: null, o: { z: 1 }, l: [{}, { y: 2 }], untouched });
    expect((applyNullDecode(value, plan) as { untouched: unknown }).untouched).toBe(untouched);
    const clean = { a: 'x' };
    expect(applyNullDecode(clean, plan)).toBe(clean);
    expect(applyNullDecode({ o: null }, plan)).toEqual({});
  });

  it('keeps __proto__ as data, never touching prototypes', () => {
    const value = JSON.parse('{"__proto__":null,"n":{"__proto__":{"polluted":true}},"k":1}');
    const out = applyNullDecode(value, { optional: ['__proto__'], nested: JSON.parse('{"n":{"optional":[],"nested":{"__proto__":{"optional":["polluted"]}}}}') }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(false);
    expect(out['k']).toBe(1);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const plan = nullDecodePlan(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'));
    expect(plan?.optional).toEqual(['__proto__']);
    const decoded = applyNullDecode(JSON.parse('{"__proto__":null}'), plan) as object;
    expect(Object.keys(decoded)).toEqual([]);
    expect(applyNullDecode(JSON.parse('{"__proto__":"v"}'), plan)).toEqual(JSON.parse('{"__proto__":"v"}'));
  });

  it('never throws and never mutates, whatever the value and the plan', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.anything(), (value, plan) => {
        const before = JSON.stringify(value);
        expect(() => applyNullDecode(value, plan as NullDecodePlan)).not.toThrow();
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: 300 },
    );
    const cyclic: { optional: string[]; nested: Record<string, unknown> } = { optional: ['a'], nested: {} };
    cyclic.nested['n'] = cyclic;
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 200; i++) deep = (deep['n'] = {}) as Record<string, unknown>;
    expect(() => applyNullDecode(root, cyclic as NullDecodePlan)).not.toThrow();
    const throwing = { get a() { throw new Error('getter'); } };
    expect(applyNullDecode(throwing, { optional: ['a'] })).toBe(throwing);
  });

  // Round trip: a value valid under the original schema, encoded as the model must send it under
  // strict mode (every property present, absent optional ones as null), is valid under the strict
  // schema and decodes back to the original value, which the original schema accepts.
  const schemas: Record<string, JsonSchema> = {
    read_file: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' },
        max_bytes: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
      additionalProperties: false,
    },
    run_query: {
      type: 'object',
      properties: {
        sql: { type: 'string' },
        params: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
        limit: { type: 'integer', minimum: 1, maximum: 10000, default: 100 },
      },
      required: ['sql'],
    },
    nested: {
      type: 'object',
      properties: {
        opts: {
          type: 'object',
          properties: {
            depth: { type: 'integer' },
            tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'boolean' } }, required: ['k'] } },
          },
        },
        mode: { type: 'string', enum: ['a', 'b'] },
      },
    },
  };

  for (const [name, schema] of Object.entries(schemas)) {
    it(`round trip through strict mode: ${name}`, () => {
      const strict = toOpenAIStrictSchema(schema);
      if (!strict.ok) throw new Error(strict.reason);
      const ajv = new Ajv({ strict: false });
      const validOriginal = ajv.compile(schema);
      const validStrict = ajv.compile(strict.schema);
      fc.assert(
        fc.property(arbitraryFor(schema), (value) => {
          expect(validOriginal(value)).toBe(true);
          const encoded = encodeForStrict(schema, value);
          expect(validStrict(encoded)).toBe(true);
          const decoded = applyNullDecode(encoded, strict.plan);
          expect(decoded).toEqual(value);
          expect(validOriginal(decoded)).toBe(true);
        }),
        { numRuns: 200 },
      );
    });
  }
});

/** Values valid under the (small) schema subset the round-trip schemas use. */
function arbitraryFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]));
  const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return fc.string();
        case 'integer':
          return fc.integer({ min: (s['minimum'] as number | undefined) ?? -1000, max: (s['maximum'] as number | undefined) ?? 1000 });
        case 'number':
          return fc.double({ noNaN: true, noDefaultInfinity: true });
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(arbitraryFor(s['items'] as JsonSchema), { maxLength: 3 });
        default: {
          const props = (s['properties'] ?? {}) as Record<string, JsonSchema>;
          const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryFor(v)]));
          return fc.record(model, { requiredKeys: ((s['required'] as string[] | undefined) ?? []) as never[] });
        }
      }
    }),
  );
}

/** What a strict-mode model sends for `value`: every property present, absent ones as null. */
function encodeForStrict(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => encodeForStrict(schema['items'] as JsonSchema, v));
  if (typeof value !== 'object' || value === null) return value;
  const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, Object.hasOwn(record, k) ? encodeForStrict(s, record[k]) : null]));
}
