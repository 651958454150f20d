/**
 * With `options.applyDefaults: true`
 * (test/fixtures/apply-defaults/spec.yaml, its committed snapshot), the
 * generated validators fill JSON Schema `default`s and the handler receives
 * them — flat, as a namespace action, nested, in array items, through allOf —
 * while a default inside an anyOf branch or on a property named like an
 * Object.prototype member is left out, exactly as ajv with `useDefaults`
 * does on the same schema. The caller's arguments object is never changed,
 * so a history entry compiles to the same bytes after the dispatch; a tool
 * without defaults still gets the caller's object as is (no copy). The
 * example spec (no option) does not fill its defaults.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { cloneJson } from '../../runtime/targets/schema.js';
import { createRouter, TARGETS, type NeutralMessage } from '../../runtime/index.js';
import * as gen from '../fixtures/apply-defaults/expected/index.js';
import type { Handlers } from '../fixtures/apply-defaults/expected/index.js';
import { exampleRouter } from './helpers.js';

function router() {
  const seen: { tool: string; args: unknown }[] = [];
  const record = (tool: string) => (args: unknown) => {
    seen.push({ tool, args });
    return 'ok';
  };
  const handlers = Object.fromEntries(gen.TOOL_NAMES.map((name) => [name, record(name)])) as unknown as Handlers;
  return { router: createRouter(gen, handlers), seen };
}

/** ajv itself, with `useDefaults`, on a tool's own schema: what "as ajv does" means. */
function ajvFilled(tool: string, args: unknown): unknown {
  const index = gen.spec.tools.findIndex((t) => t.name === tool);
  const schema = gen.spec.rendered.neutral.tools[index] as { parameters: object };
  const validate = new Ajv2020({ useDefaults: true, strict: false, allErrors: true }).compile(schema.parameters);
  const copy = structuredClone(args);
  expect(validate(copy)).toBe(true);
  return copy;
}

