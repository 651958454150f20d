/**
 * generator/validate/shape-fast.ts vouches for a spec's shape without zod,
 * and must never vouch for one zod's `SpecSchema` refuses: then codegen
 * would skip the shape problems. Held to zod here on every spec file in the
 * fixtures (valid and invalid), the example and bench specs, and random
 * mutations of them (wrong values, missing and extra keys, objects that are
 * not plain); it must also vouch for every valid spec (or the fast path would
 * do nothing). The zod schema's structure is pinned, so a change to
 * schema/spec-schema.ts fails here until shape-fast.ts follows it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { makeFlatSpec, makeMixedSpec } from '../../bench/make-spec.js';
import { loadSpec } from '../../generator/load.js';
import { checkSpec, checkSpecWithoutZod } from '../../generator/validate.js';
import { FAST_KEYS, specShapeIsValid } from '../../generator/validate/shape-fast.js';
import { KNOWN_KEYS, SpecSchema } from '../../schema/spec-schema.js';
import { REPO } from '../generator/helpers.js';

const zodAccepts = (v: unknown): boolean => SpecSchema.safeParse(v).success;

/** Every YAML and JSON spec file below test/fixtures (not the JSON Schema suite or the MCP corpus), and the example. */
function specFiles(): string[] {
  const out: string[] = [path.join(REPO, 'examples', 'tools.spec.yaml')];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'json-schema-test-suite' && e.name !== 'mcp-corpus' && e.name !== 'expected') walk(p);
      } else if (/\.(ya?ml|json)$/.test(e.name) && !e.name.endsWith('.snapshot.json')) out.push(p);
    }
  };
  walk(path.join(REPO, 'test', 'fixtures'));
  return out;
}

async function loadedValues(): Promise<{ file: string; value: unknown }[]> {
  const out: { file: string; value: unknown }[] = [];
  for (const file of specFiles()) {
    const loaded = await loadSpec(file);
    if (loaded.ok) out.push({ file, value: loaded.spec.value });
  }
  return out;
}

/** A structural fingerprint of a zod schema: kinds, keys, strictness, checks, enum values. */
function fingerprint(schema: unknown): unknown {
  const def = (schema as { _zod: { def: Record<string, unknown> } })._zod.def;
  const out: Record<string, unknown> = { type: def.type };
  const checks = def.checks as { _zod: { def: { check: string } } }[] | undefined;
  if (checks?.length) out.checks = checks.map((c) => c._zod.def.check);
  if (def.shape) out.shape = Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([k, v]) => [k, fingerprint(v)]));
  if (def.catchall) out.catchall = (def.catchall as { _zod: { def: { type: string } } })._zod.def.type;
  for (const k of ['innerType', 'element', 'keyType', 'valueType'] as const) if (def[k]) out[k] = fingerprint(def[k]);
  if (def.options) out.options = (def.options as unknown[]).map(fingerprint);
  if (def.entries) out.entries = Object.values(def.entries as object);
  if (def.values) out.values = [...(def.values as Iterable<unknown>)];
  return out;
}

// The shape shape-fast.ts implements, written out.
const opt = (inner: unknown) => ({ type: 'optional', innerType: inner });
const str = { type: 'string' };
const bool = { type: 'boolean' };
const strict = (shape: Record<string, unknown>) => ({ type: 'object', shape, catchall: 'never' });
const list = (element: unknown) => ({ type: 'array', element });
const anyRecord = { type: 'record', keyType: str, valueType: { type: 'unknown' } };
const encodings = { type: 'enum', entries: ['compact', 'schema'] };
const strategies = { type: 'enum', entries: ['native', 'dispatcher', 'append'] };
const tool = strict({ name: str, description: str, tags: opt(list(str)), parameters: opt(anyRecord), returns: opt(anyRecord), deferLoading: opt(bool) });
const toolList = list({ type: 'union', options: [str, tool] });
const EXPECTED_SHAPE = strict({
  $schema: opt(str),
  version: { type: 'literal', values: [1] },
  options: opt(
    strict({
      namespaceEncoding: opt(encodings),
      openaiStrict: opt(bool),
      offerUngroupedTools: opt(bool),
      toolkitLoading: opt({ type: 'union', options: [strategies, strict({ anthropic: opt(strategies), openai: opt(strategies), 'openai-responses': opt(strategies), gemini: opt(strategies) })] }),
      applyDefaults: opt(bool),
    }),
  ),
  tools: opt(toolList),
  namespaces: opt(list(strict({ name: str, description: str, encoding: opt(encodings), tools: toolList }))),
  toolkits: opt(list(strict({ name: str, description: str, tools: toolList }))),
  policies: opt({ type: 'record', keyType: str, valueType: list(str) }),
});

