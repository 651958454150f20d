/**
 * The pure half of `toolroute import mcp`: paging, name fixes, what is
 * recorded in the file, tools the generator refuses, merging into a spec that
 * holds other tools, and the name rule `mcpHandlers` shares with the importer.
 */
import type { McpTool as Tool } from '../../integrations/mcp/types.js';
import { describe, expect, it } from 'vitest';
import { RESERVED_TOOL_NAMES } from '../../runtime/contract.js';
import { buildMcpImport, checkImport, compareImport, readRecords } from '../../generator/import/mcp.js';
import { loadText } from '../../generator/load.js';
import { validateSpec } from '../../generator/validate.js';
import { listAllTools } from '../../integrations/mcp/connect.js';
import { mcpHandlers } from '../../integrations/mcp/handlers.js';
import { specToolName } from '../../integrations/mcp/names.js';
import fc from 'fast-check';
import { parseDocument } from 'yaml';

const SERVER = { name: 'demo-server', version: '1.2.3' };
const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description: `Does ${name}`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  ...extra,
});

/** A new import of `tools` as the namespace `demo`. */
const importAsDemo = (tools: Tool[]) => buildMcpImport(tools, undefined, { name: 'demo' }, SERVER, 'spec.yaml');

function valid(text: string): string[] {
  const loaded = loadText(text, 'spec.yaml', 'yaml');
  if (!loaded.ok) return loaded.problems.map((p) => p.message);
  return validateSpec(loaded.spec).map((p) => p.message);
}

