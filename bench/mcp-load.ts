/**
 * Load test of `serveMcpHttp`, bounded and on 127.0.0.1: a server process
 * (the example router, a router per session, the default memory store) and, in
 * this process, N concurrent sessions of the official MCP client over
 * Streamable HTTP, each making M calls and checking every answer. Prints the
 * latency percentiles, throughput, the server's memory before, under and after
 * load, and its open sessions once the clients have gone (idle timeout 5 s here).
 * Not part of `npm run bench` or `npm test`.
 *
 *   npx tsx --conditions=toolroute-source bench/mcp-load.ts   # 50 sessions × 200 calls, the installed SDK line (2.x first)
 *   npx tsx --conditions=toolroute-source bench/mcp-load.ts --sessions=20 --calls=100 --sdk=1.x
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDemoRouter } from '../examples/mcp-server.js';
import { connectMcp, serveMcpHttp, type McpSdkLine } from '../integrations/mcp/index.js';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const sdk = (arg('sdk', '') || undefined) as McpSdkLine | undefined;

if (process.argv.includes('--serve')) {
  // The server process: answers `mem` on stdin with its memory and open sessions.
  const served = await serveMcpHttp(() => createDemoRouter(), { ...(sdk ? { sdk } : {}), idleTimeoutMs: 5000 });
  process.stdout.write(`${served.url.href}\n`);
  for await (const _line of createInterface({ input: process.stdin })) {
    global.gc?.();
    const m = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rss: m.rss, heap: m.heapUsed, sessions: served.sessions.size })}\n`);
  }
  process.exit(0);
}

const SESSIONS = Number(arg('sessions', '50'));
const CALLS = Number(arg('calls', '200'));
const server = spawn(process.execPath, ['--expose-gc', '--conditions=toolroute-source', '--import', 'tsx', fileURLToPath(import.meta.url), '--serve', ...(sdk ? [`--sdk=${sdk}`] : [])], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: server.stdout! })[Symbol.asyncIterator]();
const next = async () => (await lines.next()).value as string;
const url = new URL(await next());
const memory = async () => {
  server.stdin!.write('mem\n');
  return JSON.parse(await next()) as { rss: number; heap: number; sessions: number };
};
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

const before = await memory();
const latencies: number[] = [];
let wrong = 0;
let line: McpSdkLine | undefined;
const started = performance.now();
await Promise.all(
  Array.from({ length: SESSIONS }, async (_, s) => {
    const connection = await connectMcp({ url }, sdk ? { sdk } : {});
    line = connection.line;
    for (let i = 0; i < CALLS; i++) {
      const city = `City ${s}-${i}`;
      const t = performance.now();
      const r = (await connection.client.callTool(i === 0 ? { name: 'load_toolkit', arguments: { toolkit_name: 'weather' } } : { name: 'get_forecast', arguments: { city } })) as {
        structuredContent?: { city?: string };
      };
      latencies.push(performance.now() - t);
      if (i > 0 && r.structuredContent?.city !== city) wrong++;
    }
    await connection.close();
  }),
);
const seconds = (performance.now() - started) / 1000;
const loaded = await memory();
await new Promise((resolve) => setTimeout(resolve, 6000));
const after = await memory();
server.kill();

latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
console.log(`serveMcpHttp load (server and client on SDK ${line}): ${SESSIONS} sessions × ${CALLS} calls`);
console.log(`answered ${latencies.length} of ${SESSIONS * CALLS}, wrong ${wrong}, in ${seconds.toFixed(1)} s (${(latencies.length / seconds).toFixed(0)} calls/s)`);
console.log(`latency ms: p50 ${p(0.5)}, p95 ${p(0.95)}, p99 ${p(0.99)}, max ${latencies.at(-1)!.toFixed(1)}`);
console.log(`server: before ${mib(before.heap)} heap / ${mib(before.rss)} RSS; after the calls ${mib(loaded.heap)} / ${mib(loaded.rss)}, ${loaded.sessions} sessions open;`);
console.log(`        6 s later (idle timeout 5 s) ${mib(after.heap)} / ${mib(after.rss)}, ${after.sessions} sessions open`);
process.exit(wrong === 0 && latencies.length === SESSIONS * CALLS && after.sessions === 0 ? 0 : 1);
