/**
 * `toolroute import mcp -- <command>` starts the server with the environment of the shell that ran
 * it, as any command does: a server configured through a variable (an API key, a region) lists the
 * tools of that configuration, both when importing and with --check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { removeDir, tempDir, write } from './stage.js';

/** A stdio MCP server (JSON-RPC lines, no SDK) whose one tool describes the region it was started for. */
const SERVER = `import { createInterface } from 'node:readline';
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'regional', version: '1.0.0' } } });
  } else if (method === 'tools/list') {
    const region = process.env.TOOLROUTE_TEST_REGION ?? 'no region';
    send({ id, result: { tools: [{ name: 'forecast', description: 'Forecast for ' + region + '.', inputSchema: { type: 'object', properties: {} } }] } });
  } else {
    send({ id, error: { code: -32601, message: 'unknown method ' + method } });
  }
});
`;

let dir = '';
beforeAll(() => {
  dir = tempDir('import-env-');
  write(path.join(dir, 'server.mjs'), SERVER);
});
afterEach(() => {
  delete process.env['TOOLROUTE_TEST_REGION'];
});
afterAll(() => removeDir(dir));

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd: dir, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('toolroute import mcp -- <command>', () => {
  const importArgs = (...more: string[]) => ['import', 'mcp', '--out', 'regional.spec.yaml', '--name', 'regional', ...more, '--', process.execPath, 'server.mjs'];

  it("starts the server with the shell's environment, and --check compares against that configuration", async () => {
    process.env['TOOLROUTE_TEST_REGION'] = 'Lisbon';
    const imported = await cli(importArgs());
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(readFileSync(path.join(dir, 'regional.spec.yaml'), 'utf8')).toContain('description: Forecast for Lisbon.');

    const inSync = await cli(importArgs('--check'));
    expect(inSync.stderr).toBe('');
    expect(inSync.code).toBe(0);

    process.env['TOOLROUTE_TEST_REGION'] = 'Oslo';
    const drifted = await cli(importArgs('--check'));
    expect(drifted.code).toBe(1);
    expect(drifted.stderr).toContain('forecast: changed (description)');
  });
});
