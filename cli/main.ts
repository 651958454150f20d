/**
 * The toolroute command line, the only code that prints: arguments → `generate`'s options, the
 * result → text and an exit code (0 ok, 1 problems or stale output, 2 usage error, 70 a bug in toolroute).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { DEFAULT_RUNTIME_IMPORT, formatGenerateProblem, generate, VERSION, type GenerateResult } from '../generator/index.js';
import { shellWord } from '../generator/emit/code.js';
import type { Problem } from '../generator/problems.js';
import { optionError } from './args.js';

/** Where the CLI writes; tests pass their own. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** Ends `codegen --watch` (tests); by default SIGINT / SIGTERM do. */
  readonly signal?: AbortSignal;
}

/** The options each command takes, for the did-you-mean of a mistyped one. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  codegen: ['out', 'check', 'watch', 'runtime-import', 'verbose', 'help', 'version'],
  inspect: ['json', 'html', 'toolkit-loading', 'help', 'version'],
  eval: ['json', 'help', 'version'],
  init: ['help', 'version'],
};

/** How many warnings of one code the CLI prints before it folds the rest into one line (all of them with `--verbose`). */
export const WARNINGS_SHOWN_PER_CODE = 3;

export const USAGE = `Usage: toolroute codegen <spec> --out <dir> [--check | --watch] [--runtime-import <specifier>] [--verbose]
       toolroute import mcp --out <spec.yaml> [--as flat|namespace|toolkit] [--name <group>] [--prefix <p>] [--description <text>]
                            [--check] [--sdk 1.x|2.x] (--url <url> | -- <command> [args…])
       toolroute inspect <spec> [--json | --html <file>] [--toolkit-loading native|dispatcher|append|tool-changes]
       toolroute eval <spec> <cases> [--json]
       toolroute init [folder]

Compile a tool spec (YAML, JSON or TypeScript) into a typed router folder.

Commands:
  codegen <spec>               Generate the folder for <spec>.
  import mcp                   Write an MCP server's tools into a spec (toolroute import --help).
  inspect <spec>               Show what the router sends per target under its toolkit-loading strategy (the
                               spec's, or --toolkit-loading): tools offered, bytes and tokens of the tools array,
                               the directory and the whole request, before and after each toolkit load.
  eval <spec> <cases>          Check which flat tools each task of a case file keeps, with pruneByTask and with
                               the ranked search (rankByTask): recall, precision and tools kept per case and
                               overall. Exit 1 when a case fails under the selection that gates it.
  init [folder]                Start a project: tools.spec.yaml, src/handlers.ts, src/main.ts, a codegen script
                               and "type": "module" in package.json (and tsconfig.json if missing). Never
                               overwrites anything.

Options:
  --out <dir>                  Output folder (required). Files toolroute did not generate are never touched.
  --check                      Write nothing; exit 1 if any generated file is stale, missing or extra.
  --watch                      Regenerate on every change of the spec (and of local files a TS spec imports);
                               a bad edit prints its problems and keeps the last good output. Ctrl-C stops.
  --runtime-import <specifier> Module the generated code imports runtime types from (default: ${DEFAULT_RUNTIME_IMPORT}).
  --verbose                    Print every warning. Without it, more than ${WARNINGS_SHOWN_PER_CODE + 1} warnings of one code print
                               the first ${WARNINGS_SHOWN_PER_CODE} and one line naming the rest.
  --json                       inspect, eval: print the report as JSON.
  --html <file>                inspect: write a self-contained HTML page (tables and a chart).
  --toolkit-loading <name>     inspect: measure this strategy (the router's option) instead of the spec's.
  -h, --help                   Show this help.
  -v, --version                Show the version.

Exit codes: 0 ok, 1 spec problems, stale output or a failing eval case, 2 usage error,
            70 internal error (a bug in toolroute; please report it).
`;

/**
 * Runs the CLI with the given arguments and returns the exit code.
 *
 * @example
 * const code = await main(['codegen', 'examples/tools.spec.yaml', '--out', 'generated']);
 */
