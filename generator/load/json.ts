/**
 * JSON specs: `JSON.parse` for the value (big machine-written specs are JSON), a syntax check of
 * our own only when it fails (JSON.parse's messages vary by Node version and may carry no position),
 * and positions from the text. Fixtures: json-syntax, json-duplicate-key.
 */
import type { LoadResult, SpecPath } from '../load.js';
import { loadYamlDocument } from './yaml.js';

/** One token: punctuation, a string, a number or a literal. */
const TOKEN = /[{}[\],:]|"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
/** The well-formed start of a string, up to its first fault. */
const STRING_START = /"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y;
const WHITESPACE = /[ \t\r\n]*/y;

const skipWhitespace = (text: string, i: number): number => {
  WHITESPACE.lastIndex = i;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
};

/**
 * The first JSON syntax error in `text` (offset and what was expected), or undefined when `text`
 * is one valid JSON value.
 *
 * @example
 * jsonSyntaxError('{"a": 1,}'); // { offset: 7, message: 'trailing comma before "}" (JSON allows none)' }
 */
export function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  const open: string[] = [];
  let want: 'value' | 'key' | ':' | 'next' = 'value';
  let mayClose = false; // just after `{` or `[`
  let comma = -1; // offset of the comma just read
  for (let i = skipWhitespace(text, 0); ; i = skipWhitespace(text, i)) {
    const close = open.at(-1) === '{' ? '}' : ']';
    if (want === 'next' && open.length === 0) {
      return i < text.length ? stop(text, i, 'the end of the file after the JSON value') : undefined;
    }
    TOKEN.lastIndex = i;
    const token = TOKEN.exec(text)?.[0] ?? '';
    if (token === close && (mayClose || want === 'next')) {
      open.pop();
      want = 'next';
    } else if (token === close && comma >= 0) {
      return { offset: comma, message: `trailing comma before "${close}" (JSON allows none)` };
    } else if (want === 'value' && (token === '{' || token === '[')) {
      open.push(token);
      want = token === '{' ? 'key' : 'value';
      mayClose = true;
      i++;
      continue;
    } else if (want === 'value' && token !== '' && !'}],:'.includes(token)) {
      want = 'next';
    } else if (want === 'key' && token.startsWith('"')) {
      want = ':';
    } else if (want === ':' && token === ':') {
      want = 'value';
    } else if (want === 'next' && token === ',') {
      want = open.at(-1) === '{' ? 'key' : 'value';
      comma = i++;
      mayClose = false;
      continue;
    } else if (token === '' && text[i] === '"' && (want === 'value' || want === 'key')) {
      return stringError(text, i);
    } else {
      const expected = { value: 'a value (a string in double quotes, number, true, false, null, { or [)', key: 'a key in double quotes', ':': '":" after the key', next: `"," or "${close}"` };
      return stop(text, i, expected[want]);
    }
    mayClose = false;
    comma = -1;
    i += token.length;
  }
}

function stop(text: string, offset: number, expected: string): { offset: number; message: string } {
  return { offset, message: `expected ${expected} but found ${offset >= text.length ? 'the end of the file' : JSON.stringify(text[offset])}` };
}

/** What is wrong with the string starting at `start`. */
function stringError(text: string, start: number): { offset: number; message: string } {
  STRING_START.lastIndex = start;
  STRING_START.test(text);
  const offset = STRING_START.lastIndex;
  if (offset >= text.length) return { offset, message: 'a string is not closed (missing ")' };
  if (text.charCodeAt(offset) < 0x20) return { offset, message: 'a string contains a raw control character (a line break or tab must be written \\n or \\t)' };
  if (text[offset + 1] === 'u') return { offset, message: 'invalid \\u escape in a string (it needs 4 hex digits)' };
  return { offset, message: 'invalid escape in a string' };
}

/**
 * A JSON spec: the value from `JSON.parse` and `locate` from the text. A text with duplicate keys
 * (it names more keys than the value holds) goes the YAML way, which reports each with both positions.
 *
 * @example
 * loadJson('{"version":1}', 'spec.json'); // { ok: true, spec: { format: 'json', … } }
 */
