/**
 * Type-level behaviour (checked by `tsc -p .`, part of `npm test`): names are
 * the generated unions, results narrow to typed arguments, handlers are typed.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import { createRouter, type HandlerContext, type ToolRouter } from '../../runtime/index.js';
import { exampleRouter, generated, recordingHandlers } from './helpers.js';

/** Type-checked, never run: for calls that are compile errors (and would throw if run). */
function typeOnly(_check: () => unknown): void {}
import type { DeleteFileArgs, GetForecastArgs, GetTimeArgs, Handlers, ReadFileArgs, Registry, ToolCallCheckResult } from './example.js';

describe('types', () => {
  test('setBlockedTools, allowOnly and applyPolicy accept only generated names', () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['delete_file', 'file_ops', 'Weather']);
    // Each typo is a compile error here, and a TypeError at run time (see router.test.ts).
    typeOnly(() =>
      // @ts-expect-error: not a tool, namespace or toolkit of the spec
      router.setBlockedTools(['delete_fiel']),
    );
    // Names that are not registered yet type-check only with the explicit option.
    router.setBlockedTools(['delete_fiel'], { allowUnknown: true });
    router.allowOnly(['read_file']);
    typeOnly(() =>
      // @ts-expect-error: not a tool of the spec
      router.allowOnly(['reed_file']),
    );
    typeOnly(() =>
      // @ts-expect-error: not a tool of the spec
      router.pruneByTaskAndAllowlist('task', ['nope']),
    );
    router.applyPolicy('prod');
    typeOnly(() =>
      // @ts-expect-error: not a policy of the spec
      router.applyPolicy('staging'),
    );
    expectTypeOf(router.getBlockedTools()).toEqualTypeOf<('read_file' | 'run_bash' | 'get_time' | 'write_file' | 'delete_file' | 'tail_logs' | 'get_forecast' | 'get_current_weather' | 'run_query' | 'describe_table' | 'file_ops' | 'terminal' | 'Weather' | 'Database' | 'load_toolkit' | 'call_toolkit_tool')[]>();
  });

  test('a narrowed check result gives typed arguments', () => {
    const { router } = exampleRouter();
    const check = router.checkToolCall({ name: 'read_file', arguments: '{"path":"a"}' });
    if (check.allowed) {
      if (check.call.tool === 'read_file') expectTypeOf(check.call.args).toEqualTypeOf<ReadFileArgs>();
      if (check.call.tool === 'get_forecast') expectTypeOf(check.call.args).toEqualTypeOf<GetForecastArgs>();
      if (check.call.tool === 'load_toolkit') expectTypeOf(check.call.args).toEqualTypeOf<{ readonly toolkit_name: 'Weather' | 'Database' }>();
    } else {
      expectTypeOf(check.reason).toBeString();
      // @ts-expect-error: a rejection has no call
      void check.call;
    }
    // checkToolCall with arguments returns exactly the generated ToolCallCheckResult, both ways.
    expectTypeOf<ToolCallCheckResult>().toExtend<typeof check>();
    expectTypeOf<typeof check>().toExtend<ToolCallCheckResult>();
    const asGenerated: ToolCallCheckResult = router.checkToolCall({ name: 'load_toolkit', arguments: '{"toolkit_name":"weather"}' });
    void asGenerated;
    // A name-only check (the reference library's form) returns the name-level result.
    const byName = router.checkToolCall({ name: 'delete_file' });
    if (byName.allowed) expectTypeOf(byName.kind).toEqualTypeOf<'tool' | 'namespace' | 'library'>();
    // @ts-expect-error: a name-level result carries no call
    if (byName.allowed) void byName.call;
  });

  test('handlers are typed by tool and context', async () => {
    const { handlers } = recordingHandlers();
    const router = createRouter(generated, {
      ...handlers,
      delete_file: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<DeleteFileArgs>();
        expectTypeOf(ctx).toEqualTypeOf<HandlerContext<unknown>>();
        return args.path;
      },
    });
    expectTypeOf(router).toEqualTypeOf<ToolRouter<Registry, unknown>>();
    typeOnly(() =>
      // @ts-expect-error: a handler is missing
      createRouter(generated, { read_file: () => 1 }),
    );
    typeOnly(() =>
      createRouter(generated, {
        ...handlers,
        // @ts-expect-error: wrong argument type for read_file
        read_file: (args: { path: number }) => args.path,
      }),
    );
    // A context type makes `context` required in dispatch.
    const withContext = createRouter<Registry, { user: string }>(generated, {
      ...(handlers as never as Parameters<typeof createRouter<Registry, { user: string }>>[1]),
      get_time: (_args, ctx) => ctx.context.user,
    });
    await withContext.dispatch({ name: 'get_time', arguments: '{}' }, { context: { user: 'ada' } });
    // @ts-expect-error: context is required for this router
    await withContext.dispatch({ name: 'get_time', arguments: '{}' });
  });

  test('with run-time registrations the result widens (so it is no longer the generated type)', () => {
    const { router } = exampleRouter();
    const r2 = router.registerTools([{ name: 'ping', description: 'Ping' }]);
    const check = r2.checkToolCall({ name: 'ping', arguments: '{}' });
    if (check.allowed && check.call.tool === 'ping') expectTypeOf(check.call.args).toEqualTypeOf<Readonly<Record<string, unknown>>>();
    typeOnly(() => {
      // @ts-expect-error: a run-time tool is not in the generated union
      const generatedOnly: ToolCallCheckResult = check;
      void generatedOnly;
    });
  });

  test('run-time registrations extend the accepted names', () => {
    const { router } = exampleRouter();
    const r2 = router.registerTools([{ name: 'ping', description: 'Ping' }]);
    r2.setBlockedTools(['ping', 'read_file']);
    typeOnly(() =>
      // @ts-expect-error: still not a name
      r2.setBlockedTools(['pong']),
    );
  });
});

