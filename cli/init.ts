/**
 * `toolroute init [folder]`: a starter spec, a handlers file, a small program that runs it, a `codegen` script and
 * `"type": "module"` in package.json, and a tsconfig.json when there is none. It never overwrites: any conflict is
 * listed and nothing is written.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What init writes, relative to the project folder. */
export const INIT_FILES = {
  spec: 'tools.spec.yaml',
  handlers: 'src/handlers.ts',
  main: 'src/main.ts',
  generated: 'src/generated',
  packageJson: 'package.json',
  tsconfig: 'tsconfig.json',
} as const;

/** The dev packages the README's install line adds: the code generator's, and the type checker. */
export const DEV_INSTALL = 'npm install --save-dev typescript @types/node tsx yaml zod esbuild';

/** The script init adds: what `npm run codegen` runs. */
export const CODEGEN_SCRIPT = `toolroute codegen ${INIT_FILES.spec} --out ${INIT_FILES.generated}`;

export const STARTER_SPEC = `# yaml-language-server: $schema=./node_modules/toolroute/schema/toolspec.schema.json
# The tools your agent may call. After an edit, run \`npm run codegen\` (it regenerates ${INIT_FILES.generated}/).
# Reference of every field: node_modules/toolroute/schema/README.md
version: 1
tools:
  - name: get_time
    description: Get the current date and time
    parameters:
      type: object
      properties:
        timezone: { type: string, description: "IANA time zone, for example Europe/Paris; default UTC" }
      additionalProperties: false
  - name: read_note
    description: Read a note by its title
    tags: [note, read]                # pruneByTask keeps this tool when the task mentions a tag
    parameters:
      type: object
      properties:
        title: { type: string, description: Title of the note }
      required: [title]
      additionalProperties: false
`;

export const STARTER_HANDLERS = `// One handler per tool of ${INIT_FILES.spec}, typed by the generated folder (\`npm run codegen\`).
// Leave a tool out, or read an argument it does not have, and tsc names the tool.
import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';
import type { Handlers } from './generated/index.js';

const notes = new Map<string, string>([['welcome', 'Edit ${INIT_FILES.spec}, run npm run codegen, then add the new handler here.']]);

export const handlers = {
  get_time: ({ timezone }) => new Date().toLocaleString('en-US', { timeZone: timezone ?? 'UTC' }),
  read_note: ({ title }) => notes.get(title) ?? \`No note is titled \${JSON.stringify(title)}.\`,
} satisfies Handlers;

/** Dispatch model tool calls with \`router.dispatch(call)\`; compile requests with \`router.compile({ target, messages })\`. */
export const router = createRouter(generated, handlers);
`;

export const STARTER_MAIN = `// The starter, run: npx tsc && node dist/main.js
// An agent hands each model response to router.handleResponse(target, response) instead (see the README).
import { router } from './handlers.js';

const calls = [
  { name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' },
  { name: 'read_note', arguments: '{"title":"welcome"}' },
  { name: 'read_note', arguments: '{"name":"welcome"}' }, // rejected: the reason is written for the model to act on
];
for (const call of calls) {
  const result = await router.dispatch(call);
  console.log(call.name, result.ok ? result.result : \`rejected (\${result.code}): \${result.reason}\`);
}
`;

