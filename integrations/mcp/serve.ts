/**
 * A router served as an MCP server.
 *
 * Built on `McpServer` of either SDK line (sdk.ts picks it).
 * `McpServer.registerTool` takes zod (or other schema-library) schemas and
 * validates calls itself, answering with its own messages before
 * any handler runs; toolroute's tools are JSON Schema and its validation
 * (gate, reasons for the model) must be the one that answers. So the tools
 * are served through the route `McpServer` documents for advanced use: request
 * handlers for `tools/list` and `tools/call` set on its underlying `server`.
 *
 * - `tools/list`: the router's tool surface in a fixed order: namespaces, flat
 *   tools, `load_toolkit`, the library tools (`libraryTools`, registration
 *   order: where every compiled payload has them), then the tools of loaded
 *   toolkits in load order.
 *   Blocking never changes it (as with `compile`): a blocked call is rejected.
 *   With `generated`, the spec tools' annotation tags (what an MCP import
 *   writes) go out as MCP `annotations`, a namespace's combined from its
 *   members'; the router's definitions carry no tags.
 * - `tools/call`: `router.dispatch`; a rejection is an `isError` result whose
 *   text is the reason.
 * - A call that changes the loaded toolkits sends
 *   `notifications/tools/list_changed` on the call's own response stream,
 *   before its result (the client lists again and sees the toolkit's tools).
 * - The call runs under the request's abort signal: the client cancelling it
 *   (or, over HTTP, dropping the request) aborts the handler's `ctx.signal`.
 * - The toolkit directory goes into the `instructions` of `initialize` (MCP's
 *   place for how to use a server; clients put it in the system prompt), and is
 *   also in `load_toolkit`'s description as the toolkit list.
 * - Announcements ride on tool results: MCP has no channel that re-renders
 *   state into the prompt, and a tool result is the only server-written text a
 *   model is sure to read. When the standing announcements differ from what
 *   the MCP session last delivered, the next result carries an extra text block
 *   with the `<announcements>` block (or a line saying they were all retracted).
 */
import { LOAD_TOOLKIT_NAME, renderAnnouncements, type ToolDefinition } from '../../runtime/index.js';
import { resultText, UNENCODABLE } from '../../runtime/targets/history.js';
import { loadMcpServerSdk, type McpSdkLine } from './sdk.js';
import type { McpCallToolResult, McpContentBlock, McpServerLike, McpTool, McpTransport } from './types.js';

/** What `serveMcp` needs of a router: its public API only. */
export interface ServableRouter {
  compile(): { readonly tools: readonly ToolDefinition[]; readonly directoryXml: string };
  getAllTools(): ToolDefinition[];
  getLoadedToolkits(): string[];
  extractToolkit(name: string): ToolDefinition[];
  getAnnouncements(): { id: string; content: string; channel: string }[];
  /** Whether a name is the library's (`load_toolkit`, `libraryTools`): those follow the flat tools. */
  ownsTool(name: unknown): boolean;
  // `never` parameters: every router's typed dispatch is assignable (whatever its context type);
  // serveMcp always passes `{ context }`, from `options.context`.
  dispatch(call: never, options: never): Promise<{ ok: true; result: unknown } | { ok: false; code: string; reason: string }>;
  /** Needed only when `serveMcpHttp` keeps each session's state in a store (a router factory). */
  snapshot?(): unknown;
  restore?(snapshot: unknown): unknown;
}

/**
 * How `serveMcpHttp` ties one MCP session to its stored state and its HTTP requests.
 * @internal
 */
export interface SessionHooks {
  /** The announcements the session has been shown, as rendered text ('' = none); stored with the session. */
  readonly shown: { text: string };
  /** After a call, before its result is sent: store the session. */
  after(): Promise<void>;
  /** Aborted when the HTTP request carrying this JSON-RPC request is dropped. */
  dropped(requestId: string | number): AbortSignal | undefined;
  /** The client cancelled this request: the SDK sends no response to it, so nothing is left to wait for. */
  unanswered(requestId: string | number): void;
  /** The call changed the tool list of a router other sessions share: tell them. */
  changed(): void;
}

