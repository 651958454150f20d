/**
 * Item 1 — dispatch against the honest floor, the reference path and the peers.
 *
 * Cases: a namespace call and a flat call, each with a sync and an async
 * handler, at 10, 1,000 and 10,000 tools (same argument schema everywhere, so
 * the sizes compare the router, not the validator). Per case, paired rounds of:
 * - toolroute: `router.dispatch(call)` with a 2-name blocklist set;
 * - floor: `JSON.parse` of the text + a plain `new Ajv().compile(schema)`
 *   validator (checked below to accept and reject exactly what toolroute's
 *   does) + the handler settled the way dispatch settles it:
 *   `Promise.resolve(handler(args))` for a sync handler, `await handler(args)`
 *   in an async function for an async one;
 * - reference: `chef.checkToolCall` (+ `isNamespaceCall` + `resolveNamespace`
 *   for a namespace call, `JSON.parse` for a flat one) + the tool's handler and
 *   ajv validator (compiled once) found by its name in one Map read + the
 *   handler settled the same way, same blocklist.
 *
 * Peers (1,000-tool spec, the flat call, same schema, handler and arguments):
 * - AI SDK 6 tool execution: what `generateText` does per tool call
 *   (`doParseToolCall`: `asSchema` + `safeParseJSON` with a `jsonSchema(schema,
 *   { validate })` whose validate is the plain ajv validator, then
 *   `executeTool` consumed to its final output), without its telemetry span;
 * - MCP SDK `tools/call`, handler path: `JSON.parse` of the JSON-RPC request
 *   text + the `Server`'s registered `tools/call` handler (the SDK's zod
 *   request parsing, then ours: the plain ajv validator, the handler, a text
 *   content result), as the transport would call it;
 * - MCP SDK `tools/call`, full path: `JSON.parse` of the arguments +
 *   `client.callTool` over the SDK's `InMemoryTransport` to that server.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { asSchema, executeTool, jsonSchema, safeParseJSON, tool as aiTool } from '@ai-sdk/provider-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../make-spec.js';
import { check, fmtNs, fmtPaired, fmtRatio, same, timePaired, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import { flatCall, lastCall, namespaceCall, type BenchRouter, type Loaded } from '../setup.js';

/** The argument template of the measured tool: nested objects, enums, arrays. */
const TEMPLATE = 'search';
/** Target ratio to the floor (issue 14). */
const FLOOR_TARGET = 1.15;

type Shape = 'namespace' | 'flat';
type Settle = 'sync' | 'async';
type Call = { readonly name: string; readonly arguments: string };

/** One measured case: its call, the toolroute router, the floor and the reference. */
interface Case {
  readonly shape: Shape;
  readonly settle: Settle;
  readonly tool: string;
  readonly args: JsonObject;
  readonly call: Call;
  readonly router: BenchRouter;
  /** The reference path's validator of this case's tool (the agreement check feeds it the same values). */
  readonly refValidate: (args: unknown) => boolean;
  /** Builds the call for other argument values (agreement checks). */
  readonly callWith: (args: unknown) => Call;
  readonly plain: ValidateFunction;
  readonly toolroute: () => Promise<unknown>;
  readonly floor: () => Promise<unknown>;
  readonly reference: () => Promise<unknown>;
}

function schemaOf(l: Loaded, tool: string): JsonObject {
  const def = l.ref.defs.get(tool);
  if (!def) throw new Error(`bench: ${tool} not in the spec`);
  return def.parameters;
}

