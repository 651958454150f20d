/**
 * generator/emit/ajv-optimize.ts replaces the counting step of ajv's optimize
 * pass (the `names` getters, one fresh object per node) by one walk. These
 * tests hold it to ajv: on every schema of the JSON Schema Test Suite (both
 * drafts, with and without own-property checks and `useDefaults`), the bench
 * templates and the repo's fixture specs, the counts equal the getter's at
 * every optimize call, and the standalone code is byte for byte the code ajv
 * writes without it. And the replacement never outlives the call.
 */
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import * as codegen from 'ajv/dist/compile/codegen/index.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { makeMixedSpec } from '../../bench/make-spec.js';
import { LINEAR_NAMES_AVAILABLE, linearNames, withLinearNames } from '../../generator/emit/ajv-optimize.js';
import { schemaForAjv, validatorsModule } from '../../generator/emit/validators.js';
import type { JsonSchema } from '../../generator/ir.js';
import { expandParameters } from '../../generator/validate/parameters.js';
import { loadSuite, wrapSuiteSchema, type SuiteGroup } from '../spec/json-schema-suite.js';

const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const standaloneCode = ((standaloneCodeModule as { default?: unknown }).default ?? standaloneCodeModule) as (ajv: Ajv, refs: Record<string, string>) => string;

type Counts = Record<string, number>;
const proto = codegen.CodeGen.prototype as unknown as { optimize(n?: number): void };

/** The counts that mean something to the pass: a name absent and a name at 0 read the same (`!names[x]`, `names[x] !== 1`). */
function nonZero(counts: Counts): [string, number][] {
  return Object.entries(counts)
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The indices of the schemas ajv compiles under `options` (the rest: remote refs, an $id taken twice…). */
function compilable(schemas: readonly unknown[], dialect: 'draft7' | 'draft2020-12', options: Options): number[] {
  const ajv = dialect === 'draft7' ? new Ajv(options) : new Ajv2020(options);
  addFormats(ajv);
  const ok: number[] = [];
  schemas.forEach((schema, i) => {
    try {
      ajv.addSchema(schema as object, `v${i}`);
      ajv.getSchema(`v${i}`);
      ok.push(i);
    } catch {
      try {
        ajv.removeSchema(`v${i}`);
      } catch {
        // an $id another schema took: nothing to remove
      }
    }
  });
  return ok;
}

/** ajv's standalone code for the schemas at `keep`, the way validators.ts builds it (compiled inside the call). */
function standalone(schemas: readonly unknown[], keep: readonly number[], dialect: 'draft7' | 'draft2020-12', options: Options, linear: boolean): string {
  const ajv = dialect === 'draft7' ? new Ajv(options) : new Ajv2020(options);
  addFormats(ajv);
  const refs: Record<string, string> = {};
  for (const i of keep) {
    ajv.addSchema(schemas[i] as object, `v${i}`);
    refs[`v${i}`] = `v${i}`;
  }
  return linear ? withLinearNames(() => standaloneCode(ajv, refs)) : standaloneCode(ajv, refs);
}

/** Every optimize call inside `fn` also checks that the one-walk counts equal ajv's getter; returns how many calls were checked. */
function checkingCounts(fn: () => void): number {
  const original = proto.optimize;
  let checked = 0;
  proto.optimize = function (this: { _root: { names: Counts } }, n?: number) {
    const root = this._root;
    // Counted on the tree as ajv's own pass sees it (after its node pass), then ajv's pass runs unchanged.
    const nodes = (root as unknown as { optimizeNodes(): unknown }).optimizeNodes;
    nodes.call(root);
    expect(nonZero(linearNames(root))).toEqual(nonZero(root.names));
    checked++;
    original.call(this, n);
  };
  try {
    fn();
  } finally {
    proto.optimize = original;
  }
  return checked;
}

const BASE: Options = { code: { source: true, esm: true, lines: true }, allErrors: true, strictNumbers: true, strict: false, logger: false, validateSchema: false };
// Own-property checks change how properties are read, defaults add assignments: each variant once, on one draft each.
const VARIANTS: { dialect: 'draft7' | 'draft2020-12'; name: string; options: Options }[] = [
  { dialect: 'draft7', name: 'plain', options: BASE },
  { dialect: 'draft7', name: 'ownProperties', options: { ...BASE, ownProperties: true } },
  { dialect: 'draft2020-12', name: 'plain', options: BASE },
  { dialect: 'draft2020-12', name: 'useDefaults', options: { ...BASE, useDefaults: true } },
];

function suiteSchemas(dialect: SuiteGroup['dialect']): unknown[] {
  return loadSuite()
    .filter((g) => g.dialect === dialect)
    .map((g) => g.schema);
}

function benchSchemas(): JsonSchema[] {
  const made = makeMixedSpec(60, 'compact', true);
  const parameters = [...(made.spec.tools ?? []), ...(made.spec.namespaces ?? []).flatMap((n) => n.tools)].flatMap((t) => (typeof t === 'string' ? [] : [t.parameters]));
  return parameters.map((p) => schemaForAjv(expandParameters(p as Record<string, unknown>).schema));
}

describe('withLinearNames', () => {
  it('finds every node kind of the installed ajv (so the fast pass is in use)', () => {
    expect(LINEAR_NAMES_AVAILABLE).toBe(true);
  });

  for (const { dialect, name, options } of VARIANTS) {
    it(`${dialect}, ${name}: the suite's code is byte for byte ajv's, and every count equals ajv's getter`, () => {
      const schemas = suiteSchemas(dialect);
      const keep = compilable(schemas, dialect, options);
      const plain = standalone(schemas, keep, dialect, options, false);
      const linear = standalone(schemas, keep, dialect, options, true);
      expect(plain.length).toBeGreaterThan(100_000);
      expect(linear).toBe(plain);
      const checked = checkingCounts(() => standalone(schemas, keep, dialect, options, false));
      expect(checked).toBeGreaterThan(200);
    });
  }

  it('wrapped suite schemas (as tool parameters) and the bench templates give ajv\'s bytes through validatorsModule', () => {
    const wrapped = loadSuite().flatMap((g) => {
      const expanded = expandParameters(wrapSuiteSchema(g.schema, g.dialect));
      return expanded.problems.length === 0 ? [expanded.schema] : [];
    });
    const schemas = [...wrapped, ...benchSchemas()];
    expect(schemas.length).toBeGreaterThan(400);
    for (const applyDefaults of [false, true]) {
      const input = { schemas, applyDefaults, runtimeImport: 'toolroute/runtime' };
      const fast = validatorsModule(input);
      // validatorsModule always uses the linear pass; with ajv's own pass pinned for the call (the
      // replacement's assignment is ignored), the text is the same.
      const original = proto.optimize;
      const own = Object.getOwnPropertyDescriptor(proto, 'optimize')!;
      let slow: string;
      try {
        Object.defineProperty(proto, 'optimize', { configurable: true, get: () => original, set: () => {} });
        slow = validatorsModule(input);
      } finally {
        Object.defineProperty(proto, 'optimize', own);
      }
      expect(fast).toBe(slow);
      expect(proto.optimize).toBe(original);
    }
  });

  it('puts ajv\'s pass back when the call throws', () => {
    const original = proto.optimize;
    expect(() =>
      withLinearNames(() => {
        expect(proto.optimize).not.toBe(original);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(proto.optimize).toBe(original);
  });
});
