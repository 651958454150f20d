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
 * - `tools/call`: `router.dispatch`; a rejection is an `isError` result whose
 *   text is the reason.
 * - A `load_toolkit` call that loads something sends
 *   `notifications/tools/list_changed` (the client lists again and sees the
 *   toolkit's tools).
 * - The toolkit directory goes into the `instructions` of `initialize` (MCP's
 *   place for how to use a server; clients put it in the system prompt), and is
 *   also in `load_toolkit`'s description as the toolkit list.
 * - Announcements ride on tool results: MCP has no channel that re-renders
 *   state into the prompt, and a tool result is the only server-written text a
 *   model is sure to read. When the standing announcements differ from what
 *   this session last delivered, the next result carries an extra text block
 *   with the `<announcements>` block (or a line saying they were all retracted).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { LOAD_TOOLKIT_NAME, renderAnnouncements, type ToolDefinition } from '../../runtime/index.js';
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
export async function serveMcp<C = unknown>(router: ServableRouter, options: ServeMcpOptions<C>): Promise<McpServing> {
  const sdk = await loadMcpServerSdk(options.sdk);
  const directory = router.compile().directoryXml;
  const instructions = [options.instructions, directory].filter((t): t is string => typeof t === 'string' && t !== '').join('\n\n');
  const mcp = new sdk.McpServer(
    { name: options.name ?? 'toolroute', version: options.version ?? '0.1.0' },
    { capabilities: {}, ...(instructions !== '' ? { instructions } : {}) },
  );
  mcp.server.registerCapabilities({ tools: { listChanged: true } });
  // Announcements this session has been shown, as rendered text ('' = none).
  let delivered = '';
  const notify = () => void Promise.resolve(mcp.sendToolListChanged()).catch(() => undefined);

  const listTools = (): McpTool[] => surface(router).map(toMcpTool);
  sdk.onRequest(mcp, 'tools/list', () => ({ tools: listTools() }));
  sdk.onRequest(mcp, 'tools/call', async (request, extra) => {
    const { name, arguments: args } = request.params as { name: string; arguments?: Record<string, unknown> };
    const loadedBefore = router.getLoadedToolkits().length;
    const context = options.context?.({ sessionId: extra.sessionId });
    let result: McpCallToolResult;
    try {
      const r = await router.dispatch({ name, arguments: args ?? {} } as never, { context } as never);
      result = r.ok ? toolResult(r.result) : { isError: true, content: [{ type: 'text', text: r.reason }] };
    } catch (error) {
      // Only with `propagateHandlerErrors`: the handler's own error, still an error result for the model.
      result = { isError: true, content: [{ type: 'text', text: `Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}` }] };
    }
    const now = renderAnnouncements(router.getAnnouncements() as never);
    if (now !== delivered) {
      result = { ...result, content: [...result.content, { type: 'text', text: now === '' ? 'Earlier announcements are retracted; none stand now.' : now }] };
      delivered = now;
    }
    if (router.getLoadedToolkits().length !== loadedBefore) {
      // After the result is sent, so the client lists again once the call has completed.
      queueMicrotask(notify);
    }
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
  return serveMcp(router, { ...options, sdk: sdk.line, transport: new sdk.StdioServerTransport() });
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

const ANNOTATION_TAGS = { 'read-only': 'readOnlyHint', destructive: 'destructiveHint', idempotent: 'idempotentHint', 'open-world': 'openWorldHint' } as const;

function toMcpTool(t: ToolDefinition): McpTool {
  const schema = (t.parameters ?? { type: 'object', properties: {} }) as McpTool['inputSchema'];
  const tool: { -readonly [K in keyof McpTool]: McpTool[K] } = { name: t.name, description: t.description, inputSchema: schema };
  // Tags an MCP import wrote from annotations go back out as annotations.
  const tags = t.tags ?? [];
  if (tags.some((tag) => tag in ANNOTATION_TAGS)) {
    const annotations: Record<string, boolean> = {};
    for (const [tag, hint] of Object.entries(ANNOTATION_TAGS)) annotations[hint] = tags.includes(tag);
    tool.annotations = annotations;
  }
  return tool;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** A handler's result as an MCP tool result. */
function toolResult(value: unknown): McpCallToolResult {
  // Content blocks (what `mcpHandlers` returns for a proxied tool) pass through as they are.
  if (Array.isArray(value) && value.length > 0 && value.every((b) => typeof b === 'object' && b !== null && CONTENT_TYPES.has((b as { type?: unknown }).type as string))) {
    return { content: value as McpContentBlock[] };
  }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const text = value === undefined ? 'null' : JSON.stringify(value) ?? String(value);
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  // Structured content for objects, plus the same JSON as text for clients that read only text (as the MCP spec recommends).
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: value as Record<string, unknown> } : {}) };
}

// ---------------------------------------------------------------------------
// Streamable HTTP

export interface ServeMcpHttpOptions<C = unknown> extends Omit<ServeMcpOptions<C>, 'transport'> {
  /** Default 0 (any free port). */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default `/mcp`. */
  readonly path?: string;
  /**
   * The `Host` header values accepted (`name` or `name:port`); default: the host it listens on
   * and `localhost`, with and without the port. Any other `Host` is answered 403.
   */
  readonly allowedHosts?: readonly string[];
}

export interface McpHttpServing {
  /** `http://host:port/path`, ready for `StreamableHTTPClientTransport`. */
  readonly url: URL;
  readonly http: HttpServer;
  /** Open sessions (one `McpServer` each, all over the same router). */
  readonly sessions: ReadonlyMap<string, McpServing>;
  close(): Promise<void>;
}

type WebTransport = McpTransport & { handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response> };

/**
 * Serve a router over Streamable HTTP on 127.0.0.1: one MCP session per
 * client, each its own `McpServer` over the same router (so the router's
 * state — blocklist, loaded toolkits — is shared by every session; create a
 * router per session for isolated state).
 *
 * Against DNS rebinding, a request whose `Host` header is not one this server
 * answers to (see `allowedHosts`), or whose `Origin` header names another
 * host, is answered 403 before its body is read.
 *
 * @example
 * const served = await serveMcpHttp(router, { port: 3000 });
 * console.log(`MCP at ${served.url}`);
 */
export async function serveMcpHttp<C = unknown>(router: ServableRouter, options: ServeMcpHttpOptions<C> = {}): Promise<McpHttpServing> {
  const sdk = await loadMcpServerSdk(options.sdk);
  const host = options.host ?? '127.0.0.1';
  const route = options.path ?? '/mcp';
  const sessions = new Map<string, McpServing>();
  const transports = new Map<string, WebTransport>();
  const { port: _port, host: _host, path: _path, allowedHosts: _allowed, ...serveOptions } = options;
  let allowedHosts = new Set<string>();

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) return reply(res, 403, -32000, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not this server.`);
    if (req.headers.origin !== undefined && !allowedHosts.has(originHost(req.headers.origin))) return reply(res, 403, -32000, `Forbidden: Origin ${JSON.stringify(req.headers.origin)} is not this server.`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== route) return reply(res, 404, -32601, `Not found: the MCP endpoint is ${route}.`);
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (known) return forward(known, req, res, req.method === 'POST' ? await readJson(req) : undefined);
    if (req.method !== 'POST') return reply(res, 400, -32000, 'No valid session: start one with an initialize request.');
    const body = await readJson(req);
    if (!sdk.isInitializeRequest(body)) return reply(res, 400, -32000, 'No valid session: start one with an initialize request.');
    const transport: WebTransport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        sessions.set(id, serving);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) {
        transports.delete(id);
        sessions.delete(id);
      }
    };
    const serving = await serveMcp(router, { ...serveOptions, sdk: sdk.line, transport });
    await forward(transport, req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port ?? 0;
  // An IPv6 address goes in brackets in a URL and in a Host header.
  const hostName = host.includes(':') ? `[${host}]` : host;
  const names = options.allowedHosts ?? [hostName, 'localhost'];
  // `name:port` as given; a bare name (or bracketed address) also with this server's port.
  const withPort = (name: string) => (/:\d+$/.test(name) ? [name] : [name, `${name}:${port}`]);
  allowedHosts = new Set(names.flatMap(withPort).map((name) => name.toLowerCase()));
  return {
    url: new URL(`http://${hostName}:${port}${route}`),
    http,
    sessions,
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** `host[:port]` of an `Origin` header; '' when it is not a URL (so it matches no allowed host). */
function originHost(origin: string): string {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return '';
  }
}

/** Hands a Node request to the web-standard transport and streams its response back (SSE included). */
async function forward(transport: WebTransport, req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const aborted = new AbortController();
  res.once('close', () => aborted.abort());
  const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), { method: req.method ?? 'GET', headers, signal: aborted.signal });
  const response = await transport.handleRequest(request, req.method === 'POST' ? { parsedBody } : {});
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.writeHead(response.status);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  aborted.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } finally {
    res.end();
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