function makeCase(l: Loaded, shape: Shape, settle: Settle): Case {
  const blocked = l.made.spec.policies?.['prod'] ?? [];
  l.router.setBlockedTools(blocked);
  l.asyncRouter.setBlockedTools(blocked);
  const chef = l.ref.chef;
  const pruner = chef.getPruner();
  pruner.setBlockedTools(blocked);

  const picked =
    shape === 'namespace'
      ? (() => {
          const nc = namespaceCall(l.made, TEMPLATE);
          return { tool: nc.action, args: nc.args, call: nc.call, callWith: (args: unknown) => ({ name: nc.namespace, arguments: JSON.stringify({ action: nc.action, args }) }) };
        })()
      : (() => {
          const fc = flatCall(l.made, TEMPLATE);
          return { tool: fc.tool, args: fc.args, call: fc.call, callWith: (args: unknown) => ({ name: fc.tool, arguments: JSON.stringify(args) }) };
        })();
  const { tool, call } = picked;
  const plain = new Ajv().compile(schemaOf(l, tool));
  const router = settle === 'sync' ? l.router : l.asyncRouter;
  const handlers = settle === 'sync' ? l.handlers : l.asyncHandlers;
  const handler = handlers[tool] as (args: unknown) => unknown;
  // What a user of the reference library keeps to route a call: one table from tool name to its
  // handler and validator (compiled once), read once per call by the call's tool name.
  const route = new Map(Object.keys(handlers).map((name) => [name, { fn: handlers[name] as (a: unknown) => unknown, validate: l.ref.validator(name) }]));
  const raw = call.arguments;

  const toolroute = () => router.dispatch(call);
  let floor: () => Promise<unknown>;
  let reference: () => Promise<unknown>;
  if (shape === 'namespace') {
    floor =
      settle === 'sync'
        ? () => {
            const parsed = JSON.parse(raw) as { args: unknown };
            if (!plain(parsed.args)) return Promise.reject(new Error('invalid'));
            return Promise.resolve(handler(parsed.args));
          }
        : async () => {
            const parsed = JSON.parse(raw) as { args: unknown };
            if (!plain(parsed.args)) throw new Error('invalid');
            return await handler(parsed.args);
          };
    const resolveRef = () => {
      const gate = chef.checkToolCall(call);
      if (!gate.allowed) throw new Error(gate.reason);
      if (!pruner.isNamespaceCall(call)) throw new Error('not a namespace call');
      const { toolName, args } = pruner.resolveNamespace(call);
      const r = route.get(toolName);
      if (!r || !r.validate(args)) throw new Error('invalid');
      return { fn: r.fn, args };
    };
    reference =
      settle === 'sync'
        ? () => {
            const r = resolveRef();
            return Promise.resolve(r.fn(r.args));
          }
        : async () => {
            const r = resolveRef();
            return await r.fn(r.args);
          };
  } else {
    floor =
      settle === 'sync'
        ? () => {
            const args = JSON.parse(raw) as unknown;
            if (!plain(args)) return Promise.reject(new Error('invalid'));
            return Promise.resolve(handler(args));
          }
        : async () => {
            const args = JSON.parse(raw) as unknown;
            if (!plain(args)) throw new Error('invalid');
            return await handler(args);
          };
    const resolveRef = () => {
      const gate = chef.checkToolCall(call);
      if (!gate.allowed) throw new Error(gate.reason);
      const r = route.get(call.name);
      const args = JSON.parse(raw) as unknown;
      if (!r || !r.validate(args)) throw new Error('invalid');
      return { fn: r.fn, args };
    };
    reference =
      settle === 'sync'
        ? () => {
            const r = resolveRef();
            return Promise.resolve(r.fn(r.args));
          }
        : async () => {
            const r = resolveRef();
            return await r.fn(r.args);
          };
  }
  return { shape, settle, ...picked, router, plain, refValidate: l.ref.validator(tool), toolroute, floor, reference };
}

/**
 * Argument values around a valid one: every required key dropped, an extra key
 * (plain and `Object.prototype`-named), every value replaced by other JSON
 * kinds, recursively one level into objects and arrays. Some are valid, most
 * are not; the checks need both.
 */
export function variants(valid: JsonObject): unknown[] {
  const others: unknown[] = [0, 1.5, -1, 1000, '', 'x', true, null, [], ['open'], {}, { from: 'a', to: 'b' }];
  const out: unknown[] = [valid, {}, [], 'text', null, { ...valid, extra: 1 }, { ...valid, toString: 'x' }, { ...valid, constructor: {} }];
  for (const key of Object.keys(valid)) {
    const { [key]: _dropped, ...rest } = valid;
    void _dropped;
    out.push(rest);
    for (const o of others) out.push({ ...valid, [key]: o });
    const value = valid[key];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const inner of variants(value as JsonObject).slice(0, 40)) out.push({ ...valid, [key]: inner });
    }
  }
  out.push({ ...valid, filters: { status: ['bogus'] } }, { ...valid, filters: { created: { from: 'a' } } }, { ...valid, filters: { hasOwnProperty: 'x' } });
  return out;
}

