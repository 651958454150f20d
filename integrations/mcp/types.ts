/**
 * The MCP shapes toolroute reads and writes, declared here rather than taken
 * from one SDK line, so toolroute/mcp type-checks with either line installed.
 * Both lines' classes satisfy these interfaces.
 */

/** A JSON Schema object of a tool's input or output. */
export interface McpObjectSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

/** A tool as `tools/list` returns it. */
export interface McpTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: McpObjectSchema;
  readonly outputSchema?: McpObjectSchema | undefined;
  readonly annotations?:
    | {
        readonly title?: string | undefined;
        readonly readOnlyHint?: boolean | undefined;
        readonly destructiveHint?: boolean | undefined;
        readonly idempotentHint?: boolean | undefined;
        readonly openWorldHint?: boolean | undefined;
      }
    | undefined;
  readonly execution?: { readonly taskSupport?: string | undefined } | undefined;
  readonly [key: string]: unknown;
}

/** A content block of a tool result (`text`, `image`, `audio`, `resource`, `resource_link`). */
export type McpContentBlock = { readonly type: 'text'; readonly text: string; readonly [key: string]: unknown } | { readonly type: string; readonly [key: string]: unknown };

/** A `tools/call` result. */
export interface McpCallToolResult {
  readonly content: readonly McpContentBlock[];
  readonly structuredContent?: Record<string, unknown> | undefined;
  readonly isError?: boolean | undefined;
  readonly [key: string]: unknown;
}

/** The part of an MCP SDK `Client` (either line) toolroute uses. */
export interface McpClient {
  // Method syntax on purpose: the lines differ in their later parameters (1.x: result schema, then options; 2.x: options).
  listTools(params?: { cursor?: string }, options?: unknown): Promise<{ readonly tools: readonly McpTool[]; readonly nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, second?: unknown, third?: unknown): Promise<unknown>;
  getServerVersion(): { readonly name: string; readonly version: string } | undefined;
  getServerCapabilities(): { readonly tools?: { readonly listChanged?: boolean | undefined } | undefined; readonly [key: string]: unknown } | undefined;
  getInstructions(): string | undefined;
  connect(transport: McpTransport): Promise<void>;
  close(): Promise<void>;
}

/** An MCP transport (stdio, Streamable HTTP, in-memory, …) of either line. */
export interface McpTransport {
  start(): Promise<void>;
  send(message: never, options?: never): Promise<void>;
  close(): Promise<void>;
  sessionId?: string | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

/** The part of an SDK `McpServer` (either line) toolroute uses. */
export interface McpServerLike {
  readonly server: { registerCapabilities(capabilities: object): void };
  connect(transport: McpTransport): Promise<void>;
  sendToolListChanged(): void | Promise<void>;
  close(): Promise<void>;
}