export async function main(argv: readonly string[], io: CliIO = defaultIO()): Promise<number> {
  // Loaded only for this command: `codegen` never loads the MCP SDK (an optional peer dependency).
  if (argv[0] === 'import') return (await import('./import.js')).importMain(argv.slice(1), io);
  const options = {
    out: { type: 'string' },
    check: { type: 'boolean' },
    'runtime-import': { type: 'string' },
    json: { type: 'boolean' },
    html: { type: 'string' },
    'toolkit-loading': { type: 'string' },
    watch: { type: 'boolean' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (err) {
    const command = argv.find((a) => !a.startsWith('-'));
    return usageError(io, optionError(err, (command !== undefined ? COMMAND_OPTIONS[command] : undefined) ?? Object.keys(options)));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(USAGE);
    return 0;
  }
  if (values.version === true) {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  if (positionals.length === 0) {
    io.stderr(USAGE);
    return 2;
  }
  const [command, spec, ...rest] = positionals;
  if (command === 'init') {
    if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}": toolroute init [folder].`);
    if (Object.values(values).some((v) => v !== undefined)) return usageError(io, 'init takes no options: toolroute init [folder].');
    return initCommand(spec ?? '.', io);
  }
  if (command === 'inspect') {
    if (spec === undefined) return usageError(io, 'inspect needs a spec file: toolroute inspect <spec>.');
    if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}".`);
    if (values.out !== undefined || values.check !== undefined || values['runtime-import'] !== undefined || values.verbose !== undefined || values.watch !== undefined) return usageError(io, 'inspect writes no folder: --out, --check, --watch, --runtime-import and --verbose are codegen options.');
    if (values.html === '') return usageError(io, '--html needs a file name.');
    if (values.html !== undefined && values.json !== undefined) return usageError(io, 'inspect prints JSON (--json) or writes a page (--html <file>), one at a time.');
    const strategy = values['toolkit-loading'];
    // Loaded only for this command: codegen never loads the runtime router or a tokenizer.
    const { inspectCommand } = await import('./inspect/command.js');
    const options = { ...(values.json === undefined ? {} : { json: values.json }), ...(values.html === undefined ? {} : { html: values.html }) };
    return inspectCommand(spec, { ...options, ...(strategy === undefined ? {} : { toolkitLoading: strategy }) }, io);
  }
  if (command === 'eval') {
    if (spec === undefined || rest.length !== 1) return usageError(io, 'eval needs a spec and a case file: toolroute eval <spec> <cases> [--json].');
    if (Object.entries(values).some(([k, v]) => k !== 'json' && v !== undefined)) return usageError(io, 'eval takes one option: --json.');
    return (await import('./eval.js')).evalCommand(spec, rest[0]!, values.json === undefined ? {} : { json: values.json }, io);
  }
  if (command !== 'codegen') return usageError(io, `unknown command "${command}".`);
  if (values.json !== undefined || values.html !== undefined || values['toolkit-loading'] !== undefined) return usageError(io, '--json, --html and --toolkit-loading are inspect options.');
  if (spec === undefined) return usageError(io, 'codegen needs a spec file: toolroute codegen <spec> --out <dir>.');
  if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}".`);
  if (values.out === undefined || values.out === '') return usageError(io, 'codegen needs --out <dir>.');
  if (values['runtime-import']?.trim() === '') return usageError(io, `--runtime-import needs a module specifier (default: ${DEFAULT_RUNTIME_IMPORT}).`);

  const check = values.check === true;
  const verbose = values.verbose === true;
  const runtimeImport = values['runtime-import'] === undefined ? {} : { runtimeImport: values['runtime-import'] };
  if (values.watch === true) {
    if (check) return usageError(io, '--watch and --check do not combine: --check writes nothing.');
    const { watchCodegen } = await import('./watch.js');
    const ac = new AbortController();
    const stop = () => ac.abort();
    // Ctrl-C (or a supervisor's SIGTERM) ends watching cleanly with exit 0; an open run finishes its atomic write first.
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      await watchCodegen({ spec, out: values.out, cwd: io.cwd, ...runtimeImport, report: (r) => void report(r, false, io, verbose, true), status: io.stdout, signal: io.signal ?? ac.signal });
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    return 0;
  }
  const result = await generate(spec, { out: values.out, check, cwd: io.cwd, ...runtimeImport });
  return report(result, check, io, verbose);
}

/** `toolroute init [folder]`: writes the starter files, or lists why it will not. */
async function initCommand(folder: string, io: CliIO): Promise<number> {
  const { initProject, CODEGEN_SCRIPT } = await import('./init.js');
  const r = await initProject(path.resolve(io.cwd, folder));
  if (!r.ok) {
    io.stderr(`${r.conflicts.map((c) => `toolroute: ${c}.`).join('\n')}\ntoolroute init never overwrites: nothing was written.\n`);
    return 1;
  }
  const where = folder === '.' ? '' : ` in ${folder}`;
  const cd = folder === '.' ? '' : `cd ${shellWord(folder)} && `;
  io.stdout(
    `toolroute: wrote ${r.written.join(', ')}${where}.\n${r.notes.map((n) => `note: ${n}\n`).join('')}` +
      `Next: ${cd}npm run codegen   (${CODEGEN_SCRIPT}), then npx tsc --noEmit; run the starter with npx tsc && node dist/main.js.\n`,
  );
  return 0;
}

