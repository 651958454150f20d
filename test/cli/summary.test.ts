/**
 * The codegen summary line counts in English: "1 tool, 1 namespace, 1 toolkit",
 * never "1 namespaces".
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { removeDir, tempDir, write } from './stage.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

async function codegen(spec: string) {
  const cwd = tempDir('summary-');
  dirs.push(cwd);
  write(path.join(cwd, 'spec.yaml'), spec);
  let stdout = '';
  let stderr = '';
  const code = await main(['codegen', 'spec.yaml', '--out', 'out'], { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('codegen summary', () => {
  it('is singular for one of each', async () => {
    const r = await codegen(`version: 1
namespaces:
  - name: ops
    description: Operations
    tools: [{ name: ping, description: Ping }]
toolkits:
  - name: Extra
    description: Extra tools
    tools: [{ name: pong, description: Pong }]
`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^toolroute: wrote 8 of 8 files \(2 tools, 1 namespace, 1 toolkit\) in \d+ ms\.\n$/);
  });

  it('is plural otherwise, including zero', async () => {
    const r = await codegen(`version: 1
tools: [{ name: ping, description: Ping }]
`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(1 tool, 0 namespaces, 0 toolkits\)/);
  });
});
