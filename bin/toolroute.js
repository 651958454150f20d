#!/usr/bin/env node
// The `toolroute` command. Two ways to run the same CLI:
//
// - dist: the compiled CLI (dist/cli/main.js) on plain node. What an installed package
//   (any copy under a node_modules folder) always runs: no loader, faster start. Its file times
//   say nothing there: npm writes the files in tarball order with the time of the install, so the
//   sources are often a second newer than dist/.
// - source: the TypeScript sources (cli/main.ts) through tsx. What a checkout runs before
//   `npm run build`, and whenever a source file is newer than the build, so an edited generator
//   never runs as its stale compiled copy.
//
// TOOLROUTE_CLI=dist or TOOLROUTE_CLI=source forces one (tests, debugging). Either way, specs
// written in TypeScript load through tsx's tsImport (generator/load.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
const DIST_CLI = new URL('dist/cli/main.js', ROOT);
/** An installed copy (npm, pnpm, yarn: below a node_modules folder), not a checkout or an `npm link`. */
const INSTALLED = fileURLToPath(ROOT).split(/[\\/]/).includes('node_modules');

/** Modification time of a file, or undefined when it does not exist. */
function mtime(url) {
  try {
    return statSync(url).mtimeMs;
  } catch (err) {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** Newest modification time among the package's TypeScript sources (0 when none ship). */
function newestSource() {
  let newest = mtime(new URL('index.ts', ROOT)) ?? 0;
  for (const dir of ['cli', 'generator', 'runtime', 'schema', 'search', 'integrations']) {
    let names;
    try {
      names = readdirSync(new URL(`${dir}/`, ROOT), { recursive: true });
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    for (const name of names) {
      if (name.endsWith('.ts')) newest = Math.max(newest, mtime(new URL(`${dir}/${name.replaceAll('\\', '/')}`, ROOT)) ?? 0);
    }
  }
  return newest;
}

function chooseMode() {
  const forced = process.env.TOOLROUTE_CLI;
  if (forced === 'dist' || forced === 'source') return forced;
  if (forced !== undefined && forced !== '') {
    process.stderr.write(`toolroute: TOOLROUTE_CLI must be "dist" or "source", not ${JSON.stringify(forced)}.\n`);
    process.exit(2);
  }
  const built = mtime(DIST_CLI);
  if (built !== undefined && INSTALLED) return 'dist';
  return built !== undefined && built >= newestSource() ? 'dist' : 'source';
}

/**
 * The generator's packages are the application's dev dependencies (an application that only runs a router
 * installs none of them): name the missing ones and the command that installs them, instead of
 * failing on the first import. Resolved from this file, as the CLI's own imports would be.
 */
const GENERATOR_PACKAGES = ['yaml', 'zod', 'tsx', 'esbuild'];
const missing = GENERATOR_PACKAGES.filter((name) => {
  try {
    import.meta.resolve(name === 'tsx' ? 'tsx/esm/api' : name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  const [first, ...more] = process.argv.slice(2);
  // `--version` and `--help` need no generator: they are how one finds out what is installed and what to add.
  if ((first === '--version' || first === '-v') && more.length === 0) {
    process.stdout.write(`${JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).version}\n`);
    process.exit(0);
  }
  const help = (first === '--help' || first === '-h') && more.length === 0;
  (help ? process.stdout : process.stderr).write(
    `toolroute: the code generator needs ${missing.join(', ')}, which a runtime-only install leaves out.\n` +
      'Install the generator\'s packages as dev dependencies:\n' +
      '  npm install --save-dev tsx yaml zod esbuild\n' +
      'Then `toolroute --help` lists the commands (codegen, import mcp, inspect, eval, init).\n',
  );
  process.exit(help ? 0 : 2);
}

const mode = chooseMode();
let cli;
if (mode === 'dist') {
  if (mtime(DIST_CLI) === undefined) {
    process.stderr.write('toolroute: TOOLROUTE_CLI=dist, but dist/cli/main.js does not exist. Run `npm run build` first.\n');
    process.exit(2);
  }
  cli = await import(DIST_CLI.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  // A TypeScript spec importing `toolroute` (for defineSpec) gets the sources here too,
  // through the package's `toolroute-source` export condition, built or not.
  const { register: registerHooks } = await import('node:module');
  registerHooks(
    'data:text/javascript,export function resolve(s, c, next) { return next(s, { ...c, conditions: [...c.conditions, "toolroute-source"] }); }',
  );
  cli = await import('../cli/main.ts');
}
await cli.run(process.argv.slice(2));
