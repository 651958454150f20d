/**
 * toolroute as a new user meets it beside the MCP SDK's 2.x packages: the
 * packed tarball installed into a fresh app outside the repo with plain
 * `npm install` together with the `@modelcontextprotocol/server` and
 * `@modelcontextprotocol/client` versions installed here (./fresh-app.ts).
 * The app type-checks against the installed declarations and runs, on this
 * process's Node, a router over the example spec served with `serveMcpHttp`
 * on 127.0.0.1 and the SDK's own 2.x `Client` talking to it: the tool list, a
 * call carrying the standing announcement, a call refused before its toolkit
 * is loaded, the toolkit's load with `notifications/tools/list_changed` and
 * the new list, the loaded tool's call, and a changed announcement on the
 * next result. The test reads what the client received.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_PRELUDE, freshApp, installed, packToolroute } from './fresh-app.js';

const MCP = ['@modelcontextprotocol/server', '@modelcontextprotocol/client'].map(installed);

const APP = `import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serveMcpHttp } from 'toolroute/mcp';
import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';
import type { Handlers } from './generated/index.js';

${APP_PRELUDE}

const router = createRouter(generated, handlers);
router.announce('env', 'The working directory is /srv/app.');
const served = await serveMcpHttp(router, { name: 'app' });

const client = new Client({ name: 'app-client', version: '1.0.0' });
let listChanged = 0;
let onListChanged = () => {};
client.setNotificationHandler('notifications/tools/list_changed', () => {
  listChanged++;
  onListChanged();
});
await client.connect(new StreamableHTTPClientTransport(served.url));
const names = async () => (await client.listTools()).tools.map((t) => t.name);

const before = await names();
const first = await client.callTool({ name: 'get_time', arguments: {} });
const refused = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } });
const beforeLoad = listChanged;
const notified = new Promise<void>((resolve) => (onListChanged = resolve));
const load = await client.callTool({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } });
await notified;
const after = await names();
const forecast = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon', days: 2 } });
router.announce('deploy', 'A deploy is running.');
const last = await client.callTool({ name: 'get_time', arguments: {} });

process.stdout.write(JSON.stringify({
  lines: [...served.sessions.values()].map((s) => s.line),
  instructions: client.getInstructions(),
  before, after, listChanged: [beforeLoad, listChanged], first, refused, load, forecast, last,
}));
await client.close();
await served.close();
`;

let base = '';
let tarball = '';

beforeAll(() => {
  ({ base, tarball } = packToolroute('toolroute-mcp-app-'));
}, 300_000);
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe(`a fresh app with the packed tarball and ${MCP.join(' ')}, on Node ${process.versions.node}`, () => {
  it('installs with plain npm install, type-checks, serves the router over HTTP and drives it with the 2.x client: a load with list_changed, the loaded tool, a refused call, announcements', async () => {
    const app = await freshApp(base, tarball, MCP, APP);
    expect(Object.keys(app.dependencies).sort()).toEqual(['@modelcontextprotocol/client', '@modelcontextprotocol/server', 'toolroute']);
    expect(app.problems).toEqual([]);
    expect(app.tsc.stdout + app.tsc.stderr).toBe('');
    expect(app.tsc.code).toBe(0);

    const run = await app.run({});
    expect(run.stderr).toBe('');
    const got = JSON.parse(run.stdout) as Record<string, unknown>;
    const env = '<announcement id="env">\nThe working directory is /srv/app.\n</announcement>';
    const deploy = '<announcement id="deploy">\nA deploy is running.\n</announcement>';

    // Only the 2.x line is installed, and it serves the one session.
    expect(existsSync(path.join(app.dir, 'node_modules/@modelcontextprotocol/sdk'))).toBe(false);
    expect(got['lines']).toEqual(['2.x']);
    expect(got['instructions']).toMatch(/^<available_toolkits>[\s\S]*Weather/);
    const stable = ['file_ops', 'terminal', 'read_file', 'run_bash', 'get_time', 'load_toolkit'];
    expect(got['before']).toEqual(stable);

    // The standing announcement rides on the first result, once.
    expect(got['first']).toEqual({ content: [{ type: 'text', text: 'now' }, { type: 'text', text: `<announcements>\n${env}\n</announcements>` }] });
    // The refusal: toolroute's reason, verbatim, as the result's only text.
    expect(got['refused']).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first, then call get_forecast again.' }],
    });

    // The load: its answer, then list_changed, then the toolkit's tools after the unchanged prefix.
    expect(got['load']).toEqual({ content: [{ type: 'text', text: expect.stringMatching(/^Toolkit "Weather" loaded\./) }] });
    expect(got['listChanged']).toEqual([0, 1]);
    expect(got['after']).toEqual([...stable, 'get_forecast', 'get_current_weather']);
    expect(got['forecast']).toEqual({
      structuredContent: { city: 'Lisbon', days: 2, forecast: 'sunny' },
      content: [{ type: 'text', text: '{"city":"Lisbon","days":2,"forecast":"sunny"}' }],
    });

    // A new announcement reaches the next result, with the one still standing.
    expect(got['last']).toEqual({ content: [{ type: 'text', text: 'now' }, { type: 'text', text: `<announcements>\n${env}\n\n${deploy}\n</announcements>` }] });
  }, 300_000);
});
