/**
 * Typed handlers that forward validated calls to an MCP server.
 *
 * `mcpHandlers(client, generated, options)` reads the server's live tool list
 * once, pairs every selected spec tool with its server tool (by the same name
 * rule `toolroute import mcp` wrote it with), and returns one handler per
 * tool. The router validates each call against the spec's schema first; the
 * handler then sends it with `callTool` and returns the server's result.
 *
 * Failures are thrown, so they take the router's `handler_error` path
 * (`Tool "x" failed: <reason>`, or the error itself with
 * `propagateHandlerErrors`): an `isError` result throws `McpToolError` with the
 * server's text, a transport or protocol failure throws `McpCallError`.
 */
import type { GeneratedModule, HandlerContext, RegistryShape, ToolNameOf } from '../../runtime/index.js';
import { listAllTools } from './connect.js';
import { listNames } from '../../runtime/reasons.js';
import { specToolName, specToolNames } from './names.js';
import { clientLineOf } from './sdk.js';
import type { McpCallToolResult, McpClient, McpContentBlock, McpTool } from './types.js';

/** The server answered the call with `isError: true`; `message` is its text content. */
export class McpToolError extends Error {
  override readonly name = 'McpToolError';
  /** The server's tool name. */
  readonly tool: string;
  /** The full result the server sent. */
  readonly result: McpCallToolResult;
  constructor(tool: string, result: McpCallToolResult) {
    super(errorText(result) || `the MCP tool "${tool}" reported an error without a message`);
    this.tool = tool;
    this.result = result;
  }
}

