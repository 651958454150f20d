/**
 * toolroute/mcp: toolroute and the Model Context Protocol, both directions.
 * Needs the official MCP SDK, either line (optional peer dependencies):
 * 2.x (`@modelcontextprotocol/client` to connect, `@modelcontextprotocol/server`
 * to serve) or 1.x (`@modelcontextprotocol/sdk`). With both installed 2.x is
 * used, unless the `sdk` option or `TOOLROUTE_MCP_SDK=1.x` says otherwise. The
 * SDK is loaded on first use; an application that never calls this entry never loads it.
 *
 * - `connectMcp` / `listAllTools`: the official client, every page of `tools/list`.
 * - `mcpHandlers`: typed handlers that forward validated calls to a server.
 * - `serveMcp` / `serveMcpStdio` / `serveMcpHttp`: a router as an MCP server (any transport, stdio, Streamable HTTP).
 * - `memorySessionStore` / `redisSessionStore`: where `serveMcpHttp` keeps sessions (one process, or several behind a load balancer).
 *
 * @example
 * import { connectMcp, mcpHandlers } from 'toolroute/mcp';
 * const memory = await connectMcp({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
 * const router = createRouter(generated, { ...(await mcpHandlers(memory.client, generated)) });
 */
export { connectMcp, listAllTools, MAX_TOOL_PAGES, TOOLROUTE_CLIENT_INFO, type ConnectMcpOptions, type McpConnection, type McpServerTarget } from './connect.js';
export {
  errorText,
  mcpHandlers,
  McpCallError,
  McpToolError,
  type McpHandlers,
  type McpHandlersOptions,
  type McpResultOf,
  type McpToolOutput,
  type SelectedTools,
} from './handlers.js';
export { groupNameOf, specToolName, specToolNames, type NameFix } from './names.js';
export { loadMcpClientSdk, loadMcpServerSdk, type McpClientSdk, type McpSdkLine, type McpServerSdk } from './sdk.js';
export type { McpCallToolResult, McpClient, McpContentBlock, McpObjectSchema, McpServerLike, McpTool, McpTransport } from './types.js';
export { serveMcp, serveMcpStdio, type McpServing, type ServableRouter, type ServedSpec, type ServeMcpOptions } from './serve.js';
export { MCP_HTTP_DEFAULTS, serveMcpHttp, type McpHttpServing, type ServeMcpHttpOptions } from './http.js';
export { memorySessionStore, redisSessionStore, type McpSessionRecord, type McpSessionStore, type MemorySessionStore, type RedisLikeClient } from './store.js';