describe('listAllTools', () => {
  it('follows nextCursor through every page', async () => {
    const pages: Record<string, { tools: Tool[]; nextCursor?: string }> = {
      start: { tools: [tool('a'), tool('b')], nextCursor: 'p2' },
      p2: { tools: [tool('c')], nextCursor: 'p3' },
      p3: { tools: [tool('d')] },
    };
    const seen: (string | undefined)[] = [];
    const client = {
      listTools: async (params?: { cursor?: string }) => {
        seen.push(params?.cursor);
        return pages[params?.cursor ?? 'start']!;
      },
    };
    const tools = await listAllTools(client as never);
    expect(tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(seen).toEqual([undefined, 'p2', 'p3']);
  });

  it('refuses a cursor that repeats instead of looping forever', async () => {
    const client = { listTools: async () => ({ tools: [tool('a')], nextCursor: 'again' }) };
    await expect(listAllTools(client as never)).rejects.toThrow(/returned the cursor "again" twice/);
  });
});

describe('specToolName', () => {
  it('keeps portable names and fixes the others, saying why', () => {
    expect(specToolName('fs_', 'read_file')).toEqual({ name: 'fs_read_file' });
    expect(specToolName('', 'github.get/issue').name).toBe('github_get_issue');
    expect(specToolName('', 'github.get/issue').fix?.why).toMatch(/characters outside/);
    expect(specToolName('', '9lives').name).toBe('_9lives');
    expect(specToolName('', 'load_toolkit').name).toBe('mcp_load_toolkit');
    // Every name the library owns, the toolkit dispatcher included, is renamed: the spec would refuse it.
    for (const reserved of RESERVED_TOOL_NAMES) expect(specToolName('', reserved).name).toBe(`mcp_${reserved}`);
    const long = specToolName('', 'x'.repeat(80));
    expect(long.name).toHaveLength(64);
    expect(long.name).not.toBe(specToolName('', `${'x'.repeat(79)}y`).name);
  });
});

describe('mcpHandlers and the importer name tools by one rule', () => {
  it('pairs every tool the import wrote, a changed name numbered around a kept one and one after a skipped task-only tool included', async () => {
    const served = [tool('a.b'), tool('a_b'), tool('job', { execution: { taskSupport: 'required' } }), tool('résumé'), tool('r_sum_')];
    const built = buildMcpImport(served, undefined, { as: 'flat', name: 'demo' }, SERVER, 'spec.yaml');
    expect(built.problems).toEqual([]);
    const written = (parseDocument(built.text!).toJS() as { tools: { name: string }[] }).tools.map((t) => t.name);
    // A name the server wrote portably is kept; the changed one is numbered, whichever the server lists first.
    expect(written).toEqual(['a_b_2', 'a_b', 'r_sum__2', 'r_sum_']);
    const reversed = buildMcpImport([...served].reverse(), undefined, { as: 'flat', name: 'demo' }, SERVER, 'spec.yaml');
    expect((parseDocument(reversed.text!).toJS() as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['r_sum_', 'r_sum__2', 'a_b', 'a_b_2']);
    const called: string[] = [];
    const client = {
      listTools: async () => ({ tools: served }),
      callTool: async (params: { name: string }) => (called.push(params.name), { content: [{ type: 'text', text: params.name }] }),
    };
    const handlers = (await mcpHandlers(client as never, { spec: { tools: written.map((name) => ({ name })) } } as never)) as Record<string, (args: unknown) => Promise<unknown>>;
    expect(Object.keys(handlers)).toEqual(written);
    for (const name of written) await handlers[name]!({ q: 'x' });
    expect(called).toEqual(['a.b', 'a_b', 'résumé', 'r_sum_']);
  });
});

describe('mcpHandlers refuses a pairing it cannot be sure of', () => {
  const client = (served: Tool[], called: string[] = []) => ({
    listTools: async () => ({ tools: served }),
    callTool: async (params: { name: string }) => (called.push(params.name), { content: [{ type: 'text', text: params.name }] }),
  });
  const spec = (tools: { name: string; description: string }[]) => ({ spec: { tools } }) as never;

  it('a tool the server added whose name reads as an imported one: the import\'s own description decides, else it throws', async () => {
    // Imported from `items.get` (read-only); the server then adds a destructive `items_get`, which keeps the plain name.
    const served = [tool('items.get', { description: 'Get an item' }), tool('items_get', { description: 'Delete every item' })];
    await expect(mcpHandlers(client(served) as never, spec([{ name: 'items_get', description: 'Get an item' }]))).rejects.toThrow(
      'mcpHandlers: the server added a tool whose name reads as one the spec imported, so the spec cannot tell which it meant: "items_get" (now "items.get" or "items_get" on the server).',
    );
    // Imported from `items_get` itself: the tool added since (`items.get`, numbered `items_get_2`) changes nothing.
    const called: string[] = [];
    const handlers = (await mcpHandlers(client(served, called) as never, spec([{ name: 'items_get', description: 'Delete every item' }]))) as Record<string, (args: unknown) => Promise<unknown>>;
    await handlers['items_get']!({});
    expect(called).toEqual(['items_get']);
  });

  it('a prefix that selects no tool of the spec throws, naming where the recorded prefix is', async () => {
    await expect(mcpHandlers(client([tool('create_entities')]) as never, spec([{ name: 'create_entities', description: 'x' }]), { prefix: 'memory_' })).rejects.toThrow(
      /^mcpHandlers: no tool of this spec starts with the prefix "memory_": pass the prefix the import recorded/,
    );
  });
});

describe('buildMcpImport: a clash with what the spec already holds', () => {
  it('names the fix by what clashed (--name for a group or policy, --prefix for a tool) and says whose lines it shows', () => {
    const group = buildMcpImport([tool('a')], 'version: 1\nnamespaces:\n  - name: demo\n    description: mine\n    tools:\n      - name: mine\n        description: Mine\n', { name: 'demo' }, SERVER, 'ns.yaml');
    expect(group.text).toBeUndefined();
    expect(group.problems.join('\n')).toMatch(/^ns\.yaml \(as this import would write it\):\d+:\d+ - error \[name_collision\] namespaces\[1\]\.name: /m);
    expect(group.problems.at(-1)).toBe("(Lines refer to the spec as this import would write it.) For the clash, pass --name <group> to give the import's group and policies other names.");
    const flat = buildMcpImport([tool('mine')], 'version: 1\ntools:\n  - name: mine\n    description: Mine\n', { as: 'flat', name: 'demo', prefix: '' }, SERVER, 'flat.yaml');
    expect(flat.text).toBeUndefined();
    expect(flat.problems.at(-1)).toBe('(Lines refer to the spec as this import would write it.) For the clash, pass --prefix <p> to give the imported tools other names.');
  });
});

describe('buildMcpImport', () => {
  it('writes a valid spec with the record, tags, policies and every fix as a comment', () => {
    const built = buildMcpImport(
      [
        tool('search.issues', { annotations: { readOnlyHint: true } }),
        tool('drop', { description: '', title: 'Drop everything' }),
        tool('plain'),
        tool('job', { execution: { taskSupport: 'required' } }),
      ],
      undefined,
      { as: 'namespace', name: 'demo' },
      SERVER,
      'spec.yaml',
    );
    expect(built.problems).toEqual([]);
    const text = built.text!;
    expect(valid(text)).toEqual([]);
    expect(built.record).toEqual({
      name: 'demo', as: 'namespace', prefix: '', server: 'demo-server 1.2.3',
      tools: ['search_issues', 'drop', 'plain'], policies: ['demo_readonly', 'demo_nondestructive'],
    });
    expect(readRecords(parseDocument(text))).toEqual([built.record]);
    expect(text).toContain('# import: name "search.issues" written as "search_issues": characters outside [A-Za-z0-9_-] became "_".');
    expect(text).toContain('# import: "drop" has no description; wrote "Drop everything"');
    expect(text).toContain('# skipped by import of demo: skipped "job": it runs only as an MCP task');
    expect(built.notes.map((n) => n.kind)).toEqual(['renamed', 'described', 'skipped']);
    const spec = parseDocument(text).toJS() as { namespaces: { tools: { name: string; tags: string[] }[] }[]; policies: Record<string, string[]> };
    // MCP defaults: no annotations = not read-only, destructive, not idempotent, open world.
    expect(spec.namespaces[0]!.tools.map((t) => t.tags)).toEqual([['read-only', 'idempotent', 'open-world'], ['destructive', 'open-world'], ['destructive', 'open-world']]);
    expect(spec.policies).toEqual({ demo_readonly: ['drop', 'plain'], demo_nondestructive: ['drop', 'plain'] });
  });

  it('leaves out a tool whose schema the generator refuses, with the generator\'s reason, and keeps the rest', () => {
    const built = buildMcpImport(
      [tool('good'), tool('bad', { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['m'] } })],
      undefined,
      { as: 'flat', name: 'demo' },
      SERVER,
      'spec.yaml',
    );
    expect(built.problems).toEqual([]);
    expect(valid(built.text!)).toEqual([]);
    expect(built.record.tools).toEqual(['good']);
    expect(built.notes).toEqual([expect.objectContaining({ tool: 'bad', kind: 'skipped', message: expect.stringMatching(/generator refuses it: \[required_not_in_properties\]/) })]);
    expect(built.text).toMatch(/# skipped by import of demo: skipped "bad": the generator refuses it/);
  });

  it('leaves out a tool whose schema is refused wherever the problem is: at a key written in brackets, or under a property named like a tool field', () => {
    const built = importAsDemo([
      tool('good'),
      tool('vendor', { inputSchema: { type: 'object', properties: {}, 'x-vendor-hint': true } as Tool['inputSchema'] }),
      tool('shadow', { inputSchema: { type: 'object', properties: { returns: { type: 'strin' } } } as Tool['inputSchema'], outputSchema: { type: 'object', properties: {} } as Tool['outputSchema'] }),
    ]);
    expect(built.problems).toEqual([]);
    expect(valid(built.text!)).toEqual([]);
    expect(built.record.tools).toEqual(['good']);
    expect(built.notes.map((n) => [n.tool, n.kind])).toEqual([['shadow', 'skipped'], ['vendor', 'skipped']]);
    expect(built.notes.map((n) => n.message)).toEqual([
      expect.stringMatching(/\[invalid_schema\] "strin" is not a JSON Schema type/),
      expect.stringMatching(/\[unknown_schema_keyword\] unknown JSON Schema keyword "x-vendor-hint"/),
    ]);
  });

  it('keeps an input schema that uses the applicators, assertions and annotations of JSON Schema 2020-12, as MCP allows', () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $comment: 'every applicator and annotation of 2020-12',
      type: 'object',
      $defs: { tag: { type: 'string', pattern: '^[a-z]+$', deprecated: false, examples: ['a'] } },
      properties: {
        name: { type: 'string', minLength: 1, format: 'email', readOnly: false, writeOnly: false },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 1 },
        tags: { type: 'array', items: { $ref: '#/$defs/tag' }, uniqueItems: true, contains: { const: 'x' }, minContains: 0, maxContains: 3 },
        extra: { type: 'array', prefixItems: [{ type: 'number' }], unevaluatedItems: false },
        blob: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' },
        kind: { enum: ['a', 'b'] },
        limit: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
        meta: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, patternProperties: { '^x': { type: 'string' } }, minProperties: 0, maxProperties: 4 },
      },
      required: ['name'],
      dependentRequired: { blob: ['kind'] },
      dependentSchemas: { limit: { required: ['kind'] } },
      if: { properties: { kind: { const: 'a' } }, required: ['kind'] },
      then: { required: ['limit'] },
      else: {},
      allOf: [{ not: { required: ['forbidden'] } }],
      anyOf: [{ required: ['name'] }],
      oneOf: [{ required: ['name'] }],
      unevaluatedProperties: false,
    } as const;
    const built = buildMcpImport([tool('modern', { inputSchema })], undefined, { as: 'flat', name: 'demo' }, SERVER, 'spec.yaml');
    expect(built.problems).toEqual([]);
    expect(built.notes).toEqual([]);
    expect(built.record.tools).toEqual(['modern']);
    expect(valid(built.text!)).toEqual([]);
  });

  it('keeps an input schema that uses the identifiers of JSON Schema 2020-12 ($id, $anchor, $dynamicRef, $dynamicAnchor)', () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/tools/outline',
      $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true },
      type: 'object',
      $defs: {
        title: { $anchor: 'title', type: 'string', minLength: 1 },
        section: { $id: 'section', $dynamicAnchor: 'node', type: 'object', properties: { title: { $ref: 'outline#title' }, sections: { type: 'array', items: { $dynamicRef: '#node' } } }, required: ['title'] },
      },
      properties: { title: { $ref: '#title' }, root: { $ref: 'section' } },
      required: ['title', 'root'],
    } as const;
    const built = buildMcpImport([tool('outline', { inputSchema })], undefined, { as: 'flat', name: 'demo' }, SERVER, 'spec.yaml');
    expect(built.problems).toEqual([]);
    expect(built.notes).toEqual([]);
    expect(built.record.tools).toEqual(['outline']);
    expect(valid(built.text!)).toEqual([]);
  });

  it('prefixes a second source, keeps hand-written content and comments, and refuses a broken saved spec', () => {
    const saved = '# my own tools\nversion: 1\ntools:\n  - name: local\n    description: Mine # keep me\n';
    const built = buildMcpImport([tool('local')], saved, { as: 'toolkit' }, SERVER, 'spec.yaml');
    expect(built.problems).toEqual([]);
    expect(built.record.name).toBe('demo_server');
    expect(built.record.prefix).toBe('demo_server_');
    expect(built.text).toContain('# my own tools');
    expect(built.text).toContain('description: Mine # keep me');
    expect(valid(built.text!)).toEqual([]);
    expect(buildMcpImport([tool('a')], 'version: [1\n', {}, SERVER, 'spec.yaml').problems[0]).toMatch(/^spec\.yaml: not valid YAML/);
    // A name collision with the user's own tool is the user's to resolve: nothing is written.
    const clash = buildMcpImport([tool('local')], saved, { as: 'flat', prefix: '' }, SERVER, 'spec.yaml');
    expect(clash.text).toBeUndefined();
    expect(clash.problems.join('\n')).toMatch(/\[duplicate_tool\] tools\[1\].name: the tool "local" is defined twice/);
  });

  it('keeps an output schema as returns, and only the result type is lost when the generator refuses it', () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as Tool['outputSchema'];
    const built = importAsDemo([tool('count', { outputSchema }), tool('odd', { outputSchema: { type: 'object', properties: {}, required: ['missing'] } as Tool['outputSchema'] })]);
    expect(built.problems).toEqual([]);
    expect(valid(built.text!)).toEqual([]);
    const spec = parseDocument(built.text!).toJS() as { namespaces: { tools: { name: string; returns?: unknown }[] }[] };
    expect(spec.namespaces[0]!.tools.map((t) => [t.name, t.returns])).toEqual([['count', outputSchema], ['odd', undefined]]);
    expect(built.notes).toEqual([expect.objectContaining({ tool: 'odd', kind: 'untyped', message: expect.stringMatching(/output schema of "odd" is not kept.*\[required_not_in_properties\]/) })]);
    expect(built.text).toContain('# import: the output schema of "odd" is not kept');
    // A changed output schema is drift.
    const changed = buildMcpImport([tool('count', { outputSchema: { type: 'object', properties: { n: { type: 'string' } } } as Tool['outputSchema'] })], built.text, { name: 'demo' }, SERVER, 'spec.yaml').text!;
    expect(compareImport(built.text!, changed, 'demo')).toEqual([
      { tool: 'count', change: 'changed', fields: ['returns'] },
      { tool: 'odd', change: 'removed from the server' },
    ]);
  });

  it('compareImport names added, removed and changed tools', () => {
    const a = buildMcpImport([tool('x'), tool('y')], undefined, { name: 'demo' }, SERVER, 's.yaml').text!;
    const b = buildMcpImport([tool('x', { description: 'New' }), tool('z')], a, { name: 'demo' }, SERVER, 's.yaml').text!;
    expect(compareImport(a, b, 'demo')).toEqual([
      { tool: 'x', change: 'changed', fields: ['description'] },
      { tool: 'z', change: 'added on the server' },
      { tool: 'y', change: 'removed from the server' },
    ]);
    expect(compareImport(a, a, 'demo')).toEqual([]);
  });

  it('keeps the order the spec holds: a server that lists its tools in another order rewrites nothing, and a new tool goes last', () => {
    const tools = [tool('alpha'), tool('beta'), tool('gamma')];
    const saved = importAsDemo(tools).text!;
    expect(buildMcpImport([...tools].reverse(), saved, { name: 'demo' }, SERVER, 'spec.yaml').text).toBe(saved);
    const grown = buildMcpImport([tool('delta'), ...tools].reverse(), saved, { name: 'demo' }, SERVER, 'spec.yaml');
    expect(grown.record.tools).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect([...grown.text!.matchAll(/- name: (\w+)/g)].map((m) => m[1]).filter((n) => n !== 'demo')).toEqual(['alpha', 'beta', 'gamma', 'delta']);
  });

  it('checkImport: a new server version with the same tools is in sync and named; an edit inside the imported entries is not', () => {
    const tools = [tool('alpha'), tool('beta')];
    const saved = importAsDemo(tools).text!;
    const before = readRecords(parseDocument(saved)).find((r) => r.name === 'demo')!;
    const bumped = buildMcpImport(tools, saved, { name: 'demo' }, { ...SERVER, version: '1.2.4' }, 'spec.yaml');
    expect(bumped.text).not.toBe(saved);
    expect(checkImport(saved, bumped.text!, before, bumped.record)).toEqual({ drift: [], serverChanged: { from: 'demo-server 1.2.3', to: 'demo-server 1.2.4' } });
    expect(checkImport(saved, saved, before, before)).toEqual({ drift: [] });
    // A comment written by hand in the imported group is not kept by an import: reported, with or without a new version.
    const edited = saved.replace(/^(\s*)- name: beta$/m, '$1# mine\n$1- name: beta');
    expect(edited).not.toBe(saved);
    const line = edited.split('\n').indexOf(edited.split('\n').find((l) => l.trim() === '# mine')!) + 1;
    for (const server of [SERVER, { ...SERVER, version: '1.2.4' }]) {
      const now = buildMcpImport(tools, edited, { name: 'demo' }, server, 'spec.yaml');
      expect(checkImport(edited, now.text!, before, now.record)).toEqual({ drift: [], rewrites: { line, text: expect.stringContaining('# mine') } });
    }
    // A changed tool is drift, whatever the version.
    const changed = buildMcpImport([tool('alpha', { description: 'New' }), tool('beta')], saved, { name: 'demo' }, { ...SERVER, version: '1.2.4' }, 'spec.yaml');
    expect(checkImport(saved, changed.text!, before, changed.record)).toEqual({ drift: [{ tool: 'alpha', change: 'changed', fields: ['description'] }] });
  });
});