export interface ServeMcpOptions<C = unknown> {
  /** A server transport of either SDK line (`StdioServerTransport`, …). */
  readonly transport: McpTransport;
  /** `serverInfo` of `initialize`; default `{ name: 'toolroute', version: '0.1.0' }`. */
  readonly name?: string;
  readonly version?: string;
  /** Your own instructions, sent before the toolkit directory. */
  readonly instructions?: string;
  /**
   * The `context` handed to handlers, per call (from the session id, …). Pass it when your
   * handlers need one: without it they get `undefined`.
   */
  readonly context?: (extra: { readonly sessionId: string | undefined }) => C;
  /** The SDK line to serve with; default: `TOOLROUTE_MCP_SDK`, else the installed one (2.x first). */
  readonly sdk?: McpSdkLine;
  /**
   * The generated folder the router was created from (`import * as generated from './generated/index.js'`): the
   * tools' tags are read from it (the router's definitions carry none), and `tools/list` sends the annotation tags
   * (`read-only`, `destructive`, `idempotent`, `open-world`, what an MCP import writes) as MCP `annotations`. Without
   * it, no tool has annotations. A folder of another spec throws.
   */
  readonly generated?: ServedSpec;
  /**
   * `serveMcpHttp`: receives what the server survives, for your logs: the `store`'s error when it could not write a new
   * session (its `initialize` answers 503, and no session stays open) or a session's state after a tool call. The
   * call's result is still sent (the next request writes the state again); without `onError` the result says the state
   * could not be stored.
   */
  readonly onError?: (error: unknown) => void;
}

/** The part of a generated folder `serveMcp` reads (any `import * as generated from './generated/index.js'` fits). */
export interface ServedSpec {
  readonly spec: {
    /** Checked against the router's `snapshot().spec`. */
    readonly hash: string;
    readonly tools: readonly { readonly name: string; readonly tags: readonly string[] }[];
    /** Members as indices into `tools`. */
    readonly namespaces: readonly { readonly name: string; readonly tools: readonly number[] }[];
  };
}

/** A running server. */
export interface McpServing {
  /** The SDK's `McpServer` (of `line`). */
  readonly server: McpServerLike;
  /** The SDK line serving. */
  readonly line: McpSdkLine;
  /** The tools as `tools/list` returns them now. */
  listTools(): McpTool[];
  /** Tell the client the tool list changed (after `registerTools`, `restore`, …, which the server cannot see). */
  notifyToolsChanged(): void;
  close(): Promise<void>;
}

/**
 * Serve a router over an MCP transport.
 *
 * @example
 * import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'; // 1.x: '@modelcontextprotocol/sdk/server/stdio.js'
 * await serveMcp(router, { transport: new StdioServerTransport() });
 */
export function serveMcp<C = unknown>(router: ServableRouter, options: ServeMcpOptions<C>): Promise<McpServing> {
  return serveSession(router, options, undefined);
}

