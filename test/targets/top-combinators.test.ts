/**
 * Anthropic and OpenAI refuse a tool whose schema has `anyOf` / `oneOf` / `allOf` / `not` / `enum` at its top: the whole
 * request fails. Such schemas are legal in a spec (MCP servers publish them, and inlining a `$ref` beside
 * `unevaluatedProperties` makes a top `allOf`). Those targets get the members' properties at the top instead; Gemini gets
 * the schema as written; the validator checks the whole schema on every target.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatGenerateProblem, generate } from '../../generator/index.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';
import { withoutTopCombinators } from '../../runtime/targets/schema.js';
import { removeDir, tempDir } from '../generator/helpers.js';

// Inside the repository: the generated folder imports `toolroute/runtime`, which resolves from here.
const dir = tempDir('top-combinators-');
let generated: GeneratedModule;
afterAll(() => removeDir(dir));

beforeAll(async () => {
  const spec = {
    version: 1,
    tools: [
      { name: 'find', description: 'By id or by name', parameters: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, anyOf: [{ required: ['id'] }, { required: ['name'] }] } },
      { name: 'move', description: 'Move a point', parameters: { type: 'object', $ref: '#/$defs/Point', unevaluatedProperties: false, $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } } } },
      { name: 'label', description: 'Set labels', parameters: { type: 'object', additionalProperties: { type: 'string' } } },
    ],
  };
  writeFileSync(path.join(dir, 'tools.spec.json'), JSON.stringify(spec));
  const r = await generate('tools.spec.json', { out: 'gen', cwd: dir });
  expect(r.problems.map(formatGenerateProblem)).toEqual([]);
  generated = (await import(pathToFileURL(path.join(dir, 'gen', 'index.ts')).href)) as GeneratedModule;
});

const TOP = ['anyOf', 'oneOf', 'allOf', 'not', 'enum'];

test('Anthropic, Chat and Responses get no combinator at the top, and every property the members declare', () => {
  const router = createRouter(generated, { find: () => 'found', move: () => 'moved', label: () => 'set' } as never);
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const schemas = {
    anthropic: (router.compile({ target: 'anthropic', messages }).tools as { input_schema: Record<string, unknown> }[]).map((t) => t.input_schema),
    openai: (router.compile({ target: 'openai', messages }).tools as { function: { parameters: Record<string, unknown> } }[]).map((t) => t.function.parameters),
    'openai-responses': (router.compile({ target: 'openai-responses', messages }).tools as { parameters: Record<string, unknown> }[]).map((t) => t.parameters),
  };
  for (const [target, [find, move]] of Object.entries(schemas)) {
    for (const s of [find!, move!]) expect(TOP.filter((k) => k in s), target).toEqual([]);
    expect(Object.keys(find!['properties'] as object), target).toEqual(['id', 'name']);
    expect(find!['required'], target).toBeUndefined();
    expect(move!['properties'], target).toEqual({ x: { type: 'number' } });
    expect(move!['required'], target).toEqual(['x']);
  }
  // Gemini takes the schema as written.
  const gemini = router.compile({ target: 'gemini', messages }) as { config: { tools: { functionDeclarations: { parametersJsonSchema?: Record<string, unknown> }[] }[] } };
  const declarations = gemini.config.tools[0]!.functionDeclarations;
  expect(declarations[0]!.parametersJsonSchema!['anyOf']).toEqual([{ required: ['id'] }, { required: ['name'] }]);
  // A map with no `properties` still has arguments: Gemini gets its schema.
  expect(declarations[2]!.parametersJsonSchema).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
});

test('the validator still checks what the top combinators say', async () => {
  const router = createRouter(generated, { find: () => 'found', move: () => 'moved', label: () => 'set' } as never);
  expect(await router.dispatch({ name: 'find', arguments: '{"id":"a"}' })).toMatchObject({ ok: true });
  expect(await router.dispatch({ name: 'find', arguments: '{}' })).toMatchObject({ ok: false, code: 'invalid_arguments' });
  expect(await router.dispatch({ name: 'move', arguments: '{"x":1}' })).toMatchObject({ ok: true });
  expect(await router.dispatch({ name: 'move', arguments: '{}' })).toMatchObject({ ok: false, code: 'invalid_arguments' });
});

test('a property or key spelt __proto__ stays a key when the members are lifted to the top (never a prototype)', () => {
  const schema = JSON.parse('{"type":"object","__proto__":{"properties":{"smuggled":{}}},"anyOf":[{"properties":{"__proto__":{"type":"string"},"a":{"type":"number"}}}]}') as Record<string, unknown>;
  const lifted = withoutTopCombinators(schema) as Record<string, unknown>;
  expect(Object.getPrototypeOf(lifted)).toBe(Object.prototype);
  expect(Object.keys(lifted['properties'] as object)).toEqual(['__proto__', 'a']);
  expect(lifted['properties']).not.toHaveProperty('smuggled');
  expect(JSON.parse(JSON.stringify(lifted))).toEqual(JSON.parse('{"type":"object","__proto__":{"properties":{"smuggled":{}}},"properties":{"__proto__":{"type":"string"},"a":{"type":"number"}}}'));
});
