/**
 * Peers: the same tool call through the AI SDK's tool execution and the MCP
 * SDK's `tools/call`, against toolroute's `dispatch` (1,000-tool spec, the
 * flat call of the dispatch item, sync and async handler).
 *
 * Every path holds every tool of the spec, the same schema, the same handler
 * and the same ajv validator (`floorValidator`), so what differs is the path:
 * - AI SDK 6: `tool({ inputSchema: jsonSchema(schema, { validate }), execute })`
 *   for each tool, called through the SDK's own `parseToolCall` and
 *   `executeToolCall`: the functions `generateText` runs per tool call,
 *   bundled by esbuild from the package's shipped sources (the package does not
 *   export them), with the tracer `generateText` uses when telemetry is off.
 *   `jsonSchema()` validates only through its `validate` option, so the path is
 *   given the floor's ajv validator there.
 * - MCP SDK 1.x, server side: a low-level `Server` (its `McpServer` takes zod
 *   schemas, not JSON Schema) with `tools/list` and `tools/call` handlers; the
 *   JSON-RPC request text is parsed and sent through `InMemoryTransport`, and
 *   the response awaited: the SDK's request parsing and dispatch, the handler,
 *   the result's checks (the response is not serialized).
 * - MCP SDK 1.x, client and server: `client.callTool` over an
 *   `InMemoryTransport` pair, the arguments parsed from the model's text first.
 *
 * Before timing, every path must give the same answer as `dispatch` on many
 * argument values (`variants`): the same values accepted with the same result,
 * the others rejected without reaching the handler; and the real `generateText`,
 * driven by a mock model that returns the call, must give the same tool result.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { generateText, jsonSchema, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import { check, fmtNs, fmtPaired, same, timePaired, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import { lastCall, type Loaded } from '../setup.js';
import { dispatchCase, floorValidator, variants, type Call } from './dispatch.js';

/** The target: dispatch at least this many times faster than each peer. */
const PEER_TARGET = 3;

/** A path's answer to one call, comparable across paths. */
type Answer = { readonly ok: true; readonly result: unknown } | { readonly ok: false };

/** The AI SDK's per-call functions, as bundled from its sources (types kept loose: the bundle is untyped). */
interface AiSdkToolCalls {
  parseToolCall(options: Record<string, unknown>): Promise<{ invalid?: boolean } & Record<string, unknown>>;
  executeToolCall(options: Record<string, unknown>): Promise<{ type: string; output?: unknown } | undefined>;
  getTracer(options?: { isEnabled?: boolean }): unknown;
}

/**
 * Bundle `parseToolCall` and `executeToolCall` from the installed `ai`
 * package's sources (its `src/`, shipped beside `dist/`), the SDK's own
 * packages left external so the bundle shares their instances with `ai`.
 */
let bundled: Promise<AiSdkToolCalls> | undefined;
function aiSdkToolCalls(tmp: string): Promise<AiSdkToolCalls> {
  bundled ??= bundle(tmp);
  return bundled;
}

