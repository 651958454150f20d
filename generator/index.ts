/** toolroute's generator: load → validate → normalize → emit → write, each step data in, data out. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { emit, regenerateCommand, DEFAULT_RUNTIME_IMPORT, type GeneratedFile } from './emit/index.js';
import { isEsmScope } from './emit/package-json.js';
import { loadSpec } from './load.js';
import { normalizeSpec } from './normalize.js';
import { formatProblem, type Problem } from './problems.js';
import { checkSpec } from './validate.js';
import { formatOutputProblem, OUTPUT_PROBLEM_CODES, writeOutput, type FileStatus, type OutputProblem, type WriterFs } from './write.js';

export { DEFAULT_RUNTIME_IMPORT, type GeneratedFile } from './emit/index.js';
export type { FileStatus, OutputProblem, WriterFs } from './write.js';

export interface GenerateOptions {
  /** Output folder, relative to `cwd` (or absolute). */
  readonly out: string;
  /** Write nothing; report every stale, missing or extra file. */
  readonly check?: boolean;
  /** Folder the spec and output paths are resolved from, and shown relative to. Default: `process.cwd()`. */
  readonly cwd?: string;
  /** Module generated TS imports runtime types from. Default `toolroute/runtime`. */
  readonly runtimeImport?: string;
  /** File system for the writer (tests inject failures). */
  readonly fs?: WriterFs;
  /** Once aborted, the run writes nothing: it stops before the write step with `ok: false` (a watch run given up). */
  readonly signal?: AbortSignal;
}

/** A spec problem or an output problem: both print with `formatGenerateProblem`. */
export type GenerateProblem = Problem | OutputProblem;

/** Milliseconds spent in each pipeline step (0 for steps not reached). */
export interface GenerateTimings {
  load: number;
  validate: number;
  normalize: number;
  emit: number;
  write: number;
  total: number;
}

export interface GenerateResult {
  /** True when the spec is valid and the output was written (or, in check mode, is fresh). */
  readonly ok: boolean;
  /** Every problem found, spec problems all at once; empty when ok (and when only stale). */
  readonly problems: GenerateProblem[];
  /** Spec problems that did not stop generation (`severity: 'warning'`, e.g. an unknown `format`), in source order. */
  readonly warnings: Problem[];
  /** What the spec generates (empty when the spec has problems). */
  readonly files: GeneratedFile[];
  /** File names written (created or replaced) in the output folder. */
  readonly written: string[];
  /** File names removed (generated before, no longer produced). */
  readonly removed: string[];
  /** Out-of-date files: what check mode reports, and what write mode just fixed. */
  readonly stale: FileStatus[];
  /** The exact command that regenerates the output folder. */
  readonly command: string;
  /** The output folder as shown in messages (relative to cwd, POSIX). */
  readonly out: string;
  /** Tools, namespaces and toolkits in the spec (zeros when it did not load). */
  readonly counts: { tools: number; namespaces: number; toolkits: number };
  readonly timings: GenerateTimings;
}

/** toolroute's version, recorded in each manifest. */
export const VERSION: string = ownVersion();

/**
 * Reads the version from toolroute's own package.json, found by walking up from
 * this module: it runs as `generator/index.ts` (sources, tsx) and as
 * `dist/generator/index.js` (the build), at different depths below the package root.
 */
function ownVersion(): string {
  for (let dir = new URL('./', import.meta.url); ; ) {
    let text: string | undefined;
    try {
      text = readFileSync(new URL('package.json', dir), 'utf8');
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
    }
    if (text !== undefined) {
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (pkg.name === 'toolroute' && typeof pkg.version === 'string') return pkg.version;
    }
    const parent = new URL('../', dir);
    if (parent.href === dir.href) throw new Error(`toolroute: no package.json named "toolroute" above ${import.meta.url}`);
    dir = parent;
  }
}