/** Same answers before any timing: routing, results, the gate, and floor/toolroute validator agreement. */
async function checkCase(l: Loaded, c: Case): Promise<{ accepted: number; rejected: number }> {
  const where = `${l.made.id} ${c.shape} ${c.settle}`;
  lastCall.tool = null;
  const floorResult = await c.floor();
  check(`${where}: floor reached ${c.tool}`, lastCall.tool === c.tool);
  same(`${where}: floor handler got the call's arguments`, floorResult, c.args);
  lastCall.tool = null;
  const got = (await c.toolroute()) as Awaited<ReturnType<BenchRouter['dispatch']>>;
  check(`${where}: dispatch ok (got ${JSON.stringify(got).slice(0, 300)})`, got.ok);
  check(`${where}: dispatch routed to ${c.tool} (handler saw ${lastCall.tool})`, lastCall.tool === c.tool);
  if (got.ok) {
    same(`${where}: dispatch result is the handler's result`, got.result, floorResult);
    same(`${where}: dispatch result tool`, got.tool, c.tool);
  }
  lastCall.tool = null;
  same(`${where}: reference handler got the call's arguments`, await c.reference(), c.args);
  check(`${where}: reference reached ${c.tool}`, lastCall.tool === c.tool);
  // A blocked tool must not reach its handler (a fast router that skips the gate cannot win).
  const blocked = l.made.spec.policies?.['prod']?.[0];
  const blockedNs = (l.made.spec.namespaces ?? []).find((n) => n.tools.some((t) => (typeof t === 'string' ? t : t.name) === blocked));
  if (blocked && blockedNs) {
    lastCall.tool = null;
    const r = await c.router.dispatch({ name: blockedNs.name, arguments: JSON.stringify({ action: blocked, args: {} }) });
    check(`${where}: blocked ${blocked} rejected as blocked (got ${JSON.stringify(r).slice(0, 200)})`, !r.ok && r.code === 'blocked' && lastCall.tool === null);
  }
  // The floor's plain ajv validator and toolroute accept and reject exactly the same argument values.
  let accepted = 0;
  let rejected = 0;
  for (const value of variants(c.args)) {
    const plainOk = c.plain(value);
    // The reference's validator sees the same values as the floor's and toolroute's: each contender's
    // validator then enters the timing with the same history (rejected values make property loads
    // megamorphic), and the reference is held to the same verdicts.
    check(`${where}: the reference validator agrees with the floor's on ${JSON.stringify(value)}`, c.refValidate(value) === plainOk);
    lastCall.tool = null;
    const r = await c.router.dispatch(c.callWith(value));
    // Non-object arguments are refused before validation (malformed_arguments; a namespace call's null args mean {}).
    check(
      `${where}: floor validator and dispatch agree on ${JSON.stringify(value)} (plain ajv ${plainOk}, dispatch ${JSON.stringify(r).slice(0, 200)})`,
      plainOk === r.ok && (r.ok || r.code === 'invalid_arguments' || r.code === 'malformed_arguments'),
    );
    if (r.ok) {
      accepted++;
      same(`${where}: accepted ${JSON.stringify(value)} reached the handler unchanged`, r.result, value);
    } else {
      rejected++;
      check(`${where}: rejected value did not reach the handler`, lastCall.tool === null);
    }
  }
  check(`${where}: the agreement check saw both accepted (${accepted}) and rejected (${rejected}) values`, accepted >= 2 && rejected >= 10);
  return { accepted, rejected };
}