/** Prints one codegen result; returns its exit code. */
function report(result: GenerateResult, check: boolean, io: CliIO, verbose: boolean, watching = false): number {
  // Warnings first (they are about the spec, whatever happens next), on stderr like problems.
  if (result.warnings.length > 0) io.stderr(`${formatWarnings(result.warnings, verbose)}\n\n`);
  if (result.problems.length > 0) {
    const n = result.problems.length;
    const kept = !watching ? '' : existsSync(path.resolve(io.cwd, result.out, 'manifest.json')) ? ` ${result.out} keeps its last good output.` : '';
    io.stderr(`${result.problems.map(formatGenerateProblem).join('\n')}\n\ntoolroute: ${n} problem${n === 1 ? '' : 's'}; nothing was written.${kept}\n`);
    return 1;
  }
  const summary = `${plural(result.counts.tools, 'tool')}, ${plural(result.counts.namespaces, 'namespace')}, ${plural(result.counts.toolkits, 'toolkit')}`;
  if (check) {
    if (result.ok) {
      io.stdout(`toolroute: ${result.files.length} files in ${result.out} are up to date (${summary}).\n`);
      return 0;
    }
    const lines = result.stale.map((s) => `  ${s.file}: ${s.state === 'stale' ? 'stale (differs from what the spec generates)' : s.state === 'missing' ? 'missing' : 'extra (generated before, no longer produced)'}`);
    io.stderr(`toolroute: generated files are out of date:\n${lines.join('\n')}\nFix: ${result.command}\n`);
    return 1;
  }
  const changed = result.written.length + result.removed.length;
  const removed = result.removed.length > 0 ? `, removed ${result.removed.length}` : '';
  io.stdout(
    changed === 0
      ? `toolroute: ${result.files.length} files up to date (${summary}) in ${Math.round(result.timings.total)} ms.\n`
      : `toolroute: wrote ${result.written.length} of ${result.files.length} files${removed} (${summary}) in ${Math.round(result.timings.total)} ms.\n`,
  );
  return 0;
}

/** How many of the folded warnings' names that line lists. */
const NAMES_LISTED = 10;

/**
 * The warnings as the CLI prints them. A spec can warn once per tool, which would bury everything
 * else: past `WARNINGS_SHOWN_PER_CODE + 1` of one code, one line counts and names the rest and points
 * at `--verbose`. `generate(…).warnings` always holds every warning.
 *
 * @example
 * formatWarnings(result.warnings, false);
 * // …three unreachable_tool warnings…
 * // … and 47 more unreachable_tool warnings: get_a, get_b, … (run with --verbose to see all)
 */
export function formatWarnings(warnings: readonly Problem[], verbose: boolean): string {
  const byCode = new Map<string, Problem[]>();
  for (const w of warnings) {
    const same = byCode.get(w.code);
    if (same === undefined) byCode.set(w.code, [w]);
    else same.push(w);
  }
  const folded = (code: string) => !verbose && byCode.get(code)!.length > WARNINGS_SHOWN_PER_CODE + 1;
  const seen = new Map<string, number>();
  const lines: string[] = [];
  // Source order, as `generate` sorted them; a folded code's later warnings are left out here.
  for (const w of warnings) {
    const n = seen.get(w.code) ?? 0;
    seen.set(w.code, n + 1);
    if (!folded(w.code) || n < WARNINGS_SHOWN_PER_CODE) lines.push(formatGenerateProblem(w));
  }
  for (const [code, all] of byCode) {
    if (!folded(code)) continue;
    const rest = all.slice(WARNINGS_SHOWN_PER_CODE);
    const names = rest.slice(0, NAMES_LISTED).map((w) => w.subject ?? w.path);
    const more = rest.length > NAMES_LISTED ? ', …' : '';
    lines.push(`… and ${rest.length} more ${code} warnings: ${names.join(', ')}${more} (run with --verbose to see all)`);
  }
  return lines.join('\n');
}

/** `1 tool`, `2 tools`, `0 tools`. */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`toolroute: ${message}\nRun "toolroute --help" for usage.\n`);
  return 2;
}

function defaultIO(): CliIO {
  return { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), cwd: process.cwd() };
}

/**
 * Runs the CLI for this process: sets `process.exitCode`; an exception (a bug
 * in toolroute, never a user mistake) prints as an internal error, exit 70.
 *
 * @example
 * await run(process.argv.slice(2));
 */
export async function run(argv: readonly string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (err) {
    process.stderr.write(
      `toolroute: internal error (this is a bug in toolroute; please report it with the spec that triggered it):\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 70;
  }
}

// Executed directly (`tsx cli/main.ts …`, as `npm run codegen` does); `bin/toolroute.js` calls `run` itself.
const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href) await run(process.argv.slice(2));
