/**
 * toolroute/mcp: toolroute and the Model Context Protocol, both directions.
 * Needs `@modelcontextprotocol/sdk` (an optional peer dependency); an
 * application that never imports this entry never loads it.
 *
 * - `connectMcp` / `listAllTools`: the official client, every page of `tools/list`.
 * - `mcpHandlers`: typed handlers that forward validated calls to a server.
 * - `serveMcp` / `serveMcpHttp`: a router as an MCP server (stdio, Streamable HTTP).
 *
 * @example
 * import { connectMcp, mcpHandlers } from 'toolroute/mcp';
 * const memory = await connectMcp({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
 * const router = createRouter(generated, { ...(await mcpHandlers(memory.client, generated)) });
 */
export { connectMcp, listAllTools, MAX_TOOL_PAGES, TOOLROUTE_CLIENT_INFO, type McpConnection, type McpServerTarget } from './connect.js';
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
export { groupNameOf, specToolName, type NameFix } from './names.js';
export {
  serveMcp,
  serveMcpHttp,
  type McpHttpServing,
  type McpServing,
  type ServableRouter,
  type ServeMcpHttpOptions,
  type ServeMcpOptions,
} from './serve.js';
