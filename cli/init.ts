/**
 * `toolroute init [folder]`: a starter spec, a handlers file, a small program that runs it, a `codegen` script and
 * `"type": "module"` in package.json, and a tsconfig.json when there is none. It never overwrites: any conflict is
 * listed and nothing is written.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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
# Reference of every field and every error code: node_modules/toolroute/docs/spec.md
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
  /** A file's text, or undefined when it does not exist; anything else in the way (a folder, a file as a parent folder, no permission) is a conflict. */
  const existing = async (rel: string): Promise<string | undefined> => {
    const r = await readText(at(rel));
    if (typeof r === 'object') conflicts.push(`${rel} cannot be read or written (${r.code}: ${r.code === 'EISDIR' ? 'it is a folder' : r.code === 'ENOTDIR' ? 'a folder on its path is a file' : 'see its permissions'})`);
    return typeof r === 'string' ? r : undefined;
  };
  // A file where the folder should be: one conflict that says so, not one per starter file.
  const self = await stat(folder).catch(() => undefined);
  if (self !== undefined && !self.isDirectory()) return { ok: false, written: [], conflicts: ['the folder to start in is a file'], notes };
  for (const rel of [INIT_FILES.spec, INIT_FILES.handlers, INIT_FILES.main]) {
    if ((await existing(rel)) !== undefined) conflicts.push(`${rel} already exists`);
  }
  const pkgText = await existing(INIT_FILES.packageJson);
  const tsconfigText = await existing(INIT_FILES.tsconfig);
  let pkg: Record<string, unknown> | undefined;
  if (pkgText !== undefined) {
    try {
      // A byte order mark is not content (npm reads such a file); it is written back as it was.
      const parsed: unknown = JSON.parse(pkgText.replace(/^\uFEFF/, ''));
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

  const plan: { rel: string; text: string }[] = [
    { rel: INIT_FILES.spec, text: STARTER_SPEC },
    { rel: INIT_FILES.handlers, text: STARTER_HANDLERS },
    { rel: INIT_FILES.main, text: STARTER_MAIN },
  ];
  if (pkg === undefined || pkgText === undefined) {
    const name = npmName(path.basename(path.resolve(folder)));
    plan.push({ rel: INIT_FILES.packageJson, text: `${JSON.stringify({ name, version: '0.1.0', private: true, type: 'module', scripts: { codegen: CODEGEN_SCRIPT } }, null, 2)}\n` });
  } else {
    const scripts = (pkg['scripts'] as Record<string, unknown> | undefined) ?? {};
    // An install before init (npm install toolroute) leaves a package.json without "type": the starter needs it.
    const next = { ...pkg, ...(pkg['type'] === undefined ? { type: 'module' } : {}), scripts: { ...scripts, codegen: CODEGEN_SCRIPT } };
    const eol = pkgText.includes('\r\n') ? '\r\n' : '\n';
    const text = `${JSON.stringify(next, null, indentOf(pkgText))}${/\r?\n$/.test(pkgText) ? '\n' : ''}`;
    plan.push({ rel: INIT_FILES.packageJson, text: `${pkgText.startsWith('\uFEFF') ? '\uFEFF' : ''}${eol === '\n' ? text : text.replace(/\n/g, eol)}` });
    if (pkg['type'] === undefined) notes.push('package.json now has "type": "module": the starter and the generated folder are ES modules.');
  }
  const deps = { ...(pkg?.['dependencies'] as object | undefined), ...(pkg?.['devDependencies'] as object | undefined) };
  if (!Object.hasOwn(deps, 'toolroute')) {
    notes.push(`Install toolroute, and the code generator's packages and TypeScript as dev dependencies: npm install toolroute && ${DEV_INSTALL}`);
  }
  if (tsconfigText === undefined) plan.push({ rel: INIT_FILES.tsconfig, text: STARTER_TSCONFIG });
  else notes.push('tsconfig.json exists and was left alone: the generated folder needs "module": "nodenext" (or "bundler").');

  // All or nothing: a write that fails (a full disk, a file appearing meanwhile) undoes the ones before it.
  const written: string[] = [];
  try {
    for (const { rel, text } of plan) {
      if (rel === INIT_FILES.packageJson && pkgText !== undefined) await replace(at(rel), text);
      else await writeNew(at(rel), text);
      written.push(rel);
    }
  } catch (err) {
    for (const rel of written.reverse()) {
      if (rel === INIT_FILES.packageJson && pkgText !== undefined) await replace(at(rel), pkgText).catch(() => undefined);
      else await rm(at(rel), { force: true }).catch(() => undefined);
    }
    return { ok: false, written: [], conflicts: [`writing the starter failed (${(err as { code?: unknown }).code ?? String(err)})`], notes: [] };
  }
  return { ok: true, written, conflicts: [], notes };
}

/** A file's text, undefined when it does not exist, or what kept it from being read. */
async function readText(file: string): Promise<string | undefined | { readonly code: string }> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === 'ENOENT' ? undefined : { code: typeof code === 'string' ? code : 'unreadable' };
  }
}

/** Creates a file that must not exist (`wx`: a file appearing meanwhile is never overwritten). */
async function writeNew(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { flag: 'wx' });
}

/** Replaces a file atomically (a temp file of this process's own, then a rename). */
async function replace(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomUUID()}.toolroute-init.tmp`;
  await writeFile(temp, text, { flag: 'wx' });
  await rename(temp, file).catch(async (err: unknown) => {
    await rm(temp, { force: true });
    throw err;
  });
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
