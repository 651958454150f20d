/**
 * Emitters on hand-built IR (independent of the front end): code helpers,
 * validator sharing and ESM output, type-name collisions, the emitter table.
 */
import { spawnSync } from 'node:child_process';
import { transformSync } from 'esbuild';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsdoc, lineCommentText, pascalCase, propertyKey, shellWord, tsString } from '../../generator/emit/code.js';
// The generator keys distinct validator schemas with the runtime's canonical JSON (one implementation).
import { canonicalJson } from '../../runtime/cache-key.js';
import { buildEmitContext } from '../../generator/emit/context.js';
import { ARTIFACT_KINDS, emit, type GeneratedFile } from '../../generator/emit/index.js';
import { searchImport } from '../../generator/emit/search.js';
import { validatorsModule } from '../../generator/emit/validators.js';
import { schemaToType } from '../../generator/emit/arg-types.js';
import { jsonLines, rawTemplateBody, specData } from '../../generator/emit/spec.js';
import { specFromData } from '../../runtime/spec-data.js';
import type { GeneratedSpec } from '../../runtime/contract.js';
import { buildIR } from './ir-builder.js';
import { removeDir, tempDir } from './helpers.js';

const options = { specDisplay: 'spec.yaml', outDisplay: 'out', runtimeImport: 'toolroute/runtime', version: '0.0.0' };
const byPath = (files: GeneratedFile[], p: string) => files.find((f) => f.path === p)!.content;

