/**
 * OpenAI strict mode end to end: a spec with `options: { openaiStrict: true }`
 * (test/targets/fixtures/strict.spec.yaml) is generated with `generate()` into
 * a temp folder, a router is built from it, and:
 *
 * - `compile({ target: 'openai' | 'openai-responses' })` carries strict
 *   schemas (`strict: true`, every property required, every object closed,
 *   optional properties nullable), while Anthropic and Gemini are untouched;
 * - what a strict-mode model sends (every property present, `null` for the
 *   absent optional ones) is accepted by the very schema in the payload, and
 *   dispatches with those properties ABSENT, validated against the spec's own
 *   schema — flat, as a namespace action, and as a loaded toolkit tool; at the
 *   top level, nested in objects and inside array items;
 * - a property whose own schema admits null keeps its null; a null for a
 *   required property is still rejected.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { createRouter, type GeneratedModule, type RouterOptions } from '../../runtime/index.js';
import { openaiParameters, toOpenAIStrictSchema } from '../../runtime/targets/strict.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = path.join(REPO, 'test/targets/fixtures/strict.spec.yaml');
let dir = '';
let gen: GeneratedModule;

beforeAll(async () => {
  // Inside the repo (gitignored .tmp), so the generated code resolves `ajv` and `toolroute/runtime`.
  const base = path.join(REPO, '.tmp', 'runtime-tests');
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(path.join(base, 'strict-'));
  const result = await generate(SPEC, { out: path.join(dir, 'out'), cwd: REPO });
  expect(result.problems).toEqual([]);
  gen = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule;
});
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

function strictRouter(options?: RouterOptions) {
  const log: Array<{ tool: string; args: unknown }> = [];
  const make = (tool: string) => (args: unknown) => {
    log.push({ tool, args });
    return 'ok';
  };
  const handlers = { search_docs: make('search_docs'), read: make('read'), restart: make('restart') };
  return { router: createRouter(gen, handlers as never, options), log };
}

const messages = [{ role: 'user' as const, content: 'go' }];
type ChatTool = { type: 'function'; function: { name: string; parameters: Record<string, unknown>; strict?: boolean } };
type ResponsesTool = { type: string; name: string; parameters: Record<string, unknown>; strict: boolean };

/** Every object in a schema is closed and lists all its properties as required. */
function assertStrictShape(schema: unknown, where: string): void {
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => assertStrictShape(s, `${where}/${i}`));
    return;
  }
  const s = schema as Record<string, unknown>;
  if (s['properties'] !== undefined) {
    expect(s['additionalProperties'], where).toBe(false);
    expect(s['required'], where).toEqual(Object.keys(s['properties'] as object));
  }
  for (const [k, v] of Object.entries(s)) assertStrictShape(v, `${where}/${k}`);
}

/** The model's strict-mode arguments for search_docs: every property present, absent ones as null. */
const SEARCH_STRICT_ARGS = {
  query: 'cache',
  limit: null,
  filters: { lang: null, tags: null },
  sort: [{ field: 'date', desc: null }, { field: 'title', desc: true }],
  note: null,
};
const SEARCH_DECODED = { query: 'cache', filters: {}, sort: [{ field: 'date' }, { field: 'title', desc: true }], note: null };