export function loadJson(text: string, display: string): LoadResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const error = jsonSyntaxError(text) ?? { offset: 0, message: 'the text is not JSON' };
    const before = text.slice(0, error.offset).split('\n');
    return {
      ok: false,
      problems: [{ code: 'syntax_error', message: `invalid JSON: ${error.message}.`, hint: 'Fix the JSON syntax (no trailing commas, no comments, keys in double quotes).',
        file: display, line: before.length, column: before.at(-1)!.length + 1, path: '' }],
    };
  }
  if (keysWritten(text) !== keysHeld(value)) return loadYamlDocument(text, display, 'json');
  const index = jsonIndex(text);
  return { ok: true, spec: { file: display, format: 'json', value, locate: (p, mode = 'value') => index.locate(p, mode) } };
}

/** How many keys valid JSON text writes: strings followed by a colon. */
function keysWritten(text: string): number {
  const strings = /"(?:[^"\\]|\\.)*"(\s*:)?/g;
  let keys = 0;
  for (let m; (m = strings.exec(text)); ) if (m[1] !== undefined) keys++;
  return keys;
}

/** How many keys the objects in `value` hold (iteratively: specs may nest deeper than the stack). */
function keysHeld(value: unknown): number {
  let keys = 0;
  for (const stack = [value]; stack.length > 0; ) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    const children = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) keys += children.length;
    stack.push(...children);
  }
  return keys;
}

/**
 * Line and column of a spec path in valid JSON text, with the YAML loader's rules: a value's first
 * character, a key's opening quote, the deepest existing node of a missing path. A container's
 * members are read the first time a path goes through it, so locating every tool reads the text
 * about once more.
 */
function jsonIndex(text: string): { locate(p: SpecPath, mode: 'value' | 'key'): { line: number; column: number } } {
  const containers = new Map<number, Map<string | number, { key: number; value: number }>>();
  const ITEM = /"(?:[^"\\]|\\.)*"|[[\]{}]|[^\s,:[\]{}"]+/g;
  const SEPARATOR = /[\s,:]*/y;
  const next = (i: number): number => {
    SEPARATOR.lastIndex = i;
    SEPARATOR.test(text);
    return SEPARATOR.lastIndex;
  };
  /** The offset just after the value starting at `i`. */
  const end = (i: number): number => {
    ITEM.lastIndex = i;
    for (let depth = 0, m; (m = ITEM.exec(text)); ) {
      if (m[0] === '{' || m[0] === '[') depth++;
      else if (m[0] === '}' || m[0] === ']') depth--;
      if (depth === 0) return ITEM.lastIndex;
    }
    return text.length;
  };
  const members = (start: number) => {
    let found = containers.get(start);
    if (found) return found;
    found = new Map();
    const object = text[start] === '{';
    for (let i = next(start + 1), index = 0; i < text.length && text[i] !== '}' && text[i] !== ']'; i = next(end(i)), index++) {
      const key = i;
      if (object) i = next(end(i));
      found.set(object ? (JSON.parse(text.slice(key, end(key))) as string) : index, { key, value: i });
    }
    containers.set(start, found);
    return found;
  };
  const lines = [0];
  for (let n = text.indexOf('\n'); n !== -1; n = text.indexOf('\n', n + 1)) lines.push(n + 1);
  const position = (offset: number) => {
    let low = 0;
    for (let high = lines.length; low < high; ) {
      const mid = (low + high) >> 1;
      if (lines[mid]! <= offset) low = mid + 1;
      else high = mid;
    }
    return { line: low, column: offset - lines[low - 1]! + 1 };
  };
  return {
    locate(p, mode) {
      let node = next(0);
      for (let k = 0; k < p.length; k++) {
        const container = text[node] === '{' || text[node] === '[' ? members(node) : undefined;
        const member = text[node] === '{' ? container?.get(String(p[k])) : typeof p[k] === 'number' ? container?.get(p[k]!) : undefined;
        if (!member) break;
        if (k === p.length - 1 && mode === 'key' && text[node] === '{') return position(member.key);
        node = member.value;
      }
      return position(node);
    },
  };
}
