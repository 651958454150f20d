/**
 * Regression tests from real-world schemas, each on its minimal reproduction. Specs
 * are generated as a user would (`generate`), the output is type-checked with
 * one tsc run, and dispatch runs through the generated validators.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatGenerateProblem, generate, type GenerateResult } from '../../generator/index.js';
import { loadText } from '../../generator/load.js';
import { formatProblems } from '../../generator/normalize.js';
import { formatProblem } from '../../generator/problems.js';
import { checkSpec, validateSpec } from '../../generator/validate.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';
import { tsLiteral } from './json-schema-suite.js';
import { TSC_RUN } from '../setup/package-build.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A spec of one tool per entry: name → parameters. */
function spec(tools: Record<string, unknown>): Record<string, unknown> {
  return { version: 1, tools: Object.entries(tools).map(([name, parameters]) => ({ name, description: `Tool ${name}`, ...(parameters === undefined ? {} : { parameters }) })) };
}

/** `groups` "at least one of" groups of `alternatives` string properties each (`allOf` of `anyOf` of `required`). */
function atLeastOne(groups: number, alternatives: number): Record<string, unknown> {
  const names = (g: number) => Array.from({ length: alternatives }, (_, a) => `p${g}_${a}`);
  const all = Array.from({ length: groups }, (_, g) => names(g)).flat();
  return {
    type: 'object',
    properties: Object.fromEntries(all.map((n) => [n, { type: 'string' }])),
    allOf: Array.from({ length: groups }, (_, g) => ({ anyOf: names(g).map((n) => ({ required: [n] })) })),
  };
}
/** One property of each group of `atLeastOne`. */
const firstOfEach = (groups: number) => Object.fromEntries(Array.from({ length: groups }, (_, g) => [`p${g}_0`, 'x']));

/** Each case: a spec, calls with their expected verdict, and values that must type-check (or must not). */
interface Case {
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly calls?: readonly { tool: string; args: unknown; ok: boolean }[];
  readonly types?: readonly { tool: string; args: unknown; ok: boolean }[];
}