async function bundle(tmp: string): Promise<AiSdkToolCalls> {
  const src = join(dirname(createRequire(import.meta.url).resolve('ai/package.json')), 'src');
  const dir = join(tmp, 'ai-sdk');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { parseToolCall } from ${JSON.stringify(join(src, 'generate-text', 'parse-tool-call.ts'))};\n` +
      `export { executeToolCall } from ${JSON.stringify(join(src, 'generate-text', 'execute-tool-call.ts'))};\n` +
      `export { getTracer } from ${JSON.stringify(join(src, 'telemetry', 'get-tracer.ts'))};\n`,
  );
  const out = join(dir, 'tool-call.mjs');
  buildSync({ entryPoints: [entry], outfile: out, bundle: true, format: 'esm', platform: 'node', external: ['@ai-sdk/*', '@opentelemetry/api'], logLevel: 'error' });
  return (await import(pathToFileURL(out).href)) as AiSdkToolCalls;
}

/** Per tool: its definition, its handler and its validator, compiled on first use (the measured tool's before timing). */
function toolTable(l: Loaded, handlers: Record<string, (args: unknown) => unknown>) {
  return new Map(
    [...l.ref.defs].map(([name, def]) => {
      let v: ValidateFunction | undefined;
      return [name, { def, handler: handlers[name] as (args: unknown) => unknown, validate: () => (v ??= floorValidator(def.parameters)) }];
    }),
  );
}

type Table = ReturnType<typeof toolTable>;

/** An MCP server holding every tool of the spec, validating with the floor's validator. */
function mcpServer(table: Table): Server {
  const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  const listed = [...table].map(([name, t]) => ({ name, description: t.def.description, inputSchema: t.def.parameters as { type: 'object' } }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const t = table.get(name);
    if (!t) return { isError: true, content: [{ type: 'text' as const, text: `Unknown tool ${name}` }] };
    const validate = t.validate();
    if (!validate(args)) return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(validate.errors) }] };
    const result = await t.handler(args);
    return { content: [{ type: 'text' as const, text: JSON.stringify(result) }] };
  });
  return server;
}

/** An MCP `tools/call` result (or JSON-RPC error) as an answer. */
function mcpAnswer(result: unknown): Answer {
  const r = result as { isError?: boolean; content?: { type: string; text?: string }[] } | undefined;
  if (!r || r.isError || r.content?.[0]?.type !== 'text') return { ok: false };
  return { ok: true, result: JSON.parse(r.content[0].text as string) as unknown };
}

/** The AI SDK path: every tool as `tool({ inputSchema: jsonSchema(schema, { validate }), execute })`. */
async function aiSdkPath(table: Table, tmp: string): Promise<{ tools: ToolSet; answer: (call: Call) => Promise<Answer> }> {
  const sdk = await aiSdkToolCalls(tmp);
  const tools: ToolSet = {};
  for (const [name, t] of table) {
    tools[name] = tool({
      description: t.def.description,
      inputSchema: jsonSchema<unknown>(t.def.parameters as Parameters<typeof jsonSchema>[0], {
        validate: (value) => {
          const validate = t.validate();
          return validate(value) ? { success: true, value } : { success: false, error: new Error(JSON.stringify(validate.errors)) };
        },
      }),
      execute: (input: unknown) => t.handler(input),
    });
  }
  // What generateText passes per tool call when telemetry is off and no callbacks are set.
  const tracer = sdk.getTracer({ isEnabled: false });
  const model = { provider: 'bench', modelId: 'bench' };
  const answer = async (call: Call): Promise<Answer> => {
    const toolCall = await sdk.parseToolCall({ toolCall: { type: 'tool-call', toolCallId: 'call_1', toolName: call.name, input: call.arguments }, tools, repairToolCall: undefined, system: undefined, messages: [] });
    if (toolCall.invalid) return { ok: false };
    const out = await sdk.executeToolCall({ toolCall, tools, tracer, telemetry: undefined, messages: [], abortSignal: undefined, experimental_context: undefined, stepNumber: 0, model, onToolCallStart: undefined, onToolCallFinish: undefined });
    return out?.type === 'tool-result' ? { ok: true, result: out.output } : { ok: false };
  };
  return { tools, answer };
}

/** The MCP server side: JSON-RPC request text in, the response object out. */
async function mcpServerPath(table: Table) {
  const server = mcpServer(table);
  const [end, serverEnd] = InMemoryTransport.createLinkedPair();
  // Calls are sequential, so one pending slot is enough.
  let pending: ((m: JSONRPCMessage) => void) | null = null;
  end.onmessage = (m) => {
    const p = pending;
    pending = null;
    p?.(m);
  };
  await server.connect(serverEnd);
  await end.start();
  const requestText = (call: Call) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(call.name)},"arguments":${call.arguments}}}`;
  const send = (text: string) =>
    new Promise<JSONRPCMessage>((resolve) => {
      pending = resolve;
      void end.send(JSON.parse(text) as JSONRPCMessage);
    });
  return {
    answer: async (call: Call): Promise<Answer> => {
      const response = await send(requestText(call));
      return 'result' in response ? mcpAnswer(response.result) : { ok: false };
    },
    // The request text is built once, as the other paths get the call's text as is.
    timed: (call: Call) => {
      const text = requestText(call);
      return () => send(text);
    },
    close: () => server.close(),
  };
}

/** The MCP client and server: `client.callTool` with the arguments parsed from the model's text. */
async function mcpClientPath(table: Table) {
  const server = mcpServer(table);
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  await Promise.all([server.connect(serverEnd), client.connect(clientEnd)]);
  const call = (c: Call) => client.callTool({ name: c.name, arguments: JSON.parse(c.arguments) as Record<string, unknown> });
  return {
    answer: async (c: Call): Promise<Answer> => {
      try {
        return mcpAnswer(await call(c));
      } catch {
        // A JSON-RPC error (e.g. arguments that are not an object) is a rejection.
        return { ok: false };
      }
    },
    timed: (c: Call) => () => call(c),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Every path for one handler kind: an answer function each (for the checks) and the timed calls. */
async function paths(l: Loaded, settle: 'sync' | 'async', tmp: string) {
  const table = toolTable(l, settle === 'sync' ? l.handlers : l.asyncHandlers);
  const c = dispatchCase(l, 'flat', settle);
  const ai = await aiSdkPath(table, tmp);
  const mcpRaw = await mcpServerPath(table);
  const mcpClient = await mcpClientPath(table);
  const toolroute = async (call: Call): Promise<Answer> => {
    const r = await c.router.dispatch(call);
    return r.ok ? { ok: true, result: r.result } : { ok: false };
  };
  return {
    c,
    tools: ai.tools,
    answers: { toolroute, aiSdk: ai.answer, mcpRaw: mcpRaw.answer, mcpClient: mcpClient.answer },
    timed: { toolroute: c.toolroute, floor: c.floor, aiSdk: () => ai.answer(c.call), mcpRaw: mcpRaw.timed(c.call), mcpClient: mcpClient.timed(c.call) },
    close: async () => {
      await mcpClient.close();
      await mcpRaw.close();
    },
  };
}

/** The real `generateText`, one step, a mock model returning `call`: its tool result as an answer. */
async function viaGenerateText(tools: ToolSet, call: Call): Promise<Answer> {
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: call.name, input: call.arguments }],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
      warnings: [],
    }),
  });
  const result = await generateText({ model, tools, prompt: 'bench' });
  const first = result.toolResults[0];
  return first ? { ok: true, result: first.output } : { ok: false };
}

