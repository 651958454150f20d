/**
 * Property test of dispatch and checkToolCall over generated calls: valid,
 * blocked, not loaded, unknown, malformed and hostile, in every call shape.
 * The oracle below states the gate's rules independently of the router, and
 * the namespace key rule: keys beside `action` are the arguments when there
 * is no `args` key and a rejection naming them when there is (nothing dropped);
 * a blocklist with an unknown name throws unless `allowUnknown`; a bad snapshot
 * throws and changes nothing; `tryResolveNamespace` agrees with `dispatch`.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { REJECTION_CODES } from '../../runtime/index.js';
import { exampleRouter, generated, type HandlerCall } from './helpers.js';
import type { ToolName } from './example.js';

const { spec } = generated;
const CODES = new Set<string>(REJECTION_CODES);
const NAMESPACES = spec.namespaces.map((n) => n.name);
const TOOLKITS = spec.toolkits.map((k) => k.name);
const ALL_NAMES = new Set<string>([...spec.tools.map((t) => t.name), ...NAMESPACES, ...TOOLKITS, 'load_toolkit']);

// ---- Valid arguments per tool (from examples/tools.spec.yaml) ---------------

const str = fc.string({ maxLength: 12 });
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
function record(required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>>) {
  return fc
    .tuple(fc.record(required), ...Object.entries(optional).map(([k, a]) => opt(a).map((v) => [k, v] as const)))
    .map(([req, ...opts]) => {
      const out: Record<string, unknown> = { ...(req as Record<string, unknown>) };
      for (const [k, v] of opts) if (v !== undefined) out[k] = v;
      return out;
    });
}
const VALID_ARGS: Record<ToolName, fc.Arbitrary<Record<string, unknown>>> = {
  read_file: record({ path: str }, { encoding: fc.constantFrom('utf8', 'base64'), max_bytes: fc.integer({ min: 1 }) }),
  run_bash: record({ command: str }, { timeout_ms: fc.integer({ min: 1, max: 600000 }), cwd: str }),
  get_time: record({}, { timezone: str }),
  write_file: record({ path: str, content: str }, { mode: fc.constantFrom('overwrite', 'append') }),
  delete_file: record({ path: str }, { recursive: fc.boolean() }),
  tail_logs: record({ service: str }, { lines: fc.integer({ min: 1, max: 1000 }) }),
  get_forecast: record({ city: str }, { days: fc.integer({ min: 1, max: 14 }), units: fc.constantFrom('metric', 'imperial') }),
  get_current_weather: record({ city: str }, {}),
  run_query: record(
    { sql: str },
    {
      params: fc.array(fc.oneof(str, fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true })), { maxLength: 4 }),
      limit: fc.integer({ min: 1, max: 10000 }),
    },
  ),
  describe_table: record({ table: str }, { schema: str }),
};
const REQUIRED: Record<ToolName, readonly string[]> = {
  read_file: ['path'], run_bash: ['command'], get_time: [], write_file: ['path', 'content'], delete_file: ['path'],
  tail_logs: ['service'], get_forecast: ['city'], get_current_weather: ['city'], run_query: ['sql'], describe_table: ['table'],
};

/** Break valid arguments: drop a required key, add an unknown key, or give a key a wrong type. */
const invalidArgs = (tool: ToolName) =>
  fc.tuple(VALID_ARGS[tool], fc.nat(), fc.constantFrom('drop', 'extra', 'wrongType')).filter(
    ([, , how]) => how !== 'drop' || REQUIRED[tool].length > 0,
  ).map(([args, n, how]) => {
    const out = { ...args };
    if (how === 'drop') delete out[REQUIRED[tool][n % REQUIRED[tool].length]!];
    else if (how === 'extra') out['zz_not_a_parameter'] = n;
    else {
      const keys = Object.keys(out);
      if (keys.length === 0) out['zz_not_a_parameter'] = true;
      else out[keys[n % keys.length]!] = { wrong: [n] };
    }
    return out;
  });

// ---- Routes and call shapes ----------------------------------------------------

type Route = { readonly via: 'flat' | 'namespace' | 'toolkit'; readonly group: string | null };
function routesOf(tool: ToolName): Route[] {
  const t = spec.tools.find((x) => x.name === tool)!;
  const routes: Route[] = [];
  if (t.flat) routes.push({ via: 'flat', group: null });
  for (const k of t.namespaces) routes.push({ via: 'namespace', group: spec.namespaces[k]!.name });
  for (const k of t.toolkits) routes.push({ via: 'toolkit', group: spec.toolkits[k]!.name });
  return routes;
}
function groupsOf(tool: ToolName): string[] {
  const t = spec.tools.find((x) => x.name === tool)!;
  return [...t.namespaces.map((k) => spec.namespaces[k]!.name), ...t.toolkits.map((k) => spec.toolkits[k]!.name)];
}

