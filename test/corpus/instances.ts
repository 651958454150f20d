/**
 * Test helpers for real-world schemas: an independent oracle (plain ajv on
 * the schema exactly as the server listed it, not toolroute's normalized
 * copy), a small generator of valid instances, and mutations that make
 * candidate invalid ones. The oracle decides what is valid; the generator
 * only proposes values, and every proposal is checked against the oracle.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = boolean | { [key: string]: unknown };

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

function newAjv(draft07: boolean): Ajv {
  const options = { strict: false, allErrors: false, validateSchema: false, logger: false as const };
  const ajv = draft07 ? new Ajv(options) : new Ajv2020(options);
  addFormats(ajv);
  return ajv;
}

const AJV07 = newAjv(true);
const AJV2020 = newAjv(false);
/** Compiled checks by dialect and schema text: the same subschemas recur across tools and modes. */
const COMPILED = new Map<string, (value: unknown) => boolean>();

function compileCached(ajv: Ajv, schema: Schema, mustCompile = false): (value: unknown) => boolean {
  const key = `${ajv === AJV07 ? '7' : '2020'}:${JSON.stringify(schema)}`;
  let check = COMPILED.get(key);
  if (check === undefined) {
    try {
      const fn = ajv.compile(schema);
      check = (value) => fn(value) === true;
    } catch (error) {
      // A root must compile; a subschema whose refs point elsewhere in the root cannot compile
      // alone: it accepts everything, and the final check against the root catches a bad proposal.
      if (mustCompile) throw error;
      check = () => true;
    }
    COMPILED.set(key, check);
  }
  return check;
}

function isDraft07(root: Schema): boolean {
  return typeof root === 'object' && typeof root['$schema'] === 'string' && root['$schema'].includes('draft-07');
}

/**
 * An oracle for one root schema: plain ajv (draft-07 when the schema says so,
 * else 2020-12, toolroute's default), ajv-formats, the schema untouched.
 *
 * @example
 * const o = oracle({ type: 'object', required: ['a'] });
 * o.valid({}); // false
 */
export function oracle(root: Schema): { valid(value: unknown): boolean; node(schema: Schema): (value: unknown) => boolean } {
  const ajv = isDraft07(root) ? AJV07 : AJV2020;
  const { $schema: _d, ...body } = typeof root === 'object' ? root : {};
  void _d;
  const validateRoot = compileCached(ajv, typeof root === 'boolean' ? root : body, true);
  const defs: Record<string, unknown> = {};
  if (typeof root === 'object') for (const k of ['$defs', 'definitions']) if (root[k] !== undefined) defs[k] = root[k];
  const nodeCache = new Map<Schema, (value: unknown) => boolean>();
  return {
    valid: validateRoot,
    // A subschema checked with the root's definitions beside it, so `#/$defs/…` refs resolve.
    node(schema) {
      let check = nodeCache.get(schema);
      if (check === undefined) {
        const { $schema: _s, ...own } = typeof schema === 'boolean' ? {} : schema;
        void _s;
        check = compileCached(ajv, typeof schema === 'boolean' ? schema : { ...defs, ...own });
        nodeCache.set(schema, check);
      }
      return check;
    },
  };
}

/** `minimal`: only required properties, fewest items; `maximal`: every property, at least one item. */
export type InstanceMode = 'minimal' | 'maximal';

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-05-06T07:08:09Z',
  'iso-date-time': '2024-05-06T07:08:09Z',
  date: '2024-05-06',
  'iso-date': '2024-05-06',
  time: '07:08:09Z',
  'iso-time': '07:08:09Z',
  duration: 'P1D',
  uri: 'https://example.com/a',
  url: 'https://example.com/a',
  'uri-reference': 'https://example.com/a',
  iri: 'https://example.com/a',
  'iri-reference': 'https://example.com/a',
  'uri-template': 'https://example.com/{a}',
  email: 'a@example.com',
  'idn-email': 'a@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  regex: '^a+$',
  'json-pointer': '/a',
  'relative-json-pointer': '0',
  byte: 'YQ==',
  int32: '1',
  int64: '1',
  float: '1.5',
  double: '1.5',
  password: 'secret',
  binary: 'x',
  json: '{}',
};

function asObject(schema: Schema): Record<string, unknown> {
  return typeof schema === 'object' ? schema : {};
}

/** A JSON pointer `#/a/b` into the root. */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'boolean' || (typeof node === 'object' && node !== null) ? (node as Schema) : undefined;
}