/** Odd values to put anywhere: wrong types, near misses, objects zod's record refuses or may refuse. */
const WEIRD: (() => unknown)[] = [
  () => undefined, () => null, () => 0, () => 1, () => -0, () => Number.NaN, () => '', () => 'x', () => 'compact', () => 'native',
  () => true, () => false, () => [], () => ['a'], () => [1], () => [undefined], () => new Array(2), () => ({}), () => ({ a: 1 }),
  () => Object.create(null) as object, () => Object.assign(Object.create(null) as object, { type: 'object' }), () => new Map(),
  () => new (class Foo {})(), () => ({ constructor: function Fake() {} }), () => ({ [Symbol('s')]: 1 }), () => ({ name: 'n', description: 'd' }),
  () => JSON.parse('{"__proto__": {"type": "object"}}') as object, () => (() => 1), () => Symbol('x'), () => 1n,
];
const KEYS = [...new Set(Object.values(FAST_KEYS).flat()), 'type', 'properties', 'anthropic', 'openai', 'gemini', 'descripton', '__proto__', 'constructor', 'toString', '0'];

type Path = (string | number)[];
/** Every path into `v` (objects and arrays), for picking a place to mutate. */
function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (typeof v === 'object' && v !== null) for (const k of Object.keys(v)) paths((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

/** A copy of the arrays and `{}` objects in `v` (`__proto__` keys kept own); any other value is kept as it is. */
function copyOf(v: unknown): unknown {
  if (Array.isArray(v)) {
    // No map/splice: a mutation may have given an array an own `constructor`, which those would call.
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) out.push(copyOf(v[i]));
    for (const k of Object.keys(v)) if (!/^\d+$/.test(k)) Object.defineProperty(out, k, { value: (v as unknown as Record<string, unknown>)[k], enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: copyOf((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

function mutate(value: unknown, pick: number, kind: number, weird: number, key: number): unknown {
  const copy = copyOf(value);
  const all = paths(copy);
  const at = all[pick % all.length]!;
  const holder = (p: Path) => p.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], copy) as Record<string | number, unknown>;
  const replacement = WEIRD[weird % WEIRD.length]!();
  if (at.length === 0) return kind % 2 === 0 ? replacement : copy;
  const parent = holder(at);
  const last = at[at.length - 1]!;
  switch (kind % 4) {
    case 0:
      parent[last] = replacement;
      break;
    case 1:
      if (Array.isArray(parent)) {
        for (let i = Number(last); i < parent.length - 1; i++) parent[i] = parent[i + 1];
        parent.length--;
      }
      else delete parent[last];
      break;
    case 2: {
      const target = typeof parent[last] === 'object' && parent[last] !== null && !Array.isArray(parent[last]) ? (parent[last] as Record<string, unknown>) : parent;
      Object.defineProperty(target, KEYS[key % KEYS.length]!, { value: replacement, enumerable: true, writable: true, configurable: true });
      break;
    }
    default:
      // A near miss of the same type: a string, a number, a flag changed.
      parent[last] = typeof parent[last] === 'string' ? `${parent[last] as string}x` : typeof parent[last] === 'number' ? (parent[last] as number) + 1 : typeof parent[last] === 'boolean' ? 'true' : replacement;
  }
  return copy;
}

describe('specShapeIsValid', () => {
  it('knows the keys the zod schema knows', () => {
    expect(FAST_KEYS).toEqual(KNOWN_KEYS);
  });

  it('follows the zod schema as it is (change schema/spec-schema.ts → update shape-fast.ts and this pin)', () => {
    expect(fingerprint(SpecSchema)).toEqual(EXPECTED_SHAPE);
  });

  it('vouches for every valid spec and for no spec zod refuses, on the fixtures, the example and the bench specs', async () => {
    const values = await loadedValues();
    values.push(
      { file: 'bench mixed-60', value: makeMixedSpec(60).spec },
      { file: 'bench distinct-60', value: makeMixedSpec(60, 'schema', true).spec },
      { file: 'bench flat-100', value: makeFlatSpec(100).spec },
    );
    expect(values.length).toBeGreaterThan(40);
    let vouched = 0;
    let refused = 0;
    for (const { file, value } of values) {
      const fast = specShapeIsValid(value);
      const zod = zodAccepts(value);
      if (fast) expect(zod, file).toBe(true);
      // Every spec zod accepts is one written as data: the walk vouches for all of them.
      expect(fast, file).toBe(zod);
      if (fast) vouched++;
      if (!zod) refused++;
    }
    expect(vouched).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(5);
  });

  it('never vouches for a mutated spec that zod refuses', async () => {
    const bases = [...(await loadedValues()).map((v) => v.value).filter(zodAccepts), makeMixedSpec(20).spec];
    let vouched = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.nat(bases.length - 1), fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.nat(3), (b, pick, kind, weird, key, times) => {
        let v: unknown = bases[b];
        for (let i = 0; i <= times; i++) v = mutate(v, pick + i * 7919, kind + i, weird + i * 13, key + i * 3);
        const fast = specShapeIsValid(v);
        const zod = zodAccepts(v);
        if (fast) {
          vouched++;
          expect(zod).toBe(true);
        }
        if (!zod) refused++;
      }),
      { numRuns: 4000, seed: 14 },
    );
    expect(vouched).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(1000);
  });

  it('checkSpecWithoutZod answers for a valid spec exactly as checkSpec, and leaves a bad shape to it', async () => {
    for (const file of specFiles()) {
      const loaded = await loadSpec(file);
      if (!loaded.ok) continue;
      const full = checkSpec(loaded.spec);
      const fast = checkSpecWithoutZod(loaded.spec);
      if (fast === undefined) expect(zodAccepts(loaded.spec.value), file).toBe(false);
      else expect(fast, file).toEqual(full);
    }
  });
});

/** Files and packages reachable from `entry` by static, value imports and re-exports (no `import type`, no `import()`). */
function staticGraph(entry: string): { files: string[]; packages: Set<string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const st of source.statements) {
      let specifier: ts.Expression | undefined;
      if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) specifier = st.moduleSpecifier;
      if (ts.isExportDeclaration(st) && !st.isTypeOnly) specifier = st.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
      const name = specifier.text;
      if (name.startsWith('.')) queue.push(path.resolve(path.dirname(file), name).replace(/\.js$/, '.ts'));
      else packages.add(name);
    }
  }
  return { files: [...seen].map((f) => path.relative(REPO, f)), packages };
}

