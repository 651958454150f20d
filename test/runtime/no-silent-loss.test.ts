/**
 * Nothing the model sends is dropped silently, and no public path hands a
 * blocked tool's arguments to application code.
 *
 * The property: for every call shape the runtime accepts and every route
 * (flat, namespace in the wire form, namespace flattened, loaded toolkit,
 * the loader), with arbitrary extra keys, either the handler receives exactly
 * the keys the model sent (deep-equal after the shape's transport), or the
 * call is rejected and every extra key is named in the reason.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { createRouter, libraryTool, ToolCallRejectedError } from '../../runtime/index.js';
import { exampleRouter, generated, recordingHandlers, type HandlerCall } from './helpers.js';

const ajv = new Ajv({ allErrors: true });
const closedSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } as const;
const openSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } as const;

/** The example router plus two library tools (one closed schema, one open), logging into the same log. */
function routerWithLibraryTools() {
  const { handlers, log } = recordingHandlers();
  const logged = (tool: string) => (args: unknown, ctx: { callId: string | undefined; context: unknown }) => {
    log.push({ tool: tool as HandlerCall['tool'], args, callId: ctx.callId, context: ctx.context });
    return 'ok';
  };
  const router = createRouter(generated, handlers, {
    libraryTools: [
      libraryTool({ name: 'lib_closed', description: 'Closed.', parameters: closedSchema, validate: ajv.compile(closedSchema), handler: logged('lib_closed') }),
      libraryTool({ name: 'lib_open', description: 'Open.', parameters: openSchema, validate: ajv.compile(openSchema), handler: logged('lib_open') }),
    ],
  });
  return { router, log };
}

type Shape = 'string' | 'object' | 'openai' | 'anthropic' | 'gemini' | 'responses';
const SHAPES: readonly Shape[] = ['string', 'object', 'openai', 'anthropic', 'gemini', 'responses'];

function wrap(shape: Shape, name: string, args: Record<string, unknown>): unknown {
  switch (shape) {
    case 'string': return { id: 'c1', name, arguments: JSON.stringify(args) };
    case 'object': return { id: 'c1', name, arguments: args };
    case 'openai': return { id: 'c1', type: 'function', function: { name, arguments: JSON.stringify(args) } };
    case 'anthropic': return { type: 'tool_use', id: 'c1', name, input: args };
    case 'gemini': return { id: 'c1', name, args };
    case 'responses': return { type: 'function_call', call_id: 'c1', name, arguments: JSON.stringify(args) };
  }
}

/** Extra keys a model might add: anything but the names the routes themselves use. */
const extraKey = fc
  .oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'paths', 'mode '))
  .filter((k) => !['action', 'args', 'toolkit_name', 'path', 'encoding', 'max_bytes', 'city', 'days', 'units'].includes(k));

type Route = 'flat' | 'namespace' | 'flattened' | 'toolkit' | 'loader' | 'responses-namespace' | 'library-closed' | 'library-open';

