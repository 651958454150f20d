/**
 * A command line `parseArgs` refuses is a usage error in the CLI's words, for every command: the
 * option at fault, the closest option that command takes, and where the usage is (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { REPO } from './stage.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd: REPO, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const HINT = 'Run "toolroute --help" for usage.\n';

describe('a mistyped option', () => {
  it.each([
    [['inspect', 'tools.spec.yaml', '--jsn'], 'unknown option --jsn (did you mean --json?)'],
    [['inspect', 'tools.spec.yaml', '--toolkit-load', 'append'], 'unknown option --toolkit-load (did you mean --toolkit-loading?)'],
    [['codegen', 'tools.spec.yaml', '--otu', 'out'], 'unknown option --otu (did you mean --out?)'],
    [['codegen', 'tools.spec.yaml', '--out', 'out', '--chek'], 'unknown option --chek (did you mean --check?)'],
    [['eval', 'tools.spec.yaml', 'cases.yaml', '--josn'], 'unknown option --josn (did you mean --json?)'],
    [['init', '--hlep'], 'unknown option --hlep (did you mean --help?)'],
    [['--verison'], 'unknown option --verison (did you mean --version?)'],
    [['codegen', 'tools.spec.yaml', '--frobnicate'], 'unknown option --frobnicate'],
    [['codegen', 'tools.spec.yaml', '-q'], 'unknown option -q'],
    [['codegen', 'tools.spec.yaml', '--out'], '--out needs a value'],
    [['codegen', 'tools.spec.yaml', '--out', 'out', '--check=yes'], '--check takes no value'],
  ])('%j → %s', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`toolroute: ${message}\n${HINT}`);
  });

  it('suggests only options of the command it was given to', async () => {
    expect((await cli(['codegen', 'tools.spec.yaml', '--jsn'])).stderr).toBe(`toolroute: unknown option --jsn\n${HINT}`);
  });

  it('a --prefix no tool name can start with is refused before any server starts (mcpHandlers would select nothing by it)', async () => {
    for (const prefix of ['st.', '1x_', 'a b']) {
      const r = await cli(['import', 'mcp', '--out', 'x.yaml', '--prefix', prefix, '--', 'no-such-server-command']);
      expect(r.code, prefix).toBe(2);
      expect(r.stderr, prefix).toContain(`--prefix must start with a letter or "_" and hold only letters, digits, "_" and "-" (tool names do), not "${prefix}".`);
    }
  });

  it('is named with the import usage by import mcp', async () => {
    const r = await cli(['import', 'mcp', '--ot', 'x.yaml', '--', 'server']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^toolroute: unknown option --ot \(did you mean --out\?\)\n\nUsage: toolroute import mcp /);
  });
});

describe('--help', () => {
  it('names every exit code and labels options as docs/cli.md does', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Exit codes: 0 ok, 1 [^\n]*, 2 usage error,\n +70 internal error/m);
    expect(r.stdout).toContain('  --runtime-import <specifier> Module');
  });
});
