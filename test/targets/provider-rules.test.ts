/**
 * Provider rules that real schemas hit, end to end from
 * a spec through codegen, the router and the official SDK clients:
 *
 * - Anthropic refuses the whole request when a top-level property key does
 *   not match `^[a-zA-Z0-9_.-]{1,64}$`: the Anthropic rendering uses wire names
 *   that fit, every other target keeps the spec's names, and dispatch maps the
 *   wire names back before validation and the handler;
 * - OpenAI Chat Completions refuses more than 128 tools in one request:
 *   compile fails with a ToolrouteConfigError, including when loaded
 *   toolkits push an allowed request past the cap.
 */
import Anthropic from '@anthropic-ai/sdk';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatGenerateProblem, generate } from '../../generator/index.js';
import { createRouter, ToolrouteConfigError, type GeneratedModule } from '../../runtime/index.js';
import { ANTHROPIC_PROPERTY_KEY, anthropicKeyPlan, applyKeyDecode } from '../../runtime/targets/property-keys.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let base = '';

const LONG_KEY = `settings__approved__or__denied__countries__or__regions__approved__list`; // 70 characters, a flattened real one

/** Keys from real tool schemas that Anthropic refuses, beside ordinary ones (one equal to a rewrite of another). */
const VEHICLE_SCHEMA = {
  type: 'object',
  properties: {
    año_vehiculo: { type: 'integer', description: 'Model year' },
    'filter[id]': { type: 'string' },
    filter_id_: { type: 'string', description: 'Already the plain rewrite of filter[id]' },
    $top: { type: 'integer', minimum: 1 },
    '@odata.type': { type: 'string' },
    [LONG_KEY]: { type: 'boolean' },
    plain: { type: 'string' },
  },
  required: ['año_vehiculo', 'plain'],
  additionalProperties: false,
};

