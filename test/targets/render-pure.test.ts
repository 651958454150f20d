/**
 * Renderers are pure functions of their input's JSON value: the same bytes
 * for a fresh mutable schema and for a deeply frozen copy parsed from its
 * JSON text, shared by several tools, and the input left as it was. The
 * runtime rests on this when it renders each target form from the frozen
 * neutral definitions of a generated spec (runtime/spec-data.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RENDER_FORMS } from '../../runtime/contract.js';
import { renderTool, type JsonSchema, type NeutralTool } from '../../runtime/targets/index.js';
import { deepFreeze, getForecast, getTime, readFile, runQuery } from './fixtures.js';

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'toString', 'a b', 'ünï', '$ref', 'type'));
const leaf = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null'), description: fc.string({ maxLength: 12 }) }, { requiredKeys: ['type'] }),
  fc.record({ enum: fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 3 }) }),
  fc.record({ type: fc.constant(['string', 'null']), format: fc.constantFrom('uri', 'date-time') }),
);
const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array'), tie('anyOf')),
  object: fc
    .tuple(fc.uniqueArray(fc.tuple(key, tie('schema')), { maxLength: 4, selector: ([k]) => k }), fc.boolean(), fc.option(fc.boolean(), { nil: undefined }))
    .map(([props, requireAll, additional]) => ({
      type: 'object',
      properties: Object.fromEntries(props),
      ...(requireAll && props.length > 0 ? { required: props.map(([k]) => k) } : {}),
      ...(additional === undefined ? {} : { additionalProperties: additional }),
    })),
  array: tie('schema').map((items) => ({ type: 'array', items, minItems: 0 })),
  anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }).map((anyOf) => ({ anyOf, default: null })),
}));
const rootSchema: fc.Arbitrary<JsonSchema> = fc
  .tuple(fc.uniqueArray(fc.tuple(key, schema), { maxLength: 5, selector: ([k]) => k }), fc.boolean(), fc.boolean())
  .map(([props, strictRoot, dialect]) => ({
    ...(dialect ? { $schema: 'https://json-schema.org/draft/2020-12/schema' } : {}),
    type: 'object',
    properties: Object.fromEntries(props),
    required: props.filter((_, i) => i % 2 === 0).map(([k]) => k),
    ...(strictRoot ? { additionalProperties: false } : {}),
  }));

/** A fresh, mutable copy of a JSON value (own `__proto__` keys stay keys). */
const fresh = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function samePayloads(tools: readonly NeutralTool[], openaiStrict: boolean): void {
  const options = { openaiStrict };
  for (const form of RENDER_FORMS) {
    for (const tool of tools) {
      const text = JSON.stringify(tool);
      const plain = JSON.stringify(renderTool(form, fresh(tool), options));
      // One frozen schema shared by two tools, as the unpacked spec shares it.
      const shared = deepFreeze(fresh(tool.parameters));
      const a = deepFreeze({ ...fresh(tool), parameters: shared });
      const b = deepFreeze({ ...fresh(tool), name: `${tool.name}_2`, parameters: shared });
      expect(JSON.stringify(renderTool(form, a, options)), `${form} ${tool.name}`).toBe(plain);
      expect(JSON.stringify(renderTool(form, b, options))).toBe(JSON.stringify(renderTool(form, { ...fresh(tool), name: `${tool.name}_2` }, options)));
      expect(JSON.stringify(renderTool(form, a, options))).toBe(plain); // the second render of a shared object too
      const input = fresh(tool);
      renderTool(form, input, options);
      expect(JSON.stringify(input)).toBe(text);
    }
  }
}

describe('renderers are pure functions of their input JSON', () => {
  it('for the fixture tools, a namespace-like tool and a loader, with and without openaiStrict', () => {
    const tools: NeutralTool[] = [readFile, getTime, getForecast, runQuery, { ...readFile, kind: 'namespace', name: 'ns' }, { ...getTime, kind: 'loader', name: 'load_toolkit' }];
    for (const strict of [false, true]) samePayloads(tools, strict);
  });
  it('for generated schemas (nested objects, arrays, anyOf, hostile property names), deferred or not', () => {
    fc.assert(
      fc.property(rootSchema, fc.boolean(), fc.boolean(), (parameters, deferLoading, strict) => {
        samePayloads([{ kind: 'tool', name: 'gen_tool', description: 'Generated', parameters, deferLoading }], strict);
      }),
      { numRuns: 150 },
    );
  });
});
