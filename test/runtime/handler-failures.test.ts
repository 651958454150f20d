/**
 * Handler failures keep their information without leaking it: the rejection names the tool and carries the original error (never
 * sent to the model), a hook decides the model-visible text, and every call
 * gets an AbortSignal that a time limit or the caller's own signal aborts.
 */
import { describe, expect, test } from 'vitest';
import { createRouter, REJECTION_CODES, type HandlerContext } from '../../runtime/index.js';
import { generated, recordingHandlers } from './helpers.js';

const call = (name: string, args: unknown = {}) => ({ id: 'c1', name, arguments: JSON.stringify(args) });

function routerWith(overrides: Record<string, (args: never, ctx: HandlerContext<unknown>) => unknown>, options?: Parameters<typeof createRouter>[2]) {
  const { handlers } = recordingHandlers();
  return createRouter(generated, { ...handlers, ...overrides } as typeof handlers, options);
}

describe('handler_error', () => {
  test('carries the tool and the original error; the default reason is the message', async () => {
    const boom = new Error('fatal: /home/ada/secret-repo is not a git repository');
    const router = routerWith({ run_bash: () => { throw boom; } });
    const r = await router.dispatch(call('run_bash', { command: 'git status' }));
    expect(r).toEqual({
      ok: false,
      code: 'handler_error',
      reason: 'Tool "run_bash" failed: fatal: /home/ada/secret-repo is not a git repository',
      callId: 'c1',
      tool: 'run_bash',
      error: boom,
    });
  });

  test('a thrown value that is not an Error reads as its message or its JSON, never "[object Object]"', async () => {
    const thrown: [unknown, string][] = [
      [{ message: 'quota exceeded', status: 429 }, 'quota exceeded'],
      [{ code: 'E_QUOTA', retryAfter: 30 }, '{"code":"E_QUOTA","retryAfter":30}'],
      [['a', 1], '["a",1]'],
      ['plain text', 'plain text'],
      [42, '42'],
      [Object.create(null), 'unknown error'],
    ];
    for (const [value, text] of thrown) {
      const r = await routerWith({ get_time: () => { throw value; } }).dispatch(call('get_time'));
      expect(r, text).toMatchObject({ ok: false, code: 'handler_error', reason: `Tool "get_time" failed: ${text}`, error: value });
    }
  });

  test('the handlerErrorReason hook decides what the model reads; the error stays on the result', async () => {
    const boom = new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
    const seen: unknown[] = [];
    const router = routerWith(
      { run_query: async () => { throw boom; } },
      {
        handlerErrorReason: (error, info) => {
          seen.push([error, info]);
          return `${info.tool} is unavailable right now; try again later.`;
        },
      },
    );
    router.extractToolkit('Database');
    const r = await router.dispatch({ type: 'tool_use', id: 'toolu_1', name: 'run_query', input: { sql: 'select 1' } });
    expect(r).toMatchObject({ ok: false, code: 'handler_error', reason: 'run_query is unavailable right now; try again later.', tool: 'run_query' });
    expect(r.ok ? undefined : r.error).toBe(boom);
    expect(r.ok ? '' : r.reason).not.toContain('hunter2');
    expect(seen).toEqual([[boom, { tool: 'run_query', callId: 'toolu_1' }]]);
  });

  test('a hook that throws, or returns no text, falls back to a message without the error', async () => {
    for (const hook of [() => { throw new Error('hook bug'); }, () => '' as string, () => 42 as unknown as string]) {
      const router = routerWith({ get_time: () => { throw new Error('secret'); } }, { handlerErrorReason: hook });
      expect(await router.dispatch(call('get_time'))).toMatchObject({ ok: false, code: 'handler_error', reason: 'Tool "get_time" failed.' });
    }
  });
});