describe('buildMcpImport of a property named "<<"', () => {
  it('quotes the key, so the spec reads it as a property and not as a YAML merge key', () => {
    const built = importAsDemo([{ name: 'merge', description: 'Merge.', inputSchema: { type: 'object', properties: { '<<': { type: 'string' } }, required: ['<<'] } } as Tool]);
    expect(built.text).toContain('"<<":');
    expect(valid(built.text!)).toEqual([]);
    const loaded = loadText(built.text!, 'spec.yaml', 'yaml');
    expect(loaded.ok && JSON.stringify(loaded.spec.value)).toContain('"properties":{"<<":{"type":"string"}}');
  });
});

describe('buildMcpImport on arbitrary servers', () => {
  const name = fc.oneof(fc.string({ maxLength: 16 }), fc.constantFrom('read_file', 'load_toolkit', 'call_toolkit_tool', 'a b', 'ünï', '中文', 'x'.repeat(90), '__proto__', 'constructor', '', 'a.b', 'A-B', '<<'));
  const property = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.record({ type: fc.constantFrom('string', 'number', 'object', 'bogus'), description: fc.string(), enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }), format: fc.constantFrom('email', 'weird'), $ref: fc.constantFrom('#', '#/$defs/a', 'http://x') }, { requiredKeys: [] }),
  );
  const schema = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      {
        type: fc.constantFrom('object', 'string', 'nonsense'), properties: fc.dictionary(name, property, { maxKeys: 4 }), required: fc.array(name, { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })), $defs: fc.dictionary(fc.constantFrom('a', 'b'), fc.jsonValue({ maxDepth: 2 })),
        $schema: fc.constantFrom('http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema', 'x'), 'x-vendor': fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    ),
  );
  const serverTool = fc.record(
    { name, description: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }), title: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }), inputSchema: schema, outputSchema: fc.option(schema, { nil: undefined }) },
    { requiredKeys: ['name', 'inputSchema'] },
  );

  it('writes a spec the generator accepts, listing or noting every tool, or writes nothing and says why', () => {
    fc.assert(
      fc.property(fc.array(serverTool, { minLength: 1, maxLength: 6 }), fc.constantFrom('flat', 'namespace', 'toolkit') as fc.Arbitrary<'flat' | 'namespace' | 'toolkit'>, (tools, as) => {
        const built = buildMcpImport(tools as Tool[], undefined, { as }, SERVER, 'spec.yaml');
        expect(built.problems.join('\n')).not.toMatch(/bug in toolroute/);
        if (built.text === undefined) {
          expect(built.problems.length).toBeGreaterThan(0);
          // A tool whose own schema is refused is left out; it never keeps the others from being imported.
          expect(built.problems.filter((p) => /tools\[\d+\]\.(parameters|returns)(\.|\[|:)/.test(p))).toEqual([]);
          return;
        }
        expect(valid(built.text)).toEqual([]);
        // Nothing is dropped silently: every server tool is imported or noted as skipped.
        expect(built.record.tools.length + built.notes.filter((n) => n.kind === 'skipped').length).toBe(tools.length);
      }),
      { numRuns: 100 },
    );
  });
});
