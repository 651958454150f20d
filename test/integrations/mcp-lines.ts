/**
 * The two lines of the MCP SDK the integration tests run on: every MCP test
 * file repeats its behaviour per line (`describe.each(LINES)`), and the
 * serving tests per pair of server and client line.
 */
import type { McpCallToolResult, McpSdkLine } from '../../integrations/mcp/index.js';

/** 1.x: `@modelcontextprotocol/sdk`; 2.x: `@modelcontextprotocol/client` and `/server`. */
export const LINES: readonly McpSdkLine[] = ['1.x', '2.x'];

/** Every server line with every client line. */
export const PAIRS: readonly { readonly server: McpSdkLine; readonly client: McpSdkLine }[] = LINES.flatMap((server) => LINES.map((client) => ({ server, client })));

/** The text of each content block of a result (`[type]` for the others). */
export function texts(result: unknown): string[] {
  return (result as McpCallToolResult).content.map((b) => (b.type === 'text' ? String(b['text']) : `[${b.type}]`));
}
