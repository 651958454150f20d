/**
 * The reference MCP servers the integration tests start over stdio (installed
 * from npm as dev dependencies), and small helpers around the CLI.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { main, type CliIO } from '../../cli/main.js';
import { REPO } from '../generator/helpers.js';

const SERVERS = path.join(REPO, 'node_modules/@modelcontextprotocol');

/** The command (node + script) that starts each reference server. */
export const SERVER = {
  filesystem: (dir: string) => [process.execPath, path.join(SERVERS, 'server-filesystem/dist/index.js'), dir],
  memory: () => [process.execPath, path.join(SERVERS, 'server-memory/dist/index.js')],
  everything: () => [process.execPath, path.join(SERVERS, 'server-everything/dist/index.js')],
} as const;

/** A fresh folder under `<repo>/.tmp/integration-tests/` (gitignored), so generated code resolves `toolroute/*`. */
export function tempDir(prefix: string): string {
  const base = path.join(REPO, '.tmp', 'integration-tests');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}

/** Runs the CLI in-process and captures its output. */
export async function cli(argv: readonly string[], cwd: string = REPO): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
