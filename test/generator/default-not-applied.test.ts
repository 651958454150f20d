/**
 * The warning `default_not_applied` names exactly the defaults the validator
 * never fills: `unfilledDefaults` (generator/emit/defaults.ts) against
 * `schemaForAjv` (emit/ajv-schema.ts), which removes them from ajv's copy,
 * and against ajv itself, which with `useDefaults` fills every other default
 * of the same schema. Only with `applyDefaults: true`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { unfilledDefaults } from '../../generator/emit/defaults.js';
import { schemaForAjv } from '../../generator/emit/ajv-schema.js';
import { generate } from '../../generator/index.js';
import type { JsonSchema, JsonValue } from '../../generator/ir.js';
import { loadSpec } from '../../generator/load.js';
import { formatProblem } from '../../generator/problems.js';
import { checkSpec, expandParameters } from '../../generator/validate.js';
import { REPO, removeDir, tempDir } from './helpers.js';

const isRecord = (v: unknown): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `[property, default]` under a `properties` map of `schema`, for names in `names` (the defaults' own values included). */
function defaultsNamed(schema: JsonValue, names: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (node: JsonValue): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isRecord(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'properties' && isRecord(v)) {
        for (const [p, s] of Object.entries(v)) if (names.has(p) && isRecord(s) && 'default' in s) out.push(`${p}=${JSON.stringify(s.default)}`);
      }
      // ajv's copy holds a `__proto__` property as this pattern (ajv-schema.ts `schemaForAjv`).
      if (k === 'patternProperties' && isRecord(v) && isRecord(v['^__proto__$']) && 'default' in v['^__proto__$']) out.push(`__proto__=${JSON.stringify(v['^__proto__$'].default)}`);
      if (k !== 'default' && k !== 'enum' && k !== 'const') walk(v);
    }
  };
  walk(schema);
  return out.sort();
}

const PROTO = new Set(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

/** `fills`: the data ajv gives back for `{ o: {}, a: [{}], s: {} }`: every default but the prototype-named ones. */
const SCHEMAS: { name: string; schema: Record<string, unknown>; fills: Record<string, unknown> }[] = [
  { name: 'top level', schema: { type: 'object', properties: { toString: { type: 'string', default: 'x' }, n: { type: 'integer', default: 1 } } }, fills: { o: {}, a: [{}], s: {}, n: 1 } },
  { name: 'nested and in items', schema: { type: 'object', properties: { o: { type: 'object', properties: { valueOf: { type: 'number', default: 2 } } }, a: { type: 'array', items: { type: 'object', properties: { constructor: { type: 'string', default: 'c' }, k: { default: 'k' } } } } } }, fills: { o: {}, a: [{ k: 'k' }], s: {} } },
  { name: 'through a $ref, an unused $defs entry left out', schema: { type: 'object', properties: { s: { $ref: '#/$defs/S' } }, $defs: { S: { type: 'object', properties: { hasOwnProperty: { type: 'boolean', default: false } } }, U: { type: 'object', properties: { toString: { default: 'u' } } } } }, fills: { o: {}, a: [{}], s: {} } },
  { name: '__proto__ and allOf', schema: { type: 'object', properties: JSON.parse('{"__proto__":{"type":"object","default":{}},"m":{"default":"m"}}') as Record<string, unknown>, allOf: [{ properties: { toLocaleString: { type: 'string', default: 'l' } } }] }, fills: { o: {}, a: [{}], s: {}, m: 'm' } },
  { name: 'none', schema: { type: 'object', properties: { limit: { type: 'integer', default: 10 } } }, fills: { o: {}, a: [{}], s: {}, limit: 10 } },
];

describe.each(SCHEMAS)('unfilledDefaults: $name', ({ schema, fills }) => {
  const expanded = expandParameters(schema);
  test('lists exactly the prototype-named defaults schemaForAjv removes from the validator', () => {
    expect(expanded.problems).toEqual([]);
    const inlined = expanded.schema as JsonSchema;
    const removed = defaultsNamed(inlined, PROTO).filter((d) => !defaultsNamed(schemaForAjv(inlined, true) as JsonValue, PROTO).includes(d));
    const listed = unfilledDefaults(schema as JsonValue).map((u) => `${u.property}=${JSON.stringify(u.value)}`).sort();
    expect(listed).toEqual(removed);
    // Without the option nothing is removed (and nothing is warned about, below).
    expect(defaultsNamed(schemaForAjv(inlined, false) as JsonValue, PROTO)).toEqual(defaultsNamed(inlined, PROTO));
  });

  test('ajv, on the copy it compiles, still fills every other default, so only those are not filled', () => {
    const inlined = expanded.schema as JsonSchema;
    const copy = schemaForAjv(inlined, true);
    const validate = new Ajv2020({ useDefaults: true, strict: false, ownProperties: true }).compile(copy);
    const data: Record<string, unknown> = JSON.parse('{"o":{},"a":[{}],"s":{}}') as Record<string, unknown>;
    expect(validate(data)).toBe(true);
    expect(data).toEqual(fills);
    for (const u of unfilledDefaults(schema as JsonValue)) expect(JSON.stringify(data)).not.toContain(`"${u.property}"`);
  });
});

describe('codegen warns default_not_applied', () => {
  test('at the `default` key of the apply-defaults fixture, and generation goes on', async () => {
    const result = await generate('test/fixtures/apply-defaults/spec.yaml', { out: 'test/fixtures/apply-defaults/expected', cwd: REPO, check: true });
    expect(result.ok).toBe(true);
    const warned = result.warnings.filter((w) => w.code === 'default_not_applied');
    expect(warned.map((w) => [w.path, w.severity])).toEqual([[expect.stringMatching(/^tools\[\d+\]\.parameters\.properties\.toString\.default$/), 'warning']]);
    // The name the CLI lists when it folds many of these.
    expect(warned[0]!.subject).toBe('echo.toString');
    expect(formatProblem(warned[0]!)).toMatch(
      /^test\/fixtures\/apply-defaults\/spec\.yaml:62:35 - warning \[default_not_applied\] .*: the default of "toString" \("never filled"\) in tool "echo" is never filled in: .*\n {2}hint: Rename the property .*or fill the default in the handler/,
    );
  });

  test('only when applyDefaults is true', async () => {
    const spec = (applyDefaults: boolean) => `version: 1\noptions: { applyDefaults: ${applyDefaults} }\ntools:\n  - name: echo\n    description: Echo\n    parameters: { toString: { type: string, default: x } }\n`;
    const dir = tempDir('default-not-applied-');
    try {
      const codes: string[][] = [];
      for (const on of [true, false]) {
        writeFileSync(path.join(dir, 'spec.yaml'), spec(on));
        const loaded = await loadSpec(path.join(dir, 'spec.yaml'), { cwd: REPO });
        if (!loaded.ok) throw new Error('the spec must load');
        const { problems, warnings } = checkSpec(loaded.spec);
        expect(problems).toEqual([]);
        codes.push(warnings.map((w) => `${w.code} ${w.path} ${w.line}:${w.column}`));
      }
      // The shorthand's path is the property as written (no `properties` segment).
      expect(codes).toEqual([['default_not_applied tools[0].parameters.toString.default 6:45'], []]);
    } finally {
      removeDir(dir);
    }
  });
});
