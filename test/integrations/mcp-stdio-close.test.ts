/**
 * `serveMcpStdio` when the client goes away (closes the server's stdin) during a call, on each SDK line: the call's
 * signal aborts and the process exits, as MCP's stdio binding asks. The 2.x transport notices a closed stdin by
 * itself; on 1.x, serveMcpStdio does.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LINES } from './mcp-lines.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe.each(LINES)('serveMcpStdio, %s server, when the client closes stdin', (sdk) => {
  it('aborts the running call and exits', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TOOLROUTE_MCP_SDK: sdk };
    delete env['NODE_OPTIONS'];
    const child = spawn(process.execPath, ['--conditions=toolroute-source', '--import', 'tsx', path.join(REPO, 'test/integrations/mcp-stdio-hang.server.ts')], { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      await expect.poll(() => stdout, { timeout: 20_000 }).toContain('"id":1');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_bash', arguments: { command: 'long' } } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.stdin.end();
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running 5 s later'), 5000))]);
      expect(code).toBe(0);
      expect(stderr).toContain('aborted');
    } finally {
      child.kill();
    }
  }, 60_000);
});
