/**
 * The real CLI (`node bin/toolroute.js` of the built package, what an installed
 * copy runs), spawned: exit codes, messages, `--check` for both outcomes, and a
 * bad spec listing every problem. The checkout's source mode is spawned by the
 * watch, inspect and warnings tests.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../setup/package-build.js';
import { REPO, removeDir, tempDir } from './helpers.js';

let BIN = '';
let dir: string;

function toolroute(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, TOOLROUTE_CLI: 'dist' };
  delete env['NODE_OPTIONS'];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  BIN = path.join(builtPackage(), 'bin/toolroute.js');
  dir = tempDir('cli-');
  copyFileSync(path.join(REPO, 'test/fixtures/flat-only/spec.yaml'), path.join(dir, 'spec.yaml'));
});
afterAll(() => removeDir(dir));

describe('toolroute codegen', () => {
  it('generates, then --check passes on fresh output (exit 0)', () => {
    const first = toolroute('codegen', 'spec.yaml', '--out', 'out');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^toolroute: wrote 8 of 8 files \(4 tools, 0 namespaces, 0 toolkits\) in \d+ ms\.\n$/);
    const check = toolroute('codegen', 'spec.yaml', '--out', 'out', '--check');
    expect(check.code).toBe(0);
    expect(check.stdout).toBe('toolroute: 8 files in out are up to date (4 tools, 0 namespaces, 0 toolkits).\n');
  });

  it('--check on stale output exits 1, names each stale file and the exact fix command, and writes nothing', () => {
    const file = path.join(dir, 'out', 'types.gen.ts');
    const edited = `${readFileSync(file, 'utf8')}// edited\n`;
    writeFileSync(file, edited);
    const check = toolroute('codegen', 'spec.yaml', '--out', 'out', '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      'toolroute: generated files are out of date:\n  out/types.gen.ts: stale (differs from what the spec generates)\nFix: npx toolroute codegen spec.yaml --out out\n',
    );
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(toolroute('codegen', 'spec.yaml', '--out', 'out').stdout).toMatch(/^toolroute: wrote 1 of 8 files/);
  });

  it('exits 1 listing every problem of a bad spec, and writes nothing', () => {
    writeFileSync(path.join(dir, 'bad.yaml'), 'version: 1\ntools:\n  - name: 9bad\n    description: x\n  - name: ok\n    descripton: typo\n');
    const r = toolroute('codegen', 'bad.yaml', '--out', 'bad-out');
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => / - error \[/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/^bad\.yaml:3:\d+ - error \[invalid_name\] /);
    expect(r.stderr).toMatch(/bad\.yaml:6:\d+ - error \[unknown_key\] /);
    expect(r.stderr).toMatch(/toolroute: \d+ problems; nothing was written\.\n$/);
    expect(existsSync(path.join(dir, 'bad-out'))).toBe(false);
  });

  it('--help prints usage (exit 0); no arguments prints usage to stderr (exit 2)', () => {
    const help = toolroute('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: toolroute codegen <spec> --out <dir>/);
    const none = toolroute();
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: toolroute codegen/);
  });

  it('an unknown flag or a missing --out is a usage error (exit 2)', () => {
    const unknown = toolroute('codegen', 'spec.yaml', '--out', 'out', '--frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('toolroute: unknown option --frobnicate\nRun "toolroute --help" for usage.\n');
    expect(unknown.stderr).toContain('Run "toolroute --help" for usage.');
    const noOut = toolroute('codegen', 'spec.yaml');
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('codegen needs --out <dir>.');
  });
});
