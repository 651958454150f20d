/**
 * toolroute's own validators (generator/emit/own-validators.ts) against the
 * ajv validators toolroute generated before them, differentially: the same
 * schemas go through `validatorsModule` twice — as codegen does it, and with
 * `ownValidators: false` (every schema to ajv, the code of today) — both
 * modules are imported, and every validator pair gets the same values. They
 * must agree on the verdict and on `errors` exactly (`toStrictEqual` and
 * key order), leave the data untouched, and never throw. Each own validator's
 * tight check must also agree with its error collector: a valid value never
 * reaches the collector, an invalid one always does (a spy patched into the
 * test's copy of the module counts the collector's calls).
 *
 * Sources: the JSON Schema Test Suite (every group whose front-end schema is
 * in the subset), the MCP corpus (valid instances and mutations of every
 * tool), random schemas of the subset (fast-check, fixed seeds), and a
 * hostile-text schema.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hasFormatKeyword, inOwnSubset } from '../../generator/emit/own-validators.js';
import { validationSchema } from '../../generator/emit/validation-schema.js';
import { schemaForAjv, validatorsModule } from '../../generator/emit/validators.js';
import type { JsonSchema } from '../../generator/ir.js';
import { normalizedParameters } from '../../generator/normalize.js';
import { expandParameters } from '../../generator/validate.js';
import { loadCorpus } from '../corpus/corpus.js';
import { mutations, validInstance } from '../corpus/instances.js';
import { loadSuite, wrapSuiteSchema } from '../spec/json-schema-suite.js';
import { REPO } from './helpers.js';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
interface Pair {
  readonly own: readonly Validate[];
  readonly ajv: readonly Validate[];
  /** Per schema: whether the own emitter took it. */
  readonly mine: readonly boolean[];
  /** How often the own validators' collector ran. */
  readonly rejects: { count: number };
  readonly code: string;
}