/** The call never produced a tool result: the connection failed, timed out, or the server refused the request. */
export class McpCallError extends Error {
  override readonly name = 'McpCallError';
  readonly tool: string;
  constructor(tool: string, cause: unknown) {
    super(`the MCP server did not complete the call to "${tool}": ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.tool = tool;
  }
}

/** What an MCP-backed handler resolves to: structured content when the tool declares an output schema, else the content blocks. */
export type McpToolOutput = Record<string, unknown> | readonly McpContentBlock[];

/**
 * What the handler of tool `N` resolves to: the type of its spec `returns` (the
 * server's output schema, written by the import) when it has one, else `McpToolOutput`.
 */
export type McpResultOf<R extends RegistryShape, N extends string> = R extends { readonly results: infer X }
  ? N extends keyof X
    ? X[N]
    : McpToolOutput
  : McpToolOutput;

/** One handler per selected tool, typed by the generated registry. */
export type McpHandlers<R extends RegistryShape, K extends ToolNameOf<R>, C = unknown> = {
  readonly [N in K]: (args: R['args'][N], ctx: HandlerContext<C>) => Promise<McpResultOf<R, N>>;
};

export interface McpHandlersOptions<P extends string, T extends string> {
  /**
   * The prefix the import gave this server's tools (recorded in the spec's
   * `# toolroute-import-mcp:` line): every spec tool starting with it is this
   * server's, and each must exist on the server.
   */
  readonly prefix?: P;
  /** Or: exactly these spec tools (with `prefix`, their names include it). */
  readonly tools?: readonly T[];
  /** Per-call request options of the SDK (`timeout`, …) handed to `callTool`. */
  readonly requestOptions?: { readonly timeout?: number; readonly [option: string]: unknown };
}

/** The spec tools `mcpHandlers` returns for these options. */
export type SelectedTools<R extends RegistryShape, P extends string, T extends string> = [T] extends [never]
  ? string extends P
    ? ToolNameOf<R>
    : Extract<ToolNameOf<R>, `${P}${string}`>
  : Extract<ToolNameOf<R>, T>;

/**
 * Handlers for the spec tools that an MCP server provides.
 *
 * Selection: `prefix` (the tools the import prefixed for this server), or
 * `tools` (exact spec names), or neither (every spec tool; for a spec holding
 * one server's tools only). A selected spec tool missing from the server is a
 * configuration mistake and throws, naming the tool (re-run the import).
 *
 * @example
 * const fs = await connectMcp({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', dir] });
 * const router = createRouter(generated, {
 *   ...(await mcpHandlers(fs.client, generated, { prefix: 'fs_' })),
 *   get_time: () => new Date().toISOString(),
 * } satisfies Handlers);
 */
export async function mcpHandlers<R extends RegistryShape, const P extends string = string, const T extends ToolNameOf<R> = never, C = unknown>(
  client: Pick<McpClient, 'callTool' | 'listTools'>,
  generated: GeneratedModule<R>,
  options: McpHandlersOptions<P, T> = {},
): Promise<McpHandlers<R, SelectedTools<R, P, T>, C>> {
  const spec = generated?.spec;
  if (!spec || !Array.isArray(spec.tools)) throw new TypeError('mcpHandlers: expected the namespace import of a generated index.ts (`import * as generated from "./generated/index.js"`).');
  const prefix = options.prefix ?? '';
  const live = await listAllTools(client);
  // Spec name → server tool, by the importer's own name rule (later duplicates numbered, task-only tools unnamed).
  const bySpecName = new Map<string, McpTool>();
  const names = specToolNames(prefix, live);
  for (const [i, named] of names.entries()) if (named !== undefined) bySpecName.set(named.name, live[i]!);
  const specNames = spec.tools.map((t) => t.name);
  // A server tool numbered around a name the spec holds only unnumbered: the server added a clashing tool since the
  // import, and the spec's tool of that name may now be bound to the newcomer (a name written as is keeps it). The
  // description the import copied tells them apart; when it does not match, re-importing is the only safe answer.
  const described = new Map(spec.tools.map((t) => [t.name, t.description]));
  const ambiguous = live.flatMap((tool, i) => {
    const numbered = names[i]?.name;
    const base = numbered === undefined ? undefined : specToolName(prefix, tool.name).name;
    if (base === undefined || base === numbered || described.has(numbered!) || !described.has(base)) return [];
    const bound = bySpecName.get(base);
    return bound !== undefined && [bound.description, bound.title].includes(described.get(base)) ? [] : [`${JSON.stringify(base)} (now ${JSON.stringify(tool.name)} or ${JSON.stringify(bound?.name)} on the server)`];
  });
  if (ambiguous.length > 0) {
    throw new TypeError(`mcpHandlers: the server added a tool whose name reads as one the spec imported, so the spec cannot tell which it meant: ${listNames(ambiguous, 10)}. ` +
      'Re-run `toolroute import mcp` (its `--check` shows the change).');
  }
  let selected: string[];
  if (options.tools !== undefined) {
    const known = new Set(specNames);
    const unknown = options.tools.filter((t) => !known.has(t));
    if (unknown.length > 0) throw new TypeError(`mcpHandlers: ${listNames(unknown.map((n) => JSON.stringify(n)), 10)} ${unknown.length === 1 ? 'is' : 'are'} not a tool of this spec.`);
    selected = [...options.tools];
  } else {
    selected = specNames.filter((n) => n.startsWith(prefix));
    // Nothing selected is a mistake (a prefix the import did not give these tools), not a server with no tools.
    if (selected.length === 0) throw new TypeError(`mcpHandlers: no tool of this spec starts with the prefix ${JSON.stringify(prefix)}: pass the prefix the import recorded for this server (its \`# toolroute-import-mcp:\` line), or \`tools\`.`);
  }
  const missing = selected.filter((n) => !bySpecName.has(n));
  if (missing.length > 0) {
    throw new TypeError(
      `mcpHandlers: the server has no tool for ${listNames(missing.map((n) => JSON.stringify(n)), 10)}` +
        `${prefix ? ` (with prefix ${JSON.stringify(prefix)})` : ''}. Re-run \`toolroute import mcp\` if the server changed, ` +
        'or select this server\'s tools with `prefix` or `tools`.',
    );
  }
  const handlers: Record<string, (args: unknown, ctx?: HandlerContext<unknown>) => Promise<McpToolOutput>> = {};
  const line = clientLineOf(client);
  for (const name of selected) {
    const tool = bySpecName.get(name)!;
    const structured = tool.outputSchema !== undefined;
    handlers[name] = async (args, ctx) => {
      // The call's signal goes to the server: a timeout or a cancelled dispatch cancels the remote tool too.
      const own = options.requestOptions?.['signal'] as AbortSignal | undefined;
      const signal = ctx === undefined ? own : own === undefined ? ctx.signal : AbortSignal.any([own, ctx.signal]);
      const request = signal === undefined ? options.requestOptions : { ...options.requestOptions, signal };
      let result: McpCallToolResult;
      try {
        const params = { name: tool.name, arguments: args as Record<string, unknown> };
        // 1.x takes a result schema before the options (undefined: its default).
        result = (await (line === '2.x' ? client.callTool(params, request) : client.callTool(params, undefined, request))) as McpCallToolResult;
      } catch (error) {
        throw new McpCallError(tool.name, error);
      }
      if (result.isError === true) throw new McpToolError(tool.name, result);
      const content = result.content ?? [];
      // The SDK client has already checked structuredContent against the tool's output schema (listAllTools primed it).
      // Without one, structured content alone (no content blocks) is still the result: nothing the server sent is dropped.
      if (result.structuredContent !== undefined && (structured || content.length === 0)) return result.structuredContent;
      return content;
    };
  }
  return handlers as unknown as McpHandlers<R, SelectedTools<R, P, T>, C>;
}

/** The text blocks of a result, joined: what an error result says. @example errorText({ content: [{ type: 'text', text: 'no such file' }], isError: true }); // → 'no such file' */
export function errorText(result: McpCallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .filter((b) => b?.type === 'text' && typeof b['text'] === 'string')
    .map((b) => b['text'] as string)
    .join('\n')
    .trim();
}