describe('time limits and cancellation', () => {
  test('a handler past its time limit is a timeout rejection, and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const router = routerWith({
      run_bash: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {}); // never settles
      },
    });
    const r = await router.dispatch(call('run_bash', { command: 'sleep 100' }), { timeoutMs: 20 });
    expect(r).toMatchObject({ ok: false, code: 'timeout', tool: 'run_bash', callId: 'c1' });
    expect(r.ok ? '' : r.reason).toBe('Tool "run_bash" did not finish within 20 ms and was cancelled. Try again, or with a smaller request.');
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).name).toBe('TimeoutError');
    expect(REJECTION_CODES).toContain('timeout');
  });

  test("the router's timeoutMs applies to every call; a handler that finishes in time is unaffected", async () => {
    const router = routerWith(
      {
        get_time: async () => 'now',
        run_bash: () => new Promise((resolve) => setTimeout(() => resolve('late'), 200)),
      },
      { timeoutMs: 30 },
    );
    expect(await router.dispatch(call('get_time'))).toMatchObject({ ok: true, result: 'now' });
    expect(await router.dispatch(call('run_bash', { command: 'x' }))).toMatchObject({ ok: false, code: 'timeout' });
  });

  test('a signal read after the time limit fired is already aborted', async () => {
    let ctxRef: HandlerContext<unknown> | undefined;
    const router = routerWith({ run_bash: (_a, ctx) => { ctxRef = ctx; return new Promise(() => {}); } });
    await router.dispatch(call('run_bash', { command: 'x' }), { timeoutMs: 5 });
    expect(ctxRef!.signal.aborted).toBe(true);
  });

  test("the caller's signal aborts the handler's signal and settles the call as aborted", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const router = routerWith({ run_bash: (_a, ctx) => { signal = ctx.signal; return new Promise(() => {}); } });
    const pending = router.dispatch(call('run_bash', { command: 'sleep 100' }), { signal: controller.signal });
    controller.abort(new Error('user pressed stop'));
    const r = await pending;
    expect(r).toMatchObject({ ok: false, code: 'aborted', tool: 'run_bash' });
    expect(r.ok ? undefined : (r.error as Error).message).toBe('user pressed stop');
    expect(signal?.aborted).toBe(true);
    // Already aborted before the call: the handler never runs.
    const { handlers, log } = recordingHandlers();
    const r2 = await createRouter(generated, handlers).dispatch(call('get_time'), { signal: controller.signal });
    expect(r2).toMatchObject({ ok: false, code: 'aborted' });
    expect(log).toEqual([]);
  });

  test("with the caller's signal and a time limit, the time limit still aborts the handler's signal", async () => {
    let signal: AbortSignal | undefined;
    const router = routerWith({ run_bash: (_a, ctx) => { signal = ctx.signal; return new Promise(() => {}); } }, { timeoutMs: 20 });
    const caller = new AbortController();
    const r = await router.dispatch(call('run_bash', { command: 'sleep 100' }), { signal: caller.signal });
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).name).toBe('TimeoutError');
    expect(caller.signal.aborted).toBe(false);
  });

  test('a bad time limit is a configuration mistake: it throws (createRouter) or rejects (dispatch)', async () => {
    const { handlers } = recordingHandlers();
    expect(() => createRouter(generated, handlers, { timeoutMs: -1 })).toThrow(/^createRouter: options\.timeoutMs takes a number of milliseconds from 0 to 2147483647 \(about 24\.8 days\); got -1\.$/);
    // Longer than Node's timers hold: every call would time out at once.
    expect(() => createRouter(generated, handlers, { timeoutMs: 30 * 24 * 3600 * 1000 })).toThrow(/about 24.8 days\); got 2592000000/);
    const router = routerWith({ get_time: async () => 1 });
    await expect(router.dispatch(call('get_time'), { timeoutMs: Number.NaN })).rejects.toThrow(/dispatch: options.timeoutMs takes/);
    await expect(router.dispatch(call('get_time'), { timeoutMs: 3e9 })).rejects.toThrow(/^dispatch: options\.timeoutMs takes a number of milliseconds from 0 to 2147483647 \(about 24\.8 days\); got 3000000000\.$/);
    expect(await router.dispatch(call('get_time'), { timeoutMs: 2 ** 31 - 1 })).toMatchObject({ ok: true, result: 1 });
    // Whatever the model sent: a call that is refused, and a load (which would change the router), fail the same way.
    await expect(router.dispatch(call('no_such_tool'), { timeoutMs: -5 })).rejects.toThrow(/options\.timeoutMs takes/);
    await expect(router.dispatch(call('load_toolkit', { toolkit_name: 'Weather' }), { timeoutMs: 3e9 })).rejects.toThrow(/options\.timeoutMs takes/);
    expect(() => router.handleTool(call('load_toolkit', { toolkit_name: 'Weather' }), { timeOutMs: 5 } as never)).toThrow(/^handleTool options: unknown name "timeOutMs"/);
    expect(router.getLoadedToolkits()).toEqual([]);
  });

  test("the caller's signal aborted while the handler runs synchronously settles the call as aborted", async () => {
    for (const timeoutMs of [undefined, 1000]) {
      const controller = new AbortController();
      let signal: AbortSignal | undefined;
      // A handler (or code it calls, such as a stop tool) aborts the turn, then waits on its own signal.
      const router = routerWith({ run_bash: (_a, ctx) => {
        signal = ctx.signal;
        controller.abort(new Error('stop'));
        return new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)));
      } }, timeoutMs === undefined ? undefined : { timeoutMs });
      const r = await router.dispatch(call('run_bash', { command: 'x' }), { signal: controller.signal });
      expect(r, String(timeoutMs)).toMatchObject({ ok: false, code: 'aborted', tool: 'run_bash' });
      expect(signal?.aborted).toBe(true);
    }
  });

  test('a misspelt dispatch option rejects the dispatch, naming the closest, before the handler runs', async () => {
    let ran = 0;
    const router = routerWith({ get_time: async () => (ran++, 1) });
    await expect(router.dispatch(call('get_time'), { timeOutMs: 10 } as never)).rejects.toThrow(/dispatch options: unknown name "timeOutMs" \(did you mean "timeoutMs"\?\)/);
    await expect(router.dispatch(call('get_time'), { contxt: {} } as never)).rejects.toThrow(/did you mean "context"/);
    // A rejected call does not hide the mistake either.
    await expect(router.dispatch(call('no_such_tool'), { sigal: undefined } as never)).rejects.toThrow(/unknown name "sigal"/);
    expect(ran).toBe(0);
  });

  test('a signal that is no AbortSignal rejects the dispatch before the handler runs, and nothing throws later', async () => {
    let ran = 0;
    const router = routerWith({ get_time: async () => (ran++, 1) }, { timeoutMs: 20 });
    // An EventTarget has addEventListener but no `aborted`: it would never abort the call.
    for (const signal of [{ aborted: false }, 'stop', null, new EventTarget()]) {
      await expect(router.dispatch(call('get_time'), { signal } as never)).rejects.toThrow(/dispatch: options.signal takes an AbortSignal/);
    }
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ran).toBe(0);
  });

  test('a synchronous handler is never timed (it has finished when it returns)', async () => {
    const router = routerWith({ get_time: () => 'sync' }, { timeoutMs: 1 });
    expect(await router.dispatch(call('get_time'))).toMatchObject({ ok: true, result: 'sync' });
  });
});