/**
 * Generates the typed router folder for a spec: load → validate → normalize →
 * emit → write. Never throws for a user mistake (bad spec, foreign file in the
 * output folder); an exception means a bug in toolroute.
 *
 * @example
 * const result = await generate('examples/tools.spec.yaml', { out: 'generated' });
 * if (!result.ok) console.error(result.problems.map(formatGenerateProblem).join('\n'));
 */
export async function generate(specFile: string, options: GenerateOptions): Promise<GenerateResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const runtimeImport = options.runtimeImport ?? DEFAULT_RUNTIME_IMPORT;
  const outDisplay = displayFolder(cwd, path.resolve(cwd, options.out));
  const timer = startTimer();
  const result = (ok: boolean, rest: Partial<GenerateResult> & { specDisplay: string }): GenerateResult => ({
    ok,
    problems: [],
    warnings: [],
    files: [],
    written: [],
    removed: [],
    stale: [],
    counts: { tools: 0, namespaces: 0, toolkits: 0 },
    ...rest,
    command: regenerateCommand({ specDisplay: rest.specDisplay, outDisplay, runtimeImport }),
    out: outDisplay,
    timings: timer.timings,
  });

  const loaded = await timer.step('load', () => loadSpec(specFile, { cwd }));
  if (!loaded.ok) return result(false, { problems: loaded.problems, specDisplay: loaded.problems[0]?.file ?? specFile });
  const specDisplay = loaded.spec.file;

  const { problems, warnings } = await timer.step('validate', () => checkSpec(loaded.spec));
  if (problems.length > 0) return result(false, { problems, warnings, specDisplay });

  const ir = await timer.step('normalize', () => normalizeSpec(loaded.spec));
  const counts = { tools: ir.tools.length, namespaces: ir.namespaces.length, toolkits: ir.toolkits.length };

  // Headers and the manifest record the spec relative to the output folder (and a command run
  // there), never to cwd: generating from the project root or from a subfolder gives the same bytes.
  const outAbsolute = path.resolve(cwd, options.out);
  const specFromOut = displayFolder(outAbsolute, path.resolve(cwd, specFile));
  // Generated files are ES modules: outside an ESM package scope the folder gets a package.json that makes it one.
  const esmScope = isEsmScope(outAbsolute);
  const files = await timer.step('emit', () =>
    emit(ir, { specDisplay: specFromOut, outDisplay: '.', runtimeImport, version: VERSION, esmScope }),
  );

  if (options.signal?.aborted === true) return result(false, { warnings, files, counts, specDisplay });
  const written = await timer.step('write', () =>
    writeOutput(files, { out: options.out, outDisplay, cwd, ...(options.check === undefined ? {} : { check: options.check }), ...(options.fs ? { fs: options.fs } : {}) }),
  );
  return result(written.ok, { problems: written.problems, warnings, files, written: written.written, removed: written.removed, stale: written.stale, counts, specDisplay });
}

/**
 * One problem as text, whichever step found it.
 *
 * @example
 * formatGenerateProblem(result.problems[0]); // 'spec.yaml:3:5 - error [unknown_key] …'
 */
export function formatGenerateProblem(p: GenerateProblem): string {
  return isOutputProblem(p) ? formatOutputProblem(p) : formatProblem(p);
}

function isOutputProblem(p: GenerateProblem): p is OutputProblem {
  return (OUTPUT_PROBLEM_CODES as readonly string[]).includes(p.code);
}

/** An output folder as shown in messages: relative to cwd, POSIX separators, `.` for cwd itself. */
function displayFolder(cwd: string, absolute: string): string {
  const rel = path.relative(cwd, absolute);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

function startTimer() {
  const started = performance.now();
  const timings: GenerateTimings = { load: 0, validate: 0, normalize: 0, emit: 0, write: 0, total: 0 };
  return {
    timings,
    async step<T>(name: Exclude<keyof GenerateTimings, 'total'>, fn: () => T | Promise<T>): Promise<T> {
      const t = performance.now();
      try {
        return await fn();
      } finally {
        timings[name] = performance.now() - t;
        timings.total = performance.now() - started;
      }
    },
  };
}