type Shape = 'string' | 'object' | 'openai' | 'anthropic' | 'gemini' | 'responses';
const SHAPES: readonly Shape[] = ['string', 'object', 'openai', 'anthropic', 'gemini', 'responses'];
function wrap(shape: Shape, id: string, name: string, args: Record<string, unknown>): unknown {
  switch (shape) {
    case 'string': return { id, name, arguments: JSON.stringify(args) };
    case 'object': return { id, name, arguments: args };
    case 'openai': return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
    case 'anthropic': return { type: 'tool_use', id, name, input: args };
    case 'gemini': return { id, name, args };
    case 'responses': return { type: 'function_call', id: `fc_${id}`, call_id: id, name, arguments: JSON.stringify(args) };
  }
}
/** What a handler must receive: JSON transport loses -0 and undefined, objects arrive as given. */
const transported = (shape: Shape, args: Record<string, unknown>) =>
  shape === 'string' || shape === 'openai' || shape === 'responses' ? JSON.parse(JSON.stringify(args)) : args;

interface Planned {
  readonly call: unknown;
  /** A call to a real tool: the oracle decides its outcome at run time, from the world at that moment. */
  readonly routed?: { readonly tool: ToolName; readonly route: Route; readonly valid: boolean; readonly args: unknown; readonly stray: boolean };
  /** A fixed expected rejection code. */
  readonly code?: string;
}

interface World {
  readonly blocked: readonly string[];
  readonly loaded: string[];
}

/** The gate's rules, stated independently: a blocked tool or group blocks; toolkit tools need a loaded toolkit. */
function oracle(world: World, tool: ToolName, route: Route): 'ok' | 'blocked' | 'not_loaded' {
  const blocked = new Set(world.blocked);
  if (blocked.has(tool) || groupsOf(tool).some((g) => blocked.has(g))) return 'blocked';
  if (route.via === 'namespace' && blocked.has(route.group!)) return 'blocked';
  if (route.via === 'toolkit' && !world.loaded.includes(route.group!)) {
    // Loaded through another toolkit that contains it?
    // With load_toolkit blocked no load can be made: the tool is as blocked as its toolkits would be.
    if (!groupsOf(tool).some((g) => TOOLKITS.includes(g) && world.loaded.includes(g))) return blocked.has('load_toolkit') ? 'blocked' : 'not_loaded';
  }
  return 'ok';
}

const toolArb = fc.constantFrom(...(spec.tools.map((t) => t.name) as ToolName[]));
const shapeArb = fc.constantFrom(...SHAPES);
const idArb = fc.string({ minLength: 1, maxLength: 6 });

/** How a namespace call carries its arguments: the wire format, flattened beside `action`, or with a stray key beside `args`. */
type NamespaceForm = 'wrapped' | 'flattened' | 'stray';

const routedCall: fc.Arbitrary<Planned> = toolArb
  .chain((tool) =>
    fc.record({
      tool: fc.constant(tool),
      route: fc.constantFrom(...routesOf(tool)),
      args: VALID_ARGS[tool],
      shape: shapeArb,
      id: idArb,
      bad: fc.nat(2).map((n) => n === 0), // a third invalid: most calls reach a handler
      form: fc.constantFrom<NamespaceForm>('wrapped', 'wrapped', 'wrapped', 'flattened', 'flattened', 'stray'),
    }),
  )
  .chain(({ tool, route, args, shape, id, bad, form }) =>
    (bad ? invalidArgs(tool) : fc.constant(args)).map((finalArgs): Planned => {
      const namespaced = route.via === 'namespace';
      const name = namespaced ? route.group! : tool;
      const payload = !namespaced
        ? finalArgs
        : form === 'flattened'
          ? { action: tool, ...finalArgs }
          : form === 'stray'
            ? { action: tool, args: finalArgs, zz_stray: 1 }
            : { action: tool, args: finalArgs };
      return {
        call: wrap(shape, id, name, payload),
        routed: { tool, route, valid: !bad, args: transported(shape, finalArgs), stray: namespaced && form === 'stray' },
      };
    }),
  );

