/**
 * `--watch` and a run that never finishes: a TS spec whose top-level await never settles. The watch says so after
 * `stallMs`, keeps watching the spec, and the next save starts over; the run it gave up writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchCodegen } from '../../cli/watch.js';
import { generate } from '../../generator/index.js';
import { removeDir, tempDir, write } from './stage.js';

const dir = tempDir('watch-stall-');
afterAll(() => removeDir(dir));

const spec = (tool: string, before = '') => `${before}export default { version: 1, tools: [{ name: '${tool}', description: 'A tool' }] };\n`;

describe('codegen --watch with a spec that never finishes loading', () => {
  it('says so, keeps watching, and the next save starts over', async () => {
    write(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    write(path.join(dir, 'tools.spec.ts'), spec('first'));
    const ac = new AbortController();
    const statuses: string[] = [];
    const reports: { ok: boolean }[] = [];
    // The generated spec data names each tool.
    const generated = () => readFileSync(path.join(dir, 'gen', 'spec.gen.ts'), 'utf8');
    const watching = watchCodegen({
      spec: 'tools.spec.ts',
      out: 'gen',
      cwd: dir,
      report: (result) => void reports.push({ ok: result.ok }),
      status: (text) => void statuses.push(text),
      signal: ac.signal,
      debounceMs: 10,
      stallMs: 500,
    });
    // Watching starts after the first run's report: a save before that line would go unseen.
    await expect.poll(() => statuses.some((s) => s.startsWith('toolroute: watching ')), { timeout: 30_000 }).toBe(true);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.ok).toBe(true);
    expect(generated()).toContain('"name": "first"');

    // A save whose module never finishes loading: the watch says so instead of waiting without a word.
    const seen = statuses.length;
    write(path.join(dir, 'tools.spec.ts'), spec('stuck', 'await new Promise(() => {});\n'));
    await expect.poll(() => statuses.slice(seen).some((s) => s.includes('codegen has not finished after 0.5 s')), { timeout: 30_000 }).toBe(true);
    expect(reports).toHaveLength(1);

    // The fix is seen and generated; the given-up run wrote nothing.
    write(path.join(dir, 'tools.spec.ts'), spec('fixed'));
    await expect.poll(() => reports.length, { timeout: 30_000 }).toBe(2);
    expect(reports[1]!.ok).toBe(true);
    expect(generated()).toContain('"name": "fixed"');
    expect(generated()).not.toContain('"stuck"');
    ac.abort();
    await watching;
  });

  it('a save made while the stuck run was still expected to finish is generated once the run stalls, without another save', async () => {
    write(path.join(dir, 'queued', 'package.json'), '{ "type": "module" }\n');
    write(path.join(dir, 'queued', 'tools.spec.ts'), spec('first'));
    const ac = new AbortController();
    const statuses: string[] = [];
    const reports: boolean[] = [];
    const watching = watchCodegen({
      spec: 'tools.spec.ts', out: 'gen', cwd: path.join(dir, 'queued'), report: (result) => void reports.push(result.ok),
      status: (text) => void statuses.push(text), signal: ac.signal, debounceMs: 10, stallMs: 1_000,
    });
    await expect.poll(() => statuses.some((s) => s.startsWith('toolroute: watching ')), { timeout: 30_000 }).toBe(true);
    write(path.join(dir, 'queued', 'tools.spec.ts'), spec('stuck', 'await new Promise(() => {});\n'));
    // The stuck run has started (the debounce is 10 ms) and is not yet a second old: the fix queues behind it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    write(path.join(dir, 'queued', 'tools.spec.ts'), spec('fixed'));
    await expect.poll(() => reports.length, { timeout: 30_000 }).toBe(2);
    expect(reports[1]).toBe(true);
    expect(readFileSync(path.join(dir, 'queued', 'gen', 'spec.gen.ts'), 'utf8')).toContain('"name": "fixed"');
    ac.abort();
    await watching;
  });

  it('generate writes nothing once its signal is aborted', async () => {
    write(path.join(dir, 'other.json'), JSON.stringify({ version: 1, tools: [{ name: 'ping', description: 'Ping' }] }));
    const r = await generate('other.json', { out: 'aborted', cwd: dir, signal: AbortSignal.abort() });
    expect(r).toMatchObject({ ok: false, problems: [], written: [] });
    expect(existsSync(path.join(dir, 'aborted'))).toBe(false);
  });
});
