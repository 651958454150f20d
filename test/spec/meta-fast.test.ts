/**
 * generator/validate/meta-fast.ts vouches for a schema's meta-schema check
 * without ajv, and must never vouch for a schema ajv's `validateSchema`
 * refuses (its problem would go unreported). Held to ajv, with the options
 * validate/parameters.ts checks with, on the JSON Schema Test Suite (both
 * drafts, every subschema), the bench templates as written and inlined, and
 * random mutations of them; it must vouch for the bench templates (or the
 * fast path would do nothing).
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeMixedSpec } from '../../bench/make-spec.js';
import { expandParameters } from '../../generator/validate/parameters.js';
import { metaSchemaAccepts } from '../../generator/validate/meta-fast.js';
import type { SchemaDialect } from '../../generator/validate/schema-keywords.js';
import { loadSuite } from './json-schema-suite.js';

const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
// validate/parameters.ts's STRICT options, with every error, as its meta-schema check uses them.
const STRICT = { strict: true, strictSchema: false, strictTypes: false, strictTuples: false, strictRequired: false, logger: false, allErrors: true } as const;
const ajvs: Record<SchemaDialect, Ajv> = { '2020-12': addFormats(new Ajv2020(STRICT)), 'draft-07': addFormats(new Ajv(STRICT)) };

/** ajv's verdict; a schema it cannot even look at (`$schema` naming an unknown meta-schema) counts as refused. */
function ajvAccepts(schema: unknown, dialect: SchemaDialect): boolean {
  try {
    return ajvs[dialect].validateSchema(schema as object) === true;
  } catch {
    return false;
  }
}

function holdsTo(schema: unknown, dialect: SchemaDialect, label: string): boolean {
  const fast = metaSchemaAccepts(schema, dialect);
  if (fast) expect(ajvAccepts(schema, dialect), `${label}: ${JSON.stringify(schema)}`).toBe(true);
  return fast;
}

/** The schema and every value inside it (each tried as a schema: most are subschemas, the rest must be refused or vouched for correctly). */
function everyValue(v: unknown, out: unknown[] = []): unknown[] {
  out.push(v);
  if (Array.isArray(v)) for (const x of v) everyValue(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) everyValue(x, out);
  return out;
}

function benchTemplates(): Record<string, unknown>[] {
  const made = makeMixedSpec(60, 'compact', true);
  return [...(made.spec.tools ?? []), ...(made.spec.namespaces ?? []).flatMap((n) => n.tools)].flatMap((t) => (typeof t === 'string' || t.parameters === undefined ? [] : [t.parameters as Record<string, unknown>]));
}

const WEIRD: unknown[] = [
  null, true, false, 0, -0, 1, -1, 1.5, 1e300, Number.POSITIVE_INFINITY, Number.NaN, '', 'x', 'string', 'object', '(', '^a\\Z', '[', 'a{', '\\p{L}',
  [], [1], [1, 1], ['a', 'a'], ['a', 'b'], ['string', 'string'], ['string', 'foo'], [{}], [true], {}, { type: 'string' }, { type: 'nope' }, { minLength: -1 },
  { properties: { a: 1 } }, { $ref: '#' }, { $schema: 'x' }, { enum: [] },
];
const KEYS = ['type', 'properties', 'patternProperties', 'additionalProperties', 'required', 'items', 'prefixItems', 'contains', 'enum', 'const', 'default',
  'examples', 'title', 'description', 'format', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains',
  'uniqueItems', 'minimum', 'exclusiveMinimum', 'multipleOf', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'deprecated', 'readOnly', 'writeOnly',
  'propertyNames', 'unevaluatedProperties', '$comment', '$id', '$ref', '$defs', 'definitions', 'dependencies', 'dependentRequired', 'additionalItems', '__proto__', 'x-custom'];

