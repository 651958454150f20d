/**
 * Captures the `tools/list` of real MCP servers installed from npm as
 * fixtures under `test/fixtures/mcp-corpus/`, one JSON file per server.
 *
 * Each server is started over stdio with the official client
 * (`@modelcontextprotocol/sdk`), offline and without credentials: the child
 * gets only PATH, a throw-away HOME and the opt-outs listed per server, never
 * this process's environment (so no API key or token can leak into a
 * fixture, and no server can reach a real account). `tools/list` is read
 * page by page until the server stops returning a cursor.
 *
 * The fixtures are what `test/corpus/mcp-corpus.test.ts` compiles into specs;
 * they are committed so the test needs no server. Re-run this script after
 * bumping a server's version in package.json:
 *
 * ```sh
 * npx tsx scripts/capture-mcp-corpus.ts            # rewrite every fixture
 * npx tsx scripts/capture-mcp-corpus.ts --check    # exit 1 if a fixture differs from what the server lists now
 * npx tsx scripts/capture-mcp-corpus.ts memory     # only the named servers
 * ```
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the fixtures go (one `<id>.json` per server). */
export const CORPUS_DIR = path.join(REPO, 'test/fixtures/mcp-corpus');

/** One server of the corpus: an npm package whose bin speaks MCP over stdio. */
export interface CorpusServer {
  /** Fixture file stem and the server's namespace/toolkit name in the combined specs. */
  readonly id: string;
  /** The npm package (a devDependency, exact-pinned). */
  readonly package: string;
  /** Which of the package's bins to run, when it has several. */
  readonly bin?: string;
  /** A script to run instead of the package's bin (tests use it for a stand-in server); the version is still the package's. */
  readonly script?: string;
  /** Arguments; `{dir}` is replaced by a fresh empty temporary folder. */
  readonly args?: readonly string[];
  /** Environment besides PATH and HOME; `{dir}` as in `args`. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The corpus. Every server here starts without network access or API keys and
 * lists its tools; the ones that need a token for their calls (GitHub, Notion)
 * check it only when a tool is called.
 */
export const SERVERS: readonly CorpusServer[] = [
  // The filesystem server's tool descriptions do not include the allowed folder, so a temp folder keeps the output stable.
  { id: 'filesystem', package: '@modelcontextprotocol/server-filesystem', args: ['{dir}'] },
  { id: 'memory', package: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: '{dir}/memory.jsonl' } },
  { id: 'everything', package: '@modelcontextprotocol/server-everything', args: ['stdio'] },
  { id: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking' },
  { id: 'playwright', package: '@playwright/mcp', args: ['--headless', '--isolated'] },
  { id: 'notion', package: '@notionhq/notion-mcp-server' },
  { id: 'github', package: '@modelcontextprotocol/server-github' },
  { id: 'kubernetes', package: 'mcp-server-kubernetes' },
  { id: 'context7', package: '@upstash/context7-mcp' },
  { id: 'chrome-devtools', package: 'chrome-devtools-mcp', bin: 'chrome-devtools-mcp', args: ['--no-usage-statistics'], env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' } },
];

/** The fixture file: who listed the tools, and the tools exactly as `tools/list` returned them. */
export interface CorpusFixture {
  /** The npm package and its installed version. */
  readonly package: { readonly name: string; readonly version: string };
  /** `serverInfo` from the initialize result: the name and version the server reports. */
  readonly server: { readonly name: string; readonly version: string };
  /** How many `tools/list` pages the server returned. */
  readonly pages: number;
  /** Every tool of every page, in order, unmodified. */
  readonly tools: readonly CorpusTool[];
}

/** An MCP tool as listed (only the fields toolroute reads are typed; the rest is kept as is). */
export interface CorpusTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

const require = createRequire(import.meta.url);

/** The absolute path of a package's bin script and the package's version. */
function resolveBin(server: CorpusServer): { script: string; version: string } {
  const manifestPath = require.resolve(`${server.package}/package.json`, { paths: [REPO] });
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === 'string' ? { [server.package]: manifest.bin } : (manifest.bin ?? {});
  const entry = server.bin !== undefined ? bins[server.bin] : Object.values(bins)[0];
  if (entry === undefined && server.script === undefined) throw new Error(`${server.package} has no bin${server.bin === undefined ? '' : ` named ${server.bin}`}`);
  return { script: server.script ?? path.resolve(path.dirname(manifestPath), entry ?? ''), version: manifest.version };
}

/**
 * Starts one server, reads every page of `tools/list`, stops it.
 *
 * @example
 * const fixture = await captureServer(SERVERS[1]!); // memory
 * fixture.tools.map((t) => t.name); // ['create_entities', 'create_relations', …]
 */
export async function captureServer(server: CorpusServer, timeoutMs = 60_000): Promise<CorpusFixture> {
  const { script, version } = resolveBin(server);
  const dir = mkdtempSync(path.join(os.tmpdir(), `mcp-corpus-${server.id}-`));
  const home = path.join(dir, 'home');
  mkdirSync(home);
  const fill = (text: string) => text.replaceAll('{dir}', dir);
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: home, NO_UPDATE_NOTIFIER: '1' };
  for (const [k, v] of Object.entries(server.env ?? {})) env[k] = fill(v);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, ...(server.args ?? []).map(fill)],
    env,
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'toolroute-corpus-capture', version: '1.0.0' });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const run = async (): Promise<CorpusFixture> => {
      await client.connect(transport);
      const info = client.getServerVersion();
      const tools: CorpusTool[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        pages++;
        tools.push(...(page.tools as CorpusTool[]));
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages < 1000);
      return {
        package: { name: server.package, version },
        server: { name: info?.name ?? '', version: info?.version ?? '' },
        pages,
        tools,
      };
    };
    return await Promise.race([run(), timeout]);
  } catch (error) {
    throw new Error(`${server.id} (${server.package}): ${(error as Error).message}\n${stderr.slice(0, 2000)}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The exact bytes of a fixture file (two-space JSON, LF, trailing newline). */
export function fixtureText(fixture: CorpusFixture): string {
  return `${JSON.stringify(fixture, null, 2)}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check');
  const only = argv.filter((a) => !a.startsWith('--'));
  const unknown = only.filter((id) => !SERVERS.some((s) => s.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`unknown server(s): ${unknown.join(', ')}; known: ${SERVERS.map((s) => s.id).join(', ')}\n`);
    return 2;
  }
  mkdirSync(CORPUS_DIR, { recursive: true });
  let failed = 0;
  for (const server of SERVERS.filter((s) => only.length === 0 || only.includes(s.id))) {
    const file = path.join(CORPUS_DIR, `${server.id}.json`);
    try {
      const fixture = await captureServer(server);
      const text = fixtureText(fixture);
      const summary = `${server.id}: ${fixture.tools.length} tools from ${fixture.server.name} ${fixture.server.version} (${fixture.package.name}@${fixture.package.version}, ${fixture.pages} page${fixture.pages === 1 ? '' : 's'})`;
      if (check) {
        let old = '';
        try {
          old = readFileSync(file, 'utf8');
        } catch {
          // A missing fixture is stale.
        }
        if (old !== text) failed++;
        process.stdout.write(`${old === text ? 'fresh' : 'STALE'} ${summary}\n`);
      } else {
        writeFileSync(file, text);
        process.stdout.write(`wrote ${summary}\n`);
      }
    } catch (error) {
      failed++;
      process.stderr.write(`failed ${(error as Error).message}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