describe('OpenAI strict mode, from spec to handler', () => {
  test('compile for openai and openai-responses carries strict schemas; anthropic and gemini do not', () => {
    // Loaded tools appended to `tools`: the `append` toolkit-loading strategy (the dispatcher tool of the
    // default strategy takes free-form `args`, which strict mode cannot express, so it is sent non-strict).
    const { router } = strictRouter({ toolkitLoading: 'append' });
    router.extractToolkit('Ops');
    const chat = router.compile({ target: 'openai', messages, tools: ['search_docs', 'files'] });
    const chatTools = chat.tools as unknown as ChatTool[];
    expect(chatTools.map((t) => t.function.name)).toEqual(['search_docs', 'files', 'load_toolkit', 'restart']);
    for (const t of chatTools) {
      expect(t.function.strict, t.function.name).toBe(true);
      assertStrictShape(t.function.parameters, t.function.name);
    }
    const search = chatTools[0]!.function.parameters as { properties: Record<string, Record<string, unknown>> };
    expect(search.properties['limit']).toMatchObject({ type: ['integer', 'null'] });
    expect(search.properties['limit']!['description']).toContain('Default: 10');
    expect(search.properties['note']).toEqual({ type: ['string', 'null'] });

    const responses = router.compile({ target: 'openai-responses', messages, tools: ['search_docs', 'files'] });
    const responsesTools = responses.tools as unknown as ResponsesTool[];
    for (const t of responsesTools) expect([t.name, t.strict]).toEqual([t.name, true]);
    expect(responsesTools[0]!.parameters).toEqual(chatTools[0]!.function.parameters);

    const anthropic = router.compile({ target: 'anthropic', messages, tools: ['search_docs'] });
    expect(JSON.stringify(anthropic.tools)).not.toContain('"strict"');
    expect((anthropic.tools![0] as unknown as { input_schema: { required: string[] } }).input_schema.required).toEqual(['query']);
    const gemini = router.compile({ target: 'gemini', messages, tools: ['search_docs'] });
    expect(gemini.config.tools?.[0]?.functionDeclarations?.[0]?.parametersJsonSchema).toMatchObject({ required: ['query'] });
  });

  test('the strict payload schema accepts what the model sends, and dispatch decodes its nulls before validation', async () => {
    const { router, log } = strictRouter();
    const chat = router.compile({ target: 'openai', messages, tools: ['search_docs'] });
    const payloadSchema = (chat.tools as unknown as ChatTool[])[0]!.function.parameters;
    expect(new Ajv({ strict: false }).validate(payloadSchema, SEARCH_STRICT_ARGS)).toBe(true);

    const r = await router.dispatch({ id: 'c1', type: 'function', function: { name: 'search_docs', arguments: JSON.stringify(SEARCH_STRICT_ARGS) } });
    expect(r).toMatchObject({ ok: true, tool: 'search_docs', callId: 'c1' });
    expect(log).toEqual([{ tool: 'search_docs', args: SEARCH_DECODED }]);
    // The absent keys are gone, not present-as-undefined.
    expect(Object.keys(log[0]!.args as object)).toEqual(['query', 'filters', 'sort', 'note']);
    // Responses function_call items decode the same way.
    const viaResponses = await router.dispatch({ type: 'function_call', call_id: 'c2', name: 'search_docs', arguments: JSON.stringify(SEARCH_STRICT_ARGS) });
    expect(viaResponses).toMatchObject({ ok: true, callId: 'c2' });
    expect(log[1]!.args).toEqual(SEARCH_DECODED);
    // The check sees the decoded arguments too.
    const check = router.checkToolCall({ name: 'search_docs', arguments: JSON.stringify(SEARCH_STRICT_ARGS) });
    expect(check).toMatchObject({ allowed: true, call: { tool: 'search_docs', args: SEARCH_DECODED } });
  });

  test('namespace actions and loaded toolkit tools decode with their own plan', async () => {
    const { router, log } = strictRouter();
    expect(await router.dispatch({ name: 'files', arguments: '{"action":"read","args":{"path":"a.ts","encoding":null}}' })).toMatchObject({ ok: true, tool: 'read' });
    expect(await router.dispatch({ name: 'restart', arguments: '{"service":"api","force":null}' })).toMatchObject({ ok: false, code: 'not_loaded' });
    expect(router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"ops"}' })).toMatch(/^Toolkit "Ops" loaded\./);
    expect(await router.dispatch({ name: 'restart', arguments: '{"service":"api","force":null}' })).toMatchObject({ ok: true, tool: 'restart' });
    expect(log).toEqual([
      { tool: 'read', args: { path: 'a.ts' } },
      { tool: 'restart', args: { service: 'api' } },
    ]);
  });

  test('a null for a required property is still invalid, reported by JSON pointer', async () => {
    const { router, log } = strictRouter();
    const r = await router.dispatch({ name: 'search_docs', arguments: '{"query":null,"limit":null}' });
    expect(r).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect((r as { reason: string }).reason).toContain('- /query: expected string, got null');
    const ns = await router.dispatch({ name: 'files', arguments: '{"action":"read","args":{"path":null}}' });
    expect((ns as { reason: string }).reason).toContain('- /args/path: expected string, got null');
    expect(log).toEqual([]);
  });
});