export const STARTER_TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      strict: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      rootDir: 'src',
      outDir: 'dist',
    },
    include: ['src'],
  },
  null,
  2,
)}\n`;

export interface InitResult {
  readonly ok: boolean;
  /** Files created or changed, relative to the folder, in the order written. */
  readonly written: readonly string[];
  /** Why nothing was written: each existing file or script that init would have overwritten. */
  readonly conflicts: readonly string[];
  /** Things to tell the user (package.json not an ES module package, toolroute not a dependency, …). */
  readonly notes: readonly string[];
}

/**
 * Writes the starter files into `folder` (created when missing), or nothing when anything would be overwritten.
 *
 * @example
 * const r = await initProject('my-agent');
 * r.written; // ['tools.spec.yaml', 'src/handlers.ts', 'src/main.ts', 'package.json', 'tsconfig.json']
 */
export async function initProject(folder: string): Promise<InitResult> {
  const at = (rel: string) => path.join(folder, rel);
  const conflicts: string[] = [];
  const notes: string[] = [];
  for (const rel of [INIT_FILES.spec, INIT_FILES.handlers, INIT_FILES.main]) {
    if ((await readText(at(rel))) !== undefined) conflicts.push(`${rel} already exists`);
  }
  const pkgText = await readText(at(INIT_FILES.packageJson));
  let pkg: Record<string, unknown> | undefined;
  if (pkgText !== undefined) {
    try {
      const parsed: unknown = JSON.parse(pkgText);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      pkg = parsed as Record<string, unknown>;
    } catch (err) {
      conflicts.push(`package.json is not a JSON object (${err instanceof Error ? err.message : String(err)}); fix it first`);
    }
    // The starter and the generated folder are ES modules; a package that says it is CommonJS is the user's choice.
    if (pkg?.['type'] === 'commonjs') conflicts.push('package.json has "type": "commonjs", and the starter is ES modules: set "type": "module" (or remove the line) and run init again');
    const scripts = pkg?.['scripts'];
    if (scripts !== undefined && (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts))) conflicts.push('package.json "scripts" is not an object');
    else if (scripts !== undefined && Object.hasOwn(scripts, 'codegen')) conflicts.push(`package.json already has a "codegen" script (${JSON.stringify((scripts as Record<string, unknown>)['codegen'])})`);
  }
  if (conflicts.length > 0) return { ok: false, written: [], conflicts, notes };

  const written: string[] = [];
  await writeNew(at(INIT_FILES.spec), STARTER_SPEC);
  written.push(INIT_FILES.spec);
  await writeNew(at(INIT_FILES.handlers), STARTER_HANDLERS);
  written.push(INIT_FILES.handlers);
  await writeNew(at(INIT_FILES.main), STARTER_MAIN);
  written.push(INIT_FILES.main);

  if (pkg === undefined || pkgText === undefined) {
    const name = npmName(path.basename(path.resolve(folder)));
    await writeNew(at(INIT_FILES.packageJson), `${JSON.stringify({ name, version: '0.1.0', private: true, type: 'module', scripts: { codegen: CODEGEN_SCRIPT } }, null, 2)}\n`);
  } else {
    const scripts = (pkg['scripts'] as Record<string, unknown> | undefined) ?? {};
    // An install before init (npm install toolroute) leaves a package.json without "type": the starter needs it.
    const next = { ...pkg, ...(pkg['type'] === undefined ? { type: 'module' } : {}), scripts: { ...scripts, codegen: CODEGEN_SCRIPT } };
    await replace(at(INIT_FILES.packageJson), `${JSON.stringify(next, null, indentOf(pkgText))}${pkgText.endsWith('\n') ? '\n' : ''}`);
    if (pkg['type'] === undefined) notes.push('package.json now has "type": "module": the starter and the generated folder are ES modules.');
  }
  written.push(INIT_FILES.packageJson);
  const deps = { ...(pkg?.['dependencies'] as object | undefined), ...(pkg?.['devDependencies'] as object | undefined) };
  if (!Object.hasOwn(deps, 'toolroute')) {
    notes.push(`Install toolroute, and the code generator's packages and TypeScript as dev dependencies: npm install toolroute && ${DEV_INSTALL}`);
  }

  if ((await readText(at(INIT_FILES.tsconfig))) === undefined) {
    await writeNew(at(INIT_FILES.tsconfig), STARTER_TSCONFIG);
    written.push(INIT_FILES.tsconfig);
  } else {
    notes.push('tsconfig.json exists and was left alone: the generated folder needs "module": "nodenext" (or "bundler").');
  }
  return { ok: true, written, conflicts: [], notes };
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Creates a file that must not exist (`wx`: a file appearing meanwhile is never overwritten). */
async function writeNew(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { flag: 'wx' });
}

/** Replaces a file atomically (temp file + rename). */
async function replace(file: string, text: string): Promise<void> {
  const temp = `${file}.toolroute-init.tmp`;
  await writeFile(temp, text, { flag: 'wx' });
  await rename(temp, file);
}

/** The indentation of a JSON file (2 by default), so an edit keeps its style. */
function indentOf(text: string): string | number {
  const m = /^\{\r?\n([ \t]+)"/.exec(text);
  return m?.[1] ?? 2;
}

/** A folder name as an npm package name. */
function npmName(folder: string): string {
  const name = folder.toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'my-agent' : name.slice(0, 214);
}
