/**
 * Type-level behaviour of a generated folder (the example fixture's snapshot):
 * checked by `npx tsc -p .`; vitest runs the file too (expectTypeOf is a no-op
 * at run time, the runtime halves still execute).
 */
import { describe, expectTypeOf, it, expect } from 'vitest';
import type { HandlersOf, ResolvedCallOf, ToolCallCheckResultOf } from '../../runtime/contract.js';
import * as gen from '../fixtures/example/expected/index.js';
import type {
  FileOpsAction,
  Handlers,
  NamespaceActions,
  NamespaceDispatchers,
  ReadFileArgs,
  Registry,
  ResolvedToolCall,
  RunQueryArgs,
  ToolArgs,
  ToolCallCheckResult,
  ToolkitName,
  ToolName,
  WriteFileArgs,
} from '../fixtures/example/expected/index.js';

const ok = () => null;
const handlers = {
  read_file: (args) => args.path,
  run_bash: (args) => args.command,
  get_time: ok,
  write_file: (args) => args.content.length,
  delete_file: ok,
  tail_logs: ok,
  get_forecast: (args) => args.city,
  get_current_weather: ok,
  run_query: (args) => args.sql,
  describe_table: ok,
} satisfies Handlers;

describe('generated types', () => {
  it('are structurally what the runtime contract derives from Registry', () => {
    expectTypeOf<ToolCallCheckResult>().toEqualTypeOf<ToolCallCheckResultOf<Registry>>();
    expectTypeOf<ResolvedToolCall>().toEqualTypeOf<ResolvedCallOf<Registry>>();
    expectTypeOf<Handlers>().toEqualTypeOf<HandlersOf<Registry>>();
    expectTypeOf<keyof ToolArgs>().toEqualTypeOf<ToolName>();
    expectTypeOf<(typeof gen.TOOL_NAMES)[number]>().toEqualTypeOf<ToolName>();
    expectTypeOf<(typeof gen.TOOLKIT_NAMES)[number]>().toEqualTypeOf<ToolkitName>();
    expectTypeOf(gen.spec.__registry).toEqualTypeOf<Registry | undefined>();
  });

  it('TOOL_NAMES is the exact tuple, frozen, and the very strings the spec\'s tools carry (shipped once, in names.gen.ts)', () => {
    type Want = readonly ['read_file', 'run_bash', 'get_time', 'write_file', 'delete_file', 'tail_logs', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table'];
    expectTypeOf(gen.TOOL_NAMES).toEqualTypeOf<Want>();
    // @ts-expect-error a frozen tuple has no push
    expect(() => gen.TOOL_NAMES.push('x')).toThrow(TypeError);
    const names = gen.TOOL_NAMES satisfies Want;
    expect(Object.isFrozen(names)).toBe(true);
    expect([...names]).toEqual(gen.spec.tools.map((t) => t.name));
    gen.spec.tools.forEach((t, i) => expect(t.name).toBe(names[i]));
  });

  it('a complete, correctly typed Handlers map compiles', () => {
    expect(Object.keys(handlers).sort()).toEqual([...gen.TOOL_NAMES].sort());
  });

  it('a Handlers map missing one tool fails to compile, naming the tool', () => {
    const { delete_file: _omitted, ...missing } = handlers;
    void _omitted;
    // @ts-expect-error Property 'delete_file' is missing in type … but required in type 'Handlers<unknown>'.
    const bad: Handlers = missing;
    void bad;
  });

  it('a handler with a wrongly typed argument fails to compile', () => {
    const bad: Handlers = {
      ...handlers,
      // @ts-expect-error ReadFileArgs has no `file` property: the argument is typed by the spec.
      read_file: (args: { file: number }) => args.file,
    };
    void bad;
    // @ts-expect-error `path` is a string, not a number.
    const wrongProperty: Handlers['read_file'] = (args: { path: number }) => args.path;
    void wrongProperty;
  });

  it('an unknown tool name fails to compile', () => {
    // @ts-expect-error Object literal may only specify known properties: 'read_fle' is not a tool.
    const bad: Handlers = { ...handlers, read_fle: ok };
    void bad;
    // @ts-expect-error not a ToolName
    const name: ToolName = 'read_fle';
    void name;
  });

  it('narrowing ToolCallCheckResult on allowed and call.tool gives typed args', () => {
    const check = (result: ToolCallCheckResult): string => {
      if (!result.allowed) {
        expectTypeOf(result.reason).toEqualTypeOf<string>();
        return result.reason;
      }
      // @ts-expect-error `reason` exists only on a rejection.
      void result.reason;
      const { call } = result;
      if (call.tool === 'read_file') {
        expectTypeOf(call.args).toEqualTypeOf<ReadFileArgs>();
        return call.args.path;
      }
      if (call.tool === 'run_query') {
        expectTypeOf(call.args).toEqualTypeOf<RunQueryArgs>();
        return call.args.sql;
      }
      return call.tool;
    };
    expect(check({ allowed: false, code: 'blocked', reason: 'Tool "delete_file" is currently blocked.' })).toMatch(/blocked/);
    expect(check({ allowed: true, call: { tool: 'read_file', args: { path: 'a.ts' }, via: 'flat', group: null } })).toBe('a.ts');
  });

  it('namespace dispatchers are typed per namespace and per action', () => {
    expectTypeOf<NamespaceActions['file_ops']>().toEqualTypeOf<FileOpsAction>();
    const dispatchers: NamespaceDispatchers = {
      file_ops: (call) => {
        if (call.action === 'write_file') {
          expectTypeOf(call.args).toEqualTypeOf<WriteFileArgs>();
          return call.args.mode ?? 'overwrite';
        }
        return call.action;
      },
      terminal: (call) => call.action,
    };
    // @ts-expect-error `run_query` is not an action of file_ops.
    const wrong: FileOpsAction = { action: 'run_query', args: { sql: 'x' } };
    void wrong;
    expect(dispatchers.file_ops({ action: 'write_file', args: { path: 'a', content: 'b' } }, { callId: undefined, context: undefined, signal: new AbortController().signal })).toBe('overwrite');
  });
});

describe('ctx.signal', () => {
  it("is the program's own AbortSignal where one is declared (here @types/node), so it passes to fetch", () => {
    type Ctx = Parameters<Handlers['read_file']>[1];
    expectTypeOf<Ctx['signal']>().toEqualTypeOf<AbortSignal>();
    const use = (ctx: Ctx) => fetch('http://127.0.0.1:9/', { signal: ctx.signal });
    expect(typeof use).toBe('function');
  });
});
