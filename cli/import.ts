/**
 * `toolroute import mcp …`: arguments → `importMcp` → text and an exit code
 * (0 written or in sync, 1 problems or drift, 2 usage error). Loaded by
 * cli/main.ts only for this command, so `codegen` never loads the MCP SDK.
 */
import { parseArgs } from 'node:util';
import type { CliIO } from './main.js';
import { optionError } from './args.js';
import { IMPORT_MODES, importMcp, type ImportMode } from '../generator/import/mcp.js';

export const IMPORT_USAGE = `Usage: toolroute import mcp --out <spec.yaml> [--as flat|namespace|toolkit] [--name <group>] [--prefix <p>]
                            [--description <text>] [--check] [--sdk 1.x|2.x] (--url <url> | -- <command> [args…])

Write the tools of an MCP server into a spec (created, or merged into an existing one: this
server's previous import is replaced, everything else is kept).

Options:
  --out <spec.yaml>     The spec file to write (YAML).
  --as <mode>           Offer the tools as flat tools, one namespace (default) or one toolkit.
  --name <group>        Namespace / toolkit name and policy prefix (default: the server's name).
  --prefix <p>          Prefix for tool names (default: "<group>_" when the spec holds other tools, else none;
                        a re-import keeps the recorded one).
  --description <text>  Description of the namespace / toolkit.
  --check               Write nothing; exit 1 naming each tool that differs between the spec and the server,
                        or the first line an import now would rewrite.
  --url <url>           Connect over Streamable HTTP instead of starting a command over stdio.
  --sdk <line>          The MCP SDK line to connect with: 1.x (@modelcontextprotocol/sdk) or 2.x
                        (@modelcontextprotocol/client); default: TOOLROUTE_MCP_SDK, else the installed one, 2.x first.
  -- <command> [args…]  The server command to start over stdio (with this shell's environment).
`;

/**
 * Runs `toolroute import <kind> …` and returns the exit code.
 *
 * @example
 * await importMain(['mcp', '--out', 'memory.yaml', '--', 'npx', '-y', '@modelcontextprotocol/server-memory'], io);
 */
export async function importMain(argv: readonly string[], io: CliIO): Promise<number> {
  const usage = (message: string) => {
    io.stderr(`toolroute: ${message}\n\n${IMPORT_USAGE}`);
    return 2;
  };
  const split = argv.indexOf('--');
  const own = split < 0 ? [...argv] : argv.slice(0, split);
  const command = split < 0 ? [] : argv.slice(split + 1);
  const options = {
    out: { type: 'string' },
    as: { type: 'string' },
    name: { type: 'string' },
    prefix: { type: 'string' },
    description: { type: 'string' },
    url: { type: 'string' },
    sdk: { type: 'string' },
    check: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ args: own, allowPositionals: true, strict: true, options });
  } catch (err) {
    return usage(optionError(err, Object.keys(options)));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(IMPORT_USAGE);
    return 0;
  }
  if (positionals[0] !== 'mcp') return usage(positionals[0] === undefined ? 'import needs a kind: toolroute import mcp …' : `unknown import kind "${positionals[0]}"; only "mcp" exists.`);
  if (positionals.length > 1) return usage(`unexpected argument "${positionals[1]}" (put the server command after --).`);
  if (values.out === undefined || values.out === '') return usage('import mcp needs --out <spec.yaml>.');
  if (values.as !== undefined && !(IMPORT_MODES as readonly string[]).includes(values.as)) return usage(`--as must be one of ${IMPORT_MODES.join(', ')}, not "${values.as}".`);
  if (values.sdk !== undefined && values.sdk !== '1.x' && values.sdk !== '2.x') return usage(`--sdk must be 1.x or 2.x, not "${values.sdk}".`);
  // The prefix starts every tool name as written, and mcpHandlers selects by it: a character a name cannot hold would be
  // changed in the names but not in the record, which would then select nothing.
  if (values.prefix !== undefined && !/^([A-Za-z_][A-Za-z0-9_-]*)?$/.test(values.prefix)) {
    return usage(`--prefix must start with a letter or "_" and hold only letters, digits, "_" and "-" (tool names do), not "${values.prefix}".`);
  }
  if (values.url !== undefined && command.length > 0) return usage('give either --url or a command after --, not both.');
  if (values.url === undefined && command.length === 0) return usage('import mcp needs a server: --url <url>, or -- <command> [args…].');
  if (values.url !== undefined) {
    try {
      new URL(values.url);
    } catch {
      return usage(`--url is not a URL: ${values.url}`);
    }
  }

  const result = await importMcp({
    out: values.out,
    cwd: io.cwd,
    server: values.url !== undefined ? { url: values.url } : { command: command[0]!, args: command.slice(1), cwd: io.cwd, env: shellEnvironment() },
    ...(values.as !== undefined ? { as: values.as as ImportMode } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    ...(values.description !== undefined ? { description: values.description } : {}),
    check: values.check === true,
    ...(values.sdk !== undefined ? { sdk: values.sdk as '1.x' | '2.x' } : {}),
  });
  const notes = result.notes.map((n) => `  note: ${n.message}\n`).join('');
  if (result.problems.length > 0) {
    io.stderr(`${notes}${result.problems.map((p) => `toolroute: ${p}`).join('\n')}\ntoolroute: nothing was written.\n`);
    return 1;
  }
  const record = result.record!;
  const what = `${record.tools.length} tool${record.tools.length === 1 ? '' : 's'} of ${record.server} as ${record.as === 'flat' ? 'flat tools' : `${record.as} "${record.name}"`}`;
  if (values.check === true) {
    if (result.ok) {
      const moved = result.serverChanged;
      const version = moved ? ` The server is now ${moved.to} (imported from ${moved.from}); import again to record that in the spec.` : '';
      io.stdout(`${notes}toolroute: ${result.out} is in sync with the server (${what}).${version}\n`);
      return 0;
    }
    if (result.rewrites !== undefined) {
      io.stderr(
        `toolroute: ${result.out} matches the server's tools, but importing now would rewrite it from line ${result.rewrites.line} ` +
          `(${JSON.stringify(result.rewrites.text.trim())}): an edit inside the import's own entries (a hand-written tool, description or comment there) is not kept.\n` +
          'Fix: move what you wrote out of the imported group, or re-run the same command without --check to take the import\'s version.\n',
      );
      return 1;
    }
    const lines = result.drift.map((d) => `  ${d.tool}: ${d.change}${d.fields ? ` (${d.fields.join(', ')})` : ''}`);
    io.stderr(`toolroute: ${result.out} differs from the server:\n${lines.join('\n')}\nFix: re-run the same command without --check.\n`);
    return 1;
  }
  io.stdout(`${notes}toolroute: ${result.written ? 'wrote' : 'unchanged:'} ${result.out} (${what}).\n`);
  return 0;
}

/** This process's environment: the server command runs with it, as any command started from a shell does. */
function shellEnvironment(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}