function typesOf(s: Record<string, unknown>): string[] {
  const t = s['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  // No `type`: infer from the keywords present, then try everything.
  const inferred: string[] = [];
  if ('properties' in s || 'required' in s || 'additionalProperties' in s) inferred.push('object');
  if ('items' in s || 'prefixItems' in s || 'minItems' in s) inferred.push('array');
  if ('pattern' in s || 'format' in s || 'minLength' in s || 'maxLength' in s) inferred.push('string');
  if ('minimum' in s || 'maximum' in s || 'multipleOf' in s) inferred.push('number');
  return inferred.length > 0 ? inferred : ['string', 'number', 'boolean', 'object', 'array', 'null'];
}

function numberIn(s: Record<string, unknown>, integer: boolean): number[] {
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const min = num('minimum');
  const max = num('maximum');
  const exMin = num('exclusiveMinimum');
  const exMax = num('exclusiveMaximum');
  const step = num('multipleOf');
  let lo = min ?? (exMin !== undefined ? exMin + (integer ? 1 : 0.5) : undefined);
  const hi = max ?? (exMax !== undefined ? exMax - (integer ? 1 : 0.5) : undefined);
  const out: number[] = [];
  if (lo === undefined) lo = hi !== undefined ? Math.min(hi, 1) : 1;
  if (integer) lo = Math.ceil(lo);
  if (step !== undefined) lo = Math.ceil(lo / step) * step;
  out.push(lo);
  if (hi !== undefined) out.push(integer ? Math.floor(hi) : hi);
  out.push(integer ? 1 : 1.5, 0);
  return out;
}

function stringsFor(s: Record<string, unknown>, seed: number): string[] {
  const out: string[] = [];
  const format = typeof s['format'] === 'string' ? s['format'] : undefined;
  if (format !== undefined && FORMAT_SAMPLES[format] !== undefined) out.push(FORMAT_SAMPLES[format]);
  const pattern = typeof s['pattern'] === 'string' ? s['pattern'] : undefined;
  const minLength = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
  const maxLength = typeof s['maxLength'] === 'number' ? s['maxLength'] : Infinity;
  if (pattern !== undefined) {
    try {
      const re = new RegExp(pattern, 'u');
      const arb = fc.stringMatching(re).filter((x) => x.length >= minLength && x.length <= maxLength);
      out.push(...fc.sample(arb, { seed, numRuns: 5 }));
    } catch {
      // A pattern JavaScript cannot compile or fast-check cannot sample: the plain candidates follow.
    }
  }
  const base = 'text';
  out.push(base.length >= minLength ? base.slice(0, Math.max(minLength, Math.min(base.length, maxLength))) : base.padEnd(minLength, 'x'));
  return out;
}

/**
 * A value the oracle accepts for `schema` (a subschema of `root`), or
 * `undefined` when none of the proposals fits.
 *
 * @example
 * validInstance({ type: 'object', properties: { n: { type: 'integer', minimum: 3 } }, required: ['n'] }, 'minimal');
 * // → { n: 3 }
 */
export function validInstance(root: Schema, mode: InstanceMode, seed = 1): Json | undefined {
  const o = oracle(root);
  const gen = (schema: Schema, depth: number): Json | undefined => {
    const check = o.node(schema);
    for (const candidate of candidates(schema, depth)) if (check(candidate)) return candidate;
    return undefined;
  };
  /** Proposals for one subschema, most specific first; lazily, so the first fit ends the search. */
  function* candidates(schema: Schema, depth: number): Generator<Json> {
    if (schema === false || depth > 12) return;
    const s = asObject(schema);
    if ('const' in s) yield s['const'] as Json;
    if (Array.isArray(s['enum'])) yield* s['enum'] as Json[];
    if (typeof s['$ref'] === 'string') {
      const target = resolveRef(root, s['$ref']);
      if (target !== undefined) {
        const { $ref: _r, ...siblings } = s;
        void _r;
        const merged = { ...asObject(target), ...siblings };
        const v = gen(merged, depth + 1);
        if (v !== undefined) yield v;
      }
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = s[key];
      if (!Array.isArray(branches)) continue;
      const { [key]: _b, ...rest } = s;
      void _b;
      for (const branch of branches as Schema[]) {
        const v = gen(branch === true ? rest : mergeSchemas(rest, asObject(branch)), depth + 1);
        if (v !== undefined) yield v;
      }
    }
    if (Array.isArray(s['allOf'])) {
      const { allOf, ...rest } = s;
      const merged = (allOf as Schema[]).reduce<Record<string, unknown>>((acc, part) => mergeSchemas(acc, asObject(part)), rest);
      const v = gen(merged, depth + 1);
      if (v !== undefined) yield v;
    }
    if (s['default'] !== undefined) yield s['default'] as Json;
    if (Array.isArray(s['examples'])) yield* s['examples'] as Json[];
    for (const type of typesOf(s)) {
      switch (type) {
        case 'object': {
          const props = asObject((s['properties'] as Schema | undefined) ?? {});
          const required = new Set(Array.isArray(s['required']) ? (s['required'] as string[]) : []);
          const out: Record<string, Json> = {};
          let ok = true;
          for (const name of Object.keys(props)) {
            if (mode === 'minimal' && !required.has(name)) continue;
            const v = gen(props[name] as Schema, depth + 1);
            if (v === undefined) {
              if (required.has(name)) ok = false;
              continue;
            }
            Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
          }
          // A required name with no `properties` entry: any value the rest of the schema allows.
          for (const name of required) if (!Object.hasOwn(out, name)) out[name] = 'text';
          if (ok) yield out;
          break;
        }
        case 'array': {
          const minItems = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
          const maxItems = typeof s['maxItems'] === 'number' ? s['maxItems'] : Infinity;
          const prefix = Array.isArray(s['prefixItems']) ? (s['prefixItems'] as Schema[]) : [];
          const items = (s['items'] as Schema | undefined) ?? true;
          const count = Math.min(maxItems, Math.max(minItems, prefix.length, mode === 'maximal' ? 1 : 0));
          const out: Json[] = [];
          for (let i = 0; i < count; i++) {
            const v = gen(prefix[i] ?? items, depth + 1);
            if (v === undefined) break;
            out.push(v);
          }
          if (out.length === count) yield out;
          if (minItems === 0) yield [];
          break;
        }
        case 'string':
          yield* stringsFor(s, seed);
          break;
        case 'integer':
          yield* numberIn(s, true);
          break;
        case 'number':
          yield* numberIn(s, false);
          break;
        case 'boolean':
          yield true;
          yield false;
          break;
        case 'null':
          yield null;
          break;
      }
    }
  };
  const value = gen(root, 0);
  return value !== undefined && o.valid(value) ? value : undefined;
}

/** Two schema objects as one (properties and required joined; other keys: the later wins). */
function mergeSchemas(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a, ...b };
  if (a['properties'] !== undefined || b['properties'] !== undefined) out['properties'] = { ...asObject(a['properties'] as Schema), ...asObject(b['properties'] as Schema) };
  if (Array.isArray(a['required']) || Array.isArray(b['required']))
    out['required'] = [...new Set([...((a['required'] as string[]) ?? []), ...((b['required'] as string[]) ?? [])])];
  return out;
}

