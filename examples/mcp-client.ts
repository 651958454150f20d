/**
 * A router over two real MCP servers and one local tool, from one spec.
 *
 * examples/mcp/tools.spec.yaml was written by `toolroute import mcp` (the
 * reference servers `@modelcontextprotocol/server-memory` as a toolkit and
 * `@modelcontextprotocol/server-everything` as a namespace, next to a local
 * `get_time`) and compiled into examples/mcp/generated/ by `toolroute codegen`.
 * Re-create both:
 *
 *   npx toolroute import mcp --out examples/mcp/tools.spec.yaml --name memory -- npx mcp-server-memory
 *   npx toolroute import mcp --out examples/mcp/tools.spec.yaml --name everything -- npx mcp-server-everything
 *   cd examples/mcp && npx toolroute codegen tools.spec.yaml --out generated
 *
 * Run it: `npx tsx examples/mcp-client.ts` (starts both servers over stdio,
 * prints each call and its result). test/integrations/examples.test.ts runs
 * `runMcpClient()` and checks what it returns.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRouter } from 'toolroute/runtime';
import { connectMcp, mcpHandlers, type McpSdkLine } from 'toolroute/mcp';
import * as generated from './mcp/generated/index.js';
import type { Handlers } from './mcp/generated/index.js';

/** The stdio command of an installed reference server (its package's `bin`). */
function serverCommand(pkg: string): { command: string; args: string[] } {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${pkg}/package.json`);
  const bin = (require(manifest) as { bin: Record<string, string> }).bin;
  return { command: process.execPath, args: [path.join(path.dirname(manifest), Object.values(bin)[0]!)] };
}

export interface McpClientStep {
  readonly call: string;
  readonly ok: boolean;
  /** The result (JSON) or the rejection's code and reason. */
  readonly output: string;
}

/**
 * Runs a scripted sequence of model calls through the router and returns what each gave.
 * `sdk` picks the MCP SDK line (default: the installed one, 2.x first).
 */
export async function runMcpClient(options: { readonly sdk?: McpSdkLine } = {}): Promise<McpClientStep[]> {
  const memoryDir = mkdtempSync(path.join(os.tmpdir(), 'toolroute-memory-'));
  const memory = await connectMcp({ ...serverCommand('@modelcontextprotocol/server-memory'), env: { MEMORY_FILE_PATH: path.join(memoryDir, 'memory.jsonl') } }, options);
  const everything = await connectMcp(serverCommand('@modelcontextprotocol/server-everything'), options);
  try {
    const handlers = {
      // The import prefixed each server's tools with its group name (the spec also holds get_time).
      ...(await mcpHandlers(memory.client, generated, { prefix: 'memory_' })),
      ...(await mcpHandlers(everything.client, generated, { prefix: 'everything_' })),
      get_time: () => new Date(0).toISOString(),
    } satisfies Handlers;
    const router = createRouter(generated, handlers);

    // What a model would send, turn after turn.
    const calls: { name: string; arguments: unknown }[] = [
      { name: 'everything', arguments: { action: 'everything_get-sum', args: { a: 2, b: 40 } } },
      { name: 'everything', arguments: { action: 'everything_get-sum', args: { a: 'two' } } },
      { name: 'memory_create_entities', arguments: { entities: [] } },
      { name: 'load_toolkit', arguments: { toolkit_name: 'memory' } },
      { name: 'memory_create_entities', arguments: { entities: [{ name: 'toolroute', entityType: 'library', observations: ['compiles tool specs'] }] } },
      { name: 'memory_search_nodes', arguments: { query: 'toolroute' } },
      { name: 'memory_delete_entities', arguments: { entityNames: ['toolroute'] } },
      { name: 'get_time', arguments: {} },
    ];
    const steps: McpClientStep[] = [];
    for (const [i, call] of calls.entries()) {
      // Before the delete: a policy the import wrote from the servers' annotations.
      if (i === 6) router.applyPolicy('memory_nondestructive');
      const r = await router.dispatch(call);
      steps.push({
        call: `${call.name} ${JSON.stringify(call.arguments)}`,
        ok: r.ok,
        output: r.ok ? (typeof r.result === 'string' ? r.result : JSON.stringify(r.result)) : `${r.code}: ${r.reason}`,
      });
    }
    return steps;
  } finally {
    await Promise.all([memory.close(), everything.close()]);
    rmSync(memoryDir, { recursive: true, force: true });
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  for (const step of await runMcpClient()) {
    console.log(`→ ${step.call}\n  ${step.ok ? 'ok' : 'rejected'}: ${step.output.split('\n')[0]}`);
  }
}
