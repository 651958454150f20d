/**
 * MCP annotations out of a served router: a spec whose tools carry the tags
 * `toolroute import mcp` writes from annotations (`read-only`, `destructive`,
 * `idempotent`, `open-world`), generated and served with `serveMcpHttp(router,
 * { generated })`, listed by the official client on each SDK line: flat
 * tools, a namespace (its members' hints combined) and a toolkit's tools after
 * its load carry `annotations`; tools without those tags carry none. Imported
 * back with `toolroute import mcp --url`, the hints become the same tags.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { connectMcp, listAllTools, serveMcp, serveMcpHttp, type McpTool } from '../../integrations/mcp/index.js';
import { createRouter, type GeneratedModule, type RegistryShape } from '../../runtime/index.js';
import * as example from '../../generated/index.js';
import { LINES } from './mcp-lines.js';
import { cli, tempDir } from './mcp-servers.js';

const SPEC = `version: 1
tools:
  - name: list_items
    description: List items
    tags: [read-only, idempotent]
    parameters: { type: object, properties: {}, additionalProperties: false }
  - name: drop_items
    description: Delete every item
    tags: [destructive]
    parameters: { type: object, properties: {}, additionalProperties: false }
  - name: get_time
    description: Get timestamp
    tags: [clock]
    parameters: { type: object, properties: {}, additionalProperties: false }
namespaces:
  - name: web
    description: Web pages
    tools:
      - name: fetch_page
        description: Fetch a page
        tags: [read-only, idempotent, open-world]
        parameters: { type: object, properties: { url: { type: string } }, required: [url] }
      - name: post_form
        description: Submit a form
        tags: [destructive, open-world]
        parameters: { type: object, properties: { url: { type: string } }, required: [url] }
  - name: mixed
    description: Tagged and untagged members
    tools:
      - name: tagged_member
        description: Has hints
        tags: [read-only]
        parameters: { type: object, properties: {} }
      - name: plain_member
        description: Has none
        parameters: { type: object, properties: {} }
toolkits:
  - name: admin
    description: Administration
    tools:
      - name: reset_all
        description: Reset everything
        tags: [destructive, idempotent]
        parameters: { type: object, properties: {}, additionalProperties: false }
`;

const dir = tempDir('mcp-annotations-');
let generated: GeneratedModule<RegistryShape>;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const spec = path.join(dir, 'tools.spec.yaml');
  writeFileSync(spec, SPEC);
  const r = await cli(['codegen', spec, '--out', path.join(dir, 'out')]);
  expect(r.stderr).toBe('');
  generated = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule<RegistryShape>;
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

function router() {
  const names = ['list_items', 'drop_items', 'get_time', 'fetch_page', 'post_form', 'tagged_member', 'plain_member', 'reset_all'];
  return createRouter(generated, Object.fromEntries(names.map((n) => [n, () => n])) as never);
}
const byName = (tools: readonly McpTool[]) => new Map(tools.map((t) => [t.name, t.annotations]));
const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean, openWorldHint: boolean) => ({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint });

describe.each(LINES)('annotations in tools/list, %s server and client', (sdk) => {
  it('sends the annotation tags as annotations: flat tools, a namespace from its members, a toolkit tool after its load', async () => {
    const served = await serveMcpHttp(router(), { sdk, generated });
    cleanups.push(() => served.close());
    const connection = await connectMcp({ url: served.url }, { sdk });
    cleanups.push(() => connection.close());

    const before = byName(await listAllTools(connection.client));
    expect([...before.keys()]).toEqual(['web', 'mixed', 'list_items', 'drop_items', 'get_time', 'load_toolkit']);
    expect(before.get('list_items')).toEqual(hints(true, false, true, false));
    expect(before.get('drop_items')).toEqual(hints(false, true, false, false));
    // Read-only and idempotent only when every member is; destructive and open-world when any is.
    expect(before.get('web')).toEqual(hints(false, true, false, true));
    // No hints claimed for what the spec does not say: other tags, a member without any, the loader.
    expect(before.get('get_time')).toBeUndefined();
    expect(before.get('mixed')).toBeUndefined();
    expect(before.get('load_toolkit')).toBeUndefined();

    await connection.client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'admin' } });
    const after = byName(await listAllTools(connection.client));
    expect(after.get('reset_all')).toEqual(hints(false, true, true, false));
  });

  it('toolroute import mcp --url reads the annotations back as the same tags', async () => {
    const served = await serveMcpHttp(() => router(), { sdk, generated });
    cleanups.push(() => served.close());
    const spec = path.join(dir, `back.${sdk}.spec.yaml`);
    const r = await cli(['import', 'mcp', '--out', spec, '--as', 'namespace', '--name', 'back', '--sdk', sdk, '--url', served.url.href]);
    expect(r.stderr).toBe('');
    const back = parse(readFileSync(spec, 'utf8')) as { namespaces: { tools: { name: string; tags?: string[] }[] }[] };
    const tags = new Map(back.namespaces[0]!.tools.map((t) => [t.name, t.tags]));
    expect(tags.get('list_items')).toEqual(['read-only', 'idempotent']);
    expect(tags.get('drop_items')).toEqual(['destructive']);
    expect(tags.get('web')).toEqual(['destructive', 'open-world']);
  });
});

describe('the generated folder serveMcp reads tags from', () => {
  it('without `generated` no tool has annotations; a folder of another spec, or anything else, throws before serving', async () => {
    const served = await serveMcpHttp(router(), { sdk: '2.x' });
    cleanups.push(() => served.close());
    const connection = await connectMcp({ url: served.url }, { sdk: '2.x' });
    cleanups.push(() => connection.close());
    expect((await listAllTools(connection.client)).filter((t) => t.annotations !== undefined)).toEqual([]);

    await expect(serveMcpHttp(router(), { generated: example })).rejects.toThrow(/serveMcpHttp: `generated` is not the generated folder this router was created from/);
    await expect(serveMcpHttp(() => router(), { generated: {} as never })).rejects.toThrow(/serveMcpHttp: `generated` must be the generated folder/);
    await expect(serveMcp(router(), { transport: {} as never, generated: example })).rejects.toThrow(/serveMcp: `generated` is not the generated folder/);
  });
});