const CASES: readonly Case[] = [
  {
    // `unevaluatedProperties` beside in-place applicators: a key a partner evaluates was refused by the type, when the
    // partner was typed `unknown` (a `true` branch, `{ minProperties: 1 }`, a dependent schema) or an index type stood
    // beside it (an `unevaluatedProperties` schema, or `patternProperties`).
    name: 'unevaluated-beside-partners',
    spec: spec({
      schema_index: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: { type: 'string' }, allOf: [{ properties: { n: { type: 'number' } } }] },
      pattern_index: { type: 'object', patternProperties: { '^b': { type: 'string' } }, unevaluatedProperties: false, allOf: [{ properties: { c: { type: 'number' } }, required: ['c'] }] },
      untyped_branch: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false, anyOf: [{ properties: { b: { type: 'number' } } }, { minProperties: 1 }] },
      true_branch: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false, allOf: [{ anyOf: [{ properties: { b: { type: 'number' } } }, true] }] },
      dependent: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false, allOf: [{ dependentSchemas: { a: { properties: { b: { type: 'number' } } } } }] },
      closed: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false, allOf: [{ properties: { b: { type: 'number' } } }] },
    }),
    calls: [
      { tool: 'schema_index', args: { a: 'x', n: 1 }, ok: true },
      { tool: 'schema_index', args: { a: 'x', z: 1 }, ok: false },
      { tool: 'pattern_index', args: { c: 1, bx: 's' }, ok: true },
      { tool: 'untyped_branch', args: { a: 's', b: 1 }, ok: true },
      { tool: 'true_branch', args: { a: 's', b: 1 }, ok: true },
      { tool: 'dependent', args: { a: 's', b: 1 }, ok: true },
      { tool: 'closed', args: { a: 's', b: 1 }, ok: true },
      { tool: 'closed', args: { a: 's', z: 1 }, ok: false },
    ],
    types: [
      { tool: 'schema_index', args: { a: 'x', n: 1 }, ok: true },
      { tool: 'pattern_index', args: { c: 1, bx: 's' }, ok: true },
      { tool: 'untyped_branch', args: { a: 's', b: 1 }, ok: true },
      { tool: 'true_branch', args: { a: 's', b: 1 }, ok: true },
      { tool: 'dependent', args: { a: 's', b: 1 }, ok: true },
      { tool: 'closed', args: { a: 's', b: 1 }, ok: true },
    ],
  },
  {
    // Groups of "at least one of these" multiplied into a union TypeScript refuses (TS2590): typeless members were typed as
    // any JSON value; now as the object their schema allows, and past TypeScript's bound the groups widen the type.
    name: 'at-least-one-of-groups',
    spec: spec({ six: atLeastOne(6, 4), ten: atLeastOne(10, 3), many: atLeastOne(17, 2) }),
    calls: [
      { tool: 'six', args: firstOfEach(6), ok: true },
      { tool: 'six', args: { p0_0: 'x' }, ok: false },
      { tool: 'ten', args: firstOfEach(10), ok: true },
      { tool: 'many', args: firstOfEach(17), ok: true },
      { tool: 'many', args: { p0_0: 'x' }, ok: false },
    ],
    types: [
      { tool: 'six', args: firstOfEach(6), ok: true },
      { tool: 'six', args: { p0_0: 'x' }, ok: false },
      { tool: 'ten', args: firstOfEach(10), ok: true },
      { tool: 'many', args: firstOfEach(17), ok: true },
    ],
  },
  {
    // A union of intersections of unions was counted by its direct members (2), not as TypeScript distributes it
    // (401 or 11), so the bound let through an intersection of them that TypeScript refuses (TS2590).
    name: 'nested-groups',
    spec: spec({
      conditions: { type: 'object', allOf: Array.from({ length: 5 }, (_, g) => ({
        if: { anyOf: Array.from({ length: 10 }, (_, a) => ({ required: [`c${g}_${a}`] })) }, then: { required: [`mode${g}`] }, else: { required: [`default${g}`] },
      })) },
      slots: { type: 'object', allOf: ['ab', 'cd'].map(([x, y]) => ({ anyOf: [
        { allOf: [x!, y!].map((l) => ({ anyOf: Array.from({ length: 20 }, (_, a) => ({ required: [`${l}${a}`] })) })) }, { required: [`z${x}`] },
      ] })) },
    }),
    calls: [
      { tool: 'conditions', args: Object.fromEntries(Array.from({ length: 5 }, (_, g) => [`default${g}`, 1])), ok: true },
      { tool: 'conditions', args: { c0_3: 1, default0: 1 }, ok: false },
      { tool: 'slots', args: { a1: 1, b2: 1, c3: 1, d4: 1 }, ok: true },
      { tool: 'slots', args: { a1: 1, zc: 1 }, ok: false },
    ],
    types: [{ tool: 'conditions', args: Object.fromEntries(Array.from({ length: 5 }, (_, g) => [`default${g}`, 1])), ok: true }, { tool: 'slots', args: { a1: 1, b2: 1, c3: 1, d4: 1 }, ok: true }],
  },
  {
    // ajv skipped a `patternProperties` key spelt `__proto__` (a regular expression like any other): nothing was checked.
    name: 'proto-pattern',
    spec: spec({
      t: { type: 'object', patternProperties: JSON.parse('{"__proto__":{"type":"string"}}') as Record<string, unknown> },
      closed: { type: 'object', patternProperties: JSON.parse('{"__proto__":{"type":"string"}}') as Record<string, unknown>, additionalProperties: false },
    }),
    calls: [
      { tool: 't', args: { a__proto__b: 5 }, ok: false },
      { tool: 't', args: { a__proto__b: 's', other: 5 }, ok: true },
      { tool: 'closed', args: JSON.parse('{"__proto__":"s"}') as unknown, ok: true },
      { tool: 'closed', args: JSON.parse('{"__proto__":5}') as unknown, ok: false },
      { tool: 'closed', args: { other: 's' }, ok: false },
    ],
  },
  {
    // A schema in dynamic scope keeps its `$ref`s (typed `unknown`): `unevaluated*: false` beside one cannot close the type.
    name: 'kept-ref-beside-unevaluated',
    spec: spec({
      obj: { $dynamicAnchor: 'node', type: 'object', $ref: '#/$defs/base', unevaluatedProperties: false, $defs: { base: { properties: { a: { type: 'string' } } } } },
      list: {
        $dynamicAnchor: 'node', type: 'object',
        properties: { list: { type: 'array', $ref: '#/$defs/pair', unevaluatedItems: false } },
        $defs: { pair: { prefixItems: [{ type: 'string' }] } },
      },
    }),
    calls: [
      { tool: 'obj', args: { a: 'x' }, ok: true },
      { tool: 'obj', args: { b: 'x' }, ok: false },
      { tool: 'list', args: { list: ['x'] }, ok: true },
      { tool: 'list', args: { list: ['x', 'y'] }, ok: false },
    ],
    types: [{ tool: 'obj', args: { a: 'x' }, ok: true }, { tool: 'list', args: { list: ['x'] }, ok: true }],
  },
  {
    // json-schema-to-typescript renamed `K8sGetPodsArgs` and the generator crashed (exit 70).
    name: 'digit-then-lowercase-names',
    spec: spec({ k8s_get_pods: undefined, sha256sum: { type: 'object', properties: { file: { type: 'string' } } }, tool_2fa: undefined }),
    calls: [
      { tool: 'k8s_get_pods', args: {}, ok: true },
      { tool: 'sha256sum', args: { file: 'a' }, ok: true },
      { tool: 'sha256sum', args: { file: 1 }, ok: false },
    ],
    types: [{ tool: 'sha256sum', args: { file: 'a' }, ok: true }, { tool: 'sha256sum', args: { file: 1 }, ok: false }],
  },
  {
    // a `$ref` key inside data (const, enum, default, examples) crashed the type generator.
    name: 'ref-key-in-data',
    spec: spec({
      t: {
        type: 'object',
        properties: {
          x: { const: { $ref: '#/x' } },
          y: { enum: [{ $ref: '#/y' }, 1] },
          z: { type: 'object', default: { $ref: '#/z' }, examples: [{ $ref: '#/nowhere' }] },
        },
      },
    }),
    calls: [
      { tool: 't', args: { x: { $ref: '#/x' } }, ok: true },
      { tool: 't', args: { x: { $ref: '#/other' } }, ok: false },
      { tool: 't', args: { y: { $ref: '#/y' } }, ok: true },
      { tool: 't', args: { y: 2 }, ok: false },
    ],
    types: [{ tool: 't', args: { x: { $ref: '#/x' }, y: 1 }, ok: true }, { tool: 't', args: { x: { $ref: 1 } }, ok: false }],
  },
  {
    // `$ref` beside sibling keywords is one schema object in 2020-12, like allOf: [target].
    name: 'ref-with-siblings',
    spec: spec({
      a: { type: 'object', $defs: { A: { unevaluatedProperties: false } }, properties: { v: { properties: { prop1: { type: 'string' } }, $ref: '#/$defs/A' } } },
      b: { type: 'object', $defs: { A: { properties: { a: {} } } }, properties: { v: { $ref: '#/$defs/A', additionalProperties: false } } },
      c: {
        type: 'object',
        $defs: { bar: { properties: { bar: { type: 'string' } } } },
        properties: { v: { $ref: '#/$defs/bar', properties: { foo: { type: 'string' } }, unevaluatedProperties: false } },
      },
      d: { type: 'object', $defs: { S: { type: 'string' } }, properties: { v: { $ref: '#/$defs/S', description: 'annotations merge' } } },
    }),
    calls: [
      { tool: 'a', args: { v: { prop1: 'match' } }, ok: false },
      { tool: 'a', args: { v: {} }, ok: true },
      { tool: 'b', args: { v: { a: 1 } }, ok: false },
      { tool: 'b', args: { v: {} }, ok: true },
      { tool: 'c', args: { v: { foo: 'foo', bar: 'bar' } }, ok: true },
      { tool: 'c', args: { v: { foo: 'foo', bar: 'bar', baz: 1 } }, ok: false },
      { tool: 'd', args: { v: 'x' }, ok: true },
      { tool: 'd', args: { v: 1 }, ok: false },
    ],
    types: [{ tool: 'c', args: { v: { foo: 'foo', bar: 'bar' } }, ok: true }, { tool: 'd', args: { v: 1 }, ok: false }],
  },
  {
    // a property named `__proto__` was refused with a false message, or vanished.
    name: 'proto-property',
    spec: {
      version: 1,
      tools: [
        { name: 'shorthand', description: 'x', parameters: JSON.parse('{"__proto__":{"type":"number"}}') },
        { name: 'negated', description: 'x', parameters: JSON.parse('{"__proto__":{"not":{"type":"string"}},"other":{"type":"string"}}') },
        { name: 'closed', description: 'x', parameters: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"number"}},"required":["__proto__"],"additionalProperties":false}') },
      ],
    },
    calls: [
      { tool: 'shorthand', args: JSON.parse('{"__proto__":1}'), ok: true },
      { tool: 'shorthand', args: JSON.parse('{"__proto__":"x"}'), ok: false },
      { tool: 'negated', args: JSON.parse('{"__proto__":"x"}'), ok: false },
      { tool: 'negated', args: JSON.parse('{"__proto__":1,"other":"o"}'), ok: true },
      { tool: 'closed', args: JSON.parse('{"__proto__":1}'), ok: true },
      { tool: 'closed', args: {}, ok: false },
      { tool: 'closed', args: JSON.parse('{"__proto__":1,"x":2}'), ok: false },
    ],
    types: [{ tool: 'closed', args: JSON.parse('{"__proto__":1}'), ok: true }, { tool: 'closed', args: JSON.parse('{"__proto__":"x"}'), ok: false }],
  },
  {
    // argument types narrower than the validator.
    name: 'types-as-wide-as-the-validator',
    spec: spec({
      untyped: { type: 'object', properties: { any: { description: 'Any value' }, min: { minimum: 1 }, email: { format: 'email' }, not: { not: { type: 'string' } } } },
      closed_tuple: { type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } } },
      open_tuple: { type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } } } },
      string_any_of: { type: 'object', properties: { s: { type: 'string', anyOf: [{ format: 'email' }, { format: 'uri' }] } } },
      pattern_props: { type: 'object', properties: { p: { type: 'object', patternProperties: { '^x-': { type: 'string' } } } } },
    }),
    calls: [
      { tool: 'untyped', args: { any: 5, min: 'text', email: 7, not: 3 }, ok: true },
      { tool: 'untyped', args: { min: 0 }, ok: false },
      { tool: 'closed_tuple', args: { t: ['a', 1] }, ok: true },
      { tool: 'closed_tuple', args: { t: ['a'] }, ok: true },
      { tool: 'closed_tuple', args: { t: ['a', 1, 2] }, ok: false },
      { tool: 'open_tuple', args: { t: ['a', 1, 2] }, ok: true },
      { tool: 'string_any_of', args: { s: 'a@b.co' }, ok: true },
      { tool: 'pattern_props', args: { p: { 'x-a': 'v', other: 1 } }, ok: true },
      { tool: 'pattern_props', args: { p: { 'x-a': 1 } }, ok: false },
    ],
    types: [
      { tool: 'untyped', args: { any: 5, min: 'text', email: 7, not: 3 }, ok: true },
      { tool: 'untyped', args: { any: { deep: [null] } }, ok: true },
      { tool: 'closed_tuple', args: { t: ['a', 1] }, ok: true },
      { tool: 'closed_tuple', args: { t: ['a'] }, ok: true },
      { tool: 'closed_tuple', args: { t: ['a', 1, 2] }, ok: false },
      { tool: 'closed_tuple', args: { t: [1] }, ok: false },
      { tool: 'open_tuple', args: { t: ['a', 1, 2] }, ok: true },
      { tool: 'open_tuple', args: { t: ['a', 'b'] }, ok: false },
      { tool: 'string_any_of', args: { s: 'a@b.co' }, ok: true },
      { tool: 'string_any_of', args: { s: 1 }, ok: false },
      { tool: 'pattern_props', args: { p: { 'x-a': 'v', other: 1 } }, ok: true },
    ],
  },
  {
    // valid schemas refused (an unknown format, ajv strict-mode "… is ignored" refusals).
    name: 'valid-schemas-accepted',
    spec: spec({
      json_format: { type: 'object', properties: { body: { type: 'string', format: 'json' } } },
      overlap: { type: 'object', properties: { foo: { type: 'string' } }, patternProperties: { 'f.o': { minLength: 2 } } },
      lone_if: { type: 'object', if: { required: ['a'] } },
      min_contains: { type: 'object', properties: { a: { type: 'array', minContains: 2 } } },
    }),
    calls: [
      { tool: 'json_format', args: { body: 'not json at all' }, ok: true },
      { tool: 'overlap', args: { foo: 'ab' }, ok: true },
      { tool: 'overlap', args: { foo: 'a' }, ok: false },
      { tool: 'lone_if', args: { b: 1 }, ok: true },
      { tool: 'min_contains', args: { a: [1] }, ok: true },
    ],
  },
];