/** A candidate arguments object and what was done to a valid one to get it. */
export interface Mutation {
  readonly label: string;
  readonly args: Record<string, Json>;
}

const WRONG_VALUES: readonly [string, Json][] = [
  ['number', 123.5],
  ['string', 'text'],
  ['boolean', true],
  ['null', null],
  ['object', { zz: 1 }],
  ['array', [1]],
];

/**
 * Variations of a valid arguments object, each of which may or may not still
 * be valid (the oracle decides): every required property removed in turn,
 * every property replaced by a value of each JSON kind, and one unknown key.
 *
 * @example
 * mutations({ type: 'object', required: ['a'] }, { a: 1 }).map((m) => m.label);
 * // → ['without a', 'a as number', 'a as string', …, 'with an unknown key']
 */
export function mutations(root: Schema, valid: Record<string, Json>): Mutation[] {
  const s = asObject(root);
  const out: Mutation[] = [];
  const copy = (): Record<string, Json> => {
    const c: Record<string, Json> = {};
    for (const [k, v] of Object.entries(valid)) Object.defineProperty(c, k, { value: v, enumerable: true, writable: true, configurable: true });
    return c;
  };
  for (const name of Array.isArray(s['required']) ? (s['required'] as string[]) : []) {
    if (!Object.hasOwn(valid, name)) continue;
    const c = copy();
    delete c[name];
    out.push({ label: `without ${name}`, args: c });
  }
  for (const name of Object.keys(valid)) {
    for (const [kind, value] of WRONG_VALUES) {
      const c = copy();
      Object.defineProperty(c, name, { value, enumerable: true, writable: true, configurable: true });
      out.push({ label: `${name} as ${kind}`, args: c });
    }
  }
  const c = copy();
  c['zz_not_an_argument'] = 1;
  out.push({ label: 'with an unknown key', args: c });
  return out;
}
