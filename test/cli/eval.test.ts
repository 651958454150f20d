/**
 * `toolroute eval <spec> <cases>`: the example case file passes, a case that fails under its gate exits 1 naming what
 * is missing, `--json` carries the same report, and usage or configuration mistakes exit 2 with a message. One run of
 * each exit code goes through the built package's bin/toolroute.js on plain node, spawned, as a user runs it; the
 * rest through the same `main` in this process.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { evalReport, formatEvalText, scoreSelection, type EvalReport } from '../../search/eval.js';
import { builtPackage } from '../setup/package-build.js';
import { REPO, removeDir, tempDir, write } from './stage.js';

let BIN = '';
const SPEC = path.join(REPO, 'examples/tools.spec.yaml');
let dir = '';

function cli(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, TOOLROUTE_CLI: 'dist' };
  delete env['NODE_OPTIONS'];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
  // A process ended by a signal (the timeout) has no code: say so rather than compare null.
  if (r.status === null) throw new Error(`toolroute ${args.join(' ')} ended by ${r.signal ?? String(r.error)}; stderr: ${r.stderr}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same CLI through `main` in this process: its exit code and output. */
async function inProcess(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), cwd: dir });
  return { code, stdout, stderr };
}

beforeAll(() => {
  BIN = path.join(builtPackage(), 'bin/toolroute.js');
  dir = tempDir('eval-');
});
afterAll(() => removeDir(dir));

