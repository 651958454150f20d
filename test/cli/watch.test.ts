/**
 * `toolroute codegen --watch`, spawned as a user runs it: a TypeScript spec
 * importing a local file; editing either regenerates; a bad edit prints its
 * problems and leaves the folder byte-for-byte as the last good run wrote it;
 * the fix regenerates; SIGINT ends it with exit 0. Every wait is bounded and
 * the process is killed at the end whatever happens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFolder } from '../generator/helpers.js';
import { REPO, removeDir, tempDir, write } from './stage.js';

const BIN = path.join(REPO, 'bin/toolroute.js');
/** Upper bound for one regeneration to show up (a loaded 2-core machine; not a performance assertion). */
const WAIT_MS = 90_000;

let dir = '';
let child: ChildProcess | undefined;
let stdout = '';
let stderr = '';

/** Resolves when `test()` holds for the output so far; rejects after WAIT_MS with the output. */
function waitFor(what: string, test: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      let held = false;
      try {
        held = test();
      } catch {
        // A file read between two runs' writes: not yet; look again.
      }
      if (held) return resolve();
      if (child?.exitCode !== null && child?.exitCode !== undefined) return reject(new Error(`watch exited (${child.exitCode}) while waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      if (Date.now() - started > WAIT_MS) return reject(new Error(`timed out waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

/** Runs that have finished (each ends with a "watching" line, printed after its write completed). */
const finishedRuns = () => (stdout.match(/toolroute: watching /g) ?? []).length;

/** Saves a file as editors do: write a temporary file, rename it over the old one (so no run sees half a file). */
function save(name: string, text: string): void {
  writeFileSync(path.join(dir, `.${name}.swp`), text);
  renameSync(path.join(dir, `.${name}.swp`), path.join(dir, name));
}

const SPEC = (extra: string) => `import { defineSpec } from 'toolroute';
import { timeParams } from './params.ts';

export default defineSpec({
  version: 1,
  tools: [
    { name: 'get_time', description: 'Get the time', parameters: timeParams },${extra}
  ],
});
`;
const PARAMS = (prop: string) => `import { z } from 'zod';
export const timeParams = z.object({ ${prop}: z.string().optional() });
`;

beforeAll(() => {
  dir = tempDir('watch-');
  write(path.join(dir, 'tools.spec.ts'), SPEC(''));
  write(path.join(dir, 'params.ts'), PARAMS('timezone'));
});
afterAll(() => {
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  removeDir(dir);
});

describe('toolroute codegen --watch', () => {
  it('regenerates on edits of the spec and of its imports, keeps the last good output on a bad edit, stops on SIGINT', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['NODE_OPTIONS'];
    child = spawn(process.execPath, [BIN, 'codegen', 'tools.spec.ts', '--out', 'gen', '--watch'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const types = () => readFileSync(path.join(dir, 'gen/types.gen.ts'), 'utf8');

    // First run: generated, and both files watched.
    await waitFor('the first run', () => stdout.includes('toolroute: watching 2 files for changes'));
    expect(stdout).toMatch(/toolroute: wrote 8 of 8 files \(1 tool, 0 namespaces, 0 toolkits\)/);
    expect(types()).toContain('timezone?: string');

    // An imported file changes: regenerated.
    let runs = finishedRuns();
    save('params.ts', PARAMS('zone_name'));
    // The run's report (and the "watching" line after it) is printed once its write is complete.
    await waitFor('the regeneration', () => finishedRuns() > runs && types().includes('zone_name?: string'));
    expect(types()).not.toContain('timezone');

    // A bad edit (unknown key): problems printed, nothing written, the last good output kept.
    const good = readFolder(path.join(dir, 'gen'));
    runs = finishedRuns();
    save('tools.spec.ts', SPEC(`\n    { name: 'ping', descripton: 'typo' } as never,`));
    await waitFor('the problem of the bad edit', () => finishedRuns() > runs && stderr.includes('[unknown_key]'));
    expect(stderr).toContain('nothing was written. gen keeps its last good output.');
    expect(readFolder(path.join(dir, 'gen'))).toEqual(good);

    // A broken import (syntax error in params.ts): the same.
    runs = finishedRuns();
    save('params.ts', 'export const timeParams = z.object({ oops ');
    await waitFor('the problem of the broken import', () => finishedRuns() > runs && stderr.includes('[ts_load_failed]'));
    expect(readFolder(path.join(dir, 'gen'))).toEqual(good);

    // Both fixed, and a second tool: regenerated.
    save('params.ts', PARAMS('zone_name'));
    save('tools.spec.ts', SPEC(`\n    { name: 'ping', description: 'Ping' },`));
    await waitFor('two tools in the output', () => /\(2 tools, 0 namespaces, 0 toolkits\)/.test(stdout) && types().includes('export interface PingArgs'));
    expect(types()).toContain('zone_name?: string');

    // Ctrl-C: exits 0.
    const exited = new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`watch did not exit ${WAIT_MS} ms after SIGINT\nstdout:\n${stdout}\nstderr:\n${stderr}`)), WAIT_MS);
      child?.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 6 * WAIT_MS);
});
