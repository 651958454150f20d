/**
 * Load a spec file (YAML, JSON or TypeScript) into a plain value plus a way to
 * map a spec path back to a line and column, so every later problem can say
 * where it is.
 *
 * - YAML and JSON are parsed with `yaml` (JSON is YAML), keeping node ranges;
 *   JSON is first checked with `JSON.parse` so JSON-only syntax rules
 *   (no trailing commas, no comments) hold and errors get a line and column.
 * - Duplicate keys are an error with both positions, never "last one wins".
 * - TypeScript specs are imported with tsx; their zod `parameters` become JSON
 *   Schema here. A TS spec has no source positions: its problems point at the
 *   file's 1:1 and carry the spec path.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { formatPath, type Problem } from './problems.js';

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
  if (format === 'ts') return loadTs(absolute, display);

  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (err) {
    return fail(display, 'file_not_found', `cannot read the spec file (${errorCode(err)}).`,
      'Check the path; it is resolved from the current directory.');
  }
  return loadText(text, display, format);
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
  const lineCounter = new LineCounter();
  const problems: Problem[] = [];
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  if (format === 'json') {
    // JSON.parse's messages differ between Node versions and often carry no position; check the syntax ourselves.
    const scan = scanJson(text);
    if (scan.error) {
      return {
        ok: false,
        problems: [{ code: 'syntax_error', message: `invalid JSON: ${scan.error.message}.`, hint: 'Fix the JSON syntax (no trailing commas, no comments, keys in double quotes).',
          file: display, ...positionOf(text, scan.error.offset), path: '' }],
      };
    }
    // Valid JSON (the common case for big, machine-written specs): the native parser and a position
    // index of our own are an order of magnitude faster than building a YAML document with ranges.
    // Only JSON nested too deep to scan goes the YAML way below.
    if (scan.complete) return loadJson(text, display, scan.duplicates);
  }

  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true });
  // Only the first syntax error: the ones after it are usually its echoes.
  for (const e of doc.errors.slice(0, 1)) {
    problems.push({ code: 'syntax_error', message: `invalid ${format === 'json' ? 'JSON' : 'YAML'}: ${sentence(e.message)}`,
      hint: format === 'json' ? 'Fix the JSON syntax.' : 'Fix the YAML syntax (indentation, quotes, brackets).',
      file: display, ...at(e.pos[0]), path: '' });
  }
  if (problems.length > 0) return { ok: false, problems };

  findDuplicateKeys(doc, display, at, problems);
  if (problems.length > 0) return { ok: false, problems };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    return fail(display, 'syntax_error', `cannot read the YAML: ${sentence(err instanceof Error ? err.message : String(err))}`,
      'Use fewer aliases (*name); write the content out instead.');
  }

  const locate = (p: SpecPath, mode: 'value' | 'key' = 'value') => {
    const offset = locateOffset(doc, p, mode);
    return offset === undefined ? { line: 1, column: 1 } : at(offset);
  };
  return { ok: true, spec: { file: display, format, value, locate } };
}

/** The display form of a spec path: relative to cwd, POSIX separators. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = path.relative(path.resolve(cwd), absolute);
  return (rel === '' ? path.basename(absolute) : rel).split(path.sep).join('/');
}

function fail(file: string, code: Problem['code'], message: string, hint: string): LoadResult {
  return { ok: false, problems: [{ code, message, hint, file, line: 0, column: 0, path: '' }] };
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unreadable';
}

/** "Map keys must be unique" → "map keys must be unique." */
function sentence(s: string): string {
  const t = s.trim().split('\n')[0] ?? '';
  const lowered = t.length > 1 && /^[A-Z][a-z]/.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
  return /[.!?]$/.test(lowered) ? lowered : `${lowered}.`;
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: end - last };
}

/**
 * The first JSON syntax error in `text` (offset and what was expected), or
 * undefined when `text` is one valid JSON value. A small recursive-descent
 * scanner: it builds nothing, it only finds where the text stops being JSON.
 *
 * @example
 * jsonSyntaxError('{"a": 1,}'); // { offset: 7, message: 'trailing comma before "}" (JSON allows none)' }
 */
export function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  return scanJson(text).error;
}

/** A key written twice in one JSON object: where, and where it was first. */
interface JsonDuplicate {
  /** Path of the object holding the key. */
  readonly path: readonly (string | number)[];
  readonly key: string;
  /** Offsets of the opening quotes of the second and the first occurrence. */
  readonly offset: number;
  readonly first: number;
}