describe('toolroute eval', () => {
  it('passes the example case file, exit 0, reporting both selections per case and overall', () => {
    const r = cli(['eval', SPEC, path.join(REPO, 'examples/routing.cases.yaml')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pass  "Run the test suite with npm test in the api folder"  (gate: rankByTask, k 2)');
    expect(r.stdout).toMatch(/pruneByTask +recall 0 %, precision 0 %, kept 1; missing run_bash/);
    expect(r.stdout).toMatch(/overall \(means over the cases\):\n {2}pruneByTask +recall \d+ %/);
    expect(r.stdout).toContain('All 4 cases pass under their gate.');
  });

  it('exits 1 when a case fails under its gate, and --json gives the report', async () => {
    write(path.join(dir, 'cases.json'), JSON.stringify({
      gate: 'pruneByTask',
      cases: [
        { task: 'Run the test suite', keep: ['run_bash'] },
        { task: 'Run the test suite', keep: ['run_bash'], gate: 'rankByTask', k: 1 },
        { task: 'read the file and run a shell command', keep: ['read_file'], drop: ['run_bash'] },
      ],
    }));
    const text = cli(['eval', SPEC, 'cases.json']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('FAIL  "Run the test suite"  (gate: pruneByTask)');
    expect(text.stdout).toContain('2 of 3 cases fail under their gate.');
    const json = await inProcess(['eval', SPEC, 'cases.json', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as EvalReport;
    expect(report.cases.map((c) => c.pass)).toEqual([false, true, false]);
    expect(report.cases[0]!.pruneByTask.missing).toEqual(['run_bash']);
    expect(report.cases[1]!.rankByTask.kept).toEqual(['run_bash']);
    expect(report.cases[2]!.pruneByTask.unwanted).toEqual(['run_bash']);
    expect(report.cases[2]!.pruneByTask.recall).toBe(1);
    expect(report.cases[2]!.pruneByTask.precision).toBeCloseTo(1 / 3);
    expect(report).toMatchObject({ passed: 1, failed: 2, overall: { rankByTask: { passed: expect.any(Number) } } });
  });

  it('says one case in the singular', () => {
    const c = { task: 'read it', keep: ['read_file'], drop: [], gate: 'pruneByTask' as const, k: 3 };
    expect(formatEvalText(evalReport('s.yaml', [{ c, kept: { pruneByTask: ['read_file'], rankByTask: ['read_file'] } }]))).toContain('\nThe case passes under its gate.\n');
    expect(formatEvalText(evalReport('s.yaml', [{ c, kept: { pruneByTask: [], rankByTask: [] } }]))).toContain('\n1 of 1 case fails under its gate.\n');
  });

  it('scores a selection that keeps nothing as exact only when the case wants nothing kept', () => {
    expect(scoreSelection([], { keep: ['read_file'], drop: [] })).toMatchObject({ recall: 0, precision: 0, pass: false });
    expect(scoreSelection([], { keep: [], drop: ['run_bash'] })).toMatchObject({ recall: 1, precision: 1, pass: true });
  });

  it('exits 2 for usage and configuration mistakes, saying what is wrong', async () => {
    write(path.join(dir, 'bad.yaml'), 'cases:\n  - task: x\n    keep: [read_file]\n    gate: fuzzy\n  - task: ""\n');
    write(path.join(dir, 'infinite-k.yaml'), 'k: .inf\ncases:\n  - task: x\n    keep: [read_file]\n');
    write(path.join(dir, 'unknown.yaml'), 'cases:\n  - task: write notes\n    keep: [write_file, reed_file]\n');
    write(path.join(dir, 'broken.yaml'), 'cases: [\n');
    write(path.join(dir, 'two-docs.yaml'), 'cases: []\n---\ncases: []\n');
    write(path.join(dir, 'tagged.yaml'), 'cases:\n  - task: !mytag x\n    keep: [read_file]\n');
    write(path.join(dir, 'twice.json'), '{ "cases": [], "cases": [] }');
    write(path.join(dir, 'both.yaml'), 'cases:\n  - task: read it\n    keep: [read_file]\n    drop: [read_file]\n');
    write(path.join(dir, 'repeated.yaml'), 'cases:\n  - task: read it\n    keep: [read_file, read_file]\n');
    write(path.join(dir, 'no-flat.spec.yaml'), 'version: 1\ntoolkits:\n  - name: Kit\n    description: A kit\n    tools:\n      - name: t1\n        description: One\n');
    write(path.join(dir, 'kit-case.yaml'), 'cases:\n  - task: one\n    keep: [t1]\n');
    const cases: [string[], RegExp][] = [
      [['eval', SPEC], /eval needs a spec and a case file/],
      [['eval', SPEC, 'bad.yaml', '--out', 'x'], /eval takes one option: --json/],
      [['eval', SPEC, 'missing.yaml'], /cannot read missing\.yaml \(ENOENT\)\.\n$/],
      [['eval', SPEC, 'broken.yaml'], /broken.yaml is not valid:\n.*broken\.yaml:\d+:\d+ - error \[syntax_error\] invalid YAML/],
      [['eval', SPEC, 'two-docs.yaml'], /two-docs.yaml is not valid:\n.*\[syntax_error\] invalid YAML/],
      [['eval', SPEC, 'tagged.yaml'], /tagged.yaml is not valid:\n.*\[syntax_error\]/],
      [['eval', SPEC, 'twice.json'], /twice.json is not valid:\n.*\[duplicate_key\]/],
      [['eval', SPEC, 'both.yaml'], /cases\[0\] names "read_file" in both keep and drop, so it can never pass\./],
      [['eval', SPEC, 'repeated.yaml'], /cases\[0\]\.keep names "read_file" more than once\./],
      [['eval', 'no-flat.spec.yaml', 'kit-case.yaml'], /names "t1" \(a tool of toolkit "Kit"\), which is no flat tool of no-flat\.spec\.yaml .*; the spec has no flat tools\.\n$/],
      [['eval', SPEC, 'bad.yaml'], /cases\[0\]\.gate must be one of pruneByTask, rankByTask; got "fuzzy"\.\n {2}cases\[1\]\.task must be a non-empty string\.\n {2}cases\[1\]\.keep is required/],
      [['eval', SPEC, 'infinite-k.yaml'], /infinite-k\.yaml:1:4 - error \[not_json_data\] k: this value is Infinity/],
      [['eval', SPEC, 'unknown.yaml'], /names "write_file" \(a tool of namespace "file_ops"\), "reed_file" \(did you mean "read_file"\?\), which are no flat tool of .*flat tools: read_file, run_bash, get_time/],
      [['eval', 'nope.spec.yaml', path.join(REPO, 'examples/routing.cases.yaml')], /the spec has problems/],
    ];
    // The first through the built bin (the exit code a shell sees), the others through the same `main` in this process.
    const [first, ...rest] = cases;
    const spawned = cli(first![0]);
    expect([spawned.code, spawned.stderr]).toEqual([2, expect.stringMatching(first![1])]);
    for (const [args, message] of rest) {
      const { code, stderr } = await inProcess(args);
      expect([code, stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
    // A byte order mark before JSON is not a mistake: the file reads as without it.
    write(path.join(dir, 'bom.json'), `\uFEFF${JSON.stringify({ gate: 'pruneByTask', cases: [{ task: 'read the file', keep: ['read_file'] }] })}`);
    expect(await inProcess(['eval', SPEC, 'bom.json'])).toMatchObject({ code: 0, stderr: '' });
  });
});
