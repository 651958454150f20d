/**
 * How `dispatch` settles a handler's outcome, exactly as `await handler(…)`
 * would: thenables adopted, `then` read once, every throw a `handler_error`
 * (or a rejection with `propagateHandlerErrors`), never a synchronous
 * exception. And re-entering the router from a handler or a validator never
 * mixes one call's tool, arguments or call id into another.
 */
import { describe, expect, test } from 'vitest';
import { createRouter } from '../../runtime/index.js';
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

describe('re-entering the router keeps calls apart', () => {
  test('a handler that re-enters dispatch and checkToolCall keeps its own tool, arguments and call id', async () => {
    const { handlers, log } = recordingHandlers();
    let inner: unknown;
    let check: unknown;
    const router = createRouter(generated, {
      ...handlers,
      read_file: async (args, ctx) => {
        // Synchronously, before any await.
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
        // Resolves a different call mid-validation.
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
