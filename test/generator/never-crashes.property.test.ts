/**
 * No input makes the generator crash, and a spec it refuses leaves nothing behind: the example spec, changed at random
 * (its values replaced by other JSON values and schema fragments, keys removed or added, YAML's own constructs spliced
 * into the text: aliases, anchors, tags, directives, complex keys, `.inf`), goes through `generate()`, which must
 * either write the folder or report at least one problem and write nothing. So must specs whose `parameters` are
 * random JSON Schemas built from the whole vocabulary (every keyword, valid and broken values, refs, anchors, ids,
 * dialects, patterns, property names such as `__proto__`).
 */
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate } from '../../generator/index.js';
import { removeDir, REPO, tempDir } from './helpers.js';

const exampleText = readFileSync(path.join(REPO, 'examples/tools.spec.yaml'), 'utf8');
const example: unknown = parse(exampleText);
const dir = tempDir('never-crashes-');
afterAll(() => removeDir(dir));

type Path = (string | number)[];
/** Every path of a value, the root included. */
function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...at, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, item] of Object.entries(value)) paths(item, [...at, k], out);
  return out;
}
const examplePaths = paths(example);

/** Values worth trying anywhere: any JSON, names JSON Schema gives meaning to, and schema fragments. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('object', 'string', 'array', 'integer', 'null', '#', '#/$defs/a', '^(', '__proto__', 'toString', '', 'load_toolkit'),
  fc.record(
    { type: fc.constantFrom('object', 'string', 'array'), properties: fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', 'x y', ''), fc.jsonValue({ maxDepth: 2 })) },
    { requiredKeys: [] },
  ),
  fc.record({ $ref: fc.constantFrom('#', '#/$defs/a', '#/properties/a', 'http://example.com/s', '#/definitions/a'), $defs: fc.dictionary(fc.constantFrom('a', 'b'), fc.jsonValue({ maxDepth: 2 })) }, { requiredKeys: ['$ref'] }),
  fc.constantFrom('anyOf', 'oneOf', 'allOf', 'not', 'if', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', 'const', 'enum', 'default', 'format', 'pattern', '$dynamicRef', '$id', '$schema').map((k) => ({ [k]: {} })),
);

/** Property names that are worth trying: prototype names, a space, the empty name, non-ASCII, keyword names. */
const NAMES = ['a', 'b', 'x y', '__proto__', 'toString', 'constructor', '', 'é', '$ref', 'type'];
/** A random JSON Schema from the whole vocabulary: each keyword with a value that is usually of the right kind. */
const schemaArb = fc.letrec((tie) => ({
  schema: fc.oneof({ depthSize: 'small' }, fc.boolean(), tie('object'), tie('object')),
  object: fc.array(tie('keyword'), { maxLength: 4 }).map((kvs) => Object.fromEntries(kvs as [string, unknown][])),
  keyword: fc.oneof(
    fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom('object', 'string', 'array', 'integer', 'number', 'boolean', 'null', 'strin'), fc.subarray(['string', 'null', 'integer', 'object']))),
    fc.tuple(fc.constant('properties'), fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { maxKeys: 3 })),
    fc.tuple(fc.constant('patternProperties'), fc.dictionary(fc.constantFrom('^a', '(', '\\p{L}', '.*', '\\_'), tie('schema'), { maxKeys: 2 })),
    fc.tuple(fc.constantFrom('additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'), tie('schema')),
    fc.tuple(fc.constantFrom('allOf', 'anyOf', 'oneOf', 'prefixItems'), fc.array(tie('schema'), { maxLength: 3 })),
    fc.tuple(fc.constant('required'), fc.array(fc.constantFrom(...NAMES), { maxLength: 3 })),
    fc.tuple(fc.constantFrom('enum', 'examples'), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })),
    fc.tuple(fc.constantFrom('const', 'default'), fc.jsonValue({ maxDepth: 2 })),
    fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'multipleOf', 'minLength', 'maxItems', 'minProperties', 'maxContains'), fc.oneof(fc.integer({ min: -2, max: 4 }), fc.constant(1.5), fc.constant('2'))),
    fc.tuple(fc.constant('pattern'), fc.constantFrom('^a', '(', '\\p{L}', '[a-z\\-]+', '\\', '\\_')),
    fc.tuple(fc.constant('format'), fc.constantFrom('email', 'date-time', 'uri', 'regex', 'unknown-format')),
    fc.tuple(fc.constant('$ref'), fc.constantFrom('#', '#/$defs/a', '#/properties/a', '#a', '#/definitions/a', 'other.json', '#/$defs/a~1b')),
    fc.tuple(fc.constantFrom('$defs', 'definitions'), fc.dictionary(fc.constantFrom('a', 'b', 'a/b'), tie('schema'), { maxKeys: 2 })),
    fc.tuple(fc.constantFrom('$anchor', '$dynamicAnchor'), fc.constantFrom('a', 'meta', '1bad')),
    fc.tuple(fc.constant('$dynamicRef'), fc.constantFrom('#meta', '#a')),
    fc.tuple(fc.constant('$id'), fc.constantFrom('http://x.test/a', 'a.json', '#frag', 'urn:x:y')),
    fc.tuple(fc.constant('$schema'), fc.constantFrom('https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-04/schema#', 5)),
    fc.tuple(fc.constantFrom('dependentRequired', 'dependencies'), fc.dictionary(fc.constantFrom(...NAMES), fc.array(fc.constantFrom(...NAMES), { maxLength: 2 }), { maxKeys: 2 })),
    fc.tuple(fc.constantFrom('description', 'title', 'x-vendor', 'descripton'), fc.constantFrom('x', '*/ end', '\u2028', 'a\nb', '\\')),
  ),
}));
/** `parameters`: the shorthand, or an object schema with random properties and keywords. */
const parametersArb = fc.tuple(schemaArb.object, fc.dictionary(fc.constantFrom(...NAMES), schemaArb.schema, { maxKeys: 3 }), fc.boolean())
  .map(([keywords, properties, shorthand]) => (shorthand ? properties : { type: 'object', properties, ...keywords }));