describe('context type inference', () => {
  interface AgentCtx {
    readonly user: string;
  }
  test('handlers typed with Handlers<AgentCtx> give a router whose dispatch requires that context', async () => {
    const { handlers } = recordingHandlers();
    const typed = { ...(handlers as unknown as Handlers<AgentCtx>), get_time: (_args: GetTimeArgs, ctx: HandlerContext<AgentCtx>) => ctx.context.user } satisfies Handlers<AgentCtx>;
    const router = createRouter(generated, typed);
    expectTypeOf(router).toEqualTypeOf<ToolRouter<Registry, AgentCtx>>();
    expect(await router.dispatch({ name: 'get_time', arguments: '{}' }, { context: { user: 'ada' } })).toMatchObject({ ok: true, result: 'ada' });
    typeOnly(() =>
      // @ts-expect-error: the context is required, and typed
      router.dispatch({ name: 'get_time', arguments: '{}' }, { context: { user: 1 } }),
    );
    typeOnly(() =>
      // @ts-expect-error: the context is required
      router.dispatch({ name: 'get_time', arguments: '{}' }),
    );
  });

  test('one annotated ctx is enough; unannotated handlers keep an unknown context', () => {
    const { handlers } = recordingHandlers();
    const one = createRouter(generated, { ...handlers, get_time: (_args, ctx: HandlerContext<AgentCtx>) => ctx.context.user });
    expectTypeOf(one).toEqualTypeOf<ToolRouter<Registry, AgentCtx>>();
    const plain = createRouter(generated, { ...handlers, get_time: (args) => args.timezone });
    expectTypeOf(plain).toEqualTypeOf<ToolRouter<Registry, unknown>>();
  });

  test('a handler under a name that is no tool throws, naming it and the closest tool', () => {
    const { handlers } = recordingHandlers();
    expect(() => createRouter(generated, { ...handlers, read_fle: () => 1 } as typeof handlers)).toThrow(
      /^createRouter: handlers: unknown name "read_fle" \(did you mean "read_file"\?\)/,
    );
  });

  test('an extra handler name is found however the table is built (a non-enumerable handler does not hide one)', async () => {
    const { handlers } = recordingHandlers();
    // As many enumerable keys as there are tools, one of them no tool: the count alone would not tell.
    const table: Record<string, unknown> = { ...handlers, read_fle: () => 1 };
    Object.defineProperty(table, 'get_time', { value: handlers.get_time, enumerable: false });
    expect(Object.keys(table).length).toBe(generated.spec.tools.length);
    expect(() => createRouter(generated, table as typeof handlers)).toThrow(/^createRouter: handlers: unknown name "read_fle"/);
    // The same table with the extra key removed is accepted: the non-enumerable handler is still a handler.
    delete table['read_fle'];
    const router = createRouter(generated, table as typeof handlers);
    expect(await router.dispatch({ name: 'get_time', arguments: '{}' })).toMatchObject({ ok: true, tool: 'get_time' });
  });
});