/** Same answers on every variant of the call's arguments, and from the real generateText. */
async function checkPaths(l: Loaded, p: Awaited<ReturnType<typeof paths>>, settle: string): Promise<number> {
  const where = `peers, ${l.made.id}, ${settle} handler`;
  const calls: Call[] = [...variants(p.c.args).map((v) => p.c.callWith(v)), { name: 'no_such_tool', arguments: p.c.call.arguments }];
  for (const call of calls) {
    lastCall.tool = null;
    const expected = await p.answers.toolroute(call);
    for (const [name, path] of Object.entries(p.answers)) {
      lastCall.tool = null;
      const got = await path(call);
      same(`${where}: ${name} answers ${call.name}(${call.arguments}) as dispatch does`, got, expected);
      if (!got.ok) check(`${where}: ${name} rejected ${call.arguments} without reaching the handler`, lastCall.tool === null);
    }
  }
  same(`${where}: generateText's tool result`, await viaGenerateText(p.tools, p.c.call), await p.answers.aiSdk(p.c.call));
  same(`${where}: generateText refuses an invalid call`, await viaGenerateText(p.tools, p.c.callWith({})), { ok: false });
  return calls.length;
}

/**
 * Run the peers item.
 *
 * @example
 * const section = await benchPeers(config, loaded1000, 'bench/.tmp');
 */
export async function benchPeers(config: BenchConfig, l: Loaded, tmp: string): Promise<Section> {
  const rows: string[][] = [];
  const verdicts: Verdict[] = [];
  let checked = 0;
  let tool = '';
  for (const settle of ['sync', 'async'] as const) {
    const p = await paths(l, settle, tmp);
    tool = p.c.tool;
    checked += await checkPaths(l, p, settle);
    const t = await timePaired(config, 'toolroute', Object.entries(p.timed).map(([name, fn]) => ({ name, fn })));
    await p.close();
    const at = (k: string) => t[k]!;
    const mcp = Math.min(at('mcpRaw').ratio, at('mcpClient').ratio);
    rows.push(
      [`${settle}: toolroute \`dispatch\``, fmtNs(at('toolroute').ns), '1.00×'],
      [`${settle}: floor (parse + ajv + handler)`, fmtNs(at('floor').ns), fmtPaired(at('floor'))],
      [`${settle}: AI SDK 6 \`parseToolCall\` + \`executeToolCall\``, fmtNs(at('aiSdk').ns), fmtPaired(at('aiSdk'))],
      [`${settle}: MCP SDK \`tools/call\`, server side (JSON-RPC text in)`, fmtNs(at('mcpRaw').ns), fmtPaired(at('mcpRaw'))],
      [`${settle}: MCP SDK \`client.callTool\` over \`InMemoryTransport\``, fmtNs(at('mcpClient').ns), fmtPaired(at('mcpClient'))],
    );
    verdicts.push(
      verdict(`${settle} handler: ≥ ${PEER_TARGET}× faster than the AI SDK's tool execution`, fmtPaired(at('aiSdk')), at('aiSdk').ratio >= PEER_TARGET),
      verdict(`${settle} handler: ≥ ${PEER_TARGET}× faster than the MCP SDK's \`tools/call\` (its faster path)`, `${mcp.toFixed(2)}×`, mcp >= PEER_TARGET),
    );
  }
  return {
    title: `Peers: the same tool call through the AI SDK and the MCP SDK (\`${tool}\`, ${l.made.tools.length.toLocaleString('en-US')}-tool spec, flat call)`,
    header: ['path', 'time / call', 'this ÷ toolroute (IQR)'],
    rows,
    verdicts,
    notes: [
      'Same schema, handler, ajv validator and arguments on every path; each path holds every tool of the spec. Paired rounds with toolroute as the baseline; the floor (parse + ajv + handler, as in the dispatch item) is shown for scale. ' +
        "AI SDK: `tool({ inputSchema: jsonSchema(schema, { validate }), execute })`, called through the SDK's own `parseToolCall` and `executeToolCall` (what `generateText` runs per tool call; bundled from the package's sources, telemetry off). " +
        "MCP server side: a low-level `Server` with `tools/list` and `tools/call` handlers, the JSON-RPC request text parsed and sent through `InMemoryTransport`, the response awaited (not serialized). MCP client: `client.callTool` over an `InMemoryTransport` pair. " +
        `Before timing, every path gave the same answer as \`dispatch\` on ${checked} calls (accepted with the same result, or rejected without reaching the handler), and the real \`generateText\` with a mock model gave the same tool result.`,
    ],
  };
}
