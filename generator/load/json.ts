/**
 * JSON specs: a scanner that finds the first syntax error (with a position
 * and what was expected) and every duplicate key in one pass, and the fast
 * path for valid JSON — `JSON.parse` for the value and a lazily built index
 * of source offsets for `locate`, with the same rules as the YAML path.
 * Error codes (fixtures in test/fixtures/invalid/): syntax_error
 * (json-syntax), duplicate_key (json-duplicate-key).
 */
import type { LoadResult, SpecPath } from '../load.js';
import { formatPath } from '../problems.js';
import { linePos, lineStarts } from './common.js';

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
export interface JsonDuplicate {
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
 *
 * @example
 * scanJson('{"a":1,"a":2}').duplicates[0].key; // 'a'
 */
export function scanJson(text: string): { error?: { offset: number; message: string }; duplicates: JsonDuplicate[]; complete: boolean } {
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
 *
 * @example
 * loadJson('{"version":1}', 'spec.json', []); // { ok: true, spec: { format: 'json', … } }
 */
export function loadJson(text: string, display: string, duplicates: readonly JsonDuplicate[]): LoadResult {
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
    // Jump from quote to quote (indexOf is native); a quote preceded by an odd run of backslashes is escaped.
    for (let from = i + 1; ; ) {
      const quote = text.indexOf('"', from);
      if (quote === -1) return text.length; // unreachable: the text is valid JSON
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      from = quote + 1;
    }
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
