/**
 * The real-world corpus: the `tools/list` of every MCP server in
 * `scripts/capture-mcp-corpus.ts` (fixtures under test/fixtures/mcp-corpus/),
 * compiled as one spec per server, one spec with every server as a namespace
 * and one with every server as a toolkit.
 *
 * For every spec: it generates (no errors), its output type-checks under the
 * strictest common flags (one tsc run for all of them), and a valid instance
 * of each tool's arguments, built from the server's schema, type-checks
 * against the generated argument type. At run time every tool dispatches a
 * minimal and a maximal valid call (the handler gets exactly the arguments
 * sent) and, for each mutation of a valid call (a required argument left out,
 * an argument of the wrong kind, an unknown key), toolroute's verdict equals
 * plain ajv's on the schema as the server listed it; every rejection is
 * `invalid_arguments` and never reaches the handler.
 *
 * Known generator problems that real servers hit are listed in
 * `OPEN_DEFECTS` with their number: those cases are asserted to fail (so the
 * list cannot go stale silently) and are removed when the fix lands.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatGenerateProblem, generate, type GenerateResult } from '../../generator/index.js';
import { connectMcp, listAllTools, McpCallError, mcpHandlers } from '../../integrations/mcp/index.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';
import { LINES } from '../integrations/mcp-lines.js';
import { captureServer, fixtureText, SERVERS, type CorpusServer } from '../../scripts/capture-mcp-corpus.js';
import { groupedSpec, loadCorpus, serverSpec, specNames, type BuiltSpec, type CorpusCall, type CorpusServerData } from './corpus.js';
import { mutations, oracle, validInstance, type InstanceMode } from './instances.js';
import { TSC_RUN } from '../setup/package-build.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Servers whose spec does not generate because of a known open generator problem
 * (number, what fails). A spec containing one of them is expected to fail
 * with exactly that problem code; remove the entry when the fix lands.
 */
const OPEN_DEFECTS: Readonly<Record<string, { defect: number; code: string; what: string }>> = {
};

const corpus = loadCorpus();
const withoutOpenDefects = corpus.filter((s) => OPEN_DEFECTS[s.id] === undefined);

interface Case {
  readonly name: string;
  readonly built: BuiltSpec;
  /** Servers in it with an open defect (the spec must then fail to generate). */
  readonly blockedBy: readonly string[];
}

const CASES: Case[] = [
  ...corpus.map((s) => ({ name: `server-${s.id}`, built: serverSpec(s), blockedBy: OPEN_DEFECTS[s.id] ? [s.id] : [] })),
  { name: 'all-namespaces', built: groupedSpec(corpus, 'namespace'), blockedBy: Object.keys(OPEN_DEFECTS) },
  { name: 'all-toolkits', built: groupedSpec(corpus, 'toolkit'), blockedBy: Object.keys(OPEN_DEFECTS) },
  // While a defect is open, the combined specs without the affected servers still run every check.
  ...(withoutOpenDefects.length === corpus.length
    ? []
    : [
        { name: 'all-namespaces-but-open-defects', built: groupedSpec(withoutOpenDefects, 'namespace'), blockedBy: [] },
        { name: 'all-toolkits-but-open-defects', built: groupedSpec(withoutOpenDefects, 'toolkit'), blockedBy: [] },
      ]),
];

let base = '';
const results = new Map<string, GenerateResult>();
/** tsc's diagnostics, by the file (relative to `base`) they are in. */
let tscErrors: { file: string; line: number; text: string }[] = [];
let tscStatus: number | null = null;
/** tsc's output lines that are not a diagnostic in a file (a config error, a crash). */
let tscOther: string[] = [];
/** Per case: line number in its instances file → what that line checks. */
const instanceLines = new Map<string, Map<number, string>>();

function dirOf(c: Case): string {
  return path.join(base, c.name);
}