/**
 * One pass over JSON text: the first syntax error, or every duplicate key in
 * document order. `complete` is false when the text is nested too deep to scan
 * (the YAML parser judges it then).
 */
function scanJson(text: string): { error?: { offset: number; message: string }; duplicates: JsonDuplicate[]; complete: boolean } {
  let i = 0;
  const duplicates: JsonDuplicate[] = [];
  /** Path of the value being scanned (kept only to name a duplicate key's mapping). */
  const path: (string | number)[] = [];
  class Stop {
    constructor(readonly offset: number, readonly message: string) {}
  }
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const found = () => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]));
  const stop = (expected: string): never => {
    throw new Stop(i, `expected ${expected} but found ${found()}`);
  };
  /** Scans a string from its opening quote; true when it holds an escape. */
  const string = (): boolean => {
    i++; // opening quote
    let escaped = false;
    while (i < text.length && text.charCodeAt(i) !== 34) {
      const c = text.charCodeAt(i);
      if (c < 0x20) throw new Stop(i, 'a string contains a raw control character (a line break or tab must be written \\n or \\t)');
      if (c === 92) {
        escaped = true;
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Stop(i - 1, 'invalid \\u escape in a string (it needs 4 hex digits)');
          i += 4;
        } else if (i >= text.length || !'"\\/bfnrt'.includes(text[i]!)) throw new Stop(i - 1, 'invalid escape in a string');
      }
      i++;
    }
    if (i >= text.length) throw new Stop(i, 'a string is not closed (missing ")');
    i++;
    return escaped;
  };
  const LITERAL = /true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      const keys = new Map<string, number>();
      for (;;) {
        const afterComma = i;
        ws();
        if (text[i] === '}' && text[afterComma - 1] === ',') throw new Stop(afterComma - 1, 'trailing comma before "}" (JSON allows none)');
        if (text[i] !== '"') stop('a key in double quotes');
        const keyStart = i;
        const escaped = string();
        const key = escaped ? (JSON.parse(text.slice(keyStart, i)) as string) : text.slice(keyStart + 1, i - 1);
        const first = keys.get(key);
        if (first === undefined) keys.set(key, keyStart);
        else duplicates.push({ path: [...path], key, offset: keyStart, first });
        ws();
        if (text[i] !== ':') stop('":" after the key');
        i++;
        path.push(key);
        value();
        path.pop();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        stop('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        const afterComma = i;
        ws();
        if (text[i] === ']' && text[afterComma - 1] === ',') throw new Stop(afterComma - 1, 'trailing comma before "]" (JSON allows none)');
        path.push(index);
        value();
        path.pop();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        stop('"," or "]"');
      }
    }
    if (c === '"') {
      string();
      return;
    }
    LITERAL.lastIndex = i;
    const literal = LITERAL.exec(text);
    if (literal && literal[0] !== '') {
      i += literal[0].length;
      return;
    }
    stop('a value (a string in double quotes, number, true, false, null, { or [)');
  };
  try {
    value();
    ws();
    if (i < text.length) stop('the end of the file after the JSON value');
    return { duplicates, complete: true };
  } catch (e) {
    if (e instanceof Stop) return { error: { offset: e.offset, message: e.message }, duplicates: [], complete: true };
    if (e instanceof RangeError) return { duplicates: [], complete: false }; // nested too deep to scan: let the YAML parser judge it
    throw e;
  }
}

/**
 * A valid JSON spec: duplicate keys reported like the YAML path does, the
 * value from `JSON.parse`, and `locate` answered from the text itself.
 */
function loadJson(text: string, display: string, duplicates: readonly JsonDuplicate[]): LoadResult {
  const lines = lineStarts(text);
  const at = (offset: number) => linePos(lines, offset);
  if (duplicates.length > 0) {
    return {
      ok: false,
      problems: duplicates.map((d) => {
        const first = at(d.first);
        const here = at(d.offset);
        return {
          code: 'duplicate_key',
          message: `the key ${JSON.stringify(d.key)} is written twice in this mapping (first at line ${first.line}${first.line === here.line ? `, column ${first.column}` : ''}).`,
          hint: 'Keep one of them: YAML and JSON would silently use only the last one.',
          file: display, ...here, path: formatPath([...d.path, d.key]),
        };
      }),
    };
  }
  const value: unknown = JSON.parse(text);
  const index = jsonIndex(text);
  const locate = (p: SpecPath, mode: 'value' | 'key' = 'value') => at(index.locate(p, mode));
  return { ok: true, spec: { file: display, format: 'json', value, locate } };
}

