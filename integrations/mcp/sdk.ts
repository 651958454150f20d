/**
 * The two lines of the official MCP TypeScript SDK, behind one small adapter:
 * which classes to load, and how to register a request or notification
 * handler. Everything else in toolroute/mcp is shared by both lines.
 *
 * - 2.x: `@modelcontextprotocol/client` (client side) and
 *   `@modelcontextprotocol/server` (server side); handlers are registered by
 *   method name.
 * - 1.x: `@modelcontextprotocol/sdk`; handlers are registered by zod schema.
 *
 * Which line: the `sdk` option where a function takes one, else the
 * `TOOLROUTE_MCP_SDK` environment variable (`1.x` or `2.x`), else whichever is
 * installed, 2.x first. The client and server sides are chosen independently.
 * Every module is loaded with `import()` on first use, so neither line is
 * needed until a function of toolroute/mcp runs.
 */
import type { McpClient, McpServerLike, McpTransport } from './types.js';

/** A line of the MCP SDK. */
export type McpSdkLine = '1.x' | '2.x';

/** The methods toolroute registers handlers for. */
type RequestMethod = 'tools/list' | 'tools/call';
type NotificationMethod = 'notifications/tools/list_changed';

/** What the client side needs of a line. */
export interface McpClientSdk {
  readonly line: McpSdkLine;
  readonly Client: new (info: { name: string; version: string }, options?: object) => McpClient;
  readonly StdioClientTransport: new (params: {
    command: string;
    args?: string[];
    cwd?: string;
    env?: Record<string, string>;
    stderr?: 'pipe' | 'inherit' | 'ignore';
  }) => McpTransport & { readonly stderr: NodeJS.ReadableStream | null };
  readonly StreamableHTTPClientTransport: new (url: URL) => McpTransport;
  readonly getDefaultEnvironment: () => Record<string, string>;
  onNotification(client: McpClient, method: NotificationMethod, handler: () => void): void;
}

/** What the server side needs of a line. */
export interface McpServerSdk {
  readonly line: McpSdkLine;
  readonly McpServer: new (info: { name: string; version: string }, options: object) => McpServerLike;
  readonly StdioServerTransport: new () => McpTransport;
  /** The Streamable HTTP transport over web-standard `Request` / `Response` (both lines have it). */
  readonly WebStandardStreamableHTTPServerTransport: new (options: {
    sessionIdGenerator: () => string;
    onsessioninitialized: (id: string) => void | Promise<void>;
    onsessionclosed?: (id: string) => void | Promise<void>;
  }) => McpTransport & { handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response> };
  readonly isInitializeRequest: (value: unknown) => boolean;
  /** The line's own check of a `tools/call` result: what it would refuse to send. */
  readonly isToolResult: (value: unknown) => boolean;
  onRequest(server: McpServerLike, method: RequestMethod, handler: (request: { params: unknown }, extra: McpRequestExtra) => unknown): void;
}

/** What a request handler gets of its request, the same on both lines (1.x: `extra`; 2.x: `ctx.mcpReq`). */
export interface McpRequestExtra {
  readonly sessionId: string | undefined;
  readonly requestId: string | number;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or the session closes. */
  readonly signal: AbortSignal;
  /** Sends a notification on this request's own response stream. */
  notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
}

const LINES: readonly McpSdkLine[] = ['2.x', '1.x'];

/** The line asked for: the option, else `TOOLROUTE_MCP_SDK`, else none (whichever is installed). */
function wanted(sdk: McpSdkLine | undefined): McpSdkLine | undefined {
  const asked = sdk ?? process.env['TOOLROUTE_MCP_SDK'];
  if (asked === undefined || asked === '') return undefined;
  if (asked !== '1.x' && asked !== '2.x') throw new TypeError(`toolroute/mcp: the MCP SDK line must be "1.x" or "2.x", not ${JSON.stringify(asked)}.`);
  return asked;
}

const PACKAGES = {
  client: { '2.x': '@modelcontextprotocol/client', '1.x': '@modelcontextprotocol/sdk' },
  server: { '2.x': '@modelcontextprotocol/server', '1.x': '@modelcontextprotocol/sdk' },
} as const;

async function pick<T>(side: 'client' | 'server', sdk: McpSdkLine | undefined, load: Record<McpSdkLine, () => Promise<T>>): Promise<T> {
  const asked = wanted(sdk);
  const failures: string[] = [];
  for (const line of asked === undefined ? LINES : [asked]) {
    try {
      return await load[line]();
    } catch (error) {
      if (!isMissing(error)) throw error;
      failures.push(`${PACKAGES[side][line]} (${line})`);
    }
  }
  throw new Error(`toolroute/mcp needs the MCP SDK: install ${failures.join(' or ')}.`);
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
}

// Module specifiers in variables: the type checker and bundlers do not require a line to be installed.
const CLIENT_2 = '@modelcontextprotocol/client';
const CLIENT_2_STDIO = '@modelcontextprotocol/client/stdio';
const SERVER_2 = '@modelcontextprotocol/server';
const SERVER_2_STDIO = '@modelcontextprotocol/server/stdio';
const SDK_1 = '@modelcontextprotocol/sdk';

// A loaded module, untyped: the line may be absent at type-check time. McpClientSdk and McpServerSdk say what is taken from it.
type Loose = Record<string, any>;

