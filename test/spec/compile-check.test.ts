/**
 * `compileCannotFail` lets the front end skip ajv's strict compile of a
 * parameters schema where it provably succeeds. Held to ajv itself: for every
 * schema the 2020-12 meta-schema accepts and the predicate calls safe, the
 * real compile (`strictCompileCheck` without the skip) must succeed — on the
 * JSON Schema Test Suite's schemas (both drafts, as the front end normalizes
 * them), the bench's templates, and random schemas built from the keywords it
 * trusts with random, partly broken values (bad patterns, empty enums). And
 * the schemas ajv does refuse are never called safe.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeMixedSpec } from '../../bench/make-spec.js';
import type { JsonSchema } from '../../generator/ir.js';
import { compileCannotFail, expandParameters, strictCompileCheck } from '../../generator/validate/parameters.js';
import { loadSuite, wrapSuiteSchema } from './json-schema-suite.js';

/** What the real check says: undefined when it passes, else its message. */
function realCheck(schema: JsonSchema): string | undefined {
  try {
    strictCompileCheck(schema);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The meta-schema part alone (the predicate is only asked about schemas that pass it). */
function metaValid(schema: JsonSchema): boolean {
  const message = realCheck(schema);
  return message === undefined || !message.startsWith('schema is invalid:');
}

describe('compileCannotFail', () => {
  it('is never wrong on the JSON Schema Test Suite, as the front end normalizes its schemas', () => {
    let safe = 0;
    let compiled = 0;
    for (const group of loadSuite()) {
      const expanded = expandParameters(wrapSuiteSchema(group.schema, group.dialect));
      if (expanded.problems.length > 0) continue;
      compiled++;
      if (!compileCannotFail(expanded.schema)) continue;
      safe++;
      expect(realCheck(expanded.schema), group.id).toBeUndefined();
    }
    expect(compiled).toBeGreaterThan(300);
    expect(safe).toBeGreaterThan(100);
  });

  it("calls every bench template safe, and ajv agrees", () => {
    const made = makeMixedSpec(60, 'compact', true);
    const parameters = [...(made.spec.tools ?? []), ...(made.spec.namespaces ?? []).flatMap((n) => n.tools)].flatMap((t) => (typeof t === 'string' ? [] : [t.parameters]));
    expect(parameters.length).toBeGreaterThan(50);
    for (const p of parameters) {
      const { schema, problems } = expandParameters(p);
      expect(problems).toEqual([]);
      expect(compileCannotFail(schema)).toBe(true);
      expect(realCheck(schema)).toBeUndefined();
    }
  });

  it('never calls safe a schema ajv refuses', () => {
    const refused: JsonSchema[] = [
      { type: 'object', properties: { a: { enum: [] } } },
      { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
      { type: 'object', patternProperties: { '[': { type: 'string' } } },
      { type: 'object', properties: { a: { pattern: '\\p{Nope}' } } },
      { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
      { type: 'object', properties: { a: { id: 'x' } } },
      { type: 'object', properties: { a: { $dynamicRef: 'x' } } },
    ];
    for (const schema of refused) {
      expect(realCheck(schema), JSON.stringify(schema)).toBeDefined();
      expect(compileCannotFail(schema), JSON.stringify(schema)).toBe(false);
    }
    // Keywords it does not vouch for are left to ajv, valid or not.
    for (const schema of [{ type: 'object', $id: 'https://x.example/a' }, { type: 'object', dependentRequired: { a: ['b'] } }, { type: 'object', nullable: true }, { type: 'object', 'x-custom': 1 }]) {
      expect(compileCannotFail(schema), JSON.stringify(schema)).toBe(false);
    }
  });

  it('is never wrong on random schemas of the keywords it trusts, with broken values among them', () => {
    const pattern = fc.oneof(fc.constantFrom('^a', '(', '[', '\\d+', '\\p{L}', '\\p{Nope}', 'a{2,1}', '(?<n>x)', '\\', '[z-a]', '.*', ''), fc.string({ maxLength: 6 }));
    const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null));
    // A few keywords per subschema (more would make nearly every schema trip the meta-schema somewhere).
    const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.boolean(), tie('object')),
      object: fc
        .array(
          fc.oneof(
            fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom('object', 'string', 'integer', 'number', 'array', 'boolean', 'null'), fc.constant(['string', 'null']))),
            fc.tuple(fc.constant('properties'), fc.dictionary(fc.constantFrom('a', 'b', 'toString', '__proto__', 'x y'), tie('node'), { maxKeys: 3 })),
            fc.tuple(fc.constant('patternProperties'), fc.dictionary(pattern, tie('node'), { maxKeys: 2 })),
            fc.tuple(fc.constantFrom('additionalProperties', 'items', 'not', 'if', 'then', 'contains', 'propertyNames', 'unevaluatedProperties'), tie('node')),
            fc.tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), fc.array(tie('node'), { minLength: 1, maxLength: 2 })),
            fc.tuple(fc.constant('prefixItems'), fc.array(tie('node'), { maxLength: 2 })),
            fc.tuple(fc.constant('enum'), fc.array(value, { maxLength: 3 })),
            fc.tuple(fc.constantFrom('const', 'default'), value),
            fc.tuple(fc.constant('pattern'), pattern),
            fc.tuple(fc.constant('format'), fc.constantFrom('date', 'email', 'uri', 'regex', 'no-such-format')),
            fc.tuple(fc.constantFrom('minLength', 'minContains', 'maxItems'), fc.nat(5)),
            fc.tuple(fc.constantFrom('maximum', 'multipleOf'), fc.integer({ min: 1, max: 9 })),
            fc.tuple(fc.constant('required'), fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 })),
            fc.tuple(fc.constantFrom('description', 'title'), fc.string({ maxLength: 5 })),
          ),
          { maxLength: 3 },
        )
        .map((entries) => Object.fromEntries(entries)),
    })).node;
    let safe = 0;
    let refusedByAjv = 0;
    fc.assert(
      fc.property(schema, (s) => {
        const root = { type: 'object', properties: { value: s } } as JsonSchema;
        if (!metaValid(root)) return;
        const real = realCheck(root);
        if (real !== undefined) refusedByAjv++;
        if (compileCannotFail(root)) {
          safe++;
          expect(real, JSON.stringify(root)).toBeUndefined();
        }
      }),
      { numRuns: 1500, seed: 14 },
    );
    // Neither side is vacuous: many schemas are vouched for, and the broken values do make ajv refuse some.
    expect(safe).toBeGreaterThan(200);
    expect(refusedByAjv).toBeGreaterThan(50);
  });
});