/** Offsets where each line starts (the first line at 0), as yaml's LineCounter records them. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let n = text.indexOf('\n'); n !== -1; n = text.indexOf('\n', n + 1)) starts.push(n + 1);
  return starts;
}

/** 1-based line and column of an offset (yaml's `LineCounter.linePos`, so both paths agree). */
function linePos(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((starts[mid] ?? 0) < offset) low = mid + 1;
    else high = mid;
  }
  if (starts[low] === offset) return { line: low + 1, column: 1 };
  return { line: low, column: offset - (starts[low - 1] ?? 0) + 1 };
}

/** Where each member of one JSON container starts. */
type JsonChildren = { kind: 'object'; members: Map<string, { key: number; value: number }> } | { kind: 'array'; items: number[] };

/**
 * Source offsets in valid JSON text by spec path, with the YAML path's rules
 * (`locateOffset`): a value's first character, a key's opening quote, the
 * deepest existing node for a path that does not exist. A container's members
 * are found the first time a path goes through it and kept, so locating every
 * tool of a spec reads the text about once more.
 */
function jsonIndex(text: string): { locate(p: SpecPath, mode: 'value' | 'key'): number } {
  const containers = new Map<number, JsonChildren>();
  const skipWs = (i: number): number => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return i;
    }
  };
  /** The offset just after the string starting at `i`. */
  const skipString = (i: number): number => {
    for (i++; text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    return i + 1;
  };
  /** The offset just after the value starting at `i` (the text is valid JSON). */
  const skipValue = (i: number): number => {
    const c = text.charCodeAt(i);
    if (c === 34) return skipString(i);
    if (c !== 123 && c !== 91) {
      while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
      return i;
    }
    let depth = 0;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 34) i = skipString(i) - 1;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return i + 1;
    }
    return i;
  };
  const children = (start: number): JsonChildren | undefined => {
    const cached = containers.get(start);
    if (cached) return cached;
    const open = text.charCodeAt(start);
    let found: JsonChildren;
    let i = skipWs(start + 1);
    if (open === 123) {
      const members = new Map<string, { key: number; value: number }>();
      while (text.charCodeAt(i) === 34) {
        const key = i;
        i = skipString(i);
        const raw = text.slice(key + 1, i - 1);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(key, i)) as string) : raw;
        i = skipWs(skipWs(i) + 1); // past ':'
        if (!members.has(name)) members.set(name, { key, value: i });
        i = skipWs(skipValue(i));
        if (text.charCodeAt(i) === 44) i = skipWs(i + 1);
      }
      found = { kind: 'object', members };
    } else if (open === 91) {
      const items: number[] = [];
      while (i < text.length && text.charCodeAt(i) !== 93) {
        items.push(i);
        i = skipWs(skipValue(i));
        if (text.charCodeAt(i) === 44) i = skipWs(i + 1);
      }
      found = { kind: 'array', items };
    } else return undefined;
    containers.set(start, found);
    return found;
  };
  const root = skipWs(0);
  return {
    locate(p, mode) {
      let node = root;
      for (let k = 0; k < p.length; k++) {
        const seg = p[k]!;
        const here = children(node);
        if (here?.kind === 'object') {
          const member = here.members.get(String(seg));
          if (!member) return node;
          if (k === p.length - 1 && mode === 'key') return member.key;
          node = member.value;
        } else if (here?.kind === 'array' && typeof seg === 'number') {
          const item = here.items[seg];
          if (item === undefined) return node;
          node = item;
        } else return node;
      }
      return node;
    },
  };
}

/** Reports every key written twice in one mapping, at the second one, naming the first. */
function findDuplicateKeys(doc: Document, file: string, at: (offset: number) => { line: number; column: number }, problems: Problem[]): void {
  const walk = (node: unknown, p: (string | number)[]): void => {
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        const keyStart = (pair.key as YamlNode | null)?.range?.[0];
        if (key !== undefined && keyStart !== undefined) {
          const first = seen.get(key);
          if (first !== undefined) {
            problems.push({
              code: 'duplicate_key',
              message: `the key ${JSON.stringify(key)} is written twice in this mapping (first at line ${at(first).line}${at(first).line === at(keyStart).line ? `, column ${at(first).column}` : ''}).`,
              hint: 'Keep one of them: YAML and JSON would silently use only the last one.',
              file, ...at(keyStart), path: formatPath([...p, key]),
            });
          } else seen.set(key, keyStart);
        }
        walk(pair.value, key === undefined ? p : [...p, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...p, i]));
    }
  };
  walk(doc.contents, []);
}