let base = '';
const results = new Map<string, GenerateResult>();
const modules = new Map<string, GeneratedModule>();
let tscOutput = '';
/** Line in types.ts → what it checks. */
const typeLines = new Map<number, { name: string; ok: boolean; tool: string }>();

beforeAll(async () => {
  const root = path.join(REPO, '.tmp', 'real-world-defects');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'run-'));
  // Line 2 is a deliberate error: the test checks tsc reported it (so tsc really checked this file).
  const lines = ['// One type-test file over every case.', 'export const sentinel: number = "not a number";'];
  for (const c of CASES) {
    const dir = path.join(base, c.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'tools.spec.json'), JSON.stringify(c.spec));
    const r = await generate('tools.spec.json', { out: 'out', cwd: dir });
    results.set(c.name, r);
    if (!r.ok) continue;
    modules.set(c.name, (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule);
    const alias = c.name.replace(/-/g, '_');
    if ((c.types ?? []).length > 0) lines.push(`import type { ToolArgs as ${alias} } from './${c.name}/out/index.js';`);
    (c.types ?? []).forEach((t, i) => {
      if (!t.ok) {
        typeLines.set(lines.length + 1, { name: c.name, ok: false, tool: t.tool });
        lines.push('// @ts-expect-error the validator rejects this value');
      }
      typeLines.set(lines.length + 1, { name: c.name, ok: t.ok, tool: t.tool });
      lines.push(`export const ${alias}_${i}: ${alias}[${JSON.stringify(t.tool)}] = ${tsLiteral(t.args)};`);
      // The satisfies twin: the same value compiles against the same type exactly when ok.
      if (t.ok) lines.push(`export const ${alias}_${i}_s = ${tsLiteral(t.args)} satisfies ${alias}[${JSON.stringify(t.tool)}];`);
    });
  }
  writeFileSync(path.join(base, 'types.ts'), `${lines.join('\n')}\n`);
  writeFileSync(
    path.join(base, 'tsconfig.json'),
    JSON.stringify({ extends: path.relative(base, path.join(REPO, 'tsconfig.json')), compilerOptions: { noEmit: true, exactOptionalPropertyTypes: true }, include: ['*/out', 'types.ts'], exclude: [] }),
  );
  const tsc = spawnSync(process.execPath, [...TSC_RUN, '--noEmit', '--pretty', 'false', '-p', base], { encoding: 'utf8' });
  tscOutput = tsc.stdout + tsc.stderr;
}, 300_000);

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('regressions from real-world schemas', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s: generates, and dispatch verdicts match the validator\'s meaning', async (_name, c) => {
    const r = results.get(c.name);
    expect(r?.problems.map(formatGenerateProblem)).toEqual([]);
    expect(r?.ok).toBe(true);
    const gen = modules.get(c.name);
    if (!gen) throw new Error(`${c.name} did not generate`);
    const tools = (c.spec.tools as { name: string }[]).map((t) => t.name);
    const received: unknown[] = [];
    const router = createRouter(gen, Object.fromEntries(tools.map((t) => [t, (args: unknown) => (received.push(args), 'ok')])) as never);
    for (const call of c.calls ?? []) {
      received.length = 0;
      const res = await router.dispatch({ name: call.tool, arguments: JSON.stringify(call.args) });
      expect(res.ok, `${call.tool} ${JSON.stringify(call.args)}: ${JSON.stringify(res).slice(0, 300)}`).toBe(call.ok);
      // Nothing dropped: an accepted call reaches the handler with every key, `__proto__` included.
      if (call.ok) expect(JSON.stringify(received[0])).toBe(JSON.stringify(call.args));
    }
  });

  test('argument types accept what the validator accepts and reject what TypeScript can tell it rejects (one tsc run)', () => {
    // Only this test's files count: the repo's own sources (read through the toolroute-source
    // condition) are checked by `npm run typecheck` with the repo's flags, not these.
    const all = tscOutput.split('\n').filter((l) => /error TS/.test(l) && l.includes('.tmp/real-world-defects/'));
    expect(all.filter((l) => /types\.ts\(2,/.test(l)).length, tscOutput.slice(0, 500)).toBe(1);
    const errors = all.filter((l) => !/types\.ts\(2,/.test(l));
    // Every error must be on an ok line (a too-narrow type) or an unused @ts-expect-error (a too-wide one).
    const wrong = errors.map((l) => {
      const m = /types\.ts\((\d+),\d+\)/.exec(l);
      const at = m ? typeLines.get(Number(m[1])) : undefined;
      return at ? `${at.name}/${at.tool}${at.ok ? '' : ' (expected an error)'}: ${l.slice(0, 300)}` : l;
    });
    expect(wrong).toEqual([]);
    expect([...typeLines.values()].filter((t) => t.ok).length).toBeGreaterThan(10);
  });

  test('the generated types hold the data, never a resolved $ref', () => {
    const r = results.get('ref-key-in-data');
    const types = r?.files.find((f) => f.path === 'types.gen.ts')?.content ?? '';
    expect(types).toMatch(/\$ref: "#\/x";/);
    expect(types).toMatch(/\$ref: "#\/y";/);
  });

  test('the __proto__ property reaches the generated payloads', () => {
    const r = results.get('proto-property');
    const specFile = r?.files.find((f) => f.path === 'spec.gen.ts')?.content ?? '';
    // The spec data is JSON text inside String.raw`…`: read it back as the runtime does.
    const start = specFile.indexOf('String.raw`') + 'String.raw`'.length;
    const text = specFile.slice(start, specFile.indexOf('`);', start));
    const data = JSON.parse(text) as { schemas: Record<string, { properties?: Record<string, unknown> }> };
    const protoSchemas = Object.values(data.schemas).map((schema) => (Object.hasOwn(schema.properties ?? {}, '__proto__') ? JSON.stringify(Object.getOwnPropertyDescriptor(schema.properties, '__proto__')!.value) : undefined));
    expect(protoSchemas.filter((p) => p === '{"type":"number"}').length).toBeGreaterThanOrEqual(2);
    expect(protoSchemas).toContain('{"not":{"type":"string"}}');
  });

  test('an unknown format is a warning with a true message, not an error', () => {
    const r = loadText('version: 1\ntools:\n  - name: t\n    description: d\n    parameters: { type: object, properties: { body: { type: string, format: json }, to: { type: string, format: emial } } }\n', 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    const { problems, warnings } = checkSpec(r.spec);
    expect(problems).toEqual([]);
    expect(warnings.map(formatProblem)).toEqual([
      expect.stringMatching(/^x\.yaml:5:77 - warning \[unknown_format\] tools\[0\]\.parameters\.properties\.body\.format: "json" is not a format toolroute checks: it stays in the schema as an annotation, and arguments are not validated against it\.\n  hint: Formats toolroute checks: date, /),
      expect.stringMatching(/^x\.yaml:5:113 - warning \[unknown_format\] .*"emial".*\n  hint: Did you mean "email"\? Formats toolroute checks: /),
    ]);
    expect(warnings.every((w) => w.severity === 'warning')).toBe(true);
  });

  test('non-standard types from function-calling datasets get the JSON Schema spelling', () => {
    const types: Record<string, RegExp> = {
      dict: /In JSON Schema this is `type: object`\./,
      float: /In JSON Schema this is `type: number`\./,
      tuple: /`type: array` with `prefixItems: \[\.\.\.\]`/,
      any: /no `type` at all/,
      int: /`type: integer`/,
      str: /`type: string`/,
    };
    for (const [t, hint] of Object.entries(types)) {
      const r = loadText(`version: 1\ntools:\n  - name: t\n    description: d\n    parameters: { a: { type: ${t} } }\n`, 'x.yaml', 'yaml');
      if (!r.ok) throw new Error(formatProblems(r.problems));
      const problems = validateSpec(r.spec);
      expect(problems.map((p) => p.code), t).toEqual(['invalid_schema']);
      expect(problems[0]?.hint, t).toMatch(hint);
    }
    const optional = loadText('version: 1\ntools:\n  - name: t\n    description: d\n    parameters: { a: { type: string, optional: true } }\n', 'x.yaml', 'yaml');
    if (!optional.ok) throw new Error('load');
    const [p] = validateSpec(optional.spec);
    expect(p?.message).toBe('JSON Schema has no keyword "optional".');
    expect(p?.hint).toMatch(/optional unless the object that holds them lists them in `required: \[\.\.\.\]`/);
    const flag = loadText('version: 1\ntools:\n  - name: t\n    description: d\n    parameters: { type: object, properties: { a: { type: string, required: true } } }\n', 'x.yaml', 'yaml');
    if (!flag.ok) throw new Error('load');
    expect(validateSpec(flag.spec).map((x) => x.message)).toEqual(['`required` is a list of property names on the object, not a flag on a property (that was JSON Schema draft 3).']);
  });

  test('two different tools with one name get a rename hint, not "merge them"', () => {
    const text = `version: 1
namespaces:
  - name: fs
    description: File server
    tools:
      - { name: read_file, description: Read a file from disk }
  - name: github
    description: GitHub server
    tools:
      - { name: read_file, description: Read a file from a repository, parameters: { repo: { type: string } } }
`;
    const r = loadText(text, 'x.yaml', 'yaml');
    if (!r.ok) throw new Error(formatProblems(r.problems));
    const [p, ...rest] = validateSpec(r.spec);
    expect(rest).toEqual([]);
    expect(p?.code).toBe('duplicate_tool');
    expect(p?.hint).toMatch(/^These are two different tools with one name; .* Rename one, prefixed with where it comes from, e\.g\. "github_read_file"\./);
    expect(p?.hint).not.toMatch(/merg/);
    // The same definition twice still gets "define once, list by name".
    const same = loadText('version: 1\ntools:\n  - { name: a, description: A }\nnamespaces:\n  - name: n\n    description: N\n    tools:\n      - { name: a, description: A }\n', 'y.yaml', 'yaml');
    if (!same.ok) throw new Error('load');
    expect(validateSpec(same.spec)[0]?.hint).toBe('Define a tool once and list it elsewhere by name: replace this definition with `- a`.');
  });
});
