/**
 * The dispatch hot path's shortcuts, held to the behaviour they replace:
 * - `dispatch` is not an `async` function (a plain handler result resolves
 *   without an `await`), yet it settles exactly as `await handler(…)` would:
 *   thenables adopted, `then` read once, every throw a `handler_error` (or a
 *   rejection with `propagateHandlerErrors`), never a synchronous exception;
 * - a valid call's internal result is one object per router, refilled per
 *   call: re-entering the router from a handler or a validator must not leak
 *   one call's tool or arguments into another, nor into a `checkToolCall`
 *   result already handed out;
 * - the cheap depth-and-numbers walk of parsed arguments text agrees with the
 *   full check wherever a container or an overflowing number sits.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createRouter } from '../../runtime/index.js';
import { DEFAULT_LIMITS, parseArguments, type CallLimits } from '../../runtime/call-shape.js';
import { exampleRouter, generated, recordingHandlers } from './helpers.js';

const timeCall = { name: 'get_time', arguments: '{}' };

function routerWith(getTime: (args: unknown) => unknown, propagateHandlerErrors = false) {
  const { handlers } = recordingHandlers();
  return createRouter(generated, { ...handlers, get_time: getTime }, { propagateHandlerErrors });
}

describe('dispatch settles like `await handler(…)`', () => {
  test('a plain value, a promise, and a non-thenable object with a `then` field are the result as await gives it', async () => {
    const value = { answer: 42 };
    const notThenable = { then: 5 };
    for (const [returned, expected] of [
      [value, value],
      [Promise.resolve(value), value],
      [notThenable, notThenable],
      [undefined, undefined],
      ['text', 'text'],
    ] as const) {
      const pending = routerWith(() => returned).dispatch(timeCall);
      expect(pending).toBeInstanceOf(Promise);
      const r = await pending;
      expect(r).toEqual({ ok: true, tool: 'get_time', result: expected, callId: undefined });
      if (r.ok) expect(r.result).toBe(expected);
    }
  });

  test('a custom thenable is adopted, its `then` read exactly once', async () => {
    let reads = 0;
    const thenable = {
      get then() {
        reads++;
        return (resolve: (v: unknown) => void) => resolve('from thenable');
      },
    };
    const r = await routerWith(() => thenable).dispatch(timeCall);
    expect(r).toMatchObject({ ok: true, result: 'from thenable' });
    expect(reads).toBe(1);
    // A nested thenable is adopted too, as await adopts it.
    const nested = { then: (resolve: (v: unknown) => void) => resolve(Promise.resolve('inner')) };
    expect(await routerWith(() => nested).dispatch(timeCall)).toMatchObject({ ok: true, result: 'inner' });
  });

  test('every way a handler fails is handler_error with its message', async () => {
    const failures: [string, () => unknown][] = [
      ['sync throw', () => { throw new Error('sync throw'); }],
      ['rejected promise', () => Promise.reject(new Error('rejected promise'))],
      ['async throw', async () => { throw new Error('async throw'); }],
      ['then getter', () => ({ get then() { throw new Error('then getter'); } })],
      ['then throws', () => ({ then() { throw new Error('then throws'); } })],
      ['then rejects', () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(new Error('then rejects')) })],
    ];
    for (const [message, handler] of failures) {
      const r = await routerWith(handler).dispatch(timeCall);
      expect(r, message).toEqual({
        ok: false,
        code: 'handler_error',
        reason: `Tool "get_time" failed: ${message}`,
        callId: undefined,
        tool: 'get_time',
        error: expect.objectContaining({ message }),
      });
    }
  });

  test('with propagateHandlerErrors the same failures reject with the thrown value, never throw synchronously', async () => {
    const errors = [new Error('sync'), new Error('rejected'), new Error('then getter')];
    const handlers: (() => unknown)[] = [
      () => { throw errors[0]; },
      () => Promise.reject(errors[1]),
      () => ({ get then() { throw errors[2]; } }),
    ];
    for (const [i, handler] of handlers.entries()) {
      let pending: Promise<unknown> | undefined;
      expect(() => { pending = routerWith(handler, true).dispatch(timeCall); }).not.toThrow();
      await expect(pending).rejects.toBe(errors[i]);
    }
  });

  test('the handler runs synchronously inside dispatch, as in an async function', () => {
    let ran = false;
    void routerWith(() => { ran = true; }).dispatch(timeCall);
    expect(ran).toBe(true);
  });
});

describe('the reused internal result cannot leak between calls', () => {
  test('a handler that re-enters dispatch and checkToolCall keeps its own tool, arguments and call id', async () => {
    const { handlers, log } = recordingHandlers();
    let inner: unknown;
    let check: unknown;
    const router = createRouter(generated, {
      ...handlers,
      read_file: async (args, ctx) => {
        // Synchronously, before any await: the router's scratch is refilled here.
        check = router.checkToolCall({ name: 'get_time', arguments: '{"timezone":"UTC"}' });
        const pending = router.dispatch({ id: 'inner', name: 'get_time', arguments: '{}' });
        inner = await pending;
        return { own: args, callId: ctx.callId };
      },
    });
    const r = await router.dispatch({ id: 'outer', name: 'read_file', arguments: '{"path":"a.ts"}' });
    expect(r).toEqual({ ok: true, tool: 'read_file', result: { own: { path: 'a.ts' }, callId: 'outer' }, callId: 'outer' });
    expect(inner).toMatchObject({ ok: true, tool: 'get_time', callId: 'inner' });
    expect(check).toEqual({ allowed: true, call: { tool: 'get_time', args: { timezone: 'UTC' }, via: 'flat', group: null } });
    expect(log.map((c) => c.tool)).toEqual(['get_time']);
  });

  test('a validator that re-enters the router does not change the call it is validating', async () => {
    const { router } = exampleRouter();
    const seen: unknown[] = [];
    const validate = Object.assign(
      (data: unknown) => {
        // Resolves (and refills the scratch with) a different call mid-validation.
        router.checkToolCall({ name: 'read_file', arguments: '{"path":"other.ts"}' });
        return typeof data === 'object' && data !== null && 'n' in data;
      },
      { errors: null },
    );
    const r2 = router.registerTools([{ name: 'square', description: 'n²', validate, handler: (a) => (seen.push(a), (a['n'] as number) ** 2) }]);
    expect(await r2.dispatch({ name: 'square', arguments: '{"n":3}' })).toEqual({ ok: true, tool: 'square', result: 9, callId: undefined });
    expect(r2.checkToolCall({ name: 'square', arguments: '{"n":4}' })).toEqual({
      allowed: true,
      call: { tool: 'square', args: { n: 4 }, via: 'flat', group: null },
    });
    expect(seen).toEqual([{ n: 3 }]);
  });

  test('checkToolCall results handed out earlier keep their own values', () => {
    const { router } = exampleRouter();
    const first = router.checkToolCall({ name: 'read_file', arguments: '{"path":"a.ts"}' });
    const second = router.checkToolCall({ name: 'file_ops', arguments: '{"action":"write_file","args":{"path":"b.ts","content":"x"}}' });
    expect(first).toEqual({ allowed: true, call: { tool: 'read_file', args: { path: 'a.ts' }, via: 'flat', group: null } });
    expect(second).toMatchObject({ allowed: true, call: { tool: 'write_file', args: { path: 'b.ts', content: 'x' }, via: 'namespace', group: 'file_ops' } });
  });
});

describe('the cheap walk of parsed text agrees with the full check', () => {
  /** JSON data that may hold ±Infinity, written as text the way a model could (`1e400`). */
  type Data = null | boolean | number | string | Data[] | { [key: string]: Data };
  const leaf: fc.Arbitrary<Data> = fc.oneof(
    fc.constantFrom<Data>(Infinity, -Infinity, 1e308, 0, null, true, '1e400', '{[', 12),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
  const { tree } = fc.letrec<{ tree: Data }>((rec) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(rec('tree'), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 3 }), rec('tree'), { maxKeys: 4 }),
    ),
  }));
  const text = (value: Data): string => {
    if (value === Infinity) return '1e400';
    if (value === -Infinity) return '-1E+0400';
    // JSON.stringify(-0) is "0"; a model can write -0, and JSON.parse keeps its sign.
    if (Object.is(value, -0)) return '-0';
    if (Array.isArray(value)) return `[${value.map(text).join(',')}]`;
    if (typeof value === 'object' && value !== null) {
      return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(',')}}`;
    }
    return JSON.stringify(value);
  };
  const verdict = (r: ReturnType<typeof parseArguments>) => (r.ok ? { ok: true, value: r.value } : { ok: false, problem: r.problem.kind });

  test('containers and overflowing numbers at any position, under random depth and size limits', () => {
    const limits = fc.record({
      maxArgumentsLength: fc.constant(DEFAULT_LIMITS.maxArgumentsLength),
      maxDepth: fc.integer({ min: 0, max: 6 }),
      maxNodes: fc.integer({ min: 0, max: 80 }),
    });
    let refusedForInfinity = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 3 }), tree, { maxKeys: 4 }), limits, (value, l: CallLimits) => {
        const fromText = verdict(parseArguments(text(value), l));
        // The object path always gets the full check; it sees the real ±Infinity.
        expect(fromText).toEqual(verdict(parseArguments(value, l)));
        if (!fromText.ok && fromText.problem === 'not_json_data') refusedForInfinity++;
      }),
      { numRuns: 2000 },
    );
    // The generator does reach the case the walk must catch.
    expect(refusedForInfinity).toBeGreaterThan(0);
  });
});