/** The source offset of the node at `p` (or of the deepest node that exists). */
function locateOffset(doc: Document, p: SpecPath, mode: 'value' | 'key'): number | undefined {
  let node: unknown = doc.contents;
  let best: number | undefined = (node as YamlNode | null)?.range?.[0];
  for (let i = 0; i < p.length; i++) {
    const seg = p[i];
    const last = i === p.length - 1;
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg));
      if (!pair) return best;
      const keyStart = (pair.key as YamlNode | null)?.range?.[0];
      const valueStart = (pair.value as YamlNode | null)?.range?.[0];
      if (last && mode === 'key') return keyStart ?? best;
      // An empty value (`description:`) has no range of its own: point at its key.
      best = valueStart !== undefined && !(isScalar(pair.value) && pair.value.value === null && pair.value.source === '') ? valueStart : (keyStart ?? best);
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as YamlNode | undefined;
      const start = item?.range?.[0];
      if (start === undefined) return best;
      best = start;
      node = item;
    } else {
      return best;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------
// TypeScript specs

async function loadTs(absolute: string, display: string): Promise<LoadResult> {
  let mod: Record<string, unknown>;
  try {
    const { tsImport } = await import('tsx/esm/api');
    mod = (await tsImport(pathToFileURL(absolute).href, import.meta.url)) as Record<string, unknown>;
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    const notFound = (err as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' && raw.includes(absolute);
    if (notFound) {
      return fail(display, 'file_not_found', 'cannot read the spec file (ENOENT).', 'Check the path; it is resolved from the current directory.');
    }
    // Messages from tsx/esbuild quote absolute paths; keep output machine-independent.
    const message = raw.split(absolute).join(display).split(pathToFileURL(absolute).href).join(display);
    return fail(display, 'ts_load_failed', `importing the TypeScript spec failed: ${sentence(message)}`,
      'Fix the error in the spec module; it must import cleanly with tsx.');
  }
  const candidate = mod.default !== undefined ? mod.default : mod.spec;
  if (candidate === undefined) {
    return fail(display, 'ts_no_spec_export', 'the TypeScript spec exports no spec.',
      'Export the spec as the default export (`export default defineSpec({ ... })`) or as `export const spec = ...`.');
  }
  const problems: Problem[] = [];
  const value = convertZod(candidate, [], display, problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, spec: { file: display, format: 'ts', value, locate: () => ({ line: 1, column: 1 }) } };
}

/** Whether a value is a zod schema (duck-typed: the spec may load its own copy of zod). */
export function isZodSchema(v: unknown): v is z.ZodType {
  return typeof v === 'object' && v !== null && '_zod' in v && typeof (v as { _zod?: { def?: unknown } })._zod?.def === 'object';
}

/**
 * Copies a TS spec value, turning zod schemas under `parameters` into JSON
 * Schema as the model sends arguments (`io: 'input'`: defaulted and optional
 * properties are not required).
 */
function convertZod(v: unknown, p: (string | number)[], file: string, problems: Problem[]): unknown {
  if (Array.isArray(v)) return v.map((item, i) => convertZod(item, [...p, i], file, problems));
  if (isZodSchema(v)) {
    if (p[p.length - 1] !== 'parameters') return v; // validation reports it as a wrong type, with its path
    try {
      return stripZodIntegerBounds(z.toJSONSchema(v, { io: 'input', unrepresentable: 'throw' }));
    } catch (err) {
      problems.push({ code: 'zod_conversion_failed', message: `this zod schema cannot be written as JSON Schema: ${sentence(err instanceof Error ? err.message : String(err))}`,
        hint: 'Use only zod types that have a JSON Schema form (no transforms on output, dates, functions, maps, sets or custom checks).',
        file, line: 1, column: 1, path: formatPath(p) });
      return {};
    }
  }
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) out[k] = convertZod(item, [...p, k], file, problems);
    return out;
  }
  return v;
}

/**
 * zod writes `z.int()` as `minimum: -(2^53-1), maximum: 2^53-1`: bounds the
 * user never wrote, which some targets reject (Anthropic strict) and which
 * would make a TS spec differ from the same spec in YAML. Drop exactly those.
 */
function stripZodIntegerBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripZodIntegerBounds);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  const o = schema as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (o.type === 'integer' && ((k === 'minimum' && v === Number.MIN_SAFE_INTEGER) || (k === 'maximum' && v === Number.MAX_SAFE_INTEGER))) continue;
    out[k] = stripZodIntegerBounds(v);
  }
  return out;
}
