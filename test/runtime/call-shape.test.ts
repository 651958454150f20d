/**
 * Reading a call (runtime/call-shape.ts): every call shape gives its name,
 * id and arguments; arguments given as JSON text and the same data handed
 * over as an object get the same answer under the limits; overflowing
 * numbers, depth and size are refused.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS, parseArguments, readCall, type CallLimits } from '../../runtime/call-shape.js';
import { exampleRouter } from './helpers.js';

const verdict = (r: ReturnType<typeof parseArguments>) => (r.ok ? { ok: true, value: r.value } : { ok: false, problem: r.problem.kind });

describe('parseArguments: JSON text and the same object agree', () => {
  test('random JSON objects under random depth and size limits', () => {
    const limits = fc.record({
      maxArgumentsLength: fc.constant(DEFAULT_LIMITS.maxArgumentsLength),
      maxDepth: fc.integer({ min: 0, max: 6 }),
      maxNodes: fc.integer({ min: 0, max: 60 }),
    });
    const object = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 7 }));
    fc.assert(
      fc.property(object, limits, (value, l: CallLimits) => {
        const text = JSON.stringify(value);
        const fromText = parseArguments(text, l);
        const fromObject = parseArguments(JSON.parse(text), l);
        expect(verdict(fromText)).toEqual(verdict(fromObject));
      }),
      { numRuns: 300 },
    );
  });

  test('numbers that overflow to Infinity are refused, in any position and spelling', () => {
    for (const text of ['{"a":1e400}', '{"a":[1,{"b":-1E+999}]}', '{"a":2e0309}', `{"a":${'9'.repeat(400)}}`]) {
      const r = parseArguments(text, DEFAULT_LIMITS);
      expect(r, text).toMatchObject({ ok: false, problem: { kind: 'not_json_data', got: expect.stringMatching(/Infinity/) } });
    }
    // Exponents that stay finite, and text that only looks like one, are fine.
    expect(parseArguments('{"a":1e3,"b":"2e5","c":1E-400}', DEFAULT_LIMITS)).toEqual({ ok: true, value: { a: 1000, b: '2e5', c: 0 } });
  });

  test('depth: the first container past maxDepth is refused; brackets inside strings do not count', () => {
    const nest = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    expect(parseArguments(nest(64), DEFAULT_LIMITS).ok).toBe(true);
    expect(parseArguments(nest(65), DEFAULT_LIMITS)).toMatchObject({ ok: false, problem: { kind: 'too_deep', limit: 64 } });
    const arrays = `{"a":${'['.repeat(70)}${']'.repeat(70)}}`;
    expect(parseArguments(arrays, DEFAULT_LIMITS)).toMatchObject({ ok: false, problem: { kind: 'too_deep' } });
    expect(parseArguments(`{"a":"${'{['.repeat(100)}"}`, DEFAULT_LIMITS).ok).toBe(true);
    // A router configured very deep checks 100,000 levels, far past any call stack, and still finds the limit.
    const deepLimits = { maxArgumentsLength: 2_000_000, maxDepth: 100_000, maxNodes: 200_000 };
    expect(parseArguments(nest(100_000), deepLimits).ok).toBe(true);
    expect(parseArguments(nest(100_001), deepLimits)).toMatchObject({ ok: false, problem: { kind: 'too_deep', limit: 100_000 } });
  });

  test('size: more values than maxNodes is refused for text as for objects', () => {
    const text = JSON.stringify({ a: Array.from({ length: 50 }, (_, i) => i) });
    const limits = { ...DEFAULT_LIMITS, maxNodes: 20 };
    expect(parseArguments(text, limits)).toMatchObject({ ok: false, problem: { kind: 'too_many_values', limit: 20 } });
    expect(parseArguments(JSON.parse(text), limits)).toMatchObject({ ok: false, problem: { kind: 'too_many_values', limit: 20 } });
  });

  test('an enumerable property on Object.prototype does not change the answer', () => {
    const proto = Object.prototype as Record<string, unknown>;
    const text = '{"a":{"b":[1,2,{"c":"x"}]}}';
    const before = verdict(parseArguments(text, DEFAULT_LIMITS));
    proto['polluted'] = { deep: { deeper: Infinity } };
    try {
      expect(verdict(parseArguments(text, DEFAULT_LIMITS))).toEqual(before);
    } finally {
      delete proto['polluted'];
    }
  });
});

describe('readCall', () => {
  test('reads every call shape; anything unreadable is a nameless call', () => {
    expect(readCall({ id: 'c1', function: { name: 'get_time', arguments: '{}' } })).toEqual({ name: 'get_time', callId: 'c1', namespace: undefined, hasArguments: true, rawArguments: '{}' });
    expect(readCall({ call_id: 'c2', id: 'item', name: 'read_file', arguments: '{"path":"a"}', namespace: 'file_ops' })).toMatchObject({ callId: 'c2', namespace: 'file_ops' });
    expect(readCall({ id: 'c3', name: 'read_file', input: { path: 'a' } })).toMatchObject({ name: 'read_file', rawArguments: { path: 'a' } });
    expect(readCall({ name: 'read_file', args: { path: 'a' } })).toMatchObject({ callId: undefined, rawArguments: { path: 'a' } });
    expect(readCall({ type: 'tool_search_call', arguments: {} })).toMatchObject({ name: 'load_toolkit' });
    const nameless = { name: undefined, callId: undefined, namespace: undefined, hasArguments: false, rawArguments: undefined };
    expect(readCall(null)).toEqual(nameless);
    expect(readCall(new Proxy({}, { get() { throw new Error('trap'); } }))).toEqual(nameless);
    expect(readCall({ name: 42, arguments: null })).toEqual({ ...nameless, hasArguments: true, rawArguments: null });
  });

  test('dispatch and checkToolCall read every call shape alike', async () => {
    const { router } = exampleRouter();
    const calls: unknown[] = [
      { id: 'c1', function: { name: 'get_time', arguments: '{"timezone":"UTC"}' } },
      { call_id: 'c2', id: 'item', name: 'read_file', arguments: '{"path":"a"}' },
      { tool_call_id: 'c3', name: 'read_file', input: { path: 'a' } },
      { id: 'c4', name: 'read_file', args: { path: 'a' } },
      { id: 'c5', function: { name: 'read_file', input: '{"path":"a"}' }, arguments: '{}' },
      { id: 'c6', name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a"}}' },
      { id: 'c7', name: 'read_file', namespace: 'file_ops', arguments: '{"path":"a"}' },
      { id: 'c8', type: 'tool_search_call', arguments: { toolkit: 'Weather_Kit' } },
      { id: 'c9', name: 'no_such_tool', arguments: '{}' },
      // Both fallbacks present: `input` is read before `args` (only one of them is valid here).
      { id: 'c10', name: 'read_file', input: '{"path":"a"}', args: '{"nope":1}' },
      { name: 42, arguments: null, id: 7 },
      null,
      new Proxy({}, { get() { throw new Error('trap'); } }),
    ];
    for (const [i, call] of calls.entries()) {
      const label = `call ${i}`;
      const shape = readCall(call);
      const check = router.checkToolCall(call as never) as { allowed: boolean; code?: string; call?: { tool?: string } };
      const result = (await router.dispatch(call)) as { ok: boolean; callId?: string; code?: string; tool?: string };
      expect(result.callId, label).toBe(shape.callId);
      expect(result.ok, label).toBe(check.allowed);
      if (!check.allowed) expect(result.code, label).toBe(check.code);
      else if (check.call?.tool !== undefined) expect(result.tool, label).toBe(check.call.tool);
    }
  });

  test('arguments that are a revoked Proxy are malformed, on every entry point, never a throw', async () => {
    const { router, log } = exampleRouter();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const reason = 'Arguments for "read_file" must be JSON data; got an unreadable object.';
    expect(router.checkToolCall({ name: 'read_file', arguments: proxy })).toMatchObject({ allowed: false, code: 'malformed_arguments', reason });
    expect(await router.dispatch({ name: 'read_file', arguments: proxy })).toMatchObject({ ok: false, code: 'malformed_arguments', reason });
    expect(router.tryResolveNamespace({ name: 'file_ops', arguments: proxy })).toMatchObject({ ok: false, code: 'malformed_arguments' });
    expect(log).toEqual([]);
  });

  test('a getter that re-enters dispatch does not disturb the outer call', async () => {
    const { router, log } = exampleRouter();
    let inner: Promise<unknown> | undefined;
    const outer = {
      get name() {
        inner ??= router.dispatch({ name: 'get_time', arguments: '{"timezone":"UTC"}', id: 'inner' });
        return 'read_file';
      },
      id: 'outer',
      arguments: '{"path":"a.ts"}',
    };
    expect(await router.dispatch(outer)).toMatchObject({ ok: true, tool: 'read_file', callId: 'outer' });
    expect(await inner).toMatchObject({ ok: true, tool: 'get_time', callId: 'inner' });
    expect(log.map((c) => [c.tool, c.callId, c.args])).toEqual([
      ['get_time', 'inner', { timezone: 'UTC' }],
      ['read_file', 'outer', { path: 'a.ts' }],
    ]);
  });
});
