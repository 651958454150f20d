/**
 * Connecting to an MCP server and reading its whole tool list: the one piece
 * every MCP integration shares (`toolroute import mcp`, the corpus capture
 * script, tests). Uses the official client of either SDK line (see sdk.ts).
 *
 * Two transports, as the CLI offers them: stdio (a command toolroute starts
 * and stops) and Streamable HTTP (a URL).
 */
import { loadMcpClientSdk, type McpSdkLine } from './sdk.js';
import type { McpClient, McpTool, McpTransport } from './types.js';

/** Where an MCP server is: a command to start over stdio, or a Streamable HTTP URL. */
export type McpServerTarget =
  | {
      readonly command: string;
      readonly args?: readonly string[];
      readonly cwd?: string;
      /** Added to the SDK's default environment (PATH, HOME, …), not replacing it. */
      readonly env?: Readonly<Record<string, string>>;
      /** What to do with the server's stderr; default `'pipe'` (kept, shown only when connecting fails). */
      readonly stderr?: 'pipe' | 'inherit' | 'ignore';
    }
  | { readonly url: string | URL };

/** A connected client plus what it takes to close it. */
export interface McpConnection {
  /** The SDK's `Client` (of `line`); typed as the part toolroute uses. */
  readonly client: McpClient;
  /** The SDK line the client is from. */
  readonly line: McpSdkLine;
  /** The server's name and version from `initialize`. */
  readonly server: { readonly name: string; readonly version: string } | undefined;
  /** The server's `instructions` from `initialize`, if any. */
  readonly instructions: string | undefined;
  /** Calls `listener` on every `notifications/tools/list_changed` from the server (list the tools again then). */
  onToolListChanged(listener: () => void): void;
  /** Closes the client and, for stdio, stops the server process. Safe to call twice. */
  close(): Promise<void>;
}

/** Name and version toolroute announces as an MCP client. */
export const TOOLROUTE_CLIENT_INFO = { name: 'toolroute', version: '0.1.0' } as const;

export interface ConnectMcpOptions {
  readonly clientInfo?: { name: string; version: string };
  /** The SDK line to use; default: `TOOLROUTE_MCP_SDK`, else the installed one (2.x first). */
  readonly sdk?: McpSdkLine;
}

/**
 * Connect to an MCP server with the official client.
 *
 * @example
 * const mcp = await connectMcp({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
 * try { console.log(await listAllTools(mcp.client)); } finally { await mcp.close(); }
 */
export async function connectMcp(target: McpServerTarget, options: ConnectMcpOptions = {}): Promise<McpConnection> {
  const sdk = await loadMcpClientSdk(options.sdk);
  const client = new sdk.Client(options.clientInfo ?? { ...TOOLROUTE_CLIENT_INFO });
  let stderrText = '';
  let transport: McpTransport;
  if ('url' in target) {
    transport = new sdk.StreamableHTTPClientTransport(new URL(String(target.url)));
  } else {
    const stdio = new sdk.StdioClientTransport({
      command: target.command,
      args: [...(target.args ?? [])],
      ...(target.cwd !== undefined ? { cwd: target.cwd } : {}),
      env: { ...sdk.getDefaultEnvironment(), ...(target.env ?? {}) },
      stderr: target.stderr ?? 'pipe',
    });
    // Kept so a server that dies while starting can say why (a bad path, a missing argument).
    stdio.stderr?.on('data', (chunk: Buffer) => {
      if (stderrText.length < 8192) stderrText += chunk.toString('utf8');
    });
    transport = stdio;
  }
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const where = 'url' in target ? String(target.url) : [target.command, ...(target.args ?? [])].join(' ');
    const detail = stderrText.trim() === '' ? '' : `\nserver stderr:\n${stderrText.trim()}`;
    throw new Error(`could not connect to the MCP server (${where}): ${error instanceof Error ? error.message : String(error)}${detail}`, { cause: error });
  }
  let closed = false;
  const listeners: (() => void)[] = [];
  sdk.onNotification(client, 'notifications/tools/list_changed', () => {
    for (const listener of listeners) listener();
  });
  const version = client.getServerVersion();
  return {
    client,
    line: sdk.line,
    server: version ? { name: version.name, version: version.version } : undefined,
    instructions: client.getInstructions(),
    onToolListChanged(listener) {
      listeners.push(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      // Over HTTP the session is ended with a DELETE (MCP transports, session management), so the server frees it now
      // rather than at its idle timeout; a server that is gone, slow or does not support it is no error of closing.
      const terminate = (transport as { terminateSession?: () => Promise<void> }).terminateSession?.call(transport).catch(() => undefined);
      if (terminate !== undefined) await Promise.race([terminate, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      await client.close();
    },
  };
}

/** The most pages `listAllTools` follows before it concludes the server's cursor never ends. */
export const MAX_TOOL_PAGES = 1000;

/**
 * Every tool of a server: follows `nextCursor` until the last page. A server
 * whose cursor repeats or never ends is an error (it would loop forever), not a
 * silently shortened list.
 *
 * @example
 * const tools = await listAllTools(client); // [{ name, description, inputSchema, outputSchema?, annotations? }, …]
 */
export async function listAllTools(client: Pick<McpClient, 'listTools'>): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...result.tools);
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') {
      // The 1.x client keeps the output schemas it checks `callTool` results against per `listTools` call, each page
      // replacing the last: given the whole list, it checks the tools of every page.
      if (page > 0) (client as { cacheToolMetadata?: (all: McpTool[]) => void }).cacheToolMetadata?.(tools);
      return tools;
    }
    if (seen.has(next)) throw new Error(`tools/list: the server returned the cursor ${JSON.stringify(next)} twice; its paging never ends.`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`tools/list: more than ${MAX_TOOL_PAGES} pages; giving up.`);
}
