/**
 * `toolroute init`, as a new user runs it: in an empty folder it writes the
 * starter spec (with its `$schema` line), a handlers file, a program that runs
 * them, package.json with the codegen script and a tsconfig; with the built
 * package installed there, `npm run codegen` and `tsc` pass, and a handler
 * left out fails tsc (so the check is real). Run again, it refuses and changes
 * nothing; in an existing project it adds the script (and `"type": "module"`
 * where package.json has no type), keeping the rest of package.json.
 * test/package/pack.test.ts runs the README's whole sequence from npm install.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { CODEGEN_SCRIPT, STARTER_SPEC } from '../../cli/init.js';
import { node, REPO, removeDir, stagePackage, tempDir, TSC_RUN, write } from './stage.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

async function init(cwd: string, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['init', ...args], { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** Every file under a folder (recursive, skipping node_modules) → its text. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]) {
    const rel = path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/');
    if (d.isFile() && !rel.startsWith('node_modules/')) out[rel] = readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

describe('toolroute init', () => {
  it('in an empty folder: starter files; then codegen and tsc pass there', async () => {
    const root = tempDir('init-');
    dirs.push(root);
    const app = path.join(root, 'my-agent');
    mkdirSync(app);
    const r = await init(app);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote tools.spec.yaml, src/handlers.ts, src/main.ts, package.json, tsconfig.json');
    expect(r.stdout).toContain('npm run codegen');
    expect(r.stdout).toContain('npm install --save-dev typescript @types/node tsx yaml zod esbuild');

    const spec = readFileSync(path.join(app, 'tools.spec.yaml'), 'utf8');
    expect(spec.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/toolroute/schema/toolspec.schema.json');
    expect(spec).toBe(STARTER_SPEC);
    const pkg = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg).toEqual({ name: 'my-agent', version: '0.1.0', private: true, type: 'module', scripts: { codegen: CODEGEN_SCRIPT } });

    // "npm install toolroute": the built package, and its bin linked as npm links it.
    stagePackage(app);
    mkdirSync(path.join(app, 'node_modules/.bin'), { recursive: true });
    symlinkSync('../toolroute/bin/toolroute.js', path.join(app, 'node_modules/.bin/toolroute'));
    // The $schema line points at a file the package ships.
    expect(() => readFileSync(path.join(REPO, 'schema/toolspec.schema.json'))).not.toThrow();

    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['NODE_OPTIONS'];
    delete env['TOOLROUTE_CLI'];
    const codegen = spawnSync('npm', ['run', '--silent', 'codegen'], { cwd: app, env, encoding: 'utf8', timeout: 120_000 });
    expect(codegen.stderr).toBe('');
    expect(codegen.status).toBe(0);
    expect(codegen.stdout).toMatch(/toolroute: wrote 8 of 8 files \(2 tools, 0 namespaces, 0 toolkits\)/);

    const tsc = node([...TSC_RUN, '-p', 'tsconfig.json'], app);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    // The compiled starter runs: its router dispatches both tools.
    const ran = node(
      ['--input-type=module', '-e', "const { router } = await import('./dist/handlers.js'); const a = await router.dispatch({ name: 'read_note', arguments: '{\"title\":\"welcome\"}' }); const b = await router.dispatch({ name: 'get_time', arguments: '{\"timezone\":\"Nowhere/Else\"}' }); process.stdout.write(JSON.stringify([a.ok, a.result, b.ok, b.code]));"],
      app,
    );
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual([true, expect.stringContaining('Edit tools.spec.yaml'), false, 'handler_error']);
    const starter = node(['dist/main.js'], app);
    expect(starter.stderr).toBe('');
    expect(starter.stdout).toMatch(/^get_time .+\nread_note Edit tools\.spec\.yaml.*\nread_note rejected \(invalid_arguments\): /);

    // The handlers file is really checked: drop a handler, and tsc names the tool.
    const handlers = readFileSync(path.join(app, 'src/handlers.ts'), 'utf8');
    writeFileSync(path.join(app, 'src/handlers.ts'), handlers.replace(/^ {2}read_note: .*\n/m, ''));
    const broken = node([...TSC_RUN, '-p', 'tsconfig.json', '--noEmit'], app);
    expect(broken.code).not.toBe(0);
    expect(broken.stdout).toContain('read_note');
    writeFileSync(path.join(app, 'src/handlers.ts'), handlers);

    // A second init refuses, naming each conflict, and changes nothing.
    const before = snapshot(app);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['tools.spec.yaml', 'src/handlers.ts', 'src/main.ts', 'package.json', 'tsconfig.json', 'src/generated/index.ts']));
    const again = await init(app);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('tools.spec.yaml already exists');
    expect(again.stderr).toContain('src/handlers.ts already exists');
    expect(again.stderr).toContain('src/main.ts already exists');
    expect(again.stderr).toContain('package.json already has a "codegen" script');
    expect(again.stderr).toContain('nothing was written');
    expect(snapshot(app)).toEqual(before);
  }, 300_000);

  it('in an existing project: adds only the codegen script, keeps the rest of package.json and an existing tsconfig', async () => {
    const app = tempDir('init-existing-');
    dirs.push(app);
    const pkgText = '{\n\t"name": "existing",\n\t"type": "module",\n\t"scripts": { "test": "vitest" },\n\t"dependencies": { "toolroute": "^0.1.0" }\n}\n';
    write(path.join(app, 'package.json'), pkgText);
    write(path.join(app, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n');
    const r = await init(app);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote tools.spec.yaml, src/handlers.ts, src/main.ts, package.json');
    expect(r.stdout).toContain('tsconfig.json exists and was left alone');
    expect(r.stdout).not.toContain('"type"');
    expect(r.stdout).not.toContain('npm install toolroute');
    expect(readFileSync(path.join(app, 'tsconfig.json'), 'utf8')).toBe('{ "compilerOptions": { "strict": true } }\n');
    const text = readFileSync(path.join(app, 'package.json'), 'utf8');
    expect(text).toBe(
      `{\n\t"name": "existing",\n\t"type": "module",\n\t"scripts": {\n\t\t"test": "vitest",\n\t\t"codegen": ${JSON.stringify(CODEGEN_SCRIPT)}\n\t},\n\t"dependencies": {\n\t\t"toolroute": "^0.1.0"\n\t}\n}\n`,
    );
  });

  it('after an install (package.json without "type"): adds "type": "module" with the script, and says so', async () => {
    const app = tempDir('init-installed-');
    dirs.push(app);
    write(path.join(app, 'package.json'), '{\n  "dependencies": {\n    "toolroute": "^0.1.0"\n  }\n}\n');
    const r = await init(app);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('note: package.json now has "type": "module"');
    expect(r.stdout).not.toContain('README');
    expect(JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8'))).toEqual({ dependencies: { toolroute: '^0.1.0' }, type: 'module', scripts: { codegen: CODEGEN_SCRIPT } });
  });

  it('refuses when any one target exists, or package.json says CommonJS, and writes nothing at all', async () => {
    const cjs = tempDir('init-cjs-');
    dirs.push(cjs);
    write(path.join(cjs, 'package.json'), '{ "name": "x", "type": "commonjs" }\n');
    const refused = await init(cjs);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('package.json has "type": "commonjs", and the starter is ES modules');
    expect(snapshot(cjs)).toEqual({ 'package.json': '{ "name": "x", "type": "commonjs" }\n' });
    for (const existing of ['tools.spec.yaml', 'src/handlers.ts', 'src/main.ts']) {
      const app = tempDir('init-refuse-');
      dirs.push(app);
      write(path.join(app, existing), 'mine\n');
      const r = await init(app);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${existing} already exists`);
      expect(snapshot(app)).toEqual({ [existing]: 'mine\n' });
    }
    const app = tempDir('init-badpkg-');
    dirs.push(app);
    write(path.join(app, 'package.json'), '{ not json');
    const r = await init(app);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('package.json is not a JSON object');
    expect(snapshot(app)).toEqual({ 'package.json': '{ not json' });
  });

  it('a file or folder in the way of a path it writes is a conflict, never a crash, and nothing is written', async () => {
    const root = tempDir('init-in-the-way-');
    dirs.push(root);
    write(path.join(root, 'afile'), 'mine\n');
    const cases: [string, (app: string) => void, RegExp][] = [
      ['afile', () => undefined, /^toolroute: the folder to start in is a file\.\ntoolroute init never overwrites/],
      ['spec-is-a-folder', (app) => mkdirSync(path.join(app, 'tools.spec.yaml'), { recursive: true }), /tools\.spec\.yaml cannot be read or written \(EISDIR: it is a folder\)/],
      ['src-is-a-file', (app) => write(path.join(app, 'src'), 'mine\n'), /src\/handlers\.ts cannot be read or written \(ENOTDIR/],
      ['tsconfig-is-a-folder', (app) => mkdirSync(path.join(app, 'tsconfig.json'), { recursive: true }), /tsconfig\.json cannot be read or written \(EISDIR/],
    ];
    for (const [name, arrange, reason] of cases) {
      const app = path.join(root, name);
      arrange(app);
      const before = snapshot(root);
      const r = await init(root, name);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(reason);
      expect(r.stderr).not.toContain('internal error');
      expect(snapshot(root), name).toEqual(before);
    }
  });

  it('reads a package.json with a byte order mark, as npm does, and keeps the mark', async () => {
    const app = tempDir('init-bom-');
    dirs.push(app);
    write(path.join(app, 'package.json'), '\uFEFF{\n  "name": "x"\n}\n');
    const r = await init(app);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const text = readFileSync(path.join(app, 'package.json'), 'utf8');
    expect(text.startsWith('\uFEFF{')).toBe(true);
    expect(JSON.parse(text.slice(1))).toMatchObject({ name: 'x', type: 'module', scripts: { codegen: CODEGEN_SCRIPT } });
  });

  it('keeps the line ends of a package.json it edits', async () => {
    const app = tempDir('init-crlf-');
    dirs.push(app);
    write(path.join(app, 'package.json'), '{\r\n  "name": "x"\r\n}\r\n');
    expect((await init(app)).code).toBe(0);
    const text = readFileSync(path.join(app, 'package.json'), 'utf8');
    expect(text.split('\n').every((line, i, all) => i === all.length - 1 || line.endsWith('\r'))).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ name: 'x', type: 'module', scripts: { codegen: CODEGEN_SCRIPT } });
  });

  it('takes a folder argument and creates it', async () => {
    const root = tempDir('init-folder-');
    dirs.push(root);
    const r = await init(root, 'agent');
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(root, 'agent/tools.spec.yaml'), 'utf8')).toBe(STARTER_SPEC);
    expect(r.stdout).toContain('Next: cd agent && npm run codegen');
    // The next command as a shell reads it: a folder name with a space is quoted.
    expect((await init(root, 'my agent')).stdout).toContain("Next: cd 'my agent' && npm run codegen");
    expect((await init(root, 'a', 'b')).code).toBe(2);
  });
});
