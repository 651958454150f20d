/**
 * Importing a generated folder loads nothing of the search: in a fresh Node process (every module load recorded by a
 * loader hook), importing generated/ and dispatching a call loads neither toolroute/search nor minisearch; the first
 * `rankByTask` loads both, once.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir, write } from '../cli/stage.js';

const dir = tempDir('lazy-search-');
afterAll(() => removeDir(dir));

describe('the search is loaded on first use', () => {
  it('is not loaded by importing the folder or dispatching, and is by the first rankByTask', () => {
    const log = path.join(dir, 'loads.log');
    write(path.join(dir, 'hooks.mjs'), "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.LOADS_LOG, url + '\\n'); return next(url, context); }\n");
    write(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
    const generated = JSON.stringify(path.join(REPO, 'generated/index.ts'));
    const runtime = JSON.stringify(path.join(REPO, 'runtime/index.ts'));
    write(
      path.join(dir, 'main.ts'),
      `import { appendFileSync } from 'node:fs';
const gen = await import(${generated});
const { createRouter } = await import(${runtime});
const handlers = Object.fromEntries(gen.spec.tools.map((t: { name: string }) => [t.name, () => 'ok']));
const router = createRouter(gen, handlers);
const r = await router.dispatch({ id: '1', type: 'function', function: { name: 'get_time', arguments: '{}' } });
appendFileSync(process.env.LOADS_LOG!, '--- ready ' + String(r.ok) + '\\n');
const ranked = await router.rankByTask('read the config file', { k: 1 });
await router.rankByTask('run a command', { k: 1 });
appendFileSync(process.env.LOADS_LOG!, '--- ranked ' + ranked.tools.map((t: { name: string }) => t.name).join(',') + '\\n');
`,
    );
    const r = spawnSync(process.execPath, ['--conditions', 'toolroute-source', '--import', 'tsx', '--import', './register.mjs', 'main.ts'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, LOADS_LOG: log },
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    const lines = readFileSync(log, 'utf8').split('\n');
    const ready = lines.indexOf('--- ready true');
    expect(ready).toBeGreaterThan(0);
    expect(lines.at(-2)).toBe('--- ranked read_file');
    const searchModules = (part: string[]) => part.filter((l) => /\/search\/index\.ts|minisearch/.test(l));
    expect(lines.slice(0, ready).some((l) => l.endsWith('/generated/search.gen.ts'))).toBe(true);
    expect(searchModules(lines.slice(0, ready))).toEqual([]);
    const after = searchModules(lines.slice(ready));
    expect(after.filter((l) => l.endsWith('/search/index.ts'))).toHaveLength(1);
    expect(after.some((l) => l.includes('minisearch'))).toBe(true);
  });
});