function instancesFile(c: Case): string {
  const first = c.built.calls[0]?.tool ?? '';
  // An unused @ts-expect-error is itself an error: this line proves tsc really checked the file.
  const lines = [
    "import type { ToolArgs } from './out/index.js';",
    '// @ts-expect-error null is not an arguments object',
    `export const notArguments: ToolArgs[${JSON.stringify(first)}] = null;`,
    '',
  ];
  const map = new Map<number, string>();
  c.built.calls.forEach((call, i) => {
    for (const mode of ['minimal', 'maximal'] as const) {
      const value = validInstance(call.inputSchema, mode);
      map.set(lines.length + 1, `${call.server}/${call.original} (${mode})`);
      lines.push(`export const v${i}_${mode}: ToolArgs[${JSON.stringify(call.tool)}] = ${JSON.stringify(value)};`);
    }
  });
  instanceLines.set(c.name, map);
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  const root = path.join(REPO, '.tmp', 'corpus-tests');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'run-'));
  const include: string[] = [];
  for (const c of CASES) {
    const dir = dirOf(c);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'tools.spec.json'), `${JSON.stringify(c.built.spec, null, 2)}\n`);
    const result = await generate('tools.spec.json', { out: 'out', cwd: dir });
    results.set(c.name, result);
    if (!result.ok) continue;
    writeFileSync(path.join(dir, 'instances.ts'), instancesFile(c));
    include.push(`${c.name}/out`, `${c.name}/instances.ts`);
  }
  // One tsc run over every generated folder and instance file, under the strictest common flags.
  writeFileSync(
    path.join(base, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noPropertyAccessFromIndexSignature: true,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        skipLibCheck: true,
        noEmit: true,
        customConditions: ['toolroute-source'],
      },
      include,
    }),
  );
  const tsc = spawnSync(process.execPath, [...TSC_RUN, '-p', '.', '--pretty', 'false'], { cwd: base, encoding: 'utf8' });
  tscStatus = tsc.status;
  const output = (tsc.stdout + tsc.stderr).split('\n').filter((l) => l.trim() !== '');
  tscOther = output.filter((l) => !/^\S.*\(\d+,\d+\): error TS\d+/.test(l) && !/^\s/.test(l));
  tscErrors = output
    .filter((l) => /^\S.*\(\d+,\d+\): error TS\d+/.test(l))
    .map((l) => {
      const m = /^(.*)\((\d+),\d+\): (error TS\d+.*)$/.exec(l) as RegExpExecArray;
      return { file: path.relative(base, path.resolve(base, m[1] ?? '')).split(path.sep).join('/'), line: Number(m[2]), text: m[3] ?? '' };
    });
}, 300_000);

afterAll(() => {
  if (base !== '' && process.env['KEEP_CORPUS_OUTPUT'] === undefined) rmSync(base, { recursive: true, force: true });
});

