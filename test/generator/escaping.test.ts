/**
 * Spec text never becomes code: the escaping fixture's descriptions, enum
 * values, defaults, property names, toolkit and policy names (comment
 * terminators, template syntax, quotes, backslashes, newlines, LS/PS, XML
 * markup, non-Latin text, emoji) round-trip exactly into every artifact, and
 * importing the output has no side effects.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.js';
import { normalizeSpec } from '../../generator/normalize.js';
import type { IRSpec } from '../../generator/ir.js';
import { RENDER_FORMS, type GeneratedSpec } from '../../runtime/contract.js';
import { REPO } from './helpers.js';

const dir = path.join(REPO, 'test/fixtures/escaping/expected');
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

let ir: IRSpec;
let gen: { spec: GeneratedSpec; directoryXml: string; TOOL_NAMES: readonly string[]; TOOLKIT_NAMES: readonly string[]; POLICY_NAMES: readonly string[] };
let globalsAdded: string[];

beforeAll(async () => {
  const loaded = await loadSpec('test/fixtures/escaping/spec.yaml', { cwd: REPO });
  if (!loaded.ok) throw new Error('escaping fixture does not load');
  ir = normalizeSpec(loaded.spec);
  const before = new Set(Reflect.ownKeys(globalThis));
  gen = await import(pathToFileURL(path.join(dir, 'index.ts')).href);
  globalsAdded = Reflect.ownKeys(globalThis).filter((k) => !before.has(k)).map(String);
});

/** Every string in a JSON value, keys included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(k), strings(v, out);
  return out;
}

/** The hostile strings of the fixture: every spec string with something that needs escaping somewhere. */
function hostile(): string[] {
  const all = strings({ tools: ir.tools.map((t) => ({ d: t.description, p: t.parameters, tags: t.tags })), ns: ir.namespaces.map((n) => n.description), kits: ir.toolkits.map((k) => [k.name, k.description]), policies: ir.policies.map((p) => p.name) });
  return [...new Set(all.filter((s) => /[*/`$'"\\\n\u2028\u2029<>&]|[^\x00-\x7f]/.test(s)))];
}

describe('escaping fixture', () => {
  it('has the hostile strings it is meant to test', () => {
    const texts = hostile();
    for (const probe of ['*/', '/*', '`', '${', "'", '"', '\\', '\n', '\u2028', '\u2029', '</toolkit>', '<script>', '中文', 'العربية', '😀']) {
      expect(texts.some((t) => t.includes(probe)), probe).toBe(true);
    }
  });

  it('importing it has no side effects on globalThis', () => {
    expect(globalsAdded).toEqual([]);
  });

  it('no comment in a TS file is closed early: every comment block is well formed, no code line holds a terminator', () => {
    for (const file of ['types.gen.ts', 'spec.gen.ts', 'names.gen.ts', 'directory.gen.ts', 'index.ts', 'validators.gen.ts']) {
      const lines = read(file).split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!.trim();
        if (line.startsWith('/**')) {
          if (line.endsWith('*/') && line.length > 4) {
            expect(line.slice(3, -2), `${file}:${i + 1}`).not.toContain('*/');
            continue;
          }
          expect(line, `${file}:${i + 1}`).toBe('/**');
          for (i++; lines[i]!.trim() !== '*/'; i++) {
            expect(lines[i]!.trim().startsWith('*'), `${file}:${i + 1}`).toBe(true);
            expect(lines[i], `${file}:${i + 1}`).not.toContain('*/');
          }
          continue;
        }
        // A code line: no comment opener or terminator outside string literals.
        const code = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""').replace(/\/\/.*$/, '');
        expect(code, `${file}:${i + 1}`).not.toMatch(/\/\*|\*\//);
      }
      expect(read(file), file).not.toMatch(/[\u2028\u2029]/);
    }
  });

  it('descriptions land in JSDoc with only the comment terminator escaped', () => {
    const types = read('types.gen.ts');
    const evil = ir.tools[0]!.description;
    const firstLine = evil.split(/\n|\u2028|\u2029/)[0]!;
    expect(types).toContain(firstLine.replace(/\*\//g, '*\\/'));
  });

  it('tool, toolkit and policy names round-trip exactly through the names module', () => {
    expect(gen.TOOL_NAMES).toEqual(ir.tools.map((t) => t.name));
    expect(gen.TOOLKIT_NAMES).toEqual(ir.toolkits.map((k) => k.name));
    expect(gen.POLICY_NAMES).toEqual(ir.policies.map((p) => p.name));
    expect(Object.keys(gen.spec.policies)).toEqual(ir.policies.map((p) => p.name));
  });

  it('the union types carry every name and enum value as an exactly-escaped string literal', () => {
    const types = read('types.gen.ts');
    const literals = new Set([...types.matchAll(/"(?:[^"\\\n]|\\.)*"/g)].map((m) => JSON.parse(m[0].replace(/\\u2028/g, '\u2028').replace(/\\u2029/g, '\u2029')) as string));
    for (const name of [...ir.toolkits.map((k) => k.name), ...ir.policies.map((p) => p.name)]) expect(literals.has(name), name).toBe(true);
    const props = ir.tools[0]!.parameters['properties'] as Record<string, { enum?: string[] }>;
    // Guard the loops below: the fixture must hold quoted (non-identifier) keys and enum values to check.
    expect(Object.keys(props).filter((key) => !/^[A-Za-z_$][\w$]*$/.test(key)).length).toBeGreaterThan(0);
    expect(Object.values(props).flatMap((p) => p.enum ?? []).length).toBeGreaterThan(0);
    for (const [key, prop] of Object.entries(props)) {
      if (!/^[A-Za-z_$][\w$]*$/.test(key)) expect(literals.has(key), key).toBe(true);
      for (const value of prop.enum ?? []) expect(literals.has(value), JSON.stringify(value)).toBe(true);
    }
  });

  it('validators accept every enum value exactly, under its exact property name, and reject near misses', () => {
    const tool = gen.spec.tools[0]!;
    const validate = gen.spec.validators[tool.validator]!;
    const props = ir.tools[0]!.parameters['properties'] as Record<string, { enum?: string[] }>;
    const [key, prop] = Object.entries(props).find(([, p]) => (p.enum?.length ?? 0) > 5)!;
    for (const value of prop.enum!) {
      expect(validate({ [key]: value }), JSON.stringify(value)).toBe(true);
      expect(validate({ [key]: `${value} ` })).toBe(false);
    }
    // `constructor` and `toString` are arguments here, not Object.prototype members.
    expect(validate({ [key]: prop.enum![0], constructor: 1, toString: 'x' })).toBe(true);
    expect(validate({ [key]: prop.enum![0], toString: 1 })).toBe(false);
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ missingProperty: key });
  });

  it('the directory XML escapes attributes (quotes too) and element text (&, <, > only), and unescapes to the exact names and descriptions', () => {
    const xml = gen.directoryXml;
    expect(xml).toBe(gen.spec.directoryXml);
    const unescape = (s: string) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
    const entries = [...xml.matchAll(/ {2}<toolkit name="([^"<>]*)" tools="([^"<>]*)">([^<>]*)<\/toolkit>/g)];
    expect(entries).toHaveLength(ir.toolkits.length);
    ir.toolkits.forEach((kit, k) => {
      expect(unescape(entries[k]![1]!)).toBe(kit.name);
      expect(unescape(entries[k]![2]!)).toBe(kit.tools.map((i) => ir.tools[i]!.name).join(', '));
      expect(unescape(entries[k]![3]!)).toBe(kit.description);
    });
    // Exactly the two structural tags plus one per toolkit: no markup came from the spec.
    expect(xml.match(/</g)).toHaveLength(2 + 2 * ir.toolkits.length);
    // Element text escapes only &, < and >: quotes stay as written there (attributes escape them).
    for (const entry of entries) expect(entry[3]).not.toMatch(/&(quot|apos);/);
    expect(xml).toContain(`alert('x')`);
    expect(entries[0]![1]).toContain('&quot;kit&quot;');
  });

  it('rendered payloads contain every spec string exactly (the data is JSON, never code)', () => {
    // Anthropic gets fitting wire names for keys outside its property-key rule; the plan maps them back exactly.
    const plan = gen.spec.tools[0]!.keyDecode ?? {};
    const wireOf = new Map(Object.entries(plan).map(([wire, key]) => [key, wire]));
    for (const form of RENDER_FORMS) {
      const payload = strings(gen.spec.rendered[form]);
      const keys = Object.keys(ir.tools[0]!.parameters['properties'] as object).map((k) => (form === 'anthropic' ? (wireOf.get(k) ?? k) : k));
      for (const text of [...ir.tools.map((t) => t.description), ...keys]) {
        expect(payload.some((s) => s.includes(text)), `${form}: ${JSON.stringify(text)}`).toBe(true);
      }
    }
    expect(Object.values(plan).every((key) => Object.hasOwn(ir.tools[0]!.parameters['properties'] as object, key))).toBe(true);
    expect(gen.spec.tools.map((t) => t.description)).toEqual(ir.tools.map((t) => t.description));
    expect(gen.spec.tools.map((t) => t.tags)).toEqual(ir.tools.map((t) => t.tags));
    expect(gen.spec.rendered.neutral.tools.map((t) => (t as { parameters: unknown }).parameters)).toEqual(ir.tools.map((t) => t.parameters));
  });
});
