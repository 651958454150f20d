/**
 * One JSON-pointer reader for local `$ref`s (generator/validate/schema-refs.ts
 * `resolvePointer`), used by validation (`checkRef`), by the inliner, and by
 * the default rules (emit/defaults.ts `unfilledDefaults`), so a ref means the
 * same thing to all three. RFC 6901 §4: an array index is `0` or digits
 * without a leading zero, so `01`, `1.0`, ` 1`, `-0`, `1e0` and the empty
 * string index nothing (the earlier copy in defaults.ts took `Number(part)`
 * and so followed `01` to item 1). And the default rules' module graph does
 * not load the validator emitter and ajv's standalone code generator
 * (PROTOTYPE_NAMES lives in a module of its own).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { describe, expect, test } from 'vitest';
import { unfilledDefaults } from '../../generator/emit/defaults.js';
import type { JsonValue } from '../../generator/ir.js';
import { checkRef, resolvePointer } from '../../generator/validate/schema-refs.js';

const ROOT = { a: [{ n: 0 }, { n: 1 }], 'x/y': { n: 2 }, 'm~n': { n: 3 } };

describe('resolvePointer (RFC 6901)', () => {
  test('array indices are canonical decimal numbers only', () => {
    expect(resolvePointer(ROOT, '#/a/0')).toEqual({ path: ['a', 0], target: { n: 0 } });
    expect(resolvePointer(ROOT, '#/a/1')).toEqual({ path: ['a', 1], target: { n: 1 } });
    for (const index of ['01', '00', '1.0', ' 1', '-0', '1e0', '', '+1', '0x1']) {
      expect(resolvePointer(ROOT, `#/a/${index}`), `index ${JSON.stringify(index)}`).toBeUndefined();
    }
  });

  test('~1 and ~0 are unescaped after splitting; the fragment is percent-decoded first', () => {
    expect(resolvePointer(ROOT, '#/x~1y')?.target).toEqual({ n: 2 });
    expect(resolvePointer(ROOT, '#/m~0n')?.target).toEqual({ n: 3 });
    // %2F decodes to a separator (RFC 6901 §6), not to a "/" inside a key.
    expect(resolvePointer(ROOT, '#/x%2Fy')).toBeUndefined();
    expect(resolvePointer(ROOT, '#/a%2F1')?.target).toEqual({ n: 1 });
    expect(resolvePointer(ROOT, '#')).toEqual({ path: [], target: ROOT });
  });

  test('validation refuses a ref with a `01` index as pointing nowhere', () => {
    const codes: string[] = [];
    checkRef('#/a/01', ['$ref'], ROOT, (code) => codes.push(code));
    checkRef('#/a/1', ['$ref'], ROOT, (code) => codes.push(`ok? ${code}`));
    expect(codes).toEqual(['unresolved_ref']);
  });
});

describe('unfilledDefaults follows refs by the same rules', () => {
  // `$defs` is walked only through refs, so the default below is found only by following one.
  const schema = (ref: string): JsonValue => ({
    type: 'object',
    $defs: { list: [{ type: 'object' }, { type: 'object', properties: { toString: { type: 'string', default: 'x' } } }] },
    properties: { o: { $ref: ref } },
  });

  test('`#/$defs/list/1` reaches the default, `#/$defs/list/01` reaches nothing', () => {
    expect(unfilledDefaults(schema('#/$defs/list/1'))).toEqual([{ path: ['$defs', 'list', 1, 'properties', 'toString', 'default'], property: 'toString', value: 'x' }]);
    expect(unfilledDefaults(schema('#/$defs/list/01'))).toEqual([]);
  });
});

describe('the default rules load no validator emitter', () => {
  const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

  test('nothing reachable from generator/validate/defaults.ts is emit/validators.ts or imports ajv standalone', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const queue = [path.join(REPO, 'generator', 'validate', 'defaults.ts')];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const f of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        if (f.fileName.startsWith('.')) queue.push(path.resolve(path.dirname(file), f.fileName).replace(/\.js$/, '.ts'));
        else packages.add(f.fileName);
      }
    }
    // The walk is real: it reached the default rules and the pointer reader.
    expect([...seen].map((f) => path.relative(REPO, f))).toEqual(expect.arrayContaining([path.join('generator', 'emit', 'defaults.ts'), path.join('generator', 'validate', 'schema-refs.ts'), path.join('generator', 'emit', 'prototype-names.ts')]));
    // (Schema validation itself uses ajv: validate/parameters.ts compiles the meta-schema check.)
    expect([...packages].filter((p) => p.startsWith('ajv/dist/standalone'))).toEqual([]);
    expect([...seen].map((f) => path.relative(REPO, f))).not.toContain(path.join('generator', 'emit', 'validators.ts'));
  });
});
