/**
 * Which MCP SDK line toolroute/mcp loads: the one installed, 2.x first when
 * both are, the one named by `sdk` or `TOOLROUTE_MCP_SDK` otherwise, and a
 * clear error naming the packages when none is. A line is "not installed"
 * in a child process whose module resolution hides its packages.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { REPO } from '../generator/helpers.js';
import { tempDir } from './mcp-servers.js';

const dir = tempDir('mcp-lines-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HIDE = path.join(dir, 'hide.mjs');
writeFileSync(
  HIDE,
  `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
const hidden = JSON.parse(process.env.HIDE_PACKAGES || '[]');
export async function resolve(specifier, context, next) {
  if (hidden.some((p) => specifier === p || specifier.startsWith(p + '/'))) {
    const error = new Error('Cannot find package ' + specifier);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}\`));
`,
);
const SCRIPT = path.join(dir, 'lines.ts');
writeFileSync(
  SCRIPT,
  `import { loadMcpClientSdk, loadMcpServerSdk } from ${JSON.stringify(path.join(REPO, 'integrations/mcp/sdk.ts'))};
const line = (load: () => Promise<{ line: string }>) => load().then((s) => s.line, (e: Error) => e.message);
const both = async (asked?: '1.x' | '2.x') => ({ client: await line(() => loadMcpClientSdk(asked)), server: await line(() => loadMcpServerSdk(asked)) });
const out: Record<string, unknown> = { installed: await both(), ask1: await both('1.x'), ask2: await both('2.x') };
process.env.TOOLROUTE_MCP_SDK = '1.x';
out.env1 = await both();
out.env1ask2 = await both('2.x');
process.env.TOOLROUTE_MCP_SDK = '3.x';
out.env3 = await both();
console.log(JSON.stringify(out));
`,
);

type Both = { client: string; server: string };
/** What each way of choosing gives, in a process where the packages `hide` are not installed. */
function choices(hide: string[]): Record<'installed' | 'ask1' | 'ask2' | 'env1' | 'env1ask2' | 'env3', Both> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--import', HIDE, SCRIPT], {
    cwd: REPO,
    env: { ...process.env, TOOLROUTE_MCP_SDK: '', HIDE_PACKAGES: JSON.stringify(hide) },
    encoding: 'utf8',
  });
  return JSON.parse(out) as ReturnType<typeof choices>;
}

const V2 = ['@modelcontextprotocol/client', '@modelcontextprotocol/server'];
const V1 = ['@modelcontextprotocol/sdk'];
const MISSING = (side: 'client' | 'server', ...lines: ('1.x' | '2.x')[]) =>
  `toolroute/mcp needs the MCP SDK: install ${lines.map((l) => (l === '1.x' ? '@modelcontextprotocol/sdk (1.x)' : `@modelcontextprotocol/${side} (2.x)`)).join(' or ')}.`;

it('uses 2.x when both lines are installed; the sdk option, then TOOLROUTE_MCP_SDK, choose otherwise', () => {
  const c = choices([]);
  expect(c.installed).toEqual({ client: '2.x', server: '2.x' });
  expect(c.ask1).toEqual({ client: '1.x', server: '1.x' });
  expect(c.ask2).toEqual({ client: '2.x', server: '2.x' });
  expect(c.env1).toEqual({ client: '1.x', server: '1.x' });
  expect(c.env1ask2).toEqual({ client: '2.x', server: '2.x' });
  expect(c.env3.client).toMatch(/must be "1.x" or "2.x", not "3.x"/);
});

it('uses whichever line is installed, the client and server sides each on its own', () => {
  const only1 = choices(V2);
  expect(only1.installed).toEqual({ client: '1.x', server: '1.x' });
  expect(only1.ask2).toEqual({ client: MISSING('client', '2.x'), server: MISSING('server', '2.x') });
  expect(choices(V1).installed).toEqual({ client: '2.x', server: '2.x' });
  expect(choices(['@modelcontextprotocol/server']).installed).toEqual({ client: '2.x', server: '1.x' });
});

it('names the packages to install when no line is installed', () => {
  expect(choices([...V1, ...V2]).installed).toEqual({ client: MISSING('client', '2.x', '1.x'), server: MISSING('server', '2.x', '1.x') });
});