async function generateInto(name: string, spec: unknown): Promise<GeneratedModule> {
  const dir = path.join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
  const r = await generate('spec.json', { out: 'out', cwd: dir });
  expect(r.problems.map(formatGenerateProblem)).toEqual([]);
  return (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule;
}

beforeAll(() => {
  const root = path.join(REPO, '.tmp', 'target-tests');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'rules-'));
});
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('Anthropic property keys', () => {
  test('the plan renames exactly the keys outside the pattern, to distinct keys that fit', () => {
    const plan = anthropicKeyPlan(VEHICLE_SCHEMA) as Record<string, string>;
    expect(Object.values(plan).sort()).toEqual(['$top', '@odata.type', 'año_vehiculo', 'filter[id]', LONG_KEY].sort());
    const wire = Object.keys(plan);
    for (const w of wire) expect(w).toMatch(ANTHROPIC_PROPERTY_KEY);
    // Distinct from each other and from every key that stays.
    expect(new Set([...wire, 'filter_id_', 'plain']).size).toBe(wire.length + 2);
    // Readable where possible: accents dropped, other characters `_`.
    expect(plan['ano_vehiculo']).toBe('año_vehiculo');
    expect(plan['_top']).toBe('$top');
    expect(plan['_odata.type']).toBe('@odata.type');
    expect(wire.find((w) => plan[w] === LONG_KEY)).toHaveLength(64);
    expect(anthropicKeyPlan(VEHICLE_SCHEMA)).toEqual(plan);
    expect(anthropicKeyPlan({ type: 'object', properties: { a: {}, 'b.c-d_9': {} } })).toBeUndefined();
  });

  test('the decode maps wire names back, leaves everything else, never mutates', () => {
    const plan = { ano: 'año', x_: 'x!' };
    const sent = { ano: 1, keep: 2 };
    expect(applyKeyDecode(sent, plan)).toEqual({ año: 1, keep: 2 });
    expect(sent).toEqual({ ano: 1, keep: 2 });
    const untouched = { keep: 1 };
    expect(applyKeyDecode(untouched, plan)).toBe(untouched);
    // Both names sent: nothing is merged or dropped.
    expect(applyKeyDecode({ ano: 1, año: 2 }, plan)).toEqual({ ano: 1, año: 2 });
    const proto = JSON.parse('{"__proto__":1,"x_":2}') as Record<string, unknown>;
    const decoded = applyKeyDecode(proto, plan) as Record<string, unknown>;
    expect(Object.keys(decoded)).toEqual(['__proto__', 'x!']);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    for (const odd of [null, 3, 'x', [1], undefined]) expect(applyKeyDecode(odd, plan)).toBe(odd);
  });

  test('compiled payloads: Anthropic gets wire names (through the real SDK), other targets the spec names; dispatch hands the handler spec names', async () => {
    const gen = await generateInto('keys', {
      version: 1,
      tools: [
        { name: 'find_vehicle', description: 'Find a vehicle', parameters: VEHICLE_SCHEMA },
        { name: 'get_time', description: 'Get the time' },
      ],
    });
    const received: unknown[] = [];
    const router = createRouter(gen, { find_vehicle: (args: unknown) => (received.push(args), 'found'), get_time: () => 'noon' } as never);

    const anthropicPayload = router.compile({ target: 'anthropic', messages: [{ role: 'user', content: 'hi' }] });
    const captured: Record<string, unknown>[] = [];
    const client = new Anthropic({
      apiKey: 'test',
      maxRetries: 0,
      fetch: (async (_url: string, init?: RequestInit) => {
        captured.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return new Response(
          JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      }) as typeof fetch,
    });
    await client.messages.create({ model: 'claude-test', max_tokens: 16, ...(anthropicPayload as object) } as never);
    const sentTools = captured[0]?.['tools'] as { name: string; input_schema: { properties: Record<string, unknown>; required: string[] } }[];
    const sent = sentTools.find((t) => t.name === 'find_vehicle')!;
    const sentKeys = Object.keys(sent.input_schema.properties);
    expect(sentKeys).toHaveLength(7);
    for (const k of sentKeys) expect(k).toMatch(ANTHROPIC_PROPERTY_KEY);
    expect(sent.input_schema.required).toEqual(['ano_vehiculo', 'plain']);
    expect(sent.input_schema.properties['ano_vehiculo']).toEqual({ type: 'integer', description: 'Model year' });

    const openaiPayload = router.compile({ target: 'openai', messages: [] }) as unknown as { tools: { function: { name: string; parameters: { properties: object } } }[] };
    const chat = openaiPayload.tools.find((t) => t.function.name === 'find_vehicle')!;
    expect(Object.keys(chat.function.parameters.properties)).toEqual(Object.keys(VEHICLE_SCHEMA.properties));
    const gemini = router.compile({ target: 'gemini', messages: [] }) as unknown as { config: { tools: { functionDeclarations: { name: string; parametersJsonSchema: { properties: object } }[] }[] } };
    const decl = gemini.config.tools[0]!.functionDeclarations.find((d) => d.name === 'find_vehicle')!;
    expect(Object.keys(decl.parametersJsonSchema.properties)).toEqual(Object.keys(VEHICLE_SCHEMA.properties));

    // What a Claude model sends (wire names) and what an OpenAI model sends (spec names) reach the handler alike.
    const wireInput: Record<string, unknown> = { ano_vehiculo: 1982, plain: 'x', _top: 5, filter_id_: 'kept as is' };
    for (const [k, v] of Object.entries(anthropicKeyPlan(VEHICLE_SCHEMA)!)) if (v === 'filter[id]') wireInput[k] = '42';
    const fromClaude = await router.dispatch({ id: 'toolu_1', name: 'find_vehicle', input: wireInput });
    expect(fromClaude).toMatchObject({ ok: true, result: 'found' });
    const specArgs = { año_vehiculo: 1982, plain: 'x', $top: 5, filter_id_: 'kept as is', 'filter[id]': '42' };
    expect(received).toEqual([specArgs]);
    const fromOpenAI = await router.dispatch({ id: 'c1', function: { name: 'find_vehicle', arguments: JSON.stringify(specArgs) } });
    expect(fromOpenAI).toMatchObject({ ok: true, result: 'found' });
    expect(received[1]).toEqual(specArgs);

    // Validation runs on the spec names: a wrong type under a wire name is still caught, and named.
    const bad = await router.dispatch({ id: 'toolu_2', name: 'find_vehicle', input: { ano_vehiculo: 'old', plain: 'x' } });
    expect(bad).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect((bad as { reason: string }).reason).toContain('año_vehiculo');
    expect(received).toHaveLength(2);

    // A tool registered at run time is rendered and decoded the same way.
    const seen: unknown[] = [];
    const grown = router.registerTools([{ name: 'list_items', description: 'List (OData)', parameters: { $top: { type: 'integer' } }, handler: (a) => (seen.push(a), 'listed') }]);
    const withRuntime = grown.compile({ target: 'anthropic', messages: [], tools: ['list_items'] as never }) as unknown as { tools: { input_schema: { properties: object } }[] };
    expect(Object.keys(withRuntime.tools[0]!.input_schema.properties)).toEqual(['_top']);
    expect(await grown.dispatch({ id: 'toolu_3', name: 'list_items', input: { _top: 3 } })).toMatchObject({ ok: true, result: 'listed' });
    expect(seen).toEqual([{ $top: 3 }]);
  });

  test("a key Anthropic is shown from a top-level anyOf member is decoded back too, and validated under its spec name", async () => {
    const paged = { type: 'object', properties: { q: { type: 'string' } }, anyOf: [{ properties: { $top: { type: 'integer', maximum: 50 } } }] };
    const gen = await generateInto('keys-anyof', { version: 1, tools: [{ name: 'search_items', description: 'Search items', parameters: paged }] });
    const received: unknown[] = [];
    const router = createRouter(gen, { search_items: (args: unknown) => (received.push(args), 'ok') } as never);
    const payload = router.compile({ target: 'anthropic', messages: [{ role: 'user', content: 'hi' }] }) as unknown as { tools: { input_schema: { properties: object } }[] };
    expect(Object.keys(payload.tools[0]!.input_schema.properties)).toEqual(['q', '_top']);
    expect(await router.dispatch({ id: 'toolu_1', name: 'search_items', input: { q: 'a', _top: 5 } })).toMatchObject({ ok: true });
    expect(received).toEqual([{ q: 'a', $top: 5 }]);
    const over = await router.dispatch({ id: 'toolu_2', name: 'search_items', input: { q: 'a', _top: 500 } });
    expect(over).toMatchObject({ ok: false, code: 'invalid_arguments' });
    const grown = router.registerTools([{ name: 'list_items', description: 'List', parameters: { type: 'object', allOf: [{ properties: { $skip: { type: 'integer' } } }] }, handler: (a) => (received.push(a), 'listed') }]);
    expect(await grown.dispatch({ id: 'toolu_3', name: 'list_items', input: { _skip: 2 } })).toMatchObject({ ok: true, result: 'listed' });
    expect(received.at(-1)).toEqual({ $skip: 2 });
  });
});

describe('OpenAI Chat Completions: at most 128 tools per request', () => {
  const flat = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, description: `Tool ${i}` }));

  test('129 flat tools fail to compile for openai with a ToolrouteConfigError; 128 compile; other targets are not capped', async () => {
    const over = createRouter(await generateInto('over', { version: 1, tools: flat(129) }), Object.fromEntries(flat(129).map((t) => [t.name, () => null])) as never);
    expect(() => over.compile({ target: 'openai', messages: [] })).toThrow(ToolrouteConfigError);
    try {
      over.compile({ target: 'openai', messages: [] });
    } catch (error) {
      expect((error as ToolrouteConfigError).rule).toBe('openai-too-many-tools');
      expect((error as Error).message).toContain('would send 129');
    }
    expect((over.compile({ target: 'anthropic', messages: [] }) as { tools: unknown[] }).tools).toHaveLength(129);
    expect((over.compile({ target: 'openai-responses', messages: [] }) as { tools: unknown[] }).tools).toHaveLength(129);
    // Narrowed to 128 (a prune result or names), the same router compiles.
    const names = flat(128).map((t) => t.name);
    expect((over.compile({ target: 'openai', messages: [], tools: names as never }) as { tools: unknown[] }).tools).toHaveLength(128);
  });

  test('a request under the cap that toolkit loads push past it fails at the compile that would exceed it', async () => {
    const spec = {
      version: 1,
      tools: flat(100),
      toolkits: [
        { name: 'Alpha', description: 'Alpha tools', tools: flat(15, 'a') },
        { name: 'Beta', description: 'Beta tools', tools: flat(15, 'b') },
      ],
    };
    const all = [...flat(100), ...flat(15, 'a'), ...flat(15, 'b')];
    // Loads add to `tools` only with the `append` strategy (the native default on Chat is the one dispatcher tool).
    const router = createRouter(await generateInto('loads', spec), Object.fromEntries(all.map((t) => [t.name, () => null])) as never, { toolkitLoading: 'append' });
    const names = flat(100).map((t) => t.name) as never;
    const count = () => (router.compile({ target: 'openai', messages: [], tools: names }) as { tools: unknown[] }).tools.length;
    expect(count()).toBe(101); // the flat tools and load_toolkit
    expect(await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'Alpha' } })).toMatchObject({ ok: true });
    expect(count()).toBe(116);
    expect(await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'Beta' } })).toMatchObject({ ok: true });
    expect(count).toThrow(/openai-too-many-tools: .*would send 131/);
    // Anthropic takes the same state.
    expect((router.compile({ target: 'anthropic', messages: [], tools: names }) as { tools: unknown[] }).tools).toHaveLength(131);
  });
});
