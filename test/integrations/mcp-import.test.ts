/**
 * `toolroute import mcp` and `mcpHandlers` against the real reference servers,
 * started over stdio: three servers and one local tool imported into one spec
 * (memory as a toolkit, filesystem as a namespace, everything as flat tools),
 * generated, type-checked together with an application that builds its
 * handlers with `mcpHandlers`, and then dispatched: valid, invalid and blocked
 * calls, through the namespace and through a loaded toolkit, with the servers'
 * real results (and the files they wrote on disk). The import writes the same
 * bytes on either MCP SDK line; the router and `--check` run on each.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { connectMcp, mcpHandlers, type McpConnection, type McpSdkLine } from '../../integrations/mcp/index.js';
import { createRouter, type GeneratedModule, type RegistryShape } from '../../runtime/index.js';
import { REPO } from '../generator/helpers.js';
import { LINES } from './mcp-lines.js';
import { cli, SERVER, tempDir } from './mcp-servers.js';
import { TSC_RUN } from '../setup/package-build.js';

const dir = tempDir('mcp-import-');
const files = path.join(dir, 'files');
const spec = path.join(dir, 'tools.spec.yaml');
const out = path.join(dir, 'out');
const connections: McpConnection[] = [];
let generated: GeneratedModule<RegistryShape>;

const LOCAL_SPEC = `version: 1
tools:
  - name: get_time
    description: Get timestamp
`;

beforeAll(async () => {
  spawnSync('mkdir', ['-p', files]);
  writeFileSync(spec, LOCAL_SPEC);
  const imports = [
    ['--as', 'toolkit', '--name', 'memory', '--', ...SERVER.memory()],
    ['--as', 'namespace', '--name', 'fs', '--', ...SERVER.filesystem(files)],
    ['--as', 'flat', '--name', 'everything', '--', ...SERVER.everything()],
  ];
  for (const sdk of LINES) {
    const target = sdk === '1.x' ? spec : path.join(dir, `tools.${sdk}.spec.yaml`);
    writeFileSync(target, LOCAL_SPEC);
    for (const args of imports) {
      const r = await cli(['import', 'mcp', '--out', target, '--sdk', sdk, ...args]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
  }
  const gen = await cli(['codegen', spec, '--out', out]);
  expect(gen.stderr).toBe('');
  expect(gen.code).toBe(0);
  generated = (await import(pathToFileURL(path.join(out, 'index.ts')).href)) as GeneratedModule<RegistryShape>;
});

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function connect(sdk: McpSdkLine, command: readonly string[], env?: Record<string, string>): Promise<McpConnection> {
  const c = await connectMcp({ command: command[0]!, args: command.slice(1), ...(env ? { env } : {}) }, { sdk });
  expect(c.line).toBe(sdk);
  connections.push(c);
  return c;
}

/** One filesystem server per line: the tests that only read its tools and the router share it. */
const filesystemServers = new Map<McpSdkLine, Promise<McpConnection>>();
const filesystem = (sdk: McpSdkLine = '1.x'): Promise<McpConnection> => {
  if (!filesystemServers.has(sdk)) filesystemServers.set(sdk, connect(sdk, SERVER.filesystem(files)));
  return filesystemServers.get(sdk)!;
};

