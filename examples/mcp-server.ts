/**
 * The example router (examples/tools.spec.yaml → generated/) served as an MCP
 * server, over stdio or Streamable HTTP on 127.0.0.1. Handlers are in-memory
 * fakes (a map for files, canned weather), so it is safe to point a client at.
 *
 *   npx tsx examples/mcp-server.ts            # stdio: e.g. as a command in an MCP client's config
 *   npx tsx examples/mcp-server.ts --http     # Streamable HTTP; prints the URL on stderr (PORT=… to choose)
 *
 * Any MCP client then sees the namespaces, flat tools and `load_toolkit`;
 * loading a toolkit sends `notifications/tools/list_changed`, and the toolkit
 * directory is in the server's instructions. It runs on either MCP SDK line
 * (TOOLROUTE_MCP_SDK=1.x or 2.x picks one when both are installed).
 * test/integrations/mcp-serve.test.ts drives it with the official client over
 * both transports.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRouter } from 'toolroute/runtime';
import { serveMcpHttp, serveMcpStdio } from 'toolroute/mcp';
import * as generated from '../generated/index.js';
import type { Handlers } from '../generated/index.js';

/** The example router with in-memory handlers, and one standing announcement. */
export function createDemoRouter() {
  const files = new Map<string, string>([['README.md', '# demo\n']]);
  const handlers = {
    read_file: ({ path: p }) => {
      const text = files.get(p);
      if (text === undefined) throw new Error(`no such file: ${p}`);
      return text;
    },
    write_file: ({ path: p, content, mode }) => {
      files.set(p, mode === 'append' ? `${files.get(p) ?? ''}${content}` : content);
      return { path: p, bytes: Buffer.byteLength(files.get(p)!) };
    },
    delete_file: ({ path: p }) => ({ deleted: files.delete(p) }),
    run_bash: ({ command }) => `(demo) not run: ${command}`,
    tail_logs: ({ service, lines }) => `(demo) last ${lines ?? 100} lines of ${service}: nothing logged`,
    get_time: () => '2026-12-01T12:00:00.000Z',
    get_forecast: ({ city, days }) => ({ city, days: days ?? 3, forecast: 'sunny' }),
    get_current_weather: ({ city }) => ({ city, temperature: 18, conditions: 'clear' }),
    run_query: ({ sql }) => ({ sql, rows: [] }),
    describe_table: ({ table }) => ({ table, columns: ['id'] }),
  } satisfies Handlers;
  const router = createRouter(generated, handlers);
  router.announce('env', 'This is a demo server: files live in memory and run_bash runs nothing.');
  return router;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  const router = createDemoRouter();
  if (process.argv.includes('--http')) {
    const served = await serveMcpHttp(router, { port: Number(process.env['PORT'] ?? 0), name: 'toolroute-example', generated });
    // stderr: stdout stays clean, as for stdio servers.
    process.stderr.write(`toolroute example MCP server at ${served.url.href}\n`);
  } else {
    await serveMcpStdio(router, { name: 'toolroute-example', generated });
  }
}
