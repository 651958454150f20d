/**
 * Two `serveMcpHttp` processes sharing sessions through a real Redis
 * (Debian's `redis-server`, started here on 127.0.0.1 at a free port), behind
 * a round-robin load balancer in this process with no sticky routing: a
 * toolkit loaded through one process is called through the other, the
 * announcements shown through one are not repeated by the other, and when one
 * process is killed mid-conversation the session goes on through the other.
 * A call running longer than the idle timeout keeps its session's record
 * alive in Redis.
 * On each SDK line. Without `redis-server` (.ci/run installs it) these tests are
 * skipped locally and fail in CI (CI=true), as the browser test of `inspect` is.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, listAllTools, redisSessionStore, type McpConnection, type RedisLikeClient } from '../../integrations/mcp/index.js';
import { REPO } from '../generator/helpers.js';
import { LINES, texts } from './mcp-lines.js';
import { callOutlivingIdleTimeout, expectOutlivedIdleTimeout } from './mcp-traffic.helpers.js';

// node-redis's client is a store client as it is.
const _fits: (client: ReturnType<typeof createClient>) => RedisLikeClient = (client) => client;
void _fits;

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const skip = !hasRedis && process.env['CI'] !== 'true';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts a child process and resolves with the first stdout line matching `ready`. */
function started(child: ChildProcess, ready: RegExp, what: string): Promise<string> {
  cleanups.push(() => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => ready.test(l));
      if (line !== undefined) resolve(line.trim());
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${what} exited (${code}): ${err || out}`)));
    child.on('error', (error) => reject(new Error(`${what} could not start: ${error.message}`)));
  });
}

let redisUrl = '';
beforeAll(async () => {
  if (skip) return;
  const port = await freePort();
  await started(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']), /Ready to accept connections/, 'redis-server');
  redisUrl = `redis://127.0.0.1:${port}`;
});

/** A round-robin load balancer: `tools/call` requests alternate between backends, other requests too; a dead backend is skipped. */
async function balancer() {
  const backends: URL[] = [];
  const dead = new Set<number>();
  const log: { method: string; name?: string; backend: number }[] = [];
  const counters = { call: 0, other: 0 };
  const server: Server = createHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const message = body.length > 0 ? (JSON.parse(body.toString()) as { method?: string; params?: { name?: string } }) : {};
    const first = message.method === 'tools/call' ? counters.call++ : counters.other++;
    const attempt = (n: number): void => {
      const backend = (first + n) % backends.length;
      if (n >= backends.length) return void res.writeHead(502).end();
      if (dead.has(backend)) return attempt(n + 1);
      const up = request({ host: '127.0.0.1', port: backends[backend]!.port, path: req.url, method: req.method, headers: req.headers }, (upRes) => {
        log.push({ method: message.method ?? req.method!, ...(message.params?.name ? { name: message.params.name } : {}), backend });
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      up.on('error', () => {
        dead.add(backend);
        if (res.headersSent) res.destroy();
        else attempt(n + 1);
      });
      res.on('close', () => up.destroy());
      up.end(body);
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)).then(() => undefined), () => server.closeAllConnections());
  const { port } = server.address() as { port: number };
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), backends, log };
}

it.skipIf(skip)('redisSessionStore keeps JSON records under its prefix with an expiry that touch extends, and deletes them', async () => {
  const redis = await createClient({ url: redisUrl }).connect();
  cleanups.push(() => redis.quit());
  const store = redisSessionStore(redis, { prefix: 'test:store:' });
  const record = { initialize: { method: 'initialize' }, snapshot: { loaded: ['Weather'] }, shown: '', revision: 'r1' };
  await store.set('a', record, 300);
  expect(await store.get('a')).toEqual(record);
  expect(await redis.pTTL('test:store:a')).toBeGreaterThan(0);
  await store.touch('a', 60_000);
  expect(await redis.pTTL('test:store:a')).toBeGreaterThan(1000);
  await store.set('b', record, 50);
  await expect.poll(() => store.get('b')).toBeUndefined();
  await store.delete('a');
  expect(await store.get('a')).toBeUndefined();
});