/** One change to the parsed spec: remove what is at a path, replace it, or add a key to the mapping there. */
const change = fc.tuple(
  fc.nat(examplePaths.length - 1),
  fc.oneof(
    fc.constant({ kind: 'remove' as const }),
    anyValue.map((value) => ({ kind: 'replace' as const, value })),
    fc.tuple(fc.constantFrom('type', 'properties', 'required', '$ref', 'name', 'tools', '__proto__', 'deferLoading', 'tags', 'options'), anyValue).map(([key, value]) => ({ kind: 'add' as const, key, value })),
  ),
);

function applyChange(spec: unknown, [index, c]: [number, { kind: 'remove' } | { kind: 'replace'; value: unknown } | { kind: 'add'; key: string; value: unknown }]): unknown {
  const at = examplePaths[index]!;
  if (at.length === 0) return c.kind === 'replace' ? c.value : spec;
  let parent: unknown = spec;
  for (const seg of at.slice(0, -1)) parent = typeof parent === 'object' && parent !== null ? (parent as Record<string | number, unknown>)[seg] : undefined;
  if (typeof parent !== 'object' || parent === null) return spec;
  const last = at[at.length - 1]!;
  const holder = parent as Record<string | number, unknown>;
  if (c.kind === 'remove') {
    if (Array.isArray(holder)) holder.splice(Number(last), 1);
    else delete holder[last];
  } else if (c.kind === 'replace') holder[last] = c.value;
  else {
    const target = holder[last];
    // defineProperty: a `__proto__` key stays an own key, as a YAML or JSON reader makes it.
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) Object.defineProperty(target, c.key, { value: c.value, enumerable: true, writable: true, configurable: true });
  }
  return spec;
}