/** `serveMcp`, with the hooks `serveMcpHttp` gives each session. */
export async function serveSession<C>(router: ServableRouter, options: ServeMcpOptions<C>, hooks: SessionHooks | undefined): Promise<McpServing> {
  const sdk = await loadMcpServerSdk(options.sdk);
  const directory = router.compile().directoryXml;
  const instructions = [options.instructions, directory].filter((t): t is string => typeof t === 'string' && t !== '').join('\n\n');
  const mcp = new sdk.McpServer(
    { name: options.name ?? 'toolroute', version: options.version ?? '0.1.0' },
    { capabilities: {}, ...(instructions !== '' ? { instructions } : {}) },
  );
  mcp.server.registerCapabilities({ tools: { listChanged: true } });
  const shown = hooks?.shown ?? { text: '' };
  const notify = () => void Promise.resolve(mcp.sendToolListChanged()).catch(() => undefined);

  const annotations = options.generated === undefined ? undefined : annotationsOf(options.generated, router, 'serveMcp');
  const listTools = (): McpTool[] => surface(router).map((t) => toMcpTool(t, annotations?.get(t.name)));
  sdk.onRequest(mcp, 'tools/list', async (request) => {
    // The list is one page: no cursor was ever handed out, so any cursor is not one of ours, which MCP answers with
    // -32602 (both SDK lines send a thrown error's numeric `code`).
    const cursor = (request.params as { cursor?: unknown } | undefined)?.cursor;
    if (cursor !== undefined) throw Object.assign(new Error(`Invalid params: tools/list takes no cursor from this server (it sends every tool on one page); got ${JSON.stringify(cursor)}.`), { code: -32602 });
    return { tools: listTools() };
  });
  sdk.onRequest(mcp, 'tools/call', async (request, extra) => {
    const { name, arguments: args } = request.params as { name: string; arguments?: Record<string, unknown> };
    const loadedBefore = router.getLoadedToolkits().join('\n');
    const context = options.context?.({ sessionId: extra.sessionId });
    const dropped = hooks?.dropped(extra.requestId);
    const signal = dropped === undefined ? extra.signal : AbortSignal.any([extra.signal, dropped]);
    let result: McpCallToolResult;
    try {
      const r = await router.dispatch({ name, arguments: args ?? {} } as never, { context, signal } as never);
      result = r.ok ? toolResult(r.result, sdk.isToolResult) : { isError: true, content: [{ type: 'text', text: r.reason }] };
    } catch (error) {
      // Only with `propagateHandlerErrors`: the handler's own error, still an error result for the model.
      result = { isError: true, content: [{ type: 'text', text: `Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}` }] };
    }
    const now = renderAnnouncements(router.getAnnouncements() as never);
    if (now !== shown.text) {
      result = { ...result, content: [...result.content, { type: 'text', text: now === '' ? 'Earlier announcements are retracted; none stand now.' : now }] };
      // Shown only by a result that is delivered: a cancelled or timed-out call's never reaches the model.
      if (!extra.signal.aborted) shown.text = now;
    }
    try {
      await hooks?.after();
    } catch (error) {
      // The call ran: a protocol error instead of its result would hide that, and a retry would run it again.
      if (options.onError !== undefined) options.onError(error);
      else result = { ...result, content: [...result.content, { type: 'text', text: 'Note: the server could not store the MCP session\'s state after this call; the call itself ran.' }] };
    }
    if (router.getLoadedToolkits().join('\n') !== loadedBefore) {
      // On this request's stream (it reaches the client through whichever process answers the call), then to the others.
      // A call the client gave up on has no stream left: the session's own stream carries it, or the client's list stays old.
      const told = extra.signal.aborted ? Promise.resolve(mcp.sendToolListChanged()) : extra.notify({ method: 'notifications/tools/list_changed' });
      await told.catch(() => undefined);
      hooks?.changed();
    }
    if (extra.signal.aborted) hooks?.unanswered(extra.requestId);
    return result;
  });
  await mcp.connect(options.transport);
  return {
    server: mcp,
    line: sdk.line,
    listTools,
    notifyToolsChanged: notify,
    close: () => mcp.close(),
  };
}

/**
 * Serve a router over stdio (the process's stdin and stdout), with the chosen SDK line's transport.
 *
 * @example
 * await serveMcpStdio(router, { name: 'my-tools' });
 */
export async function serveMcpStdio<C = unknown>(router: ServableRouter, options: Omit<ServeMcpOptions<C>, 'transport'> = {}): Promise<McpServing> {
  const sdk = await loadMcpServerSdk(options.sdk);
  const serving = await serveMcp(router, { ...options, sdk: sdk.line, transport: new sdk.StdioServerTransport() });
  // A client that closes our stdin has gone: the session closes, which aborts its running calls, and the process may
  // exit (MCP's stdio binding). The 2.x transport does this itself; the 1.x one never notices.
  const gone = () => void serving.close().catch(() => undefined);
  process.stdin.once('end', gone).once('close', gone);
  return serving;
}

/** The tool surface in `tools/list` order (see the file comment). */
function surface(router: ServableRouter): ToolDefinition[] {
  const compiled = router.compile().tools;
  const flat = router.getAllTools();
  // compile() also lists the flat tools in no namespace; here every flat tool follows the namespaces, in flat order.
  const flatNames = new Set(flat.map((t) => t.name));
  // The namespaces: what compile() lists that is neither flat nor the library's (the loader, `libraryTools`).
  const out: ToolDefinition[] = compiled.filter((t) => !flatNames.has(t.name) && !router.ownsTool(t.name));
  const seen = new Set(out.map((t) => t.name));
  const add = (t: ToolDefinition) => {
    if (seen.has(t.name)) return;
    seen.add(t.name);
    out.push(t);
  };
  for (const t of flat) add(t);
  for (const t of compiled) if (t.name === LOAD_TOOLKIT_NAME) add(t);
  // Library tools after the loader, in compile()'s order: one place whatever loads (as in every payload).
  for (const t of compiled) if (router.ownsTool(t.name)) add(t);
  // extractToolkit of a toolkit that is already loaded only returns its tools.
  for (const kit of router.getLoadedToolkits()) for (const t of router.extractToolkit(kit)) add(t);
  return out;
}

/** MCP's four hints, as `toolroute import mcp` writes them into tags. */
type Hints = { readonly readOnlyHint: boolean; readonly destructiveHint: boolean; readonly idempotentHint: boolean; readonly openWorldHint: boolean };
const ANNOTATION_TAGS = ['read-only', 'destructive', 'idempotent', 'open-world'] as const;