describe('the corpus fixtures', () => {
  test('at least six servers, each captured from the version package.json pins', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(6);
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    for (const s of corpus) {
      expect(s.fixture.package.version, s.id).toBe(pkg.devDependencies[s.fixture.package.name]);
      expect(s.fixture.server.name, s.id).not.toBe('');
      expect(s.fixture.server.version, s.id).not.toBe('');
      expect(s.fixture.tools.length, s.id).toBeGreaterThan(0);
    }
  });

  test('a reference server listed live gives exactly its fixture (memory: the capture script is deterministic)', async () => {
    const memory = SERVERS.find((s) => s.id === 'memory') as CorpusServer;
    const live = await captureServer(memory);
    expect(fixtureText(live)).toBe(readFileSync(path.join(REPO, 'test/fixtures/mcp-corpus/memory.json'), 'utf8'));
  });

  test('the capture reads every page of tools/list', async () => {
    // A minimal server that lists three tools over three pages.
    const dir = mkdtempSync(path.join(REPO, '.tmp', 'corpus-paging-'));
    try {
      const script = path.join(dir, 'paging-server.mjs');
      writeFileSync(
        script,
        `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'paging', version: '9.9.9' }, { capabilities: { tools: {} } });
const pages = { '': ['a', 'p2'], p2: ['b', 'p3'], p3: ['c', undefined] };
server.setRequestHandler(ListToolsRequestSchema, (req) => {
  const [name, next] = pages[req.params?.cursor ?? ''];
  return { tools: [{ name, description: name, inputSchema: { type: 'object' } }], ...(next ? { nextCursor: next } : {}) };
});
await server.connect(new StdioServerTransport());
`,
      );
      const fixture = await captureServer({ id: 'paging', package: '@modelcontextprotocol/sdk', script });
      expect(fixture.pages).toBe(3);
      expect(fixture.tools.map((t) => t.name)).toEqual(['a', 'b', 'c']);
      expect(fixture.server).toEqual({ name: 'paging', version: '9.9.9' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each(LINES)('connectMcp and listAllTools on the %s line list a reference server exactly as its fixture', async (sdk) => {
    const memory = SERVERS.find((s) => s.id === 'memory') as CorpusServer;
    const manifest = path.join(REPO, 'node_modules', memory.package, 'package.json');
    const bin = Object.values((JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin)[0]!;
    const connection = await connectMcp({ command: process.execPath, args: [path.join(path.dirname(manifest), bin)] }, { sdk });
    try {
      expect(connection.line).toBe(sdk);
      const fixture = JSON.parse(readFileSync(path.join(REPO, 'test/fixtures/mcp-corpus/memory.json'), 'utf8')) as { tools: unknown[] };
      expect(await listAllTools(connection.client)).toEqual(fixture.tools);
    } finally {
      await connection.close();
    }
  });

  test.each(LINES)('listAllTools reads every page from a paging server built on the %s line, with either client; the output schema of a tool on an early page is still enforced', async (serverLine) => {
    const dir = mkdtempSync(path.join(REPO, '.tmp', 'corpus-paging-'));
    try {
      const script = path.join(dir, 'paging-server.mjs');
      const [imports, register, registerCall] =
        serverLine === '2.x'
          ? [`import { Server } from '@modelcontextprotocol/server';\nimport { StdioServerTransport } from '@modelcontextprotocol/server/stdio';`, `'tools/list'`, `'tools/call'`]
          : [
              `import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nimport { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';\nimport { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';`,
              'ListToolsRequestSchema',
              'CallToolRequestSchema',
            ];
      writeFileSync(
        script,
        `${imports}
const server = new Server({ name: 'paging', version: '9.9.9' }, { capabilities: { tools: {} } });
const pages = { '': ['a', 'p2'], p2: ['b', 'p3'], p3: ['c', undefined] };
// Tool a, on the first page, promises { n: number } and answers { n: 'one' }.
const output = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
server.setRequestHandler(${register}, (req) => {
  const [name, next] = pages[req.params?.cursor ?? ''];
  return { tools: [{ name, description: name, inputSchema: { type: 'object' }, ...(name === 'a' ? { outputSchema: output } : {}) }], ...(next ? { nextCursor: next } : {}) };
});
server.setRequestHandler(${registerCall}, () => ({ content: [{ type: 'text', text: '{"n":"one"}' }], structuredContent: { n: 'one' } }));
await server.connect(new StdioServerTransport());
`,
      );
      for (const sdk of LINES) {
        const connection = await connectMcp({ command: process.execPath, args: [script], cwd: REPO }, { sdk });
        try {
          expect((await listAllTools(connection.client)).map((t) => t.name), sdk).toEqual(['a', 'b', 'c']);
          expect(connection.server, sdk).toEqual({ name: 'paging', version: '9.9.9' });
          const handlers = await mcpHandlers(connection.client, { spec: { tools: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } } as never);
          const a = (handlers as unknown as Record<string, (args: unknown) => Promise<unknown>>)['a']!;
          await expect(a({}), sdk).rejects.toThrow(McpCallError);
        } finally {
          await connection.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('combined specs prefix a tool name two servers share, and only those', () => {
    const memory = corpus.find((s) => s.id === 'memory') as CorpusServerData;
    const twin: CorpusServerData = { id: 'memory-2', fixture: memory.fixture };
    const names = specNames([memory, twin, ...corpus.filter((s) => s.id !== 'memory')]);
    expect(names.get('memory\u0000read_graph')).toBe('memory_read_graph');
    expect(names.get('memory-2\u0000read_graph')).toBe('memory_2_read_graph');
    expect(names.get('github\u0000create_issue')).toBe('create_issue');
  });
});

describe.each(CASES)('$name', (c) => {
  const defects = c.blockedBy.map((id) => OPEN_DEFECTS[id]).filter((d) => d !== undefined);
  if (defects.length > 0) {
    const label = defects.map((d) => `defect ${d.defect}: ${d.what}`).join('; ');
    test(`EXPECTED FAILURE (known generator problem) ${label}`, () => {
      const r = results.get(c.name) as GenerateResult;
      expect(r.ok).toBe(false);
      expect([...new Set(r.problems.map((p) => p.code))].sort()).toEqual([...new Set(defects.map((d) => d.code))].sort());
    });
    return;
  }

  test('generates with no errors', () => {
    const r = results.get(c.name) as GenerateResult;
    expect(r.problems.map(formatGenerateProblem)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.counts.tools).toBe(c.built.calls.length);
  });

  test('the output and a valid instance of every tool type-check (strict, exactOptionalPropertyTypes, noPropertyAccessFromIndexSignature, …)', () => {
    const mine = tscErrors.filter((e) => e.file.startsWith(`${c.name}/`));
    const lines = instanceLines.get(c.name) as Map<number, string>;
    const described = mine.map((e) => (e.file === `${c.name}/instances.ts` ? `${lines.get(e.line) ?? `line ${e.line}`}: ${e.text}` : `${e.file}:${e.line}: ${e.text}`));
    expect(described).toEqual([]);
    expect(tscOther).toEqual([]);
    if (tscErrors.length === 0) expect(tscStatus).toBe(0);
  });

  test('every tool dispatches valid calls and is rejected exactly where plain ajv rejects', async () => {
    const gen = (await import(pathToFileURL(path.join(dirOf(c), 'out', 'index.ts')).href)) as GeneratedModule;
    const received: { tool: string; args: unknown }[] = [];
    const handlers = Object.fromEntries(
      c.built.calls.map((call) => [call.tool, (args: unknown) => (received.push({ tool: call.tool, args }), 'done')]),
    );
    const router = createRouter(gen, handlers as never);
    for (const group of new Set(c.built.calls.filter((x) => x.via === 'toolkit').map((x) => x.group))) {
      const loaded = await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: group } });
      expect(loaded.ok, String(group)).toBe(true);
    }
    const send = (call: CorpusCall, args: unknown) =>
      router.dispatch(
        call.via === 'namespace'
          ? { name: call.group as string, arguments: JSON.stringify({ action: call.tool, args }) }
          : { name: call.tool, arguments: JSON.stringify(args) },
      );

    let rejected = 0;
    for (const call of c.built.calls) {
      const o = oracle(call.inputSchema);
      const what = `${call.server}/${call.original}`;
      const valid: Partial<Record<InstanceMode, Record<string, unknown>>> = {};
      for (const mode of ['minimal', 'maximal'] as const) {
        const value = validInstance(call.inputSchema, mode);
        expect(value, `${what}: no valid ${mode} instance`).toBeTypeOf('object');
        valid[mode] = value as Record<string, unknown>;
        received.length = 0;
        const r = await send(call, value);
        expect(r, `${what} (${mode})`).toMatchObject({ ok: true, tool: call.tool, result: 'done' });
        expect(received).toEqual([{ tool: call.tool, args: value }]);
      }
      for (const m of mutations(call.inputSchema, valid.maximal as never)) {
        received.length = 0;
        const expected = o.valid(m.args);
        const r = await send(call, m.args);
        expect(r.ok, `${what} ${m.label}: ${JSON.stringify(m.args).slice(0, 300)} → ${r.ok ? 'accepted' : (r as { reason: string }).reason}`).toBe(expected);
        if (r.ok) {
          expect(received).toEqual([{ tool: call.tool, args: m.args }]);
        } else {
          rejected++;
          expect(r.code, `${what} ${m.label}`).toBe('invalid_arguments');
          expect(received).toEqual([]);
        }
      }
      // Arguments that are not an object at all.
      const notObject = await send(call, [1]);
      expect(notObject.ok ? 'accepted' : notObject.code, what).toBe('malformed_arguments');
    }
    expect(rejected).toBeGreaterThan(0);
  });
});