const clients = new Map<McpSdkLine, Promise<McpClientSdk>>();
const servers = new Map<McpSdkLine, Promise<McpServerSdk>>();

function once<T>(cache: Map<McpSdkLine, Promise<T>>, line: McpSdkLine, load: () => Promise<T>): Promise<T> {
  let loaded = cache.get(line);
  if (!loaded) {
    loaded = load();
    cache.set(line, loaded);
    loaded.catch(() => cache.delete(line));
  }
  return loaded;
}

/**
 * The client side of the chosen line.
 *
 * @example
 * const sdk = await loadMcpClientSdk(); // sdk.line: '2.x' when @modelcontextprotocol/client is installed
 */
export function loadMcpClientSdk(sdk?: McpSdkLine): Promise<McpClientSdk> {
  return pick('client', sdk, {
    '2.x': () =>
      once(clients, '2.x', async () => {
        const [main, stdio] = (await Promise.all([import(CLIENT_2), import(CLIENT_2_STDIO)])) as [Loose, Loose];
        return {
          line: '2.x',
          Client: main['Client'],
          StreamableHTTPClientTransport: main['StreamableHTTPClientTransport'],
          StdioClientTransport: stdio['StdioClientTransport'],
          getDefaultEnvironment: stdio['getDefaultEnvironment'],
          onNotification: (client, method, handler) => (client as Loose)['setNotificationHandler'](method, handler),
        };
      }),
    '1.x': () =>
      once(clients, '1.x', async () => {
        const [main, stdio, http, types] = (await Promise.all([
          import(`${SDK_1}/client/index.js`),
          import(`${SDK_1}/client/stdio.js`),
          import(`${SDK_1}/client/streamableHttp.js`),
          import(`${SDK_1}/types.js`),
        ])) as [Loose, Loose, Loose, Loose];
        const schemas: Record<NotificationMethod, unknown> = { 'notifications/tools/list_changed': types['ToolListChangedNotificationSchema'] };
        return {
          line: '1.x',
          Client: main['Client'],
          StreamableHTTPClientTransport: http['StreamableHTTPClientTransport'],
          StdioClientTransport: stdio['StdioClientTransport'],
          getDefaultEnvironment: stdio['getDefaultEnvironment'],
          onNotification: (client, method, handler) => (client as Loose)['setNotificationHandler'](schemas[method], handler),
        };
      }),
  });
}

/**
 * The server side of the chosen line.
 *
 * @example
 * const sdk = await loadMcpServerSdk('1.x'); // @modelcontextprotocol/sdk, or an error naming it
 */
export function loadMcpServerSdk(sdk?: McpSdkLine): Promise<McpServerSdk> {
  return pick('server', sdk, {
    '2.x': () =>
      once(servers, '2.x', async () => {
        const [main, stdio] = (await Promise.all([import(SERVER_2), import(SERVER_2_STDIO)])) as [Loose, Loose];
        return {
          line: '2.x',
          McpServer: main['McpServer'],
          StdioServerTransport: stdio['StdioServerTransport'],
          WebStandardStreamableHTTPServerTransport: main['WebStandardStreamableHTTPServerTransport'],
          isInitializeRequest: main['isInitializeRequest'],
          // A line without the check sends every list as JSON text: never a result the SDK refuses.
          isToolResult: typeof main['isCallToolResult'] === 'function' ? main['isCallToolResult'] : () => false,
          onRequest: (server, method, handler) =>
            (server.server as Loose)['setRequestHandler'](method, (request: { params: unknown }, ctx: Loose) =>
              handler(request, { sessionId: ctx['sessionId'], requestId: ctx['mcpReq'].id, signal: ctx['mcpReq'].signal, notify: ctx['mcpReq'].notify }),
            ),
        };
      }),
    '1.x': () =>
      once(servers, '1.x', async () => {
        const [mcp, stdio, http, types] = (await Promise.all([
          import(`${SDK_1}/server/mcp.js`),
          import(`${SDK_1}/server/stdio.js`),
          import(`${SDK_1}/server/webStandardStreamableHttp.js`),
          import(`${SDK_1}/types.js`),
        ])) as [Loose, Loose, Loose, Loose];
        const schemas: Record<RequestMethod, unknown> = { 'tools/list': types['ListToolsRequestSchema'], 'tools/call': types['CallToolRequestSchema'] };
        return {
          line: '1.x',
          McpServer: mcp['McpServer'],
          StdioServerTransport: stdio['StdioServerTransport'],
          WebStandardStreamableHTTPServerTransport: http['WebStandardStreamableHTTPServerTransport'],
          isInitializeRequest: types['isInitializeRequest'],
          isToolResult: (value: unknown) => types['CallToolResultSchema'].safeParse(value).success,
          onRequest: (server, method, handler) =>
            (server.server as Loose)['setRequestHandler'](schemas[method], (request: { params: unknown }, extra: Loose) =>
              handler(request, { sessionId: extra['sessionId'], requestId: extra['requestId'], signal: extra['signal'], notify: extra['sendNotification'] }),
            ),
        };
      }),
  });
}

/**
 * The line a client object belongs to: `callTool` takes its request options
 * second on 2.x and third (after a result schema) on 1.x.
 */
export function clientLineOf(client: object): McpSdkLine {
  return typeof (client as Loose)['getProtocolEra'] === 'function' ? '2.x' : '1.x';
}