const base = path.join(REPO, '.tmp', 'own-validators');
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(path.join(base, 'run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Imports module text (a .ts file in the repo, so `ajv-formats/…` resolves as generated output's does). */
async function load(code: string): Promise<Record<string, unknown>> {
  const file = path.join(dir, `m${files++}.ts`);
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** The two modules for `schemas` (front-end output, as codegen hands them over). */
async function pair(schemas: readonly JsonSchema[], applyDefaults = false): Promise<Pair> {
  const input = { schemas, applyDefaults, runtimeImport: 'toolroute/runtime' };
  const code = validatorsModule(input);
  const spied = code.replace('const errors = __ownCollect(schema, data, "", "#", null);', '__rejects.count++;\nconst errors = __ownCollect(schema, data, "", "#", null);');
  const mine = schemas.map((_, i) => code.includes(`\nfunction o${i}(data) {\n`));
  // The module's choice is the subset predicate's (on the schema as ajv would get it).
  expect(mine).toEqual(schemas.map((s) => inOwnSubset(schemaForAjv(s, applyDefaults), applyDefaults)));
  if (mine.some((m) => m)) expect(spied).not.toBe(code);
  const own = await load(`${spied}export const __rejects = { count: 0 };\n`);
  const ajv = await load(validatorsModule({ ...input, ownValidators: false }));
  return { own: own['validators'] as Validate[], ajv: ajv['validators'] as Validate[], mine, rejects: own['__rejects'] as { count: number }, code };
}

/** Serialization that keeps key order and tells -0, undefined and NaN apart (JSON.stringify does not). */
function exact(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(exact).join(',')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${exact((value as Record<string, unknown>)[k])}`).join(',')}}`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

interface Mismatch {
  readonly where: string;
  readonly data: string;
  readonly own: string;
  readonly ajv: string;
}

/** Runs validator `i` of both modules on `data`; a disagreement of any kind is returned, agreement is undefined. */
function compare(p: Pair, i: number, data: unknown, where: string): Mismatch | undefined {
  const before = exact(data);
  const calls = p.rejects.count;
  let own: string;
  let ajv: string;
  let ownValid: unknown;
  try {
    ownValid = p.own[i]!(data);
    own = `${exact(ownValid)} ${exact(p.own[i]!.errors)}`;
  } catch (error) {
    own = `threw ${String(error)}`;
  }
  try {
    ajv = `${exact(p.ajv[i]!(data))} ${exact(p.ajv[i]!.errors)}`;
  } catch (error) {
    ajv = `threw ${String(error)}`;
  }
  if (own === ajv && p.mine[i]) {
    // The tight check ran the collector exactly when the value is invalid; the data is as it was.
    const collected = p.rejects.count - calls;
    if (collected !== (ownValid === true ? 0 : 1)) own += ` (collector ran ${collected} times)`;
    if (exact(data) !== before) own += ' (data changed)';
  }
  if (own === ajv) {
    expect(p.own[i]!.errors).toStrictEqual(p.ajv[i]!.errors);
    return undefined;
  }
  return { where, data: before, own, ajv };
}

/** Values any schema should meet: every JSON kind, the ones the runtime may pass, and hostile keys. */
const GENERIC: readonly unknown[] = [
  null,
  true,
  0,
  -0,
  1,
  -1.5,
  2 ** 53,
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  '😀',
  '\ud800',
  [],
  [1, 'a', null],
  {},
  JSON.parse('{"__proto__":{"a":1},"constructor":1,"toString":"x","valueOf":{}}'),
  { 'a/b~c': 1 },
];

/** Each value as the whole argument object and wrapped in every property of an object schema (the suite wraps its schema as `value`). */
function probes(schema: JsonSchema, extra: readonly unknown[]): unknown[] {
  const out: unknown[] = [...extra, ...GENERIC];
  const props = schema['properties'];
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
    for (const name of Object.keys(props)) for (const v of GENERIC) out.push({ [name]: v });
  }
  return out;
}

/** What the front end hands the validators for a tool's parameters, or undefined when it refuses them. */
function frontEnd(parameters: unknown): JsonSchema | undefined {
  const r = expandParameters(parameters as Record<string, unknown>);
  if (r.problems.length > 0) return undefined;
  return validationSchema(normalizedParameters(r.schema as JsonSchema), false);
}

function report(mismatches: readonly Mismatch[]): string {
  return mismatches
    .slice(0, 5)
    .map((m) => `${m.where}\n  data ${m.data}\n  own  ${m.own}\n  ajv  ${m.ajv}`)
    .join('\n');
}

describe('own validators equal ajv on the JSON Schema Test Suite', () => {
  it('every case of every group in the subset, and generic values', async ({ annotate }) => {
    const groups = loadSuite();
    const schemas: JsonSchema[] = [];
    const cases: { group: string; values: unknown[] }[] = [];
    for (const g of groups) {
      const schema = frontEnd(wrapSuiteSchema(g.schema, g.dialect));
      if (schema === undefined) continue;
      schemas.push(schema);
      cases.push({ group: g.id, values: [...g.tests.map((t) => ({ value: t.data })), ...g.tests.map((t) => t.data)] });
    }
    const p = await pair(schemas);
    const mismatches: Mismatch[] = [];
    let covered = 0;
    let checked = 0;
    let invalid = 0;
    for (const [i, c] of cases.entries()) {
      if (!p.mine[i]) continue;
      covered++;
      for (const v of probes(schemas[i]!, c.values)) {
        checked++;
        if (p.ajv[i]!(v) !== true) invalid++;
        const m = compare(p, i, v, c.group);
        if (m) mismatches.push(m);
      }
    }
    await annotate(`${covered} of ${groups.length} suite groups use toolroute's own validator; ${checked} values compared (${invalid} invalid)`);
    expect(report(mismatches)).toBe('');
    // Measured: 304 of the 640 groups. A regression that sends everything to ajv fails here.
    expect(covered).toBeGreaterThanOrEqual(295);
    expect(invalid).toBeGreaterThan(checked / 3);
  });
});

describe('own validators equal ajv on the MCP corpus', () => {
  it('takes at least 90 % of the real tool schemas, and agrees on valid instances and their mutations', async ({ annotate }) => {
    const tools = loadCorpus().flatMap((s) => s.fixture.tools.map((t) => ({ id: `${s.id}/${t.name}`, raw: t.inputSchema as Record<string, unknown> })));
    const schemas: JsonSchema[] = [];
    const roots: { id: string; raw: Record<string, unknown> }[] = [];
    for (const t of tools) {
      const schema = frontEnd(t.raw);
      if (schema === undefined) continue;
      schemas.push(schema);
      roots.push(t);
    }
    const p = await pair(schemas);
    const taken = p.mine.filter((m) => m).length;
    const mismatches: Mismatch[] = [];
    let checked = 0;
    let invalid = 0;
    for (const [i, t] of roots.entries()) {
      if (!p.mine[i]) continue;
      const values: unknown[] = [];
      for (const mode of ['minimal', 'maximal'] as const) {
        const valid = validInstance(t.raw, mode);
        if (valid === undefined || typeof valid !== 'object' || valid === null || Array.isArray(valid)) continue;
        values.push(valid, ...mutations(t.raw, valid).map((m) => m.args), ...nested(valid));
      }
      for (const v of probes(schemas[i]!, values)) {
        checked++;
        if (p.ajv[i]!(v) !== true) invalid++;
        const m = compare(p, i, v, t.id);
        if (m) mismatches.push(m);
      }
    }
    await annotate(`${taken} of ${schemas.length} corpus tool schemas use toolroute's own validator; ${checked} values compared (${invalid} invalid)`);
    expect(report(mismatches)).toBe('');
    expect(taken / schemas.length).toBeGreaterThanOrEqual(0.9);
    expect(checked - invalid).toBeGreaterThan(200);
    expect(invalid).toBeGreaterThan(2000);
  });
});

const WRONG: readonly unknown[] = [123.5, -1, 2 ** 31, 'text', 'not-a-uuid', true, null, { zz: 1 }, [1], [], ''];

/** Mutations below the top level: each nested value replaced by each wrong value, and nested objects given an unknown key. */
function nested(valid: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, replace: (v: unknown) => unknown, depth: number) => {
    if (depth > 0) for (const w of WRONG) out.push(replace(w));
    if (Array.isArray(value)) value.forEach((x, i) => walk(x, (v) => replace(value.map((y, j) => (j === i ? v : y))), depth + 1));
    else if (typeof value === 'object' && value !== null) {
      if (depth > 0) out.push(replace({ ...value, zz_unknown: 1 }));
      for (const k of Object.keys(value)) walk((value as Record<string, unknown>)[k], (v) => replace({ ...value, [k]: v }), depth + 1);
    }
  };
  walk(valid, (v) => v, 0);
  return out.slice(0, 400);
}

// ---------------------------------------------------------------------------
// Random schemas of the subset.

const KEYS = ['a', 'b', 'c~/d', 'toolroute', '0'];
const STRINGS = ['', '__proto__', 'true', '1', 'a', 'ab', 'abc', '😀😀', 'x/y', '2024-05-06', '2024-05-06T07:08:09Z', 'a@example.com', '123e4567-e89b-12d3-a456-426614174000', 'https://example.com/a'];
const NUMBERS = [0, -1, 1, 2, 2.5, 3, 100, 2 ** 31, -(2 ** 31) - 1, 1e21];
const FORMATS = ['date', 'date-time', 'email', 'uuid', 'uri', 'int32', 'int64', 'float', 'password', 'not-a-format', 'regex'];
const PATTERNS = ['^a', 'b$', '^[a-z]+$', '\\d', '^\\p{L}+$', '.'];

const primitive = fc.oneof(fc.constantFrom(...STRINGS), fc.constantFrom(...NUMBERS), fc.boolean(), fc.constant(null));

const { schema: schemaArb } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'schema' },
    fc.constantFrom(true, false, {}),
    fc
      .record(
        {
          type: fc.oneof(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object'), fc.uniqueArray(fc.constantFrom('string', 'number', 'integer', 'null', 'array', 'object'), { minLength: 1, maxLength: 3 })),
          enum: fc.array(primitive, { minLength: 1, maxLength: 4 }),
          const: primitive,
          format: fc.constantFrom(...FORMATS),
          pattern: fc.constantFrom(...PATTERNS),
          minLength: fc.integer({ min: 0, max: 3 }),
          maxLength: fc.integer({ min: 0, max: 3 }),
          minimum: fc.constantFrom(...NUMBERS),
          maximum: fc.constantFrom(...NUMBERS),
          exclusiveMinimum: fc.constantFrom(...NUMBERS),
          exclusiveMaximum: fc.constantFrom(...NUMBERS),
          multipleOf: fc.constantFrom(1, 2, 0.5, 1.5, 1e-9),
          minItems: fc.integer({ min: 0, max: 2 }),
          minProperties: fc.integer({ min: 0, max: 2 }),
          maxProperties: fc.integer({ min: 0, max: 2 }),
          not: tie('schema'),
          allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
          maxItems: fc.integer({ min: 0, max: 2 }),
          items: tie('schema'),
          anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
          oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
          properties: fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 3 }),
          required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
          additionalProperties: tie('schema'),
          uniqueItems: fc.boolean(),
          description: fc.constant('annotation'),
        },
        { requiredKeys: [] },
      )
      // uniqueItems is in the subset with items of primitive types (ajv's keyed loop).
      .chain((s) => fc.constantFrom<unknown>('string', ['string', 'null'], ['integer', 'string'], 'number', ['boolean', 'string']).map((type) => (s.uniqueItems === true ? { ...s, items: { type } } : s))),
  ),
}));

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'value' },
    primitive,
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, 'zz', '__proto__', 'constructor'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('own validators equal ajv on random schemas of the subset', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: 100 object schemas × 50 values`, async () => {
      const roots = fc
        .sample(fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom(...KEYS), schemaArb, { maxKeys: 3 }), required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }), additionalProperties: fc.oneof(fc.constant(false), schemaArb) }, { requiredKeys: ['type'] }), { seed, numRuns: 100 })
        .map((s) => JSON.parse(JSON.stringify(s)) as JsonSchema);
      const p = await pair(roots);
      expect(p.mine.filter((m) => m).length).toBe(roots.length);
      const values = fc.sample(value, { seed, numRuns: 50 });
      const mismatches: Mismatch[] = [];
      let valid = 0;
      for (const [i, root] of roots.entries()) {
        // The random values, and each of them under every property name the schema has.
        const props = Object.keys((root['properties'] ?? {}) as object);
        for (const v of [...values, ...values.slice(0, 20).map((x) => Object.fromEntries(props.map((k) => [k, x])))]) {
          if (p.ajv[i]!(v) === true) valid++;
          const m = compare(p, i, v, `seed ${seed} schema ${i}: ${JSON.stringify(root)}`);
          if (m) mismatches.push(m);
        }
      }
      expect(report(mismatches)).toBe('');
      expect(valid).toBeGreaterThan(100);
    });
  }
});

// ---------------------------------------------------------------------------

describe('the own emitter', () => {
  const hostile = ['*/', '/*', '${x}', '`t`', "'", '"', '\\', '\u2028', '\u2029', '\n', '</script>', 'a"]); throw 1; //'];
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(hostile.map((h, i) => [`k${i}${h}`, { type: 'string', enum: hostile, pattern: h === '\\' || h === '*/' || h === '/*' ? '\\\\|\\*' : `^${h.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}` }])),
    required: hostile.map((h, i) => `k${i}${h}`).slice(0, 3),
    additionalProperties: false,
  };

  it('writes hostile property names, enum values and patterns only as literals, and still agrees with ajv', async () => {
    const p = await pair([schema]);
    expect(p.mine).toEqual([true]);
    const body = p.code.slice(p.code.indexOf('function o0('), p.code.indexOf('/** One validator'));
    for (const line of body.split('\n')) {
      // Outside string literals no line holds a comment, a template or a line terminator.
      const code = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
      expect(code, line).not.toMatch(/\/\*|\*\/|`|\$\{|\/\//);
    }
    expect(p.code).not.toMatch(/[\u2028\u2029]/);
    const names = Object.keys(schema['properties'] as object);
    const all = Object.fromEntries(names.map((n, i) => [n, hostile[i]]));
    const values = [all, { ...all, extra: 1 }, Object.fromEntries(names.map((n) => [n, 'nope'])), {}, ...hostile.map((h) => ({ [names[0]!]: h }))];
    const mismatches = values.map((v, k) => compare(p, 0, v, `value ${k}`)).filter((m) => m !== undefined);
    expect(report(mismatches)).toBe('');
    expect(p.own[0]!(all)).toBe(true);
  });

  it('leaves every schema outside its subset to ajv, which still validates it', async () => {
    const outside: JsonSchema[] = [
      { type: 'object', if: { required: ['b'] }, then: { required: ['a'] } },
      { type: 'object', properties: { a: { type: 'array', contains: { type: 'string' } } } },
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      { type: 'object', propertyNames: { maxLength: 3 } },
      { type: 'object', allOf: [{ required: ['a'] }, { dependencies: { a: ['b'] } }] },
      { type: 'object', properties: { a: { enum: [{ b: 1 }] } } },
      { type: 'object', properties: { a: { const: [1] } } },
      { type: 'object', properties: { toString: { type: 'string' } } },
      { type: 'object', required: ['constructor'] },
      { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } },
      { type: 'object', properties: { a: { type: 'array', uniqueItems: true, items: { type: ['string', 'object'] } } } },
      { type: 'object', properties: { a: { type: 'string', nullable: true } } },
      { type: 'object', properties: { a: { format: 'toString' } } },
      { type: 'object', unevaluatedProperties: false },
    ];
    const p = await pair(outside);
    expect(p.mine).toEqual(outside.map(() => false));
    expect(p.code).not.toContain('function o');
    expect(p.own[0]!({ b: 1 })).toBe(false);
    expect(p.own[0]!({ a: 1, b: 1 })).toBe(true);
  });

  it('refuses a pattern JavaScript cannot compile with the u flag (ajv reports it as before)', () => {
    expect(inOwnSubset({ type: 'object', properties: { a: { type: 'string', pattern: '(?<=a' } } }, false)).toBe(false);
    expect(inOwnSubset({ type: 'object', properties: { a: { type: 'string', pattern: '\\-' } } }, false)).toBe(false);
    expect(inOwnSubset({ type: 'object', properties: { a: { type: 'string', pattern: '^\\p{L}$' } } }, false)).toBe(true);
  });

  it('takes a schema with `default` only when defaults are not applied (ajv fills them in otherwise)', async () => {
    const s: JsonSchema = { type: 'object', properties: { a: { type: 'string', default: 'x' } } };
    expect(inOwnSubset(s, false)).toBe(true);
    expect(inOwnSubset(s, true)).toBe(false);
    expect(inOwnSubset({ type: 'object', properties: { a: { type: 'string' } } }, true)).toBe(true);
    const p = await pair([s, { type: 'object', properties: { a: { type: 'string' } } }], true);
    expect(p.mine).toEqual([false, true]);
  });

  it('imports ajv-formats only for a `format` keyword at a schema position, not for a property or a value named format', async () => {
    const FORMATS_IMPORT = /^import __ajvRuntime\d+ from "ajv-formats\/dist\/formats\.js";$/m;
    // A property named "format", and "format" keys inside values (default, examples, enum, const): data, no keyword.
    const noKeyword: JsonSchema[] = [
      { type: 'object', properties: { format: { type: 'string', enum: ['csv', 'json'] } }, required: ['format'] },
      { type: 'object', properties: { a: { type: 'string', default: 'x', examples: [{ format: 'date' }], description: '"format":' } } },
      { type: 'object', properties: { format: { type: 'object', properties: { format: { const: 'format' } } } } },
    ];
    for (const schema of noKeyword) expect(hasFormatKeyword(schema), JSON.stringify(schema)).toBe(false);
    const without = await pair(noKeyword);
    expect(without.mine).toEqual([true, true, true]);
    expect(without.code).not.toMatch(FORMATS_IMPORT);
    expect(without.code).not.toContain('const __ownFormats =');
    // The collector still reports these schemas' errors (it never reads the table without a keyword).
    const values = [{ format: 'csv' }, { format: 'xml' }, {}, { format: 1 }, { a: 1 }, { a: 'x' }, { format: { format: 'no' } }, { format: { format: 'format' } }, null, []];
    const mismatches = noKeyword.flatMap((_, i) => values.map((v, k) => compare(without, i, v, `schema ${i} value ${k}`))).filter((m) => m !== undefined);
    expect(report(mismatches)).toBe('');
    expect(without.own[0]!({ format: 'xml' })).toBe(false);
    // A keyword anywhere the collector descends: under items, not, additionalProperties, and in a later
    // anyOf branch the tight check may never reach.
    const keyword: JsonSchema[] = [
      { type: 'object', properties: { a: { anyOf: [{ type: 'number' }, { type: 'string', format: 'date' }] } } },
      { type: 'object', properties: { a: { type: 'array', items: { type: 'string', format: 'email' } } } },
      { type: 'object', additionalProperties: { not: { type: 'string', format: 'ipv4' } } },
      { type: 'object', properties: { a: { allOf: [{ oneOf: [{ format: 'uri' }, { type: 'null' }] }] } } },
    ];
    for (const schema of keyword) {
      expect(hasFormatKeyword(schema), JSON.stringify(schema)).toBe(true);
      const one = await pair([schema]);
      expect(one.mine).toEqual([true]);
      expect(one.code).toMatch(FORMATS_IMPORT);
      const probesOf = [{ a: '2026-01-01' }, { a: '2026-13-99' }, { a: 3 }, { a: ['x@y.z', 'nope'] }, { b: '1.2.3.4' }, { b: 'host' }, { a: 'http://x' }, { a: 'no uri' }, { a: null }];
      const found = probesOf.map((v, k) => compare(one, 0, v, `${JSON.stringify(schema)} value ${k}`)).filter((m) => m !== undefined);
      expect(report(found)).toBe('');
    }
  });

  it('is deterministic: the same schemas give the same bytes', () => {
    const input = { schemas: [schema, { type: 'object', properties: { d: { type: 'string', format: 'date' } } }] as JsonSchema[], applyDefaults: false, runtimeImport: 'toolroute/runtime' };
    expect(validatorsModule(input)).toBe(validatorsModule(structuredClone(input)));
  });
});