/**
 * A tool's hints from its tags, or undefined when it has none of the four (its hints are unknown): the import writes
 * every hint that holds (MCP's defaults applied), so a missing tag is a false hint.
 */
function hintsOf(tags: readonly string[]): Hints | undefined {
  if (!tags.some((tag) => (ANNOTATION_TAGS as readonly string[]).includes(tag))) return undefined;
  return { readOnlyHint: tags.includes('read-only'), destructiveHint: tags.includes('destructive'), idempotentHint: tags.includes('idempotent'), openWorldHint: tags.includes('open-world') };
}

/** Per `generated` folder: hints by tool name (spec tools and namespaces). */
const annotationCache = new WeakMap<ServedSpec, ReadonlyMap<string, Hints>>();

/**
 * The annotations `tools/list` sends, by tool name: a spec tool's from its tags; a namespace's from its members' when
 * every member has some (read-only and idempotent when all of them are, destructive and open-world when any is).
 * Throws a `TypeError` when `generated` is not a generated folder, or is another spec's than the router's.
 * @internal
 * @example
 * annotationsOf(generated, router, 'serveMcp').get('list_items'); // → { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
 */
export function annotationsOf(generated: ServedSpec, router: Pick<ServableRouter, 'snapshot'>, where: string): ReadonlyMap<string, Hints> {
  const given = (generated as Partial<ServedSpec> | null)?.spec;
  if (typeof given?.hash !== 'string' || !Array.isArray(given.tools) || !Array.isArray(given.namespaces)) {
    throw new TypeError(`${where}: \`generated\` must be the generated folder the router was created from (import * as generated from './generated/index.js').`);
  }
  const spec: ServedSpec['spec'] = given;
  const routerSpec = (router.snapshot?.() as { spec?: unknown } | undefined)?.spec;
  if (routerSpec !== undefined && routerSpec !== spec.hash) {
    throw new TypeError(`${where}: \`generated\` is not the generated folder this router was created from (the spec hashes differ).`);
  }
  let byName = annotationCache.get(generated);
  if (byName === undefined) {
    const map = new Map<string, Hints>();
    const tools = spec.tools.map((t) => hintsOf(Array.isArray(t.tags) ? t.tags : []));
    for (const [i, t] of spec.tools.entries()) {
      const hints = tools[i];
      if (hints !== undefined) map.set(t.name, hints);
    }
    for (const ns of spec.namespaces) {
      const members = ns.tools.map((i) => tools[i]);
      if (members.length === 0 || !members.every((h): h is Hints => h !== undefined)) continue;
      map.set(ns.name, {
        readOnlyHint: members.every((h) => h.readOnlyHint),
        destructiveHint: members.some((h) => h.destructiveHint),
        idempotentHint: members.every((h) => h.idempotentHint),
        openWorldHint: members.some((h) => h.openWorldHint),
      });
    }
    annotationCache.set(generated, (byName = map));
  }
  return byName;
}

function toMcpTool(t: ToolDefinition, annotations: Hints | undefined): McpTool {
  const schema = (t.parameters ?? { type: 'object', properties: {} }) as McpTool['inputSchema'];
  return { name: t.name, description: t.description, inputSchema: schema, ...(annotations !== undefined ? { annotations: { ...annotations } } : {}) };
}

/** A handler's result as an MCP tool result; `isToolResult`: the SDK line's own check of one. */
function toolResult(value: unknown, isToolResult: (value: unknown) => boolean): McpCallToolResult {
  // Content blocks (what `mcpHandlers` returns for a proxied tool) pass through as they are, when the SDK would send
  // them: any other list (a block with a field of the wrong kind, say) is a value like the others, sent as its JSON.
  if (Array.isArray(value) && value.length > 0 && isToolResult({ content: value })) return { content: value as McpContentBlock[] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const text = value === undefined ? 'null' : resultText(value);
  // Structured content for a JSON object, as the text says it (a Date is a string there), plus the text for clients
  // that read only text (as the MCP spec recommends). A Map or a Uint8Array would fail the SDK's check of the result, and
  // a `__proto__` key would not survive it (the check rebuilds objects): the text alone then says what the value holds.
  let structured: unknown;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && text !== UNENCODABLE && !text.includes('"__proto__":')) structured = JSON.parse(text);
  const isObject = typeof structured === 'object' && structured !== null && !Array.isArray(structured);
  return { content: [{ type: 'text', text }], ...(isObject ? { structuredContent: structured as Record<string, unknown> } : {}) };
}