describe('code helpers', () => {
  const hostile = "a */ /* `${x}` 'q' \"dq\" \\ \n \r \u2028 \u2029 中文 😀 \ud800";
  it('tsString evaluates to exactly the input, on one line', () => {
    expect(tsString(hostile)).not.toMatch(/[\u2028\u2029\n]/);
    expect((0, eval)(tsString(hostile))).toBe(hostile);
  });
  it('jsonLines in a String.raw template parses back to exactly the JSON value, a __proto__ key as an own key', () => {
    const tricky = [hostile, '\\`', '\\${', '$${{', '`${`', '\\\\u0060'];
    const value = JSON.parse(JSON.stringify({ [hostile]: [...tricky, 1, null, true, [], {}, [{ a: -0.5 }]], n: { 'my-key': 'x', default: 2 } }).replace('"n":', '"__proto__":{"x":1},"n":'));
    const body = rawTemplateBody(jsonLines(value));
    expect(body).not.toMatch(/`|\$\{|[\u2028\u2029]/);
    const back = JSON.parse((0, eval)(`String.raw\`${body}\``) as string) as Record<string, unknown>;
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toContain('__proto__');
    expect(jsonLines({ tags: ['a', 'b'], n: { x: 1 } })).toBe('{\n  "tags": ["a", "b"],\n  "n": {\n    "x": 1\n  }\n}');
  });
  it('jsdoc never lets text close the comment, and splits every line terminator', () => {
    expect(jsdoc('a */ b')).toBe('/** a *\\/ b */\n');
    expect(jsdoc('one\ntwo\u2028three', '  ')).toBe('  /**\n   * one\n   * two\n   * three\n   */\n');
    expect(jsdoc('  ')).toBe('');
  });
  it.each([
    ['read_file', 'read_file'],
    ['my-tool', '"my-tool"'],
    ['中文', '"中文"'],
  ])('propertyKey(%j) → %s', (given, want) => expect(propertyKey(given)).toBe(want));
  it.each([
    ['file_ops', 'FileOps'],
    ['x-y', 'XY'],
    ['9lives', '_9lives'],
    ['__', '_'],
  ])('pascalCase(%j) → %s', (given, want) => expect(pascalCase(given)).toBe(want));
  it('shellWord quotes only when needed; lineCommentText keeps a path on one line', () => {
    expect(shellWord('a/b.yaml')).toBe('a/b.yaml');
    expect(shellWord("it's here")).toBe("'it'\\''s here'");
    expect(lineCommentText('a\nb\u2028c')).toBe('a\\nb\\u2028c');
  });
  it('canonicalJson ignores key order only', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: 0 } })).toBe(canonicalJson({ a: { c: 0, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
  it('argument types print braces and quotes inside names and literals as data, and indent by nesting', () => {
    // (Was a test of json-schema-to-typescript output indentation; toolroute now prints types itself.)
    expect(schemaToType({ type: 'object', properties: { a: { type: 'object', properties: { '{': { const: '}' } }, required: ['{'], additionalProperties: false } }, additionalProperties: false })).toBe(
      '{\n  a?: {\n    "{": "}";\n  };\n}',
    );
  });
});

describe('argument types: spec text never becomes code', () => {
  it('ignores keywords other generators turn into code or names (tsType, title, $id, tsEnumNames), at every depth, and escapes comment terminators', () => {
    // (Was a test of schemaForTypes, the json-schema-to-typescript input cleaner; the same guarantees, on the printer.)
    const type = schemaToType({
      type: 'object',
      title: 'Root',
      tsType: 'any; evil()',
      properties: {
        title: { type: 'string', title: 'Nested', tsEnumNames: ['X'], enum: ['tsType'], description: 'ends */ here' },
        list: { type: 'array', items: { type: 'object', $id: 'x', properties: { id: { type: 'string' } }, additionalProperties: false } },
      },
      patternProperties: { '^a*/b*/': { type: 'string' } },
      additionalProperties: false,
    });
    expect(type).toBe(
      '{\n  /** ends *\\/ here */\n  title?: "tsType";\n  list?: {\n    id?: string;\n  }[];\n  [k: string]: string | {\n    id?: string;\n  }[] | undefined;\n}',
    );
    expect(type).not.toMatch(/evil|Nested|Root|\bX\b/);
  });
});

describe('emit', () => {
  const shared = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
  const reordered = { required: ['path'], properties: { path: { type: 'string' } }, type: 'object' };
  const ir = buildIR({
    tools: [
      { name: 'read_file', parameters: shared },
      { name: 'stat_file', parameters: reordered },
      { name: 'tool', description: 'Named so its type would be ToolArgs' },
      // A format (ajv-formats), a length (ajv's ucs2length) and if/then: ajv's runtime imports in the module.
      { name: 'when', parameters: { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, s: { type: 'string', minLength: 2, if: { const: '' }, then: false } } } },
    ],
    namespaces: [{ name: 'registry', tools: [{ name: 'read_file' }] }],
  });

  it('runs one emitter per artifact kind, manifest last, every file LF-terminated', async () => {
    const files = await emit(ir, options);
    expect(files.map((f) => f.path)).toEqual([
      'types.gen.ts',
      'names.gen.ts',
      'validators.gen.ts',
      'directory.gen.ts',
      'spec.gen.ts',
      'search.gen.ts',
      'index.ts',
      'manifest.json',
    ]);
    expect(ARTIFACT_KINDS.at(-1)).toBe('manifest');
    for (const f of files) {
      expect(f.content.endsWith('\n')).toBe(true);
      expect(f.content).not.toContain('\r');
    }
    const manifest = JSON.parse(byPath(files, 'manifest.json')) as { files: Record<string, string> };
    expect(Object.keys(manifest.files)).toEqual(files.filter((f) => f.path !== 'manifest.json').map((f) => f.path).sort());
  });

  it('shares one validator and one type between identical schemas, whatever their key order', async () => {
    const ctx = buildEmitContext(ir, options);
    expect(ctx.validatorOf).toEqual([0, 0, 1, 2]);
    const types = byPath(await emit(ir, options), 'types.gen.ts');
    expect(types).toContain('export type StatFileArgs = ReadFileArgs;');
  });

  it('keeps generated type names clear of its own names', () => {
    const ctx = buildEmitContext(ir, options);
    expect(ctx.argTypeNames[2]).toBe('ToolArgs2');
    expect(ctx.actionTypeNames).toEqual(['RegistryAction']);
  });

  it('writes validators as ESM TypeScript that is plain JavaScript but for its types: no require(), no schema compile, runs on Node once types are stripped', async () => {
    const files = await emit(ir, options);
    const ts = byPath(files, 'validators.gen.ts');
    // A .ts file so that tsc --outDir emits it; ajv's code is not type-checked (the application's flags would reject it).
    expect(ts.split('\n')[1]).toBe('// @ts-nocheck');
    expect(ts).toMatch(/^import type \{ ValidateFn \} from "toolroute\/runtime";$/m);
    expect(ts).toMatch(/^export const validators: readonly ValidateFn\[\] = Object\.freeze\(\[/m);
    const js = stripTypes(ts);
    expect(ts).not.toMatch(/\brequire\(/);
    expect(ts).not.toMatch(/new Function|eval\(/);
    // ajv's runtime helpers and ajv-formats become ESM imports of the files ajv's code requires.
    expect(ts).toMatch(/^import ajvRuntime\d from "ajv-formats\/dist\/formats\.js";$/m);
    expect(ts).toMatch(/^import ajvRuntime\d from "ajv\/dist\/runtime\/ucs2length\.js";$/m);
    const dir = tempDir('esm-');
    try {
      writeFileSync(path.join(dir, 'validators.gen.js'), js);
      const script = `const { validators } = await import(${JSON.stringify(path.join(dir, 'validators.gen.js'))});
        const v = validators[2];
        console.log(JSON.stringify([validators.length, Object.isFrozen(validators), v({ at: '2024-01-01T00:00:00Z', s: 'ok' }), v({ at: 'yesterday' }), v.errors.map((e) => e.keyword), v({ s: '😀' }), v({ s: '😀😀' })]));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: dir });
      expect(r.stderr).toBe('');
      // minLength counts code points (ajv's ucs2length): one emoji is too short, two are enough.
      expect(JSON.parse(r.stdout)).toEqual([3, true, true, false, ['format'], false, true]);
    } finally {
      removeDir(dir);
    }
  });
});

/** What tsc or a bundler emits for a generated .ts file: the same code without its types. */
function stripTypes(ts: string): string {
  return transformSync(ts, { loader: 'ts', format: 'esm' }).code;
}

describe('validators of many distinct schemas', () => {
  it('splits many distinct schemas over ajv scopes of ten, each validator still its own', async () => {
    // ajv's standalone builder is quadratic in the schemas of one instance and overflows the stack near 10,000.
    const count = 201;
    const ir = buildIR({ tools: Array.from({ length: count }, (_, i) => ({ name: `t${i}`, parameters: { type: 'object', properties: { n: { const: i } }, required: ['n'] } })) });
    const ts = byPath(await emit(ir, options), 'validators.gen.ts');
    const js = stripTypes(ts);
    expect(ts.match(/^const plain\d+ = \(\(\) => \{$/gm)).toEqual(Array.from({ length: 21 }, (_, i) => `const plain${i + 1} = (() => {`));
    const dir = tempDir('many-');
    try {
      writeFileSync(path.join(dir, 'validators.gen.js'), js);
      const script = `const { validators } = await import(${JSON.stringify(path.join(dir, 'validators.gen.js'))});
        console.log(JSON.stringify([validators.length, [0, 9, 10, 99, 100, 200].map((i) => [validators[i]({ n: i }), validators[i]({ n: i + 1 })])]));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: dir });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual([count, Array.from({ length: 6 }, () => [true, false])]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('spec.gen.ts data', () => {
  it('refuses, loudly, spec data of another format version or naming a schema it does not define', () => {
    const ctx = buildEmitContext(buildIR({ tools: [{ name: 'a' }, { name: 'b' }] }), options);
    const parts = { directoryXml: '', validators: [] };
    expect(specFromData(specData(ctx), parts).tools.map((t) => t.name)).toEqual(['a', 'b']);
    const later = { ...specData(ctx), formatVersion: 2 } as unknown as Parameters<typeof specFromData>[0];
    expect(() => specFromData(later, parts)).toThrow(/format version 2; this runtime reads 1\. Regenerate the folder/);
    const unnamed = { ...specData(ctx), schemas: {} };
    expect(() => specFromData(unnamed, parts)).toThrow(/names the schema "AArgs" for tool "a" but does not define it\. Regenerate the folder/);
  });
  it('derives every tool\'s group lists exactly, as frozen arrays', async () => {
    // `b` is in two namespaces and two toolkits, `c` in one of each; `a`, `d` only in the first namespace, `e` in none.
    const ir = buildIR({
      tools: [{ name: 'e' }],
      namespaces: [
        { name: 'n0', tools: [{ name: 'a' }, { name: 'b' }, { name: 'd' }] },
        { name: 'n1', tools: [{ name: 'b' }, { name: 'c' }] },
      ],
      toolkits: [
        { name: 'K0', tools: [{ name: 'b' }] },
        { name: 'K1', tools: [{ name: 'c' }, { name: 'b' }] },
      ],
    });
    const ctx = buildEmitContext(ir, { ...options, runtimeImport: '../../../runtime/index.js' });
    const want = specData(ctx);
    const dir = tempDir('spec-groups-');
    try {
      for (const f of await emit(ir, { ...options, runtimeImport: '../../../runtime/index.js' })) writeFileSync(path.join(dir, f.path), f.content);
      const { spec } = (await import(pathToFileURL(path.join(dir, 'spec.gen.ts')).href)) as { spec: { tools: { name: string; namespaces: number[]; toolkits: number[] }[] } };
      expect(spec.tools.map((t) => t.name)).toEqual(want.tools.map((t) => t.name));
      const tool = (name: string) => spec.tools.find((t) => t.name === name)!;
      expect([tool('e').namespaces, tool('a').namespaces, tool('b').namespaces, tool('c').namespaces]).toEqual([[], [0], [0, 1], [1]]);
      expect([tool('e').toolkits, tool('b').toolkits, tool('c').toolkits]).toEqual([[], [0, 1], [1]]);
      expect(tool('e').namespaces).toBe(tool('a').toolkits);
      for (const t of spec.tools) expect(Object.isFrozen(t.namespaces) && Object.isFrozen(t.toolkits)).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
  it('writes the data readably and reads it back exactly, __proto__ keys included', async () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"filters":{"type":"array","items":{"type":"string"}}}}');
    expect(Object.keys(schema.properties)).toEqual(['__proto__', 'filters']);
    const ir = buildIR({ tools: [{ name: 'a', parameters: schema }], policies: JSON.parse('{"__proto__":["a"]}') as Record<string, string[]> });
    const ctx = buildEmitContext(ir, { ...options, runtimeImport: '../../../runtime/index.js' });
    const want = specData(ctx);
    const dir = tempDir('spec-');
    try {
      const files = await emit(ir, { ...options, runtimeImport: '../../../runtime/index.js' });
      const text = files.find((f) => f.path === 'spec.gen.ts')!.content;
      expect(text).toContain('"__proto__": {');
      // One line per tool, its defaults (no tags, not deferred) left out and filled in on reading.
      expect(text).toContain('\n    {"name": "a", "description": ');
      expect(text).not.toMatch(/"tags"|"deferLoading"/);
      for (const f of files) writeFileSync(path.join(dir, f.path), f.content);
      const { spec } = (await import(pathToFileURL(path.join(dir, 'spec.gen.ts')).href)) as { spec: GeneratedSpec };
      const parameters = want.schemas[want.tools[0]!.parameters];
      expect(JSON.stringify(spec.tools[0]!.parameters)).toBe(JSON.stringify(parameters));
      expect(Object.getPrototypeOf(spec.policies)).toBe(Object.prototype);
      expect(Object.keys(spec.policies)).toEqual(['__proto__']);
      expect(spec.rendered.neutral.tools[0]).toEqual({ name: 'a', description: want.tools[0]!.description, parameters });
      expect(Object.isFrozen(spec.tools[0]!.parameters) && Object.isFrozen(spec.rendered.neutral.tools[0])).toBe(true);
      expect([spec.tools[0]!.tags, spec.tools[0]!.deferLoading, Object.isFrozen(spec.tools[0]!.tags)]).toEqual([[], false, true]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('search.gen.ts', () => {
  it('imports the search beside the runtime it is generated for, .js and .ts paths alike', () => {
    expect(searchImport('toolroute/runtime')).toBe('toolroute/search');
    expect(searchImport('../../runtime/index.js')).toBe('../../search/index.js');
    expect(searchImport('/work/app/node_modules/toolroute/runtime/index.ts')).toBe('/work/app/node_modules/toolroute/search/index.ts');
    expect(searchImport('my-runtime-shim')).toBe('toolroute/search');
    // Only a whole last segment: a package whose name ends in "runtime" is not a sibling of a search package.
    expect(searchImport('@acme/agent-runtime')).toBe('toolroute/search');
    expect(searchImport('./vendor/toolroute-runtime/index.js')).toBe('toolroute/search');
  });
});

describe('number rules of the validators', () => {
  it('multipleOf with a decimal step accepts the decimals it divides (19.99 by 0.01), and only those', async () => {
    const schema = { type: 'object', properties: { amount: { type: 'number', multipleOf: 0.01 }, step: { type: 'number', multipleOf: 0.1 } } };
    const dir = tempDir('multiple-of-');
    try {
      writeFileSync(path.join(dir, 'v.mjs'), stripTypes(validatorsModule({ schemas: [schema], applyDefaults: false, runtimeImport: 'toolroute/runtime' })));
      const { validators } = (await import(pathToFileURL(path.join(dir, 'v.mjs')).href)) as { validators: ((data: unknown) => boolean)[] };
      const v = validators[0]!;
      for (const amount of [19.99, 0.07, 12345.67, -4.2, 0]) expect(v({ amount }), String(amount)).toBe(true);
      for (const step of [0.3, 0.7, 2.2]) expect(v({ step }), String(step)).toBe(true);
      for (const amount of [19.995, 0.001, 3.14159]) expect(v({ amount }), String(amount)).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});