const unknownCall: fc.Arbitrary<Planned> = fc
  .tuple(fc.string({ maxLength: 20 }), shapeArb, idArb)
  .filter(([name]) => name !== '' && !ALL_NAMES.has(name))
  .map(([name, shape, id]) => ({ call: wrap(shape, id, name, {}), code: 'unknown_tool' }));

const malformedCall: fc.Arbitrary<Planned> = fc
  .tuple(fc.constantFrom('read_file', 'get_time', 'run_bash'), fc.oneof(
    fc.string().filter((s) => { try { const v = JSON.parse(s); return typeof v !== 'object' || v === null || Array.isArray(v); } catch { return s.trim() !== ''; } }),
    fc.constantFrom('[]', '1', '"x"', 'true', '{', '{"a":', 'nul', '{}}'),
  ))
  .map(([name, raw]) => ({ call: { name, arguments: raw }, code: 'malformed_arguments' }));

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');
const hostileCall: fc.Arbitrary<Planned> = fc.oneof(
  fc.anything().map((call) => ({ call })),
  fc.record({ name: fc.oneof(hostileKey, fc.anything()), arguments: fc.anything() }).map((call) => ({ call })),
  fc.tuple(fc.constantFrom(...ALL_NAMES, 'load_toolkit'), hostileKey, fc.jsonValue()).map(([name, key, v]) => ({
    call: { name, arguments: `{"${key}":${JSON.stringify(v) ?? 'null'},"action":"read_file","args":{"${key}":{"polluted":true}},"toolkit_name":"Weather"}` },
  })),
  fc.tuple(fc.constantFrom('get_time', 'file_ops'), fc.integer({ min: 60, max: 400 })).map(([name, depth]) => ({
    call: { name, arguments: `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}` },
    code: 'malformed_arguments',
  })),
  fc.jsonValue().map((args) => ({ call: { name: 'load_toolkit', arguments: JSON.stringify(args) } })),
  fc.record({ function: fc.anything(), id: fc.anything() }).map((call) => ({ call })),
);

const worldArb = fc.record({
  blocked: fc.subarray([...ALL_NAMES, 'not_a_tool']),
  loaded: fc.subarray(TOOLKITS),
  /** A snapshot `restore` must refuse: anything at all, or a real snapshot broken one way. */
  badSnapshot: fc.oneof(
    fc.anything(),
    fc.constantFrom('no-format', 'no-blocked', 'no-loaded', 'blocked-not-array', 'blocked-typo', 'unknown-kit', 'bad-announcement'),
  ),
});

/** Break a real snapshot the way `how` says (or use an arbitrary value: never a snapshot of this format). */
function brokenSnapshot(real: Record<string, unknown>, how: unknown): unknown {
  const copy: Record<string, unknown> = { ...real };
  switch (how) {
    case 'no-format': delete copy['format']; return copy;
    case 'no-blocked': delete copy['blocked']; return copy;
    case 'no-loaded': delete copy['loaded']; return copy;
    case 'blocked-not-array': return { ...copy, blocked: 'delete_file' };
    case 'blocked-typo': delete copy['blockedAllowUnknown']; return { ...copy, blocked: ['delete_fiel'] };
    case 'unknown-kit': return { ...copy, loaded: ['Nope'] };
    case 'bad-announcement': return { ...copy, announcements: [{ id: 1 }] };
    default: return how;
  }
}

function readName(call: unknown): string {
  return typeof call === 'object' && call !== null && typeof (call as { name?: unknown }).name === 'string'
    ? (call as { name: string }).name
    : '';
}

const CALLS_PER_RUN = 50;
const RUNS = 160; // 8,000 calls in total