/** The peers' paths for the flat call of `l` (sync handler). */
async function peers(l: Loaded, c: Case): Promise<{ aiSdk: () => Promise<unknown>; mcpHandler: () => Promise<unknown>; mcpFull: () => Promise<unknown>; close: () => Promise<void> }> {
  const handler = l.handlers[c.tool] as (args: unknown) => unknown;
  const plain = c.plain;
  const raw = c.call.arguments;

  // AI SDK 6: a tool with a JSON Schema input validated by the same plain ajv validator.
  const tools = {
    [c.tool]: aiTool({
      description: 'bench',
      inputSchema: jsonSchema<unknown>(schemaOf(l, c.tool) as never, {
        validate: (value) => (plain(value) ? { success: true, value } : { success: false, error: new Error(JSON.stringify(plain.errors)) }),
      }),
      execute: (input: unknown) => handler(input),
    }),
  } as Record<string, { inputSchema: unknown; execute: (input: unknown, options: unknown) => unknown }>;
  const toolName = c.tool;
  const aiSdk = async () => {
    const t = tools[toolName];
    if (!t) throw new Error('no such tool');
    const schema = asSchema(t.inputSchema as never);
    const parsed = raw.trim() === '' ? null : await safeParseJSON({ text: raw, schema });
    if (!parsed || !parsed.success) throw new Error('invalid');
    let output: unknown;
    // provider-utils 4 (AI SDK 6) takes `execute`, 5 (AI SDK 7) `tool` and a `context` option: both given, for either.
    for await (const part of executeTool({ tool: t, execute: t.execute, input: parsed.value, options: { toolCallId: 'call_1', messages: [], context: undefined } } as never) as AsyncIterable<{ type: string; output: unknown }>) {
      if (part.type === 'final') output = part.output;
    }
    return output;
  };

  // MCP SDK: a low-level Server validating with the same plain ajv validator.
  const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name !== toolName) return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
    if (!plain(args)) return { isError: true, content: [{ type: 'text', text: JSON.stringify(plain.errors) }] };
    const result = await handler(args);
    return { content: [{ type: 'text', text: JSON.stringify(result) }] };
  });
  const requestText = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName, arguments: JSON.parse(raw) } });
  const handlers = (server as unknown as { _requestHandlers: Map<string, (req: unknown, extra: unknown) => Promise<unknown>> })._requestHandlers;
  const callHandler = handlers.get('tools/call');
  if (!callHandler) throw new Error('bench: MCP server has no tools/call handler');
  const extra = { signal: new AbortController().signal, requestId: 1, sendNotification: async () => undefined, sendRequest: async () => undefined };
  const mcpHandler = async () => {
    const result = (await callHandler(JSON.parse(requestText), extra)) as { content: { text: string }[] };
    return JSON.parse((result.content[0] as { text: string }).text);
  };
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const mcpFull = async () => {
    const result = (await client.callTool({ name: toolName, arguments: JSON.parse(raw) as Record<string, unknown> })) as { content: { text: string }[] };
    return JSON.parse((result.content[0] as { text: string }).text);
  };
  return {
    aiSdk,
    mcpHandler,
    mcpFull,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

function label(l: Loaded, shape: Shape, settle: Settle): string {
  return `${l.made.tools.length.toLocaleString('en-US')} tools, ${shape} call, ${settle} handler`;
}

/**
 * Run item 1.
 *
 * @example
 * const section = await benchDispatch(config, [loaded10, loaded1000, loaded10000]);
 */
export async function benchDispatch(config: BenchConfig, sized: readonly Loaded[]): Promise<Section[]> {
  const rows: string[][] = [];
  const verdicts: Verdict[] = [];
  let agreement = { accepted: 0, rejected: 0 };
  let worstFloor = 0;
  let worstRef = Infinity;
  for (const l of sized) {
    for (const shape of ['namespace', 'flat'] as const) {
      for (const settle of ['sync', 'async'] as const) {
        const c = makeCase(l, shape, settle);
        const a = await checkCase(l, c);
        agreement = { accepted: agreement.accepted + a.accepted, rejected: agreement.rejected + a.rejected };
        const t = await timePaired(config, 'floor', [
          { name: 'floor', fn: c.floor },
          { name: 'toolroute', fn: c.toolroute },
          { name: 'reference', fn: c.reference },
        ]);
        const tr = t['toolroute']!;
        const ref = t['reference']!;
        // reference ÷ toolroute from the same rounds: (ref/floor) ÷ (tr/floor).
        const refOverTr = ref.ratio / tr.ratio;
        worstFloor = Math.max(worstFloor, tr.ratio);
        worstRef = Math.min(worstRef, refOverTr);
        rows.push([label(l, shape, settle), fmtNs(t['floor']!.ns), fmtNs(tr.ns), fmtPaired(tr), fmtNs(ref.ns), fmtPaired(ref), fmtRatio(refOverTr)]);
        verdicts.push(verdict(`${label(l, shape, settle)}: ≤ ${FLOOR_TARGET}× floor`, fmtPaired(tr), tr.ratio <= FLOOR_TARGET));
        verdicts.push(verdict(`${label(l, shape, settle)}: faster than the reference path`, `${fmtRatio(refOverTr)} faster`, refOverTr > 1));
      }
    }
  }

  // Peers, on the 1,000-tool spec's flat call with the sync handler.
  const at1000 = sized.find((l) => l.made.tools.length === 1_000) ?? (sized[sized.length - 1] as Loaded);
  const c = makeCase(at1000, 'flat', 'sync');
  const p = await peers(at1000, c);
  same('AI SDK path: execute got the call arguments', await p.aiSdk(), c.args);
  same('MCP handler path: handler got the call arguments', await p.mcpHandler(), c.args);
  same('MCP full path: handler got the call arguments', await p.mcpFull(), c.args);
  const peerTimes = await timePaired(config, 'toolroute', [
    { name: 'floor', fn: c.floor },
    { name: 'toolroute', fn: c.toolroute },
    { name: 'aiSdk', fn: p.aiSdk },
    { name: 'mcpHandler', fn: p.mcpHandler },
    { name: 'mcpFull', fn: p.mcpFull },
  ]);
  await p.close();
  const pt = (k: string) => peerTimes[k]!;
  const peerRows: string[][] = [
    ['toolroute `dispatch`', fmtNs(pt('toolroute').ns), '1.00×'],
    ['floor (parse + plain ajv + `Promise.resolve(handler(args))`)', fmtNs(pt('floor').ns), fmtPaired(pt('floor'))],
    ['AI SDK 6: `safeParseJSON` (parse + validate) + `executeTool`', fmtNs(pt('aiSdk').ns), fmtPaired(pt('aiSdk'))],
    ['MCP SDK: the `tools/call` request handler (JSON-RPC text parsed)', fmtNs(pt('mcpHandler').ns), fmtPaired(pt('mcpHandler'))],
    ['MCP SDK: `client.callTool` over `InMemoryTransport`', fmtNs(pt('mcpFull').ns), fmtPaired(pt('mcpFull'))],
  ];

  verdicts.unshift(
    verdict(`every case ≤ ${FLOOR_TARGET}× the honest floor (worst)`, fmtRatio(worstFloor), worstFloor <= FLOOR_TARGET),
    verdict('every case faster than the reference path (worst)', `${fmtRatio(worstRef)} faster`, worstRef > 1),
  );
  const peerSection: Section = {
    title: `1b. Peers: the same tool call through the AI SDK and the MCP SDK (\`${c.tool}\`, 1,000-tool spec, flat call, sync handler)`,
    header: ['path', 'time / call', 'this ÷ toolroute (IQR)'],
    rows: peerRows,
    verdicts: [],
    notes: [
      'Same schema, handler and arguments; paired rounds with toolroute as the baseline. ' +
        'The AI SDK path is what `generateText` runs per tool call (`doParseToolCall`: `asSchema` + `safeParseJSON` against `jsonSchema(schema, { validate })` with the plain ajv validator, then `executeTool` to its final output; no telemetry span). ' +
        "The MCP handler path is the low-level `Server`'s registered `tools/call` handler (the SDK's zod parse of the request, then the same ajv validator, the handler and a text content result) fed the parsed JSON-RPC request text; the full path is `client.callTool` over `InMemoryTransport` (client and server in one process). " +
        'Each path was checked to hand the handler the call\'s arguments before timing.',
    ],
  };
  const mainSection: Section = {
    title: '1. Dispatch against the honest floor and the reference path',
    header: ['case', 'floor / call', 'toolroute / call', 'toolroute ÷ floor (IQR)', 'reference / call', 'reference ÷ floor (IQR)', 'reference ÷ toolroute'],
    rows,
    verdicts,
    notes: [
      'Floor: `JSON.parse` + a plain `new Ajv().compile(schema)` validator + the handler settled as dispatch settles it (`Promise.resolve(handler(args))` for the sync handler, `await` in an async function for the async one). ' +
        `Before timing, the floor's validator, the reference's validator and toolroute's dispatch were checked to accept and reject the same ${agreement.accepted + agreement.rejected} argument values (${agreement.accepted} accepted, ${agreement.rejected} rejected, over all cases), and every rejected value to stay away from the handler.`,
      'Every row is one paired comparison: per round, each contender runs a batch of calls (order rotated), and the ratio is taken within the round; the table shows the median ratio over rounds and its interquartile range, and the median time per call. ' +
        'Reference: `checkToolCall` (+ `isNamespaceCall` + `resolveNamespace` for a namespace call) + the tool\'s handler and ajv validator (`allErrors: true`, compiled once) read from one Map by the tool name + the handler settled the same way; both routers carry the same 2-name blocklist. ' +
          'Every path routes by name: before this round, the flat reference path called a handler and validator bound at setup, so it did no routing at all.',
    ],
  };
  return [mainSection, peerSection];
}
