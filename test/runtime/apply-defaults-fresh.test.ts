/**
 * With `applyDefaults`, the router copies arguments before a validator fills
 * defaults, so an object the caller handed over never changes; arguments it
 * parsed from text itself (the OpenAI Chat and Responses path) belong to no
 * one else and are filled in place (resolve.ts `#validate`, `fresh`). Both
 * paths must hand the handler the same filled arguments; only the object
 * paths may pay for the copy. `cloneJson` is wrapped here to count the
 * copies (the module is mocked for this file only).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import * as schema from '../../runtime/targets/schema.js';
import { createRouter } from '../../runtime/index.js';
import * as gen from '../fixtures/apply-defaults/expected/index.js';
import type { Handlers } from '../fixtures/apply-defaults/expected/index.js';

vi.mock('../../runtime/targets/schema.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../runtime/targets/schema.js')>();
  return { ...original, cloneJson: vi.fn(original.cloneJson) };
});

const copies = vi.mocked(schema.cloneJson);

function router() {
  const seen: unknown[] = [];
  const handlers = Object.fromEntries(
    gen.TOOL_NAMES.map((name) => [
      name,
      (args: unknown) => {
        seen.push(args);
        return 'ok';
      },
    ]),
  ) as unknown as Handlers;
  return { router: createRouter(gen, handlers), seen };
}

const SEARCH = { query: 'todo', options: {}, filters: [{ field: 'path' }] };
const SEARCH_FILLED = {
  query: 'todo',
  options: { case_sensitive: false, globs: ['**/*'] },
  filters: [{ field: 'path', op: 'eq' }],
  limit: 10,
  mode: 'literal',
};
const READ_FILLED = { path: 'a.ts', encoding: 'utf8' };

afterEach(() => copies.mockClear());

describe('applyDefaults: arguments parsed from text are filled without a copy', () => {
  test('flat, namespace (both envelope forms) and the Responses namespace form, from text: filled, no copy', async () => {
    const { router: r, seen } = router();
    const text = JSON.stringify(SEARCH);
    const results = [
      await r.dispatch({ name: 'search', arguments: text }),
      await r.dispatch({ id: 'call_1', type: 'function', function: { name: 'search', arguments: text } }),
      await r.dispatch({ name: 'files', arguments: '{"action":"read_file","args":{"path":"a.ts"}}' }),
      await r.dispatch({ name: 'files', arguments: '{"action":"read_file","path":"a.ts"}' }),
      await r.dispatch({ type: 'function_call', call_id: 'c2', namespace: 'files', name: 'read_file', arguments: '{"path":"a.ts"}' }),
    ];
    expect(results.map((x) => x.ok)).toEqual([true, true, true, true, true]);
    expect(seen).toEqual([SEARCH_FILLED, SEARCH_FILLED, READ_FILLED, READ_FILLED, READ_FILLED]);
    expect(copies).not.toHaveBeenCalled();
    // checkToolCall on text hands back the same filled arguments.
    expect(r.checkToolCall({ name: 'search', arguments: text })).toMatchObject({ allowed: true, call: { args: SEARCH_FILLED } });
    expect(copies).not.toHaveBeenCalled();
  });

  test('every object the caller hands over is copied before filling, and stays as it was', async () => {
    const { router: r, seen } = router();
    const input = structuredClone(SEARCH);
    const nsCall = { action: 'read_file', args: { path: 'a.ts' } };
    const flatNs = { action: 'read_file', path: 'a.ts' };
    const responsesArgs = { path: 'a.ts' };
    await r.dispatch({ name: 'search', arguments: input });
    await r.dispatch({ id: 'toolu_1', name: 'search', input });
    await r.dispatch({ name: 'search', args: input });
    await r.dispatch({ name: 'files', arguments: nsCall });
    await r.dispatch({ name: 'files', arguments: flatNs });
    await r.dispatch({ type: 'function_call', call_id: 'c3', namespace: 'files', name: 'read_file', arguments: responsesArgs });
    expect(seen).toEqual([SEARCH_FILLED, SEARCH_FILLED, SEARCH_FILLED, READ_FILLED, READ_FILLED, READ_FILLED]);
    expect(copies).toHaveBeenCalledTimes(6);
    expect(input).toEqual(SEARCH);
    expect(nsCall).toEqual({ action: 'read_file', args: { path: 'a.ts' } });
    expect(flatNs).toEqual({ action: 'read_file', path: 'a.ts' });
    expect(responsesArgs).toEqual({ path: 'a.ts' });
  });

  test('a rejected text call is rejected as the same call with an arguments object, naming the bad value', async () => {
    const { router: r, seen } = router();
    const got = await r.dispatch({ name: 'search', arguments: '{"query":"x","limit":0}' });
    const fromObject = await r.dispatch({ name: 'search', arguments: { query: 'x', limit: 0 } });
    expect(got).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect(got).toEqual(fromObject);
    expect(seen).toEqual([]);
  });
});