describe('toolroute import mcp', () => {
  it('writes the same spec on either MCP SDK line', () => {
    const text = readFileSync(spec, 'utf8');
    for (const sdk of LINES) expect(readFileSync(sdk === '1.x' ? spec : path.join(dir, `tools.${sdk}.spec.yaml`), 'utf8'), sdk).toBe(text);
  });

  it('writes one spec holding the local tool and all three servers, prefixed because they share it', () => {
    const text = readFileSync(spec, 'utf8');
    const names = generated.spec.tools.map((t) => t.name);
    expect(names[0]).toBe('get_time');
    // Every server got its group name as prefix: the spec already held something else.
    for (const n of ['memory_create_entities', 'memory_read_graph', 'fs_read_text_file', 'fs_write_file', 'everything_echo', 'everything_get-sum']) expect(names).toContain(n);
    expect(generated.spec.toolkits.map((k) => k.name)).toEqual(['memory']);
    expect(generated.spec.namespaces.map((n) => n.name)).toEqual(['fs']);
    // One record per server in the header, and the task-only tool left out with its reason.
    expect(text.match(/^# toolroute-import-mcp: /gm)).toHaveLength(3);
    expect(text).toMatch(/# skipped by import of everything: skipped "simulate-research-query": it runs only as an MCP task/);
    expect(names.some((n) => n.includes('simulate-research-query'))).toBe(false);
  });

  it('keeps annotations as tags and turns them into policies', () => {
    const tool = (n: string) => generated.spec.tools.find((t) => t.name === n)!;
    expect(tool('fs_read_text_file').tags).toEqual(['read-only', 'idempotent']);
    expect(tool('fs_write_file').tags).toEqual(['destructive', 'idempotent']);
    // Flat tools also carry the server's name, so a task naming the server keeps them when pruning.
    expect(tool('everything_echo').tags).toEqual(['read-only', 'idempotent', 'everything']);
    expect(generated.spec.policies['fs_readonly']).toEqual(expect.arrayContaining(['fs_write_file', 'fs_edit_file', 'fs_move_file', 'fs_create_directory']));
    expect(generated.spec.policies['fs_readonly']).not.toContain('fs_read_text_file');
    expect(generated.spec.policies['fs_nondestructive']).toContain('fs_write_file');
    expect(generated.spec.policies['fs_nondestructive']).not.toContain('fs_create_directory');
  });

  it('keeps descriptions and input schemas as published', async () => {
    const fs = await filesystem();
    const live = (await fs.client.listTools()).tools.find((t) => t.name === 'read_text_file')!;
    const i = generated.spec.tools.findIndex((t) => t.name === 'fs_read_text_file');
    const rendered = generated.spec.rendered.neutral.tools[i] as { description: string; parameters: Record<string, unknown> };
    expect(rendered.description).toBe(live.description);
    // The generator converts the server's draft-07 schema to 2020-12 (the IR's one dialect); the properties are the server's.
    expect(rendered.parameters['properties']).toEqual(live.inputSchema.properties);
    expect(rendered.parameters['required']).toEqual(live.inputSchema.required);
    // The output schema is kept as `returns`, exactly as published.
    const saved = parseDocument(readFileSync(spec, 'utf8')).toJS() as { namespaces: { tools: { name: string; returns?: unknown }[] }[] };
    const entry = saved.namespaces.find((n) => n.tools.some((t) => t.name === 'fs_read_text_file'))!.tools.find((t) => t.name === 'fs_read_text_file')!;
    expect(entry.returns).toEqual(live.outputSchema);
  });

  it('type-checks the generated folder with an application that builds handlers with mcpHandlers', () => {
    writeFileSync(
      path.join(dir, 'app.ts'),
      `import { createRouter } from 'toolroute/runtime';
import { mcpHandlers, type McpToolOutput } from 'toolroute/mcp';
import * as generated from './out/index.ts';
import type { Handlers, FsReadTextFileArgs, FsReadTextFileResult, ToolResults } from './out/index.ts';

declare const client: Parameters<typeof mcpHandlers>[0];
const memory = await mcpHandlers(client, generated, { prefix: 'memory_' });
const fs = await mcpHandlers(client, generated, { prefix: 'fs_' });
const everything = await mcpHandlers(client, generated, { prefix: 'everything_' });
const handlers = { ...memory, ...fs, ...everything, get_time: () => new Date().toISOString() } satisfies Handlers;
createRouter(generated, handlers);

// Each handler takes the tool's generated argument type and resolves to the type of the
// server's output schema (kept by the import as \`returns\`), or to McpToolOutput without one.
const ctx = { callId: undefined, context: undefined, signal: new AbortController().signal };
const args: FsReadTextFileArgs = { path: 'a.txt', head: 3 };
const text: string = (await fs.fs_read_text_file(args, ctx)).content;
const typed: FsReadTextFileResult = await fs.fs_read_text_file(args, ctx);
const graph: ToolResults['memory_read_graph'] = await memory.memory_read_graph({}, ctx);
const names: string[] = graph.entities.map((e) => e.name);
const sum: McpToolOutput = await everything['everything_get-sum']({ a: 1, b: 2 }, ctx);
void [text, typed, names, sum];
// @ts-expect-error a field the output schema does not have
void (await fs.fs_read_text_file(args, ctx)).contnt;
// @ts-expect-error a tool without an output schema is not typed as one that has it
const notTyped: FsReadTextFileResult = await everything['everything_get-sum']({ a: 1, b: 2 }, ctx);
void notTyped;
// @ts-expect-error a misspelled argument is a compile error
void fs.fs_read_text_file({ pth: 'a.txt' }, { callId: undefined, context: undefined, signal: new AbortController().signal });
// @ts-expect-error a prefix selects only that server's tools
void fs.memory_read_graph;
// @ts-expect-error leaving one server out leaves its tools without handlers
void ({ ...memory, ...fs, get_time: () => '' } satisfies Handlers);
`,
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: path.relative(dir, path.join(REPO, 'tsconfig.json')), compilerOptions: { noEmit: true }, include: ['out', 'app.ts'], exclude: [] }),
    );
    const tsc = spawnSync(process.execPath, [...TSC_RUN, '--noEmit', '-p', dir], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  // File handling, the same on either SDK line: once.
  it('a spec it cannot read or write is exit 1 with the path as given and the error code, never an internal error', async () => {
    writeFileSync(path.join(dir, 'a-file'), '');
    const unreadable = await cli(['import', 'mcp', '--out', 'a-file/tools.yaml', '--sdk', '2.x', '--', ...SERVER.memory()], dir);
    expect([unreadable.code, unreadable.stderr]).toEqual([1, expect.stringContaining('cannot read a-file/tools.yaml (ENOTDIR).')]);
    // A legal name whose temporary file's name is too long: the write and its cleanup both fail.
    const long = `${'m'.repeat(245)}.yaml`;
    const unwritable = await cli(['import', 'mcp', '--out', long, '--sdk', '2.x', '--', ...SERVER.memory()], dir);
    expect([unwritable.code, unwritable.stderr]).toEqual([1, expect.stringContaining(`cannot write ${long} (ENAMETOOLONG).`)]);
    expect(unwritable.stderr).not.toContain('internal error');
  });

  it('a spec that starts with a comment right above its first key (as `init` writes one) imports again, and keeps the comment', async () => {
    const commented = path.join(dir, 'commented.spec.yaml');
    writeFileSync(commented, `# My agent's tools.\n${LOCAL_SPEC}`);
    const args = ['import', 'mcp', '--out', commented, '--name', 'memory', '--', ...SERVER.memory()];
    expect((await cli(args)).code).toBe(0);
    const first = readFileSync(commented, 'utf8');
    expect(first).toContain("# My agent's tools.");
    const again = await cli(args);
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/unchanged: /);
    expect(readFileSync(commented, 'utf8')).toBe(first);
    expect((await cli([...args.slice(0, 4), '--check', ...args.slice(4)])).code).toBe(0);
  });
});

describe.each(LINES)('a router over three MCP servers and a local tool, SDK %s', (sdk) => {
  let router: ReturnType<typeof createRouter<RegistryShape>>;
  let everything: McpConnection;
  let memory: McpConnection;

  beforeAll(async () => {
    memory = await connect(sdk, SERVER.memory(), { MEMORY_FILE_PATH: path.join(dir, `memory.${sdk}.jsonl`) });
    const fs = await filesystem(sdk);
    everything = await connect(sdk, SERVER.everything());
    router = createRouter(generated, {
      ...(await mcpHandlers(memory.client, generated, { prefix: 'memory_' })),
      ...(await mcpHandlers(fs.client, generated, { prefix: 'fs_' })),
      ...(await mcpHandlers(everything.client, generated, { prefix: 'everything_' })),
      get_time: () => '2026-12-01T10:00:00Z',
    } as never);
  });

  it('writes and reads a real file through the namespace, with structured results', async () => {
    const write = await router.dispatch({ name: 'fs', arguments: { action: 'fs_write_file', args: { path: path.join(files, 'hello.txt'), content: 'hello from toolroute' } } });
    expect(write).toMatchObject({ ok: true, tool: 'fs_write_file' });
    expect(readFileSync(path.join(files, 'hello.txt'), 'utf8')).toBe('hello from toolroute');
    const read = await router.dispatch({ name: 'fs', arguments: JSON.stringify({ action: 'fs_read_text_file', args: { path: path.join(files, 'hello.txt') } }) });
    // The server declares an output schema, so the result is its structured content.
    expect(read).toMatchObject({ ok: true, result: { content: 'hello from toolroute' } });
  });

  it('rejects an invalid call before it reaches the server', async () => {
    const r = await router.dispatch({ name: 'fs', arguments: { action: 'fs_read_text_file', args: { head: 'three' } } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('invalid_arguments');
    expect(r.reason).toMatch(/\/args\/head/);
    expect(r.reason).toMatch(/\/args.*path|path/);
  });

  it('blocks through a policy written from annotations, and reads still pass', async () => {
    router.applyPolicy('fs_readonly');
    try {
      const blocked = await router.dispatch({ name: 'fs', arguments: { action: 'fs_write_file', args: { path: path.join(files, 'no.txt'), content: 'x' } } });
      expect(blocked).toMatchObject({ ok: false, code: 'blocked' });
      expect(() => readFileSync(path.join(files, 'no.txt'))).toThrow();
      const read = await router.dispatch({ name: 'fs', arguments: { action: 'fs_list_directory', args: { path: files } } });
      expect(read).toMatchObject({ ok: true, result: { content: expect.stringContaining('[FILE] hello.txt') } });
    } finally {
      router.setBlockedTools([]);
    }
  });

  it("turns the server's isError result into a handler_error with its reason", async () => {
    const r = await router.dispatch({ name: 'fs', arguments: { action: 'fs_read_text_file', args: { path: '/etc/passwd' } } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('handler_error');
    expect(r.reason).toMatch(/^Tool "fs_read_text_file" failed: .*(Access denied|outside allowed directories)/);
  });

  it('loads the memory toolkit, then creates and reads entities on the real server', async () => {
    const early = await router.dispatch({ name: 'memory_create_entities', arguments: { entities: [] } });
    expect(early).toMatchObject({ ok: false, code: 'not_loaded' });
    const load = await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'memory' } });
    expect(load).toMatchObject({ ok: true, tool: 'load_toolkit', result: expect.stringContaining('memory_create_entities') });
    const entities = [{ name: 'toolroute', entityType: 'project', observations: ['routes tools'] }];
    const created = await router.dispatch({ name: 'memory_create_entities', arguments: { entities } });
    expect(created).toMatchObject({ ok: true, result: { entities } });
    const graph = await router.dispatch({ name: 'memory_read_graph', arguments: {} });
    expect(graph).toMatchObject({ ok: true, result: { entities, relations: [] } });
    const invalid = await router.dispatch({ name: 'memory_create_entities', arguments: { entities: [{ name: 'x' }] } });
    expect(invalid).toMatchObject({ ok: false, code: 'invalid_arguments' });
  });

  it('calls flat tools: content blocks without an output schema, structured content with one; the local tool too', async () => {
    const sum = await router.dispatch({ name: 'everything_get-sum', arguments: '{"a": 2, "b": 3}' });
    expect(sum).toMatchObject({ ok: true, result: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] });
    const weather = await router.dispatch({ name: 'everything_get-structured-content', arguments: { location: 'Chicago' } });
    expect(weather).toMatchObject({ ok: true, result: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) } });
    expect(await router.dispatch({ name: 'get_time', arguments: {} })).toMatchObject({ ok: true, result: '2026-12-01T10:00:00Z' });
    const enumMiss = await router.dispatch({ name: 'everything_get-structured-content', arguments: { location: 'Paris' } });
    expect(enumMiss).toMatchObject({ ok: false, code: 'invalid_arguments' });
  });

  it('turns a transport failure into a handler_error that says the call did not complete', async () => {
    await everything.close();
    const r = await router.dispatch({ name: 'everything_echo', arguments: { message: 'hi' } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('handler_error');
    expect(r.reason).toMatch(/^Tool "everything_echo" failed: the MCP server did not complete the call to "echo": /);
  });

  it('refuses, at startup, a spec tool the server does not have', async () => {
    await expect(mcpHandlers(memory.client, generated, { prefix: 'fs_' })).rejects.toThrow(/the server has no tool for "fs_read_file"/);
  });
});

describe.each(LINES)('toolroute import mcp --check, SDK %s', (sdk) => {
  it('passes on a fresh import and fails, naming each drifted tool, after the saved spec is edited', async () => {
    const args = ['import', 'mcp', '--out', spec, '--check', '--sdk', sdk, '--name', 'fs', '--', ...SERVER.filesystem(files)];
    const fresh = await cli(args);
    expect(fresh.stderr).toBe('');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(/is in sync with the server \(14 tools of secure-filesystem-server/);

    const saved = readFileSync(spec, 'utf8');
    try {
      const edited = saved
        .replace('description: Read a file and return it as a base64-encoded', 'description: Read a picture and return it as a base64-encoded')
        .replace(/(- name: fs_move_file\n(?:.*\n)*?\s+parameters:\n\s+type: object\n\s+properties:\n\s+source:\n\s+type: )string/, '$1number');
      expect(edited).not.toBe(saved);
      writeFileSync(spec, edited);
      const drifted = await cli(args);
      expect(drifted.code).toBe(1);
      expect(drifted.stderr).toContain('fs_read_media_file: changed (description)');
      expect(drifted.stderr).toContain('fs_move_file: changed (parameters)');
      expect(drifted.stderr.match(/^ {2}\S+: /gm)).toHaveLength(2);
      // Nothing was written.
      expect(readFileSync(spec, 'utf8')).toBe(edited);
    } finally {
      writeFileSync(spec, saved);
    }
  });

  it('fails, naming the line, when the tools match but an import would rewrite an edit inside the imported group', async () => {
    const args = ['import', 'mcp', '--out', spec, '--check', '--sdk', sdk, '--name', 'fs', '--', ...SERVER.filesystem(files)];
    const saved = readFileSync(spec, 'utf8');
    try {
      const lines = saved.split('\n');
      const at = lines.findIndex((l) => l.trim() === '- name: fs_move_file');
      expect(at).toBeGreaterThan(0);
      lines.splice(at, 0, `${lines[at]!.slice(0, lines[at]!.indexOf('-'))}# a note I wrote inside the import`);
      writeFileSync(spec, lines.join('\n'));
      const r = await cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`matches the server's tools, but importing now would rewrite it from line ${at + 1} ("# a note I wrote inside the import")`);
      expect(r.stderr).toContain('Fix: move what you wrote out of the imported group');
      expect(readFileSync(spec, 'utf8')).toBe(lines.join('\n'));
    } finally {
      writeFileSync(spec, saved);
    }
  });

  it("keeps a spec's byte-order mark and CRLF line ends, and a second import of it changes no byte", async () => {
    const crlf = path.join(dir, `crlf-${sdk}.yaml`);
    writeFileSync(crlf, '\uFEFF# mine\r\nversion: 1\r\ntools:\r\n  - name: x   # c\r\n    description: X\r\n');
    const args = ['import', 'mcp', '--out', crlf, '--sdk', sdk, '--name', 'memory', '--', ...SERVER.memory()];
    expect((await cli(args)).code).toBe(0);
    const written = readFileSync(crlf, 'utf8');
    expect(written.startsWith('\uFEFF')).toBe(true);
    expect(written.replace(/\r\n/g, '')).not.toContain('\n');
    expect(written).toContain('\r\n  - name: x   # c\r\n    description: X\r\n');
    const again = await cli(args);
    expect(again.stdout).toMatch(/unchanged: /);
    expect(readFileSync(crlf, 'utf8')).toBe(written);
    expect((await cli([...args.slice(0, 4), '--check', ...args.slice(4)])).code).toBe(0);
  });

  it('re-importing an unchanged server leaves the file byte for byte as it was', async () => {
    const before = readFileSync(spec, 'utf8');
    const r = await cli(['import', 'mcp', '--out', spec, '--sdk', sdk, '--name', 'memory', '--', ...SERVER.memory()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/unchanged: /);
    expect(readFileSync(spec, 'utf8')).toBe(before);
  });
});
