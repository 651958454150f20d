/**
 * Type-level behaviour of library tools, checked by
 * `npx tsc -p .`: `libraryTool` types the handler's arguments from the
 * `validate` type guard (or the handler's annotation, and the two must
 * agree), the library tools' names join the router's names where a call or
 * a blocklist may name them (and only there), a tool that needs a context
 * the router does not provide does not compile, and `handleTool` is a
 * promise only when there are library tools. Each `@ts-expect-error` has a
 * twin that compiles. vitest runs the file too (the runtime halves execute).
 */
import { Ajv } from 'ajv';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as gen from '../../generated/index.js';
import { createRouter, libraryTool, type HandlerContext, type LibraryToolDefinition } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';

interface RememberArgs {
  key: string;
  value: string;
}
interface AgentCtx {
  readonly userId: string;
}

const ajv = new Ajv();
const schema = { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } }, required: ['key', 'value'], additionalProperties: false } as const;
const isRemember = ajv.compile<RememberArgs>(schema);

const remember = libraryTool({
  name: 'remember',
  description: 'Store a fact.',
  parameters: schema,
  validate: isRemember,
  handler: (args) => {
    expectTypeOf(args).toEqualTypeOf<RememberArgs>();
    return args.key;
  },
});
const recall = libraryTool({
  name: 'recall',
  description: 'Read a fact.',
  parameters: { type: 'object', properties: { key: { type: 'string' } } },
  validate: (data: unknown): boolean => typeof data === 'object' && data !== null,
  // No type guard: the handler's annotation gives the type.
  handler: (args: { key?: string }) => args.key ?? '',
});
const { handlers } = recordingHandlers();

describe('libraryTool', () => {
  it('types the arguments from the validate type guard, or the handler annotation; the name stays literal', () => {
    expectTypeOf(remember).toEqualTypeOf<LibraryToolDefinition<RememberArgs, unknown, 'remember'>>();
    expectTypeOf(recall).toEqualTypeOf<LibraryToolDefinition<{ key?: string }, unknown, 'recall'>>();
    // Neither: a JSON object, read as unknown values.
    const loose = libraryTool({ name: 'loose', description: 'x', parameters: { type: 'object' }, validate: () => true, handler: (args) => args });
    expectTypeOf(loose.handler).parameter(0).toEqualTypeOf<Record<string, unknown>>();
    expect(remember.name).toBe('remember');
  });

  it('a guard and a handler annotation that disagree do not compile', () => {
    const bad = libraryTool({
      name: 'bad',
      description: 'x',
      parameters: schema,
      validate: isRemember,
      // @ts-expect-error The guard checks RememberArgs; the handler expects a number `key`.
      handler: (args: { key: number }) => args.key,
    });
    const good = libraryTool({ name: 'good', description: 'x', parameters: schema, validate: isRemember, handler: (args: { key: string }) => args.key });
    expect([bad.name, good.name]).toEqual(['bad', 'good']);
  });

  it('a definition missing a required key does not compile', () => {
    // @ts-expect-error `validate` is required: the runtime compiles no schema.
    const noValidate = libraryTool({ name: 'x', description: 'x', parameters: { type: 'object' }, handler: () => 1 });
    const withValidate = libraryTool({ name: 'x', description: 'x', parameters: { type: 'object' }, validate: () => true, handler: () => 1 });
    expect([noValidate.name, withValidate.name]).toEqual(['x', 'x']);
  });
});

describe('a router with library tools', () => {
  const router = createRouter(gen, handlers, { libraryTools: [remember, recall] });

  it('blocks them by name, and refuses a misspelt one', () => {
    router.setBlockedTools(['remember', 'read_file']);
    // @ts-expect-error 'remembr' is no tool, namespace, toolkit or library tool.
    expect(() => router.setBlockedTools(['remembr'])).toThrow(TypeError);
    expectTypeOf(router.getBlockedTools()).items.toMatchTypeOf<string>();
    router.setBlockedTools([]);
  });

  it('checkToolCall and dispatch name them, routed via "library"', async () => {
    const check = router.checkToolCall({ name: 'remember', arguments: '{"key":"a","value":"b"}' });
    if (check.allowed && check.call.tool === 'remember') {
      expectTypeOf(check.call.via).toEqualTypeOf<'library'>();
      expectTypeOf(check.call.group).toEqualTypeOf<null>();
    }
    expect(check).toMatchObject({ allowed: true, call: { tool: 'remember', via: 'library' } });
    const r = await router.dispatch({ name: 'recall', arguments: '{}' });
    if (r.ok) expectTypeOf(r.tool).toMatchTypeOf<gen.ToolName | 'load_toolkit' | 'remember' | 'recall'>();
    expect(r).toMatchObject({ ok: true, tool: 'recall' });
  });

  it('an allowlist or a compile choice cannot name them (they are always offered)', () => {
    // @ts-expect-error An allowlist names flat tools.
    expect(() => router.allowOnly(['remember'])).toThrow(TypeError);
    router.allowOnly(['get_time']);
    // @ts-expect-error A compile choice names flat tools and namespaces; library tools come anyway.
    router.compile({ target: 'openai', messages: [], tools: ['remember'] });
    router.compile({ target: 'openai', messages: [], tools: ['get_time'] });
  });

  it('handleTool is a promise of text only when library tools exist', async () => {
    const plain = createRouter(gen, handlers);
    expectTypeOf(plain.handleTool({ name: 'x' as string })).toEqualTypeOf<string>();
    expectTypeOf(router.handleTool({ name: 'x' as string })).toEqualTypeOf<string | Promise<string>>();
    // A literal load_toolkit call is answered synchronously either way.
    expectTypeOf(router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' })).toEqualTypeOf<string>();
    expect(await router.handleTool({ name: 'remember', arguments: '{"key":"a","value":"b"}' })).toBe('a');
  });
});

describe('the handler context', () => {
  const needsUser = libraryTool({
    name: 'whoami',
    description: 'Who is asking.',
    parameters: { type: 'object' },
    validate: () => true,
    handler: (_args, ctx: HandlerContext<AgentCtx>) => ctx.context.userId,
  });

  it('a tool that needs a context the router does not provide does not compile', () => {
    // @ts-expect-error The router's context is unknown; whoami reads ctx.context.userId.
    const bad = createRouter(gen, handlers, { libraryTools: [needsUser] });
    const typedHandlers = { ...handlers, read_file: (_args: unknown, _ctx: HandlerContext<AgentCtx>) => null };
    const good = createRouter(gen, typedHandlers, { libraryTools: [needsUser] });
    expectTypeOf(good.dispatch).parameter(1).toMatchTypeOf<{ readonly context: AgentCtx }>();
    expect([bad.ownsTool('whoami'), good.ownsTool('whoami')]).toEqual([true, true]);
  });
});
