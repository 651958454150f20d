/**
 * generator/emit/defaults.ts against ajv itself: for each applicator, a
 * schema with a default below it and an instance that reaches it; ajv with
 * `useDefaults` (the options the generated validators use) fills the
 * instance exactly when `hasAppliedDefault` says a default applies, and the
 * printed argument type makes the property required exactly then.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { hasAppliedDefault } from '../../generator/emit/defaults.js';
import { schemaToType } from '../../generator/emit/arg-types.js';
import type { JsonSchema } from '../../generator/ir.js';

const D = { type: 'object', properties: { x: { type: 'number', default: 1 } } };
/** `untyped`: TypeScript cannot say the construct (the type stays wider, docs/design.md, "Argument types"), so `x` is not required there either. */
const CASES: { name: string; schema: JsonSchema; instance: unknown; applies: boolean; untyped?: true }[] = [
  { name: 'properties', schema: D, instance: {}, applies: true },
  { name: 'nested properties', schema: { type: 'object', properties: { o: D } }, instance: { o: {} }, applies: true },
  { name: 'items', schema: { type: 'object', properties: { a: { type: 'array', items: D } } }, instance: { a: [{}] }, applies: true },
  { name: 'prefixItems', schema: { type: 'object', properties: { a: { type: 'array', prefixItems: [D] } } }, instance: { a: [{}] }, applies: true },
  { name: 'additionalProperties', schema: { type: 'object', additionalProperties: D }, instance: { k: {} }, applies: true },
  { name: 'patternProperties', schema: { type: 'object', patternProperties: { '^p': D } }, instance: { p1: {} }, applies: true, untyped: true },
  { name: 'dependentSchemas', schema: { type: 'object', dependentSchemas: { a: D } }, instance: { a: 1 }, applies: true, untyped: true },
  { name: 'allOf', schema: { type: 'object', allOf: [D] }, instance: {}, applies: true },
  { name: 'if / then', schema: { type: 'object', if: { required: ['a'] }, then: D }, instance: { a: 1 }, applies: true, untyped: true },
  { name: 'if / then / else', schema: { type: 'object', if: { required: ['a'] }, then: D, else: D }, instance: { a: 1 }, applies: true },
  { name: 'then without if (ignored)', schema: { type: 'object', then: D }, instance: {}, applies: false },
  { name: 'anyOf', schema: { type: 'object', anyOf: [D, { required: ['z'] }] }, instance: {}, applies: false },
  { name: 'oneOf', schema: { type: 'object', oneOf: [D, { required: ['z'] }] }, instance: {}, applies: false },
  { name: 'not', schema: { type: 'object', not: { ...D, required: ['z'] } }, instance: {}, applies: false },
  { name: 'if', schema: { type: 'object', if: D, then: { required: ['x'] } }, instance: {}, applies: false },
  { name: 'unevaluatedProperties', schema: { type: 'object', unevaluatedProperties: D }, instance: { k: {} }, applies: true },
  { name: 'unevaluatedItems', schema: { type: 'object', properties: { a: { type: 'array', unevaluatedItems: D } } }, instance: { a: [{}] }, applies: true },
  { name: 'contains', schema: { type: 'object', properties: { a: { type: 'array', contains: D } } }, instance: { a: [{}] }, applies: false },
  { name: 'propertyNames', schema: { type: 'object', propertyNames: { ...D, type: ['string', 'object'] } }, instance: { k: 1 }, applies: false },
  { name: 'the root itself', schema: { type: 'object', default: { x: 1 } }, instance: {}, applies: false },
];

describe.each(CASES)('a default under $name', ({ schema, instance, applies, untyped }) => {
  test('ajv fills it exactly when hasAppliedDefault says so', () => {
    const validate = new Ajv2020({ useDefaults: true, strict: false, allErrors: true }).compile(schema);
    const data = structuredClone(instance);
    validate(data);
    expect(JSON.stringify(data) !== JSON.stringify(instance)).toBe(applies);
    expect(hasAppliedDefault(schema)).toBe(applies);
  });

  test('the argument type makes `x` required only then (and never without the option)', () => {
    const filled = schemaToType(schema, '', { applyDefaults: true });
    const plain = schemaToType(schema, '');
    expect(plain).not.toMatch(/\bx: number/);
    if (applies && untyped === undefined) expect(filled).toMatch(/\bx: number/);
    else expect(filled).toBe(plain);
  });
});
