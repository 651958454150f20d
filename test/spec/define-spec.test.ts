/** Type-level behaviour of defineSpec (checked by `tsc -p .`) and its run-time identity. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineSpec } from '../../generator/define-spec.js';
import { validateSpec } from '../../generator/validate.js';

describe('defineSpec', () => {
  it('returns the spec unchanged, with literal names kept in its type', () => {
    const input = { version: 1, tools: [{ name: 'read_file', description: 'Read', parameters: z.strictObject({ path: z.string() }) }] } as const;
    const spec = defineSpec(input);
    expect(spec).toBe(input);
    expectTypeOf(spec.tools[0].name).toEqualTypeOf<'read_file'>();
  });

  it('accepts JSON Schema, shorthand and zod parameters, and names of tools defined elsewhere', () => {
    const spec = defineSpec({
      version: 1,
      tools: [
        { name: 'a', description: 'A', parameters: { type: 'object', properties: { x: { type: 'string' } } } },
        { name: 'b', description: 'B', parameters: { x: { type: 'string' } } },
      ],
      namespaces: [{ name: 'ns', description: 'NS', encoding: 'schema', tools: ['a', { name: 'c', description: 'C', parameters: z.object({ n: z.number() }) }] }],
      policies: { prod: ['a'] },
    });
    expect(spec.namespaces[0].tools).toHaveLength(2);
  });

  // A generic parameter gets no excess-property check, so a misspelled key (`namespace:`) is caught
  // when the generator validates the spec (unknown_key), not by tsc.
  it('rejects wrong values and missing keys at compile time', () => {
    // @ts-expect-error -- only version 1 exists
    defineSpec({ version: 2 });
    // @ts-expect-error -- a tool needs a description
    defineSpec({ version: 1, tools: [{ name: 'a' }] });
    // @ts-expect-error -- encodings are compact | schema
    defineSpec({ version: 1, namespaces: [{ name: 'n', description: 'N', encoding: 'fast', tools: ['a'] }] });
    // Controls: the same calls with only the named fault fixed type-check, so each directive
    // above is met by the error it names, not by another mistake on its line.
    const fixed = [
      defineSpec({ version: 1 }),
      defineSpec({ version: 1, tools: [{ name: 'a', description: 'A' }] }),
      defineSpec({ version: 1, namespaces: [{ name: 'n', description: 'N', encoding: 'schema', tools: ['a'] }] }),
    ];
    expect(fixed.map((s) => s.version)).toEqual([1, 1, 1]);
  });

  it('a misspelled key in a TS spec is reported by validation, at 1:1 with its path', () => {
    const value = defineSpec({ version: 1, tools: [{ name: 'a', description: 'A' }], namespace: [] });
    const problems = validateSpec({ file: 'spec.ts', format: 'ts', value, locate: () => ({ line: 1, column: 1 }) });
    expect(problems.map((p) => [p.code, p.path, p.line, p.column])).toEqual([['unknown_key', 'namespace', 1, 1]]);
  });
});
