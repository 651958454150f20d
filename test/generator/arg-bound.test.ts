/**
 * `acceptedDepth` (generator/emit/arg-bound.ts): the bound the generator
 * records per validator, which lets dispatch skip the argument walk for depth
 * and non-finite numbers on a valid call. Checked two ways:
 * - by example, one schema of each kind (closed and typed, untyped member,
 *   open object, array without `items`, enum / const literals, anyOf, allOf,
 *   defaults, a non-finite literal);
 * - as a property: for random schemas and random values, whenever ajv (with
 *   the generator's `strictNumbers`) accepts a value, the value nests no
 *   deeper than the bound and holds only finite numbers. A wrong bound is a
 *   skipped walk that would have rejected the call, so this is the soundness
 *   the runtime relies on.
 */
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { acceptedDepth } from '../../generator/emit/arg-bound.js';
import type { JsonSchema } from '../../generator/ir.js';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonSchema =>
  ({ type: 'object', properties, additionalProperties: false, ...extra }) as JsonSchema;

describe('acceptedDepth by example', () => {
  test('closed, typed schemas are bounded by their nesting (argument object = 1)', () => {
    expect(acceptedDepth(closed({ q: { type: 'string' }, n: { type: 'number' }, i: { type: 'integer' }, b: { type: 'boolean' }, z: { type: 'null' } }))).toBe(1);
    expect(acceptedDepth(closed({ tags: { type: 'array', items: { type: 'string' } } }))).toBe(2);
    expect(acceptedDepth(closed({ a: closed({ b: closed({ c: { type: 'array', items: { type: 'number' } } }) }) }))).toBe(4);
    expect(acceptedDepth(closed({}))).toBe(1);
    // Patterns and a typed additionalProperties bound the values they cover.
    expect(acceptedDepth({ type: 'object', patternProperties: { '^x': closed({}) }, additionalProperties: { type: 'string' } })).toBe(2);
    // A tuple with nothing after it.
    expect(acceptedDepth(closed({ p: { type: 'array', prefixItems: [{ type: 'string' }, closed({})], items: false } }))).toBe(3);
    expect(acceptedDepth(closed({ p: { type: 'array', prefixItems: [{ type: 'string' }], maxItems: 1 } }))).toBe(2);
    // A type list takes its deepest member.
    expect(acceptedDepth(closed({ v: { type: ['string', 'array'], items: { type: 'integer' } } }))).toBe(2);
  });

  test('anything that can hold an arbitrary value is unbounded', () => {
    expect(acceptedDepth(closed({ meta: {} }))).toBeUndefined();
    expect(acceptedDepth(closed({ meta: true }))).toBeUndefined();
    expect(acceptedDepth(closed({ meta: { description: 'anything' } }))).toBeUndefined();
    expect(acceptedDepth(closed({ n: { minimum: 0 } }))).toBeUndefined(); // no type: a string or an object passes too
    expect(acceptedDepth({ type: 'object', properties: { q: { type: 'string' } } })).toBeUndefined(); // open object
    expect(acceptedDepth(closed({ xs: { type: 'array' } }))).toBeUndefined(); // array of anything
    expect(acceptedDepth(closed({ xs: { type: 'array', prefixItems: [{ type: 'string' }] } }))).toBeUndefined(); // open tuple
    expect(acceptedDepth(closed({ o: { type: 'object', additionalProperties: false, unevaluatedProperties: false } }))).toBe(2);
    expect(acceptedDepth(closed({ o: { type: 'object', unevaluatedProperties: false } }))).toBeUndefined();
    expect(acceptedDepth(closed({ x: { type: 'mystery' } }))).toBeUndefined();
    expect(acceptedDepth(closed({ x: { not: { type: 'string' } } }))).toBeUndefined();
  });

  test('literals, unions and intersections', () => {
    expect(acceptedDepth(closed({ mode: { enum: ['a', 1, null] } }))).toBe(1);
    expect(acceptedDepth(closed({ mode: { enum: ['a', { k: [1] }] } }))).toBe(3);
    expect(acceptedDepth(closed({ mode: { const: [[1]] } }))).toBe(3);
    // An untyped member narrowed by an enum is bounded by the enum.
    expect(acceptedDepth(closed({ mode: { enum: ['a'], description: 'x' } }))).toBe(1);
    expect(acceptedDepth(closed({ v: { anyOf: [{ type: 'string' }, { type: 'number' }] } }))).toBe(1);
    expect(acceptedDepth(closed({ v: { oneOf: [{ type: 'string' }, {}] } }))).toBeUndefined();
    // allOf: every member applies, so any bounded member bounds the value.
    expect(acceptedDepth(closed({ v: { allOf: [{}, { type: 'string' }] } }))).toBe(1);
    // Several bounded candidates: the smallest wins.
    expect(acceptedDepth(closed({ v: { type: 'array', items: { type: 'array', items: { type: 'string' } }, allOf: [{ type: 'string' }] } }))).toBe(1);
  });

  test('defaults count as accepted values, and a non-finite literal is unbounded', () => {
    expect(acceptedDepth(closed({ limit: { type: 'integer', default: 20 } }))).toBe(1);
    expect(acceptedDepth(closed({ f: { type: 'string', default: { a: { b: 1 } } } }))).toBe(3);
    expect(acceptedDepth(closed({ n: { enum: [Number.POSITIVE_INFINITY] } }))).toBeUndefined();
    expect(acceptedDepth(closed({ n: { type: 'number', default: Number.NEGATIVE_INFINITY } }))).toBeUndefined();
  });
});

