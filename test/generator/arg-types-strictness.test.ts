/**
 * Generated argument types compile under each strictness setting the test suite uses and under plain `strict`:
 * an object with declared optional properties and a typed `additionalProperties` (a string map with known keys, as
 * in the JSON Schema Test Suite's "unevaluatedProperties with adjacent non-bool additionalProperties") needs an index
 * signature that holds `undefined` too, or tsc reports TS2411 wherever `exactOptionalPropertyTypes` is off. An optional
 * property named like a member of TypeScript's `Object` (`toString`) must admit the inherited member too, or an object
 * that leaves it out is refused (TS2322).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaToType } from '../../generator/emit/arg-types.js';
import { TSC_RUN } from '../setup/package-build.js';

const SCHEMAS: Record<string, unknown> = {
  StringMap: { type: 'object', properties: { foo: { type: 'string' } }, additionalProperties: { type: 'string' }, unevaluatedProperties: false },
  Mixed: { type: 'object', properties: { n: { type: 'number' }, s: { type: 'string' } }, required: ['s'], additionalProperties: { type: 'number' } },
  Patterned: { type: 'object', properties: { a: { type: 'boolean' } }, patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
  // Optional properties named like the members every object inherits: an object that leaves them out still has them.
  Inherited: { type: 'object', properties: { value: { type: 'number' }, toString: { type: 'string' }, constructor: { type: 'string' }, valueOf: { type: 'integer' } }, required: ['value'] },
  InheritedClosed: { type: 'object', properties: { hasOwnProperty: { type: 'boolean' }, propertyIsEnumerable: { type: 'string' } }, additionalProperties: false },
};
/** Values the validator accepts, which the types must accept too. */
const VALUES: Record<string, unknown[]> = {
  StringMap: [{}, { foo: 'a' }, { foo: 'a', bar: 'b' }],
  Mixed: [{ s: 'x' }, { s: 'x', n: 1, other: 2 }],
  Patterned: [{}, { a: true, 'x-y': 'z' }],
  Inherited: [{ value: 1 }, { value: 1, toString: 'hex', constructor: 'c', valueOf: 2 }, { value: 1, other: [] }],
  InheritedClosed: [{}, { hasOwnProperty: true, propertyIsEnumerable: 'x' }],
};
/** The settings of this repo's tsconfig, the JSON Schema suite's check, the setups test's strictest flags, and plain strict. */
const SETTINGS: Record<string, Record<string, boolean>> = {
  strict: { strict: true },
  repo: { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: false },
  exactOptional: { strict: true, exactOptionalPropertyTypes: true },
  strictest: { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noPropertyAccessFromIndexSignature: true },
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'toolroute-argtypes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('argument types with optional properties beside an index signature', () => {
  const lines = Object.entries(SCHEMAS).flatMap(([name, schema]) => [
    `export type ${name} = ${schemaToType(schema as never)};`,
    ...VALUES[name]!.map((v, i) => `export const ${name.toLowerCase()}${i}: ${name} = ${JSON.stringify(v)};`),
  ]);
  writeFileSync(path.join(dir, 'types.ts'), `${lines.join('\n')}\n// @ts-expect-error a number is no string (proves the file is checked)\nexport const wrong: StringMap = { foo: 1 };\n`);

  it('print an index signature that admits the optional members', () => {
    expect(schemaToType(SCHEMAS['StringMap'] as never)).toBe('{\n  foo?: string;\n  [k: string]: string | undefined;\n}');
    // A required member adds no undefined.
    expect(schemaToType({ type: 'object', properties: { foo: { type: 'string' } }, required: ['foo'], additionalProperties: { type: 'string' } })).toBe('{\n  foo: string;\n  [k: string]: string;\n}');
  });

  for (const [label, options] of Object.entries(SETTINGS)) {
    it(`compile under ${label}`, () => {
      const config = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [], ...options }, files: ['types.ts'] };
      writeFileSync(path.join(dir, `tsconfig.${label}.json`), JSON.stringify(config));
      const r = spawnSync(process.execPath, [...TSC_RUN, '-p', `tsconfig.${label}.json`, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    });
  }
});