function mutate(schema: unknown, pick: number, kind: number, weird: number, key: number): unknown {
  const copy = structuredClone(schema);
  const nodes = everyValue(copy).filter((v): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null);
  const node = nodes[pick % nodes.length];
  const value = structuredClone(WEIRD[weird % WEIRD.length]);
  if (node === undefined) return value;
  if (Array.isArray(node)) {
    if (kind % 2 === 0 && node.length > 0) node[pick % node.length] = value;
    else node.push(value);
    return copy;
  }
  const keys = Object.keys(node);
  if (kind % 3 === 0 && keys.length > 0) node[keys[pick % keys.length]!] = value;
  else if (kind % 3 === 1 && keys.length > 0) delete node[keys[pick % keys.length]!];
  else Object.defineProperty(node, KEYS[key % KEYS.length]!, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

describe('metaSchemaAccepts', () => {
  it('never vouches for a schema ajv refuses, on every value of the JSON Schema Test Suite (both drafts)', () => {
    let vouched = 0;
    let refused = 0;
    for (const group of loadSuite()) {
      const dialect: SchemaDialect = group.dialect === 'draft7' ? 'draft-07' : '2020-12';
      for (const v of everyValue(group.schema)) {
        if (holdsTo(v, dialect, group.id)) vouched++;
        if (!ajvAccepts(v, dialect)) refused++;
      }
    }
    expect(vouched).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(100);
  });

  it('vouches for every bench template, as written and inlined, and ajv agrees', () => {
    const templates = benchTemplates();
    expect(templates.length).toBeGreaterThan(50);
    for (const t of templates) {
      const full = t.type === undefined ? { type: 'object', properties: t } : t;
      expect(holdsTo(full, '2020-12', 'template')).toBe(true);
      expect(holdsTo(full, 'draft-07', 'template')).toBe(true);
      expect(holdsTo(expandParameters(t).schema, '2020-12', 'inlined')).toBe(true);
    }
  });

  it('never vouches for a mutated schema ajv refuses', () => {
    const bases = [...benchTemplates(), ...loadSuite().map((g) => g.schema).filter((s) => typeof s === 'object' && s !== null).slice(0, 300)];
    let vouched = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.nat(bases.length - 1), fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.nat(2), fc.boolean(), (b, pick, kind, weird, key, times, draft07) => {
        let v: unknown = bases[b];
        for (let i = 0; i <= times; i++) v = mutate(v, pick + i * 7919, kind + i, weird + i * 13, key + i * 5);
        const dialect: SchemaDialect = draft07 ? 'draft-07' : '2020-12';
        if (holdsTo(v, dialect, 'mutated')) vouched++;
        if (!ajvAccepts(v, dialect)) refused++;
      }),
      { numRuns: 5000, seed: 14 },
    );
    expect(vouched).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it('refuses to vouch for values the meta-schemas refuse, and for what it does not know', () => {
    for (const [schema, dialect] of [
      [{ minLength: -1 }, '2020-12'],
      [{ minLength: 1.5 }, '2020-12'],
      [{ type: ['string', 'string'] }, '2020-12'],
      [{ type: [] }, 'draft-07'],
      [{ required: ['a', 'a'] }, '2020-12'],
      [{ pattern: '^a\\Z' }, '2020-12'],
      [{ patternProperties: { '(': {} } }, '2020-12'],
      [{ anyOf: [] }, '2020-12'],
      [{ enum: [] }, 'draft-07'],
      [{ enum: [1, 1] }, 'draft-07'],
      [{ items: [{}] }, '2020-12'],
      [{ multipleOf: 0 }, '2020-12'],
      [{ maximum: Number.POSITIVE_INFINITY }, '2020-12'],
      [{ $ref: '#' }, '2020-12'],
      [{ 'x-custom': 1 }, '2020-12'],
      [Object.create(null), '2020-12'],
    ] as const) {
      expect(metaSchemaAccepts(schema, dialect), JSON.stringify(schema)).toBe(false);
    }
    expect(metaSchemaAccepts({ enum: [] }, '2020-12')).toBe(true);
    expect(ajvAccepts({ enum: [] }, '2020-12')).toBe(true);
  });
});