// The four tests below each have their own servers (or processes) and keys; they mostly wait, so they run side by side.
describe.concurrent.each(LINES)('a call running longer than idleTimeoutMs, sessions in Redis, %s', (sdk) => {
  it.skipIf(skip)('keeps its session alive in Redis while it runs, for the same client and another server; the idle clock starts when it finishes', async ({ expect }) => {
    const redis = await createClient({ url: redisUrl }).connect();
    cleanups.push(() => redis.quit());
    const prefix = `test:inflight:${sdk}:`;
    const seen = await callOutlivingIdleTimeout(sdk, redisSessionStore(redis, { prefix }), 1000);
    expectOutlivedIdleTimeout(seen);
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
  });
});

describe.concurrent.each(LINES)('two server processes sharing sessions through Redis, %s', (sdk) => {
  it.skipIf(skip)('serves one session from both, without sticky routing, and goes on when one is killed', async ({ expect }) => {
    const lb = await balancer();
    const processes = [0, 1].map(() =>
      spawn(process.execPath, ['--conditions=toolroute-source', '--import', 'tsx', path.join(REPO, 'test/integrations/mcp-redis.server.ts')], {
        cwd: REPO,
        env: { ...process.env, REDIS_URL: redisUrl, TOOLROUTE_MCP_SDK: sdk, BALANCER_HOST: lb.url.host },
      }),
    );
    const urls = await Promise.all(processes.map((child, i) => started(child, /^http:/, `server process ${i}`)));
    lb.backends.push(...urls.map((u) => new URL(u)));
    const connection: McpConnection = await connectMcp({ url: lb.url }, { sdk });
    cleanups.push(() => connection.close());
    const call = (name: string, args: Record<string, unknown>) => connection.client.callTool({ name, arguments: args });
    const servedBy = (name: string) => lb.log.filter((l) => l.name === name).map((l) => l.backend);

    // Loaded through one process: the first result also carries the standing announcement.
    const load = await call('load_toolkit', { toolkit_name: 'weather' });
    expect(texts(load)).toEqual([expect.stringMatching(/^Toolkit "Weather" loaded\./), expect.stringContaining('<announcement id="env">')]);
    // Called through the other: the toolkit is loaded there, the announcement not shown again.
    const forecast = await call('get_forecast', { city: 'Lisbon' });
    expect(forecast).toMatchObject({ structuredContent: { city: 'Lisbon', days: 3, forecast: 'sunny' } });
    expect(texts(forecast)).toHaveLength(1);
    expect(servedBy('get_forecast')).toHaveLength(1);
    expect(servedBy('get_forecast')[0]).not.toBe(servedBy('load_toolkit')[0]);
    expect((await listAllTools(connection.client)).map((t) => t.name)).toEqual(expect.arrayContaining(['get_forecast', 'get_current_weather']));

    // The session's state is in Redis.
    const redis = await createClient({ url: redisUrl }).connect();
    cleanups.push(() => redis.quit());
    const keys = await redis.keys('toolroute:mcp:session:*');
    const records = await Promise.all(keys.map(async (k) => JSON.parse((await redis.get(k))!) as { snapshot: { loaded: string[] } }));
    expect(records.some((r) => r.snapshot.loaded.includes('Weather'))).toBe(true);

    // One process dies mid-conversation; the other carries on with the same session.
    processes[0]!.kill('SIGKILL');
    await new Promise((resolve) => processes[0]!.once('exit', resolve));
    for (const city of ['Porto', 'Faro', 'Braga']) {
      const weather = await call('get_current_weather', { city });
      expect(weather).toMatchObject({ structuredContent: { city, temperature: 18 } });
      expect(texts(weather)).toHaveLength(1);
    }
    expect(servedBy('get_current_weather')).toEqual([1, 1, 1]);
    expect((await listAllTools(connection.client)).map((t) => t.name)).toContain('get_forecast');
  });
});