// ---- The property -----------------------------------------------------------

/** Container depth as the runtime's `maxDepth` counts it (a container at the root is 1). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return 1 + members.reduce<number>((m, v) => Math.max(m, depthOf(v)), 0);
}
function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return true;
  return (Array.isArray(value) ? value : Object.values(value)).every(allFinite);
}

const NAMES = ['a', 'b', 'c'];
const literal = fc.oneof(fc.constantFrom('x', 1, 2.5, true, null), fc.constant([1]), fc.constant({ a: 'x' }));
/** Schemas mixing closed, open, typed and untyped pieces, so both bounded and unbounded ones come up. */
const schemaArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom({ type: 'string' }, { type: 'number' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }, {}, true, { minimum: 0 }),
    fc.record({ enum: fc.array(literal, { minLength: 1, maxLength: 3 }) }),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { maxKeys: 3 }),
        additionalProperties: fc.oneof(fc.constant(false), tie('schema')),
      },
      { requiredKeys: ['type', 'properties'] },
    ),
    fc.record({ type: fc.constant('array'), items: tie('schema') }, { requiredKeys: ['type'] }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
  ),
})).schema;

/** Values of all JSON kinds plus the ones the walk exists for: deep nesting and non-finite numbers. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('x', 1, 2.5, -3, true, false, null, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 3 }),
  ),
})).value;

test('whenever the validator accepts a value, it is within the bound and finite', () => {
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, allErrors: true, logger: false });
  let bounded = 0;
  let acceptedInBounded = 0;
  fc.assert(
    fc.property(schemaArb, fc.array(valueArb, { minLength: 1, maxLength: 8 }), (member, values) => {
      const schema = { type: 'object', properties: { v: member }, additionalProperties: false } as JsonSchema;
      const bound = acceptedDepth(schema);
      if (bound === undefined) return;
      bounded++;
      const validate = ajv.compile(schema);
      for (const v of [...values, ...values.map((x) => [x]), { a: values[0] }]) {
        const args = { v };
        if (!validate(args)) continue;
        acceptedInBounded++;
        expect(depthOf(args), JSON.stringify({ schema, args })).toBeLessThanOrEqual(bound);
        expect(allFinite(args), JSON.stringify({ schema, args })).toBe(true);
      }
    }),
    { numRuns: 600, seed: 14 },
  );
  // Not vacuous: bounded schemas came up, and some accepted values were checked against their bounds.
  expect(bounded).toBeGreaterThan(100);
  expect(acceptedInBounded).toBeGreaterThan(100);
});
