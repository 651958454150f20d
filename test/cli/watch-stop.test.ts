/**
 * Stopping `--watch` while a run is between its report and the next
 * dependency scan: no watcher may be opened after the stop, or the process
 * stays alive after Ctrl-C (seen on a loaded CI machine as a watch that never
 * exited). The abort is issued from inside `report`, which runs right before
 * the scan, so the window is hit every time instead of by chance.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchCodegen } from '../../cli/watch.js';
import { removeDir, tempDir, write } from './stage.js';

const dir = tempDir('watch-stop-');
afterAll(() => removeDir(dir));

/** Open fs.watch handles of this process (node names them FSEventWrap). */
const watchHandles = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;

describe('watchCodegen stop', () => {
  it('opens no watcher once stopped, even when the stop lands mid-run', async () => {
    write(path.join(dir, 'tools.json'), JSON.stringify({ version: 1, tools: [{ name: 'ping', description: 'Ping' }] }));
    const before = watchHandles();
    const ac = new AbortController();
    let reports = 0;
    await watchCodegen({
      spec: 'tools.json',
      out: 'gen',
      cwd: dir,
      report: (result) => {
        reports += 1;
        expect(result.ok).toBe(true);
        ac.abort();
      },
      status: () => {},
      signal: ac.signal,
    });
    // Let anything the run still had in flight settle before counting.
    await new Promise((r) => setTimeout(r, 200));
    expect(reports).toBe(1);
    expect(watchHandles()).toBe(before);
  });

  it('an exception inside a run is printed as an internal error and the watch goes on', async () => {
    write(path.join(dir, 'tools.json'), JSON.stringify({ version: 1, tools: [{ name: 'ping', description: 'Ping' }] }));
    const ac = new AbortController();
    const statuses: string[] = [];
    let reports = 0;
    const watching = watchCodegen({
      spec: 'tools.json',
      out: 'gen',
      cwd: dir,
      report: () => {
        reports += 1;
        if (reports === 1) throw new Error('a bug in a report');
        ac.abort();
      },
      status: (text) => void statuses.push(text),
      signal: ac.signal,
      debounceMs: 10,
    });
    await expect.poll(() => statuses.some((t) => t.includes('internal error') && t.includes('a bug in a report'))).toBe(true);
    // Still watching: the next edit runs again.
    write(path.join(dir, 'tools.json'), JSON.stringify({ version: 1, tools: [{ name: 'pong', description: 'Pong' }] }));
    await watching;
    expect(reports).toBe(2);
  });
});

describe('watchCodegen and a spec folder that is missing', () => {
  const results: { ok: boolean; codes: string[] }[] = [];
  /** "watching" lines: each is printed once a run has set up its watchers. */
  let watching = 0;
  const watchOn = (cwd: string, spec: string, ac: AbortController) =>
    watchCodegen({ spec, out: 'gen', cwd, report: (r) => void results.push({ ok: r.ok, codes: r.problems.map((p) => p.code) }), status: () => void (watching += 1), signal: ac.signal, debounceMs: 10 });

  it('waits for a folder that does not exist yet, and generates once the spec is there', async () => {
    const root = path.join(dir, 'later');
    write(path.join(root, '.keep'), '');
    results.length = 0;
    watching = 0;
    const ac = new AbortController();
    const run = watchOn(root, 'specs/deep/tools.json', ac);
    await expect.poll(() => watching).toBe(1);
    expect(results).toEqual([{ ok: false, codes: ['file_not_found'] }]);
    // The watch is still open (it used to end here with exit 13 and nothing said): make the folders, then the spec.
    write(path.join(root, 'specs/deep/tools.json'), JSON.stringify({ version: 1, tools: [{ name: 'ping', description: 'Ping' }] }));
    await expect.poll(() => results.some((r) => r.ok), { timeout: 20_000 }).toBe(true);
    ac.abort();
    await run;
  });

  it('sees a module the spec imports once it is written after the spec', async () => {
    const root = path.join(dir, 'import-later');
    write(path.join(root, 'package.json'), '{ "type": "module" }\n');
    write(path.join(root, 'tools.spec.ts'), "import { desc } from './params.js';\nexport default { version: 1, tools: [{ name: 'a', description: desc }] };\n");
    results.length = 0;
    watching = 0;
    const ac = new AbortController();
    const run = watchOn(root, 'tools.spec.ts', ac);
    await expect.poll(() => watching, { timeout: 20_000 }).toBe(1);
    expect(results).toEqual([{ ok: false, codes: ['ts_load_failed'] }]);
    write(path.join(root, 'params.ts'), "export const desc = 'From params';\n");
    await expect.poll(() => results.some((r) => r.ok), { timeout: 20_000 }).toBe(true);
    ac.abort();
    await run;
  });

  it('sees the spec again after its folder is deleted and made again', async () => {
    const root = path.join(dir, 'again');
    const spec = (name: string) => JSON.stringify({ version: 1, tools: [{ name, description: name }] });
    write(path.join(root, 'sub/tools.json'), spec('first'));
    results.length = 0;
    watching = 0;
    const ac = new AbortController();
    const run = watchOn(root, 'sub/tools.json', ac);
    await expect.poll(() => watching).toBe(1);
    removeDir(path.join(root, 'sub'));
    await expect.poll(() => results.at(-1)?.codes, { timeout: 20_000 }).toEqual(['file_not_found']);
    await expect.poll(() => watching >= results.length, { timeout: 20_000 }).toBe(true);
    write(path.join(root, 'sub/tools.json'), spec('second'));
    await expect.poll(() => results.at(-1)?.ok, { timeout: 20_000 }).toBe(true);
    ac.abort();
    await run;
    expect(results.filter((r) => r.ok)).toHaveLength(2);
  });
});