describe('no silent loss', () => {
  test('every key the model sent reaches the handler or is named in a rejection, in every call shape and route', async () => {
    let delivered = 0;
    let named = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Route>('flat', 'namespace', 'flattened', 'toolkit', 'loader', 'responses-namespace', 'library-closed', 'library-open'),
        fc.constantFrom(...SHAPES),
        fc.uniqueArray(extraKey, { maxLength: 3 }),
        fc.jsonValue(),
        async (route, shape, extras, value) => {
          const { router, log } = routerWithLibraryTools();
          router.extractToolkit('Weather');
          const sent: Record<string, unknown> =
            route === 'toolkit' ? { city: 'Oslo' } : route === 'loader' ? { toolkit_name: 'Database' } : { path: 'a.ts' };
          const withExtras = JSON.parse(JSON.stringify(sent)) as Record<string, unknown>;
          for (const k of extras) Object.defineProperty(withExtras, k, { value, enumerable: true, writable: true, configurable: true });
          let call: unknown;
          if (route === 'namespace') call = wrap(shape, 'file_ops', { action: 'read_file', args: withExtras });
          else if (route === 'flattened') call = wrap(shape, 'file_ops', Object.assign(Object.create(null), { action: 'read_file' }, withExtras));
          else if (route === 'responses-namespace') {
            call = { type: 'function_call', call_id: 'c1', namespace: 'file_ops', name: 'read_file', arguments: JSON.stringify(withExtras) };
          } else if (route === 'library-closed' || route === 'library-open') {
            call = wrap(shape, route === 'library-closed' ? 'lib_closed' : 'lib_open', withExtras);
          } else call = wrap(shape, route === 'toolkit' ? 'get_forecast' : route === 'loader' ? 'load_toolkit' : 'read_file', withExtras);
          // What the model's keys look like after the shape's own transport (JSON drops undefined, keeps __proto__ as a key).
          const transported = JSON.parse(JSON.stringify(withExtras)) as Record<string, unknown>;

          // Library tools: the reference library's handleTool gives the same outcome as dispatch.
          const r = route.startsWith('library') && extras.length % 2 === 1
            ? await (async () => {
                const text = await router.handleTool(call);
                return text.startsWith('Error: ') ? { ok: false as const, reason: text } : { ok: true as const };
              })()
            : await router.dispatch(call);
          if (route === 'library-open') expect(r.ok).toBe(true);
          if (r.ok) {
            delivered++;
            if (route === 'loader') {
              expect(extras).toEqual([]);
            } else {
              expect(log).toHaveLength(1);
              // Exactly the keys sent, with their values: nothing added, nothing lost.
              expect(Object.keys(log[0]!.args as object).sort()).toEqual(Object.keys(transported).sort());
              expect(JSON.stringify(log[0]!.args)).toBe(JSON.stringify(transported));
            }
          } else {
            named++;
            expect(log).toEqual([]);
            expect(extras.length).toBeGreaterThan(0);
            // Each key the call could not keep is named (JSON-quoted, or as the JSON pointer of ajv's report).
            for (const k of Object.keys(transported)) {
              if (k in sent) continue;
              const pointerForm = `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
              expect(r.reason.includes(JSON.stringify(k)) || r.reason.includes(pointerForm) || r.reason.includes(k)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 600 },
    );
    expect(delivered).toBeGreaterThan(20);
    expect(named).toBeGreaterThan(20);
  });

  test('library tools: every key reaches the handler (open schema) or is named (closed), by dispatch and by handleTool', async () => {
    const { router, log } = routerWithLibraryTools();
    expect(await router.dispatch({ name: 'lib_open', arguments: '{"path":"a","mode":"x","__proto__":1}' })).toMatchObject({ ok: true });
    expect(Object.keys(log[0]!.args as object).sort()).toEqual(['__proto__', 'mode', 'path']);
    const rejected = await router.handleTool({ name: 'lib_closed', arguments: '{"path":"a","mode":"x"}' });
    expect(rejected).toMatch(/^Error: Invalid arguments for "lib_closed"/);
    expect(rejected).toContain('mode');
    expect(log).toHaveLength(1);
  });
});

describe('namespace calls: the key rule', () => {
  test('with no "args" key, the keys beside "action" are the arguments', async () => {
    const { router, log } = exampleRouter();
    const call = { name: 'file_ops', arguments: '{"action":"read_file","path":"a.ts","max_bytes":3}' };
    expect(router.checkToolCall(call)).toEqual({
      allowed: true,
      call: { tool: 'read_file', args: { path: 'a.ts', max_bytes: 3 }, via: 'namespace', group: 'file_ops' },
    });
    expect(await router.dispatch(call)).toMatchObject({ ok: true, tool: 'read_file' });
    expect(log.map((c) => c.args)).toEqual([{ path: 'a.ts', max_bytes: 3 }]);
    expect(router.resolveNamespace(call)).toEqual({ group: 'file_ops', toolName: 'read_file', args: { path: 'a.ts', max_bytes: 3 } });
  });

  test('with an "args" key, a key beside it is refused by name, in dispatch, checkToolCall and resolveNamespace', async () => {
    const { router, log } = exampleRouter();
    const call = { name: 'file_ops', arguments: '{"action":"write_file","args":{"path":"a","content":"x"},"mode":"append"}' };
    const r = await router.dispatch(call);
    expect(r).toEqual({
      ok: false,
      code: 'malformed_arguments',
      reason:
        'Key "mode" of the "file_ops" call is outside "args" and would be ignored, so the call was not run. ' +
        'Put every argument of "write_file" inside "args": {"action":"write_file","args":{…}}.',
      callId: undefined,
    });
    expect(log).toEqual([]);
    expect(router.checkToolCall(call)).toMatchObject({ allowed: false, code: 'malformed_arguments', reason: r.ok ? '' : r.reason });
    expect(() => router.resolveNamespace(call)).toThrow(ToolCallRejectedError);
    expect(router.tryResolveNamespace(call)).toMatchObject({ ok: false, code: 'malformed_arguments' });
  });

  test('an unknown or blocked action is reported before stray keys', async () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['delete_file']);
    expect(await router.dispatch({ name: 'file_ops', arguments: '{"action":"delete_file","args":{"path":"a"},"x":1}' })).toMatchObject({ code: 'blocked' });
    expect(await router.dispatch({ name: 'file_ops', arguments: '{"action":"nope","args":{},"x":1}' })).toMatchObject({ code: 'unknown_action' });
  });

  test('load_toolkit refuses keys beside toolkit_name instead of ignoring them', async () => {
    const { router } = exampleRouter();
    const r = await router.dispatch({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather","reason":"need it"}' });
    expect(r).toMatchObject({ ok: false, code: 'malformed_arguments', reason: expect.stringContaining('"reason"') });
    expect(router.getLoadedToolkits()).toEqual([]);
  });
});

describe('no public path gives a blocked tool’s arguments to application code', () => {
  const blockedCall = { name: 'file_ops', arguments: '{"action":"delete_file","args":{"path":"/etc"}}' };

  test.each([
    ['a blocked action', ['delete_file']],
    ['a blocked namespace', ['file_ops']],
  ])('%s: every public method refuses or returns no arguments', async (_label, blocked) => {
    const { router, log } = exampleRouter();
    router.setBlockedTools(blocked as never);
    // The full check and dispatch reject.
    expect(router.checkToolCall(blockedCall)).toMatchObject({ allowed: false, code: 'blocked' });
    expect(await router.dispatch(blockedCall)).toMatchObject({ ok: false, code: 'blocked' });
    // The reference library's loop: resolveNamespace throws a typed rejection, tryResolveNamespace returns it.
    expect(() => router.resolveNamespace(blockedCall)).toThrow(ToolCallRejectedError);
    try {
      router.resolveNamespace(blockedCall);
    } catch (error) {
      expect(error).toMatchObject({ code: 'blocked', reason: `Tool "${blocked[0]}" is currently blocked.` });
    }
    expect(router.tryResolveNamespace(blockedCall)).toEqual({ ok: false, code: 'blocked', reason: `Tool "${blocked[0]}" is currently blocked.` });
    // The same action in the Responses native form.
    const native = { type: 'function_call', call_id: 'c', namespace: 'file_ops', name: 'delete_file', arguments: '{"path":"/etc"}' };
    expect(router.tryResolveNamespace(native)).toMatchObject({ ok: false, code: 'blocked' });
    expect(await router.dispatch(native)).toMatchObject({ ok: false, code: 'blocked' });
    // The library's own entry point does not run application tools.
    expect(router.handleTool(blockedCall)).toMatch(/^Error: "file_ops" is not a library tool/);
    expect(log).toEqual([]);
    // A name-only check of the namespace cannot see the action: with a blocked action it is
    // still allowed (other actions are callable); with the namespace blocked it is not.
    expect(router.checkToolCall({ name: 'file_ops' }).allowed).toBe(blocked[0] === 'delete_file');
  });

  test('resolveNamespace validates like dispatch: invalid arguments are a rejection, not a hand-off', () => {
    const { router } = exampleRouter();
    expect(router.tryResolveNamespace({ name: 'file_ops', arguments: '{"action":"read_file","args":{"path":7}}' })).toMatchObject({
      ok: false,
      code: 'invalid_arguments',
    });
    // A non-object args is named, not turned into {}.
    expect(router.tryResolveNamespace({ name: 'file_ops', arguments: '{"action":"read_file","args":"a.ts"}' })).toMatchObject({
      ok: false,
      code: 'malformed_arguments',
    });
  });
});