describe('openai_strict_fallback', () => {
  /** Generates a warnings fixture, then compiles it for OpenAI: the warned subjects and each sent tool's `strict` flag. */
  async function warnedAndSent(fixture: string, names: readonly string[]) {
    const out = path.join(dir, fixture);
    const result = await generate(path.join(REPO, `test/fixtures/warnings/${fixture}.yaml`), { out, cwd: REPO });
    expect(result.problems).toEqual([]);
    const folder = (await import(pathToFileURL(path.join(out, 'index.ts')).href)) as GeneratedModule;
    const router = createRouter(folder, Object.fromEntries(names.map((n) => [n, () => 'ok'])) as never);
    const chat = router.compile({ target: 'openai', messages }) as unknown as { tools: ChatTool[] };
    return { warned: result.warnings.filter((w) => w.code === 'openai_strict_fallback').map((w) => w.subject), sent: chat.tools.map((t) => [t.function.name, t.function.strict] as const) };
  }

  test('codegen warns for exactly the tools OpenAI gets without strict mode', async () => {
    const { warned, sent } = await warnedAndSent('openai-strict-fallback', ['search', 'tag_record', 'move', 'nest']);
    expect(sent).toEqual([['search', true], ['tag_record', false], ['move', false], ['nest', false]]);
    expect(warned).toEqual(sent.filter(([, strict]) => strict === false).map(([name]) => name));
  });

  test('and for exactly the namespaces OpenAI gets without strict mode (a namespace is one tool built from its actions)', async () => {
    const { warned, sent } = await warnedAndSent('openai-strict-namespaces', ['get_time', 'read_file', 'add_note', 'tag_note']);
    // The compact `file_ops` and the schema-encoded `notes` (whose `tag_note` has an open map) fall back; `tag_note` is warned as a tool too.
    expect(sent).toEqual([['file_ops', false], ['notes', false], ['get_time', true]]);
    expect(warned).toEqual([...sent.filter(([, strict]) => strict === false).map(([name]) => name), 'tag_note']);
  });
});

describe("OpenAI's size limits on a strict schema", () => {
  const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties) });
  const nested = (depth: number): Record<string, unknown> => (depth === 1 ? object({ leaf: { type: 'string' } }) : object({ inner: nested(depth - 1) }));
  const wide = (count: number, name = (i: number) => `p${i}`) => object(Object.fromEntries(Array.from({ length: count }, (_, i) => [name(i), { type: 'integer' }])));
  const enums = (count: number, width: number) => object({ pick: { type: 'string', enum: Array.from({ length: count }, (_, i) => String(i).padStart(width, 'x')) } });
  const verdict = (schema: Record<string, unknown>) => {
    const result = toOpenAIStrictSchema(schema);
    return result.ok ? 'strict' : `${result.path}: ${result.reason}`;
  };

  test('each limit holds at its value and falls back one past it, naming the place', () => {
    expect(verdict(nested(10))).toBe('strict');
    expect(verdict(nested(11))).toBe(`${'/properties/inner'.repeat(10)}: strict mode allows objects nested 10 deep at most`);
    expect(verdict(wide(5000))).toBe('strict');
    expect(verdict(wide(5001))).toMatch(/^: strict mode allows 5,000 properties/);
    // 1,000 enum values over two properties.
    const split = (first: number) => object({ a: enums(first, 1).properties.pick, b: enums(1000 - first + (first === 600 ? 1 : 0), 1).properties.pick });
    expect(verdict(split(400))).toBe('strict');
    expect(verdict(split(600))).toMatch(/^\/properties\/(a|b): strict mode allows 5,000 properties, 1,000 enum values/);
    // Over 250 values, an enum holds 15,000 characters at most; up to 250 it may hold more (within the 120,000 of the schema).
    expect(verdict(enums(251, 59))).toBe('strict');
    expect(verdict(enums(251, 60))).toBe('/properties/pick: strict mode allows 15,000 characters at most in an enum of more than 250 values');
    expect(verdict(enums(250, 80))).toBe('strict');
    // 120,000 characters of property names (and enum and const values) in the schema.
    expect(verdict(wide(2000, (i) => `${i}`.padStart(60, 'n')))).toBe('strict');
    expect(verdict(object({ ...wide(2000, (i) => `${i}`.padStart(60, 'n')).properties, c: { const: 'x' } }))).toMatch(/^: strict mode allows .* 120,000 characters/);
  });

  test('a namespace whose actions pass a limit together is sent non-strict, as one tool past it would be', () => {
    const action = (i: number) => object({ [`a${i}`]: wide(100).properties['p0'], ...wide(99, (k) => `f${i}_${k}`).properties });
    const namespace = (actions: number) => ({
      kind: 'namespace' as const, name: 'ops', description: 'Operations', deferLoading: false,
      parameters: object({ action: { type: 'string', enum: Array.from({ length: actions }, (_, i) => `act${i}`) }, args: { anyOf: Array.from({ length: actions }, (_, i) => action(i)) } }),
    });
    expect(openaiParameters(namespace(49), { openaiStrict: true }).strict).toBe(true);
    expect(openaiParameters(namespace(51), { openaiStrict: true }).strict).toBe(false);
  });
});