describe('applyDefaults: true', () => {
  test('the handler receives the defaults: top level, nested objects, array items', async () => {
    const { router: r, seen } = router();
    const args = { query: 'todo', options: {}, filters: [{ field: 'path' }, { field: 'size', op: 'ne' }] };
    expect(await r.dispatch({ name: 'search', arguments: args })).toMatchObject({ ok: true });
    const want = {
      query: 'todo',
      options: { case_sensitive: false, globs: ['**/*'] },
      filters: [{ field: 'path', op: 'eq' }, { field: 'size', op: 'ne' }],
      limit: 10,
      mode: 'literal',
    };
    expect(seen[0]!.args).toEqual(want);
    expect(seen[0]!.args).toEqual(ajvFilled('search', args));
    // A value the model sent is never replaced by a default.
    await r.dispatch({ name: 'search', arguments: '{"query":"x","limit":3,"mode":"regex"}' });
    expect(seen[1]!.args).toEqual({ query: 'x', limit: 3, mode: 'regex' });
  });

  test("the caller's object is never changed, and a history holding it compiles to the same bytes", async () => {
    const { router: r, seen } = router();
    const input = { query: 'todo', options: {}, filters: [{ field: 'path' }] };
    const before = JSON.stringify(input);
    const history: NeutralMessage[] = [
      { role: 'user', content: 'find todos' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: input as never } }] },
    ];
    const compiled = TARGETS.map((target) => JSON.stringify(r.compile({ target, messages: history })));
    // Every call shape that carries an object: neutral, Anthropic `input`, Gemini `args`, and a namespace's `args`.
    await r.dispatch({ name: 'search', arguments: input });
    await r.dispatch({ id: 'toolu_1', name: 'search', input });
    await r.dispatch({ name: 'search', args: input });
    const nsArgs = { path: 'a.ts' };
    const nsCall = { action: 'read_file', args: nsArgs };
    await r.dispatch({ name: 'files', arguments: nsCall });
    expect(r.checkToolCall({ name: 'search', arguments: input })).toMatchObject({ allowed: true, call: { args: { limit: 10 } } });
    expect(JSON.stringify(input)).toBe(before);
    expect(nsCall).toEqual({ action: 'read_file', args: { path: 'a.ts' } });
    expect(TARGETS.map((target) => JSON.stringify(r.compile({ target, messages: history })))).toEqual(compiled);
    // …while each handler call got its own filled copy.
    expect(seen.map((s) => s.args)).toEqual([...Array(3).fill(ajvFilled('search', input)), { path: 'a.ts', encoding: 'utf8' }]);
    expect(seen[0]!.args).not.toBe(input);
    expect((seen[0]!.args as { options: unknown }).options).not.toBe(input.options);
  });

  test('a default inside an anyOf branch is not filled, one in allOf is: as ajv does', async () => {
    const { router: r, seen } = router();
    const sms = { channel: 'ops', sms: '+351' };
    const email = { channel: 'ops', email: 'a@b.c' };
    await r.dispatch({ name: 'notify', arguments: sms });
    await r.dispatch({ name: 'notify', arguments: email });
    expect(seen.map((s) => s.args)).toEqual([
      { channel: 'ops', sms: '+351', retries: 3 },
      { channel: 'ops', email: 'a@b.c', retries: 3 },
    ]);
    expect(seen.map((s) => s.args)).toEqual([ajvFilled('notify', sms), ajvFilled('notify', email)]);
    expect(seen[0]!.args).not.toHaveProperty('urgent');
  });

  test('a property named like an Object.prototype member is never filled, and its default does not refuse calls', async () => {
    const { router: r, seen } = router();
    expect(await r.dispatch({ name: 'echo', arguments: '{}' })).toMatchObject({ ok: true });
    expect(Object.keys(seen[0]!.args as object)).toEqual(['text']);
    expect(seen[0]!.args).toEqual({ text: '' });
    // Raw ajv with useDefaults validates the inherited `toString` (a function) against the
    // property's schema and refuses `{}`; toolroute drops that default for ajv (it is never filled).
    const index = gen.spec.tools.findIndex((t) => t.name === 'echo');
    const schema = (gen.spec.rendered.neutral.tools[index] as { parameters: object }).parameters;
    expect(new Ajv2020({ useDefaults: true, strict: false }).compile(schema)({})).toBe(false);
    expect(await r.dispatch({ name: 'echo', arguments: { toString: 7 } })).toMatchObject({ ok: false, code: 'invalid_arguments' });
  });

  test('a tool without defaults gets the caller\'s object itself: no copy on that path', async () => {
    const { router: r, seen } = router();
    const args = { timezone: 'UTC' };
    await r.dispatch({ name: 'get_time', arguments: args });
    expect(seen[0]!.args).toBe(args);
    expect(gen.spec.tools.filter((t) => t.fillsDefaults === true).map((t) => t.name)).toEqual(['search', 'notify', 'echo', 'read_file']);
  });

  test('arguments nested past maxDepth never make the copy throw: the limits rejection as without defaults', async () => {
    const { router: r, seen } = router();
    const deep = `{"query":"x","filters":${'['.repeat(40_000)}${']'.repeat(40_000)}}`;
    const got = await r.dispatch({ name: 'search', arguments: deep });
    expect(got).toMatchObject({ ok: false });
    const plain = await r.dispatch({ name: 'get_time', arguments: `{"timezone":${'['.repeat(40_000)}${']'.repeat(40_000)}}` });
    expect((got as { code: string }).code).toBe((plain as { code: string }).code);
    const deepObject = JSON.parse(`{"query":"x","options":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`) as object;
    expect(await r.dispatch({ name: 'search', arguments: deepObject })).toMatchObject({ ok: false, code: 'malformed_arguments' });
    expect(seen).toEqual([]);
    // The copy itself: deep and key-safe.
    const shallow = JSON.parse('{"a":[{"b":1}],"__proto__":{"c":2}}') as Record<string, unknown>;
    const copy = cloneJson(shallow) as Record<string, unknown>;
    expect(copy).not.toBe(shallow);
    expect((copy['a'] as unknown[])[0]).not.toBe((shallow['a'] as unknown[])[0]);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(shallow));
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
  });

  test('an invalid call is still rejected by name, and the default it would get is validated too', async () => {
    const { router: r, seen } = router();
    const result = await r.dispatch({ name: 'search', arguments: { query: 'x', limit: 0 } });
    expect(result).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect(seen).toEqual([]);
  });
});

test('without the option (the example spec), defaults stay annotations: nothing is filled', async () => {
  const { router: r, log } = exampleRouter();
  await r.dispatch({ name: 'read_file', arguments: { path: 'a.ts' } });
  expect(log[0]!.args).toEqual({ path: 'a.ts' });
});
