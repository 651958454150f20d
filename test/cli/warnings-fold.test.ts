/**
 * Warnings that scale, through the CLI's `main` (the first run through the
 * real `node bin/toolroute.js`, spawned, the others in this process): a spec
 * that warns once per tool prints the first few warnings of that code and one
 * line counting and naming the rest; `--verbose` prints every one; the
 * structured result (`generate(…).warnings`) always has them all; a code with
 * only a few warnings is never folded.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, WARNINGS_SHOWN_PER_CODE } from '../../cli/main.js';
import { generate } from '../../generator/index.js';
import { REPO, removeDir, tempDir } from '../generator/helpers.js';

const BIN = path.join(REPO, 'bin/toolroute.js');
let dir: string;

/** The real bin, spawned: what a shell sees. */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same CLI's `main` in this process (what the bin runs), with its output collected. */
async function toolroute(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), cwd: dir });
  return { code, stdout, stderr };
}

const UNGROUPED = Array.from({ length: 50 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);

/** `n` flat tools in no group beside one namespace, the default set narrowed to groups; `formats` unknown formats. */
function spec(names: readonly string[], formats: number): string {
  const props = Array.from({ length: formats }, (_, i) => `      p${i}: { type: string, format: fmt${i} }\n`).join('');
  return [
    'version: 1',
    'options: { offerUngroupedTools: false }',
    'tools:',
    ...names.map((n) => `  - { name: ${n}, description: Tool ${n} }`),
    '  - name: with_formats',
    '    description: A tool with formats',
    ...(formats > 0 ? ['    parameters:', props.trimEnd()] : []),
    'namespaces:',
    '  - name: files',
    '    description: File operations',
    '    tools:',
    '      - { name: read_file, description: Read a file }',
    '      - with_formats',
    '',
  ].join('\n');
}

beforeAll(() => {
  dir = tempDir('cli-warnings-');
  writeFileSync(path.join(dir, 'many.yaml'), spec(UNGROUPED, 4));
  writeFileSync(path.join(dir, 'few.yaml'), spec(UNGROUPED.slice(0, WARNINGS_SHOWN_PER_CODE + 1), 0));
});
afterAll(() => removeDir(dir));

describe('toolroute codegen folds repeated warnings', () => {
  it('50 unreachable_tool warnings: the first 3 in full, then one line naming the rest; 4 unknown_format warnings in full', () => {
    const r = spawned('codegen', 'many.yaml', '--out', 'out');
    expect(r.code).toBe(0);
    const full = r.stderr.split('\n').filter((l) => / - warning \[/.test(l));
    expect(full.filter((l) => l.includes('[unreachable_tool]')).map((l) => /the tool "(\w+)"/.exec(l)?.[1])).toEqual(UNGROUPED.slice(0, 3));
    // A code with WARNINGS_SHOWN_PER_CODE + 1 warnings is not folded: a summary line would save nothing.
    expect(full.filter((l) => l.includes('[unknown_format]'))).toHaveLength(4);
    const hints = r.stderr.split('\n').filter((l) => l.startsWith('  hint: '));
    expect(hints).toHaveLength(3 + 4);
    const summary = r.stderr.split('\n').filter((l) => l.startsWith('…'));
    expect(summary).toEqual([`… and 47 more unreachable_tool warnings: ${UNGROUPED.slice(3, 13).join(', ')}, … (run with --verbose to see all)`]);
    // The summary follows the warnings; the write report is on stdout as always.
    expect(r.stderr.trimEnd().endsWith(summary[0]!)).toBe(true);
    expect(r.stdout).toMatch(/^toolroute: wrote \d+ of \d+ files \(52 tools, 1 namespace, 0 toolkits\)/);
  });

  it('--verbose prints every warning, and the structured result always has them all', async () => {
    const r = await toolroute('codegen', 'many.yaml', '--out', 'out-verbose', '--verbose');
    expect(r.code).toBe(0);
    const full = r.stderr.split('\n').filter((l) => / - warning \[unreachable_tool\]/.test(l));
    expect(full.map((l) => /the tool "(\w+)"/.exec(l)?.[1])).toEqual(UNGROUPED);
    expect(r.stderr).not.toContain('more unreachable_tool warnings');
    const result = await generate(path.join(dir, 'many.yaml'), { out: path.join(dir, 'out'), cwd: dir, check: true });
    expect(result.warnings.filter((w) => w.code === 'unreachable_tool').map((w) => w.subject)).toEqual(UNGROUPED);
    expect(result.warnings).toHaveLength(54);
  });

  it('a few warnings of a code print in full, with no summary line', async () => {
    const r = await toolroute('codegen', 'few.yaml', '--out', 'out-few');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => / - warning \[unreachable_tool\]/.test(l))).toHaveLength(WARNINGS_SHOWN_PER_CODE + 1);
    expect(r.stderr).not.toContain('…');
  });

  it('--verbose is in the help, and is a codegen option only', async () => {
    const help = await toolroute('codegen', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--verbose {2,}Print every warning\./);
    const inspect = await toolroute('inspect', 'many.yaml', '--verbose');
    expect(inspect.code).toBe(2);
    expect(inspect.stderr).toContain('--verbose are codegen options');
  });
});