describe('dispatch over generated calls', () => {
  test(`${RUNS * CALLS_PER_RUN} calls: never throws, rejections are coded and explained, handlers see exactly the valid calls`, async () => {
    const { router, log } = exampleRouter();
    const initial = JSON.parse(JSON.stringify(router.snapshot()));
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).join();
    let total = 0;
    let okCount = 0;
    const codesSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        worldArb.chain((world) =>
          fc.tuple(fc.constant(world), fc.array(fc.oneof(
            { arbitrary: routedCall, weight: 6 },
            { arbitrary: unknownCall, weight: 1 },
            { arbitrary: malformedCall, weight: 1 },
            { arbitrary: hostileCall, weight: 2 },
          ), { minLength: CALLS_PER_RUN, maxLength: CALLS_PER_RUN })),
        ),
        async ([generatedWorld, planned]) => {
          const world: World = { blocked: generatedWorld.blocked, loaded: [...generatedWorld.loaded] };
          router.restore(initial);
          for (const kit of world.loaded) router.extractToolkit(kit);
          if (world.blocked.includes('not_a_tool')) {
            // An unknown name throws and changes nothing; blocking it takes the explicit option.
            const before = JSON.stringify(router.snapshot());
            expect(() => router.setBlockedTools(world.blocked as never)).toThrow(/unknown name "not_a_tool"/);
            expect(JSON.stringify(router.snapshot())).toBe(before);
            router.setBlockedTools(world.blocked, { allowUnknown: true });
          } else {
            router.setBlockedTools(world.blocked as never);
          }
          // A bad snapshot throws and leaves the state (this world) exactly as it was.
          const state = JSON.stringify(router.snapshot());
          expect(() => router.restore(brokenSnapshot(JSON.parse(state), generatedWorld.badSnapshot))).toThrow(TypeError);
          expect(JSON.stringify(router.snapshot())).toBe(state);
          for (const { call, routed, code } of planned) {
            // The gate runs before parsing: a blocked name is `blocked` whatever its arguments.
            const called = readName(call);
            const nameBlocked =
              world.blocked.includes(called) ||
              (spec.tools.some((t) => t.name === called) && oracle(world, called as ToolName, { via: 'flat', group: null }) === 'blocked');
            total++;
            const before = log.length;
            const check = router.checkToolCall(call);
            const r = await router.dispatch(call);
            const reached: HandlerCall[] = log.slice(before);
            if (!r.ok) {
              codesSeen.add(r.code);
              expect(CODES.has(r.code)).toBe(true);
              expect(r.reason.length).toBeGreaterThan(0);
              expect(reached).toEqual([]);
              // checkToolCall agrees with dispatch on every rejection but the handler's own.
              if (r.code !== 'handler_error') expect(check).toMatchObject({ allowed: false, code: r.code, reason: r.reason });
            } else {
              okCount++;
              expect(check.allowed).toBe(true);
              if (r.tool === 'load_toolkit') {
                expect(reached).toEqual([]);
              } else {
                // Exactly its handler, once; never a blocked tool; arguments the validator accepts.
                expect(reached).toHaveLength(1);
                expect(reached[0]!.tool).toBe(r.tool);
                expect(oracle(world, r.tool as ToolName, { via: 'flat', group: null })).not.toBe('blocked');
                const t = spec.tools.find((x) => x.name === r.tool)!;
                expect(spec.validators[t.validator]!(reached[0]!.args)).toBe(true);
              }
            }
            if (routed) {
              const gate = oracle(world, routed.tool, routed.route);
              if (gate !== 'ok') expect(r).toMatchObject({ ok: false, code: gate });
              else if (routed.stray) expect(r).toMatchObject({ ok: false, code: 'malformed_arguments', reason: expect.stringContaining('"zz_stray"') });
              else if (!routed.valid) expect(r).toMatchObject({ ok: false, code: 'invalid_arguments' });
              else {
                expect(r).toMatchObject({ ok: true, tool: routed.tool });
                expect(reached.map((c) => c.args)).toEqual([routed.args]);
              }
              if (routed.route.via === 'namespace') {
                // The reference library's resolveNamespace path gives application code exactly what dispatch would.
                const resolved = router.tryResolveNamespace(call);
                if (r.ok) expect(resolved).toEqual({ ok: true, group: routed.route.group, toolName: routed.tool, args: routed.args });
                else expect(resolved).toMatchObject({ ok: false, code: r.code, reason: r.reason });
              }
            } else if (code !== undefined) {
              expect(r).toMatchObject({ ok: false, code: nameBlocked ? 'blocked' : code });
            }
            // Keep the oracle's world in step with loads the calls made.
            if (r.ok && r.tool === 'load_toolkit') {
              for (const kit of router.getLoadedToolkits()) if (!world.loaded.includes(kit)) world.loaded.push(kit);
            }
          }
        },
      ),
      // A fixed seed: the run must meet every code the model can cause, and a random draw could miss a rare one.
      { numRuns: RUNS, seed: 0x5eed },
    );
    expect(total).toBe(RUNS * CALLS_PER_RUN);
    // The run exercised both sides and every code the model can cause.
    expect(okCount).toBeGreaterThan(total / 10);
    // handler_error, timeout and aborted come from handlers and callers, not from what the model sends.
    for (const code of REJECTION_CODES) if (code !== 'handler_error' && code !== 'timeout' && code !== 'aborted') expect(codesSeen).toContain(code);
    // Nothing reached Object.prototype.
    expect(Object.getOwnPropertyNames(Object.prototype).join()).toBe(protoBefore);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  }, 120_000);
});