describe('codegen of a valid spec loads no zod', () => {
  it('neither the CLI nor generate() imports zod or the zod spec schema statically', () => {
    for (const entry of [path.join(REPO, 'generator', 'cli.ts'), path.join(REPO, 'generator', 'index.ts')]) {
      const { files, packages } = staticGraph(entry);
      // The walk is real: it reached the pipeline's steps and ajv.
      expect(files).toEqual(expect.arrayContaining([path.join('generator', 'validate', 'rules.ts'), path.join('generator', 'normalize.ts'), path.join('generator', 'emit', 'validators.ts')]));
      // (ajv itself is loaded on first use by validators.ts; its code generator is a static import of ajv-optimize.ts.)
      expect([...packages].some((p) => p === 'ajv' || p.startsWith('ajv/'))).toBe(true);
      expect([...packages].filter((p) => p === 'zod' || p.startsWith('zod/'))).toEqual([]);
      expect(files).not.toContain(path.join('schema', 'spec-schema.ts'));
      expect(files).not.toContain(path.join('generator', 'validate', 'shape.ts'));
    }
    // …while validate.ts, which generate() imports when the walk cannot vouch for a spec, does reach zod.
    expect(staticGraph(path.join(REPO, 'generator', 'validate.ts')).packages.has('zod')).toBe(true);
  });
});