/** Text spliced into the YAML: YAML's constructs beyond JSON data, and characters that end or open things. */
const splice = fc.tuple(
  fc.nat(),
  fc.nat({ max: 30 }),
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('\n', '  ', '- ', ': ', '{', '[', '"', "'", '&a ', '*a', '!!str ', '!!binary ', '!!timestamp ', '!custom ', '<<: *a\n', '? ', '|\n', '#', '---\n', '%YAML 1.1\n---\n', '\t', '\u0000', '\uFEFF', '.inf', '.nan', '1e400', '__proto__: 1\n'),
  ),
);

let run = 0;
/** Generate `text` as a spec file; the result must be a folder, or problems and no folder. */
async function generateChecked(text: string, ext: 'yaml' | 'json'): Promise<readonly string[]> {
  const spec = path.join(dir, `spec-${run}.${ext}`);
  const out = path.join(dir, `out-${run++}`);
  writeFileSync(spec, text);
  const result = await generate(spec, { out, cwd: REPO });
  if (result.ok) {
    expect(readdirSync(out)).toContain('manifest.json');
  } else {
    expect(result.problems.length).toBeGreaterThan(0);
    expect(existsSync(out)).toBe(false);
  }
  removeDir(out);
  return result.problems.map((p) => p.code);
}

describe('the generator on specs changed at random', () => {
  it('writes the folder or reports problems, for changed values, as YAML and as JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 4 }), fc.boolean(), async (changes, asYaml) => {
        const spec = changes.reduce(applyChange, structuredClone(example));
        await generateChecked(asYaml ? stringify(spec) : JSON.stringify(spec, null, 1) ?? 'null', asYaml ? 'yaml' : 'json');
      }),
      { numRuns: 100 },
    );
  });

  it('writes the folder or reports problems, for changed text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(splice, { minLength: 1, maxLength: 4 }), fc.boolean(), async (splices, asJson) => {
        let text = asJson ? JSON.stringify(example, null, 1) : exampleText;
        for (const [at, remove, insert] of splices) {
          const p = at % (text.length + 1);
          text = text.slice(0, p) + insert + text.slice(p + remove);
        }
        await generateChecked(text, asJson ? 'json' : 'yaml');
      }),
      { numRuns: 100 },
    );
  });

  it('writes the folder or reports problems, for random JSON Schemas as parameters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(parametersArb, { minLength: 1, maxLength: 3 }), fc.boolean(), async (all, applyDefaults) => {
        const spec = { version: 1, ...(applyDefaults ? { options: { applyDefaults: true } } : {}), tools: all.map((parameters, i) => ({ name: `tool_${i}`, description: 'A tool.', parameters })) };
        await generateChecked(JSON.stringify(spec), 'json');
      }),
      { numRuns: 100 },
    );
  });

  it('reports a pattern ajv cannot compile under a property named __proto__ instead of crashing', async () => {
    const parameters = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","pattern":"\\\\"}}}') as unknown;
    expect(await generateChecked(JSON.stringify({ version: 1, tools: [{ name: 'a', description: 'x', parameters }] }), 'json')).toEqual(['invalid_schema']);
  });

  it('reports an alias of a mapping it is inside, and nesting without end, instead of crashing', async () => {
    const cycle = 'version: 1\ntools:\n  - name: a\n    description: x\n    parameters: &p\n      type: object\n      properties:\n        self: *p\n';
    expect(await generateChecked(cycle, 'yaml')).toEqual(['not_json_data']);
    const deep = `${'{"type":"object","properties":{"a":'.repeat(600)}{"type":"string"}${'}}'.repeat(600)}`;
    expect(await generateChecked(`{"version":1,"tools":[{"name":"a","description":"x","parameters":${deep}}]}`, 'json')).toEqual(['not_json_data']);
  });
});
