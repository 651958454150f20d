/**
 * Validate and normalize share each distinct `parameters` expansion through a
 * cache keyed by content (`expandToolParameters`). Sharing must never change
 * what either step reports: problems stay per tool, and a spec edited between
 * the two steps is normalized as it is now. The strict compile check inside
 * (a cheaper ajv configuration that never evaluates the code) still reports
 * what only ajv's code generation sees.
 */
import { describe, expect, it } from 'vitest';
import { loadText } from '../../generator/load.js';
import { formatProblems, normalizeSpec } from '../../generator/normalize.js';
import { contentKey, validateSpec } from '../../generator/validate.js';

describe('contentKey', () => {
  const cases: { name: string; a: unknown; b: unknown; same: boolean }[] = [
    { name: 'equal data', a: { type: 'object', properties: { p: { enum: [1, 'x', null, true] } } }, b: { type: 'object', properties: { p: { enum: [1, 'x', null, true] } } }, same: true },
    { name: 'key order', a: { a: 1, b: 2 }, b: { b: 2, a: 1 }, same: false },
    { name: '0 and -0', a: { minimum: 0 }, b: { minimum: -0 }, same: false },
    { name: 'Infinity and null (JSON.stringify writes both as null)', a: { maximum: Infinity }, b: { maximum: null }, same: false },
    { name: 'a string and the number it spells', a: ['1'], b: [1], same: false },
    { name: 'items that could run together', a: ['ab'], b: ['a', 'b'], same: false },
    { name: 'nesting', a: [[1], 2], b: [[1, 2]], same: false },
    { name: 'an empty object and an empty list', a: {}, b: [], same: false },
  ];
  it.each(cases)('$name', ({ a, b, same }) => {
    expect(contentKey(a)).toBeTypeOf('string');
    expect(contentKey(a) === contentKey(b)).toBe(same);
  });

  it('is undefined for anything but plain data (never cached)', () => {
    expect(contentKey({ pattern: /x/ })).toBeUndefined();
    expect(contentKey({ f: () => 1 })).toBeUndefined();
    expect(contentKey([undefined])).toBeUndefined();
    expect(contentKey({ n: 1n })).toBeUndefined();
    expect(contentKey(Object.create(null) as object)).toBe('{}');
  });
});

describe('shared expansions', () => {
  const spec = (params: string) => `version: 1
tools:
  - name: a
    description: A
    parameters: ${params}
  - name: b
    description: B
    parameters: ${params}
`;

  it('report the problems of identical parameters at each tool', () => {
    const r = loadText(spec('{ type: object, properties: { n: { type: strin } } }'), 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect(validateSpec(r.spec).map((p) => `${p.path}@${p.line}:${p.column}`)).toEqual([
      'tools[0].parameters.properties.n.type@5:58',
      'tools[1].parameters.properties.n.type@8:58',
    ]);
  });

  it('never serve a stale expansion when the spec value changes between validate and normalize', () => {
    const r = loadText(spec('{ type: object, properties: { n: { type: string } } }'), 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect(validateSpec(r.spec)).toEqual([]);
    const tools = (r.spec.value as { tools: { parameters: { properties: Record<string, unknown> } }[] }).tools;
    tools[1]!.parameters.properties.m = { type: 'integer' };
    const ir = normalizeSpec(r.spec);
    expect(Object.keys(ir.tools[0]!.parameters.properties as object)).toEqual(['n']);
    expect(Object.keys(ir.tools[1]!.parameters.properties as object)).toEqual(['n', 'm']);
  });
});

describe('the strict compile check', () => {
  const cases: { name: string; parameters: string; want: string }[] = [
    // A `$ref` into data passes every check of the written schema; only the inlined form shows it.
    {
      name: 'a $ref that inlines data as an invalid schema',
      parameters: '{ type: object, properties: { a: { const: { minLength: -1 } }, b: { $ref: "#/properties/a/const" } } }',
      want: 'schema is invalid: data/properties/b/minLength must be >= 0',
    },
    {
      name: 'a $ref that inlines data that is no schema at all',
      parameters: '{ type: object, properties: { a: { examples: [{ type: 5 }] }, b: { $ref: "#/properties/a/examples/0" } } }',
      want: 'schema is invalid: data/properties/b/type must be equal to one of the allowed values, data/properties/b/type must be array, data/properties/b/type must match a schema in anyOf',
    },
  ];
  it.each(cases)('reports $name, at every tool that has it', ({ parameters, want }) => {
    const r = loadText(`version: 1
tools:
  - name: a
    description: A
    parameters: ${parameters}
  - name: b
    description: B
    parameters: ${parameters}
`, 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect(validateSpec(r.spec).map((p) => `${p.path}@${p.line}:${p.column} ${p.code}: ${p.message}`)).toEqual([
      `tools[0].parameters@5:17 invalid_schema: this schema does not compile: ${want}.`,
      `tools[1].parameters@8:17 invalid_schema: this schema does not compile: ${want}.`,
    ]);
  });

  // ajv's strict mode would refuse these four ("… is ignored"), yet all are valid JSON Schema,
  // and a lone `if` or `minContains` does affect `unevaluated*`: they are accepted. The empty
  // enum is refused by a rule of toolroute's own, with a true message.
  const accepted: { name: string; parameters: string }[] = [
    { name: '"if" alone', parameters: '{ type: object, if: { required: [a] } }' },
    { name: '"then" alone', parameters: '{ type: object, then: { required: [a] } }' },
    { name: '"minContains" alone', parameters: '{ type: object, properties: { a: { type: array, minContains: 2 } } }' },
    { name: 'a property that also matches a patternProperties pattern', parameters: '{ type: object, properties: { foo: { type: string } }, patternProperties: { "f.o": { minLength: 2 } } }' },
  ];
  it.each(accepted)('accepts $name', ({ parameters }) => {
    const r = loadText(`version: 1\ntools:\n  - name: a\n    description: A\n    parameters: ${parameters}\n`, 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect(validateSpec(r.spec)).toEqual([]);
  });

  it('refuses an empty enum with a true message, at every tool that has it', () => {
    const parameters = '{ type: object, properties: { a: { enum: [] } } }';
    const r = loadText(`version: 1\ntools:\n  - name: a\n    description: A\n    parameters: ${parameters}\n  - name: b\n    description: B\n    parameters: ${parameters}\n`, 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect(validateSpec(r.spec).map((p) => `${p.path} ${p.code}: ${p.message}`)).toEqual([
      'tools[0].parameters.properties.a.enum invalid_schema: `enum: []` matches no value, so no call of this tool could ever be valid.',
      'tools[1].parameters.properties.a.enum invalid_schema: `enum: []` matches no value, so no call of this tool could ever be valid.',
    ]);
  });
});
