/**
 * Load a spec file (YAML, JSON or TypeScript) into a plain value plus a way to map a spec path back
 * to a line and column, so every later problem can say where it is. Duplicate keys are an error
 * with both positions, never "last one wins", and so is anything JSON data cannot hold.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from './problems.js';
import { errorCode, fail } from './load/common.js';
import { jsonDataProblems } from './load/json-data.js';
import { loadJson } from './load/json.js';
import { loadTs } from './load/typescript.js';
import { loadYamlDocument } from './load/yaml.js';

export { jsonSyntaxError } from './load/json.js';
export { isZodSchema } from './load/typescript.js';

/** The file formats a spec may be written in. */
export const SPEC_FORMATS = ['yaml', 'json', 'ts'] as const;
export type SpecFormat = (typeof SPEC_FORMATS)[number];

/** File extensions per format. */
const EXTENSIONS: Readonly<Record<string, SpecFormat>> = {
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.ts': 'ts',
  '.mts': 'ts',
};

/** A spec path: object keys and array indices from the root. */
export type SpecPath = readonly (string | number)[];

/** A loaded spec: its value, and where each part of it was written. */
export interface LoadedSpec {
  /** Display path: relative to cwd, POSIX separators (never absolute in messages or output). */
  file: string;
  format: SpecFormat;
  /** The spec as plain data (TS specs: zod `parameters` already converted to JSON Schema). */
  value: unknown;
  /**
   * Line and column (1-based) of the node at `path`: its value by default, or
   * its key with `at: 'key'` (where an unknown key is reported). When `path`
   * does not exist (a missing key), the deepest existing node. TS specs: 1:1.
   */
  locate(path: SpecPath, at?: 'value' | 'key'): { line: number; column: number };
  /** What reading the file found that does not stop generation (TS specs: a zod regex flag JSON Schema cannot carry). */
  warnings?: Problem[];
}

/** What `loadSpec` returns: the spec, or the problems that kept it from loading. */
export type LoadResult = { ok: true; spec: LoadedSpec } | { ok: false; problems: Problem[] };

/**
 * Reads and parses a spec file. Never throws for a user mistake (missing file,
 * syntax error, duplicate key, failing TS module): those come back as problems.
 *
 * @example
 * const loaded = await loadSpec('examples/tools.spec.yaml');
 * if (loaded.ok) loaded.spec.locate(['tools', 0, 'name']); // { line: 12, column: 11 }
 */
export async function loadSpec(file: string, options: { cwd?: string } = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = path.resolve(cwd, file);
  const display = displayPath(cwd, absolute);
  const format = EXTENSIONS[path.extname(absolute).toLowerCase()];
  if (format === undefined) {
    return fail(display, 'unsupported_file_type', `"${path.extname(absolute) || '(no extension)'}" is not a spec file type.`,
      'Name the spec *.yaml, *.yml, *.json, *.ts or *.mts.');
  }
  if (format === 'ts') return jsonData(await loadTs(absolute, display));

  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (err) {
    return fail(display, 'file_not_found', `cannot read the spec file (${errorCode(err)}).`,
      'Check the path; it is resolved from the current directory.');
  }
  const text = bytes.toString('utf8');
  // Decoding replaces bytes that are not UTF-8 with U+FFFD: the spec would say something other than what was written.
  const bad = Buffer.from(text, 'utf8').equals(bytes) ? -1 : firstDifference(Buffer.from(text, 'utf8'), bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString('utf8').split('\n');
    return { ok: false, problems: [{ code: 'syntax_error', message: `the file is not UTF-8 text: byte ${bad + 1} (0x${bytes[bad]!.toString(16).padStart(2, '0')}) is not valid UTF-8 here.`,
      hint: 'Save the spec as UTF-8 (most editors: "Save with encoding").', file: display, line: before.length, column: before.at(-1)!.length + 1, path: '' }] };
  }
  return loadText(text, display, format);
}

/** The first index where two buffers differ (the shorter one's length when one is a prefix of the other). */
function firstDifference(a: Buffer, b: Buffer): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** A loaded spec, or its `not_json_data` problems: everything after loading reads plain JSON data. */
function jsonData(loaded: LoadResult): LoadResult {
  if (!loaded.ok) return loaded;
  const problems = jsonDataProblems(loaded.spec.value, loaded.spec.file, (p) => loaded.spec.locate(p));
  return problems.length > 0 ? { ok: false, problems } : loaded;
}

/**
 * Parses spec text that is already in memory (used by `loadSpec`, and by tests
 * and tools that hold the text). `display` is the file name used in messages.
 *
 * @example
 * const r = loadText('version: 1\n', 'inline.yaml', 'yaml'); // r.ok === true
 */
export function loadText(text: string, display: string, format: 'yaml' | 'json'): LoadResult {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM is not content
  return jsonData(format === 'json' ? loadJson(text, display) : loadYamlDocument(text, display, format));
}

/** The display form of a spec path: relative to cwd, POSIX separators. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = path.relative(path.resolve(cwd), absolute);
  return (rel === '' ? path.basename(absolute) : rel).split(path.sep).join('/');
}
