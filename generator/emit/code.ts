/** Data → code text. Spec text reaches generated code only through these, so escaping lives here. */

/** LS and PS are line terminators for some tools and old engines; always written escaped. */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

function escapeSeparator(c: string): string {
  return c === '\u2028' ? '\\u2028' : '\\u2029';
}

/**
 * A TS/JS string literal for any string (double quotes, JSON escapes, LS/PS
 * escaped): evaluates to exactly `text`.
 *
 * @example
 * tsString('a "b"\n'); // → '"a \\"b\\"\\n"'
 */
export function tsString(text: string): string {
  return JSON.stringify(text).replace(LINE_SEPARATORS, escapeSeparator);
}

/**
 * A property key in a type or object literal: bare when it is an identifier, a
 * string literal otherwise.
 *
 * @example
 * propertyKey('read_file'); // → 'read_file'
 * propertyKey('my-tool');   // → '"my-tool"'
 */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : tsString(name);
}

/**
 * A JSDoc block for `text` at the given indentation; '' for empty text. A
 * comment terminator (star, slash) is written star, backslash, slash so spec
 * text can never close the comment; every line terminator (CR, LF, LS, PS)
 * starts a new comment line.
 *
 * @example
 * jsdoc('Read a file', '  '); // → '  /** Read a file *\/\n'
 */
export function jsdoc(text: string, indent = ''): string {
  if (text.trim() === '') return '';
  const lines = text.replace(/\*\//g, '*\\/').split(/\r\n|[\r\n\u2028\u2029]/);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`).join('\n')}\n${indent} */\n`;
}

/**
 * `JSON.parse('…')` of a value: the cheapest way to ship big data (engines
 * parse JSON faster than object literals, and a string literal costs the type
 * checker nothing). JSON.parse also keeps a `__proto__` key as an own property.
 *
 * @example
 * jsonParseLiteral({ a: "it's" }); // → `JSON.parse('{"a":"it\\'s"}')`
 */
export function jsonParseLiteral(value: unknown): string {
  return jsonTextLiteral(JSON.stringify(value));
}

/**
 * `jsonParseLiteral` for JSON text already serialized (`JSON.stringify(value)`).
 *
 * @example
 * jsonTextLiteral('{"a":"it\'s"}'); // → `JSON.parse('{"a":"it\\'s"}')`
 */
export function jsonTextLiteral(text: string): string {
  return `JSON.parse(${jsonStringLiteral(text)})`;
}

/**
 * A single-quoted string literal whose value is JSON text equal to `text`
 * (for data parsed later, `JSON.parse` of the value): only ASCII in the
 * source and in the value, non-ASCII written as JSON escapes.
 *
 * @example
 * jsonStringLiteral('["é"]'); // → `'["\\u00e9"]'`
 */
export function jsonStringLiteral(text: string): string {
  // Non-ASCII as JSON escapes: one character above U+00FF makes V8 store the whole module
  // source, and the literal, with two bytes per character (megabytes at scale).
  const json = text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const body = json.replace(/[\\'\u2028\u2029]/g, (c) => (c === '\\' ? '\\\\' : c === "'" ? "\\'" : escapeSeparator(c)));
  return `'${body}'`;
}

/**
 * The one comparator for ordering generated output that has no declaration
 * order (file lists): UTF-16 code units, independent of locale.
 *
 * @example
 * ['b', 'B', 'a'].sort(compareText); // → ['B', 'a', 'b']
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * PascalCase identifier from a spec name: `file_ops` → `FileOps`, `x-y` → `XY`.
 * Digits stay; a leading digit gets a `_` prefix.
 *
 * @example
 * pascalCase('file_ops'); // → 'FileOps'
 */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  if (joined === '') return '_';
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/**
 * A shell word for the "Regenerate:" command: bare when safe, single-quoted
 * otherwise.
 *
 * @example
 * shellWord('examples/tools.spec.yaml'); // → 'examples/tools.spec.yaml'
 * shellWord('my specs/a.yaml');          // → "'my specs/a.yaml'"
 */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Text safe inside a `//` line comment: any line terminator is written as an
 * escape so a file path can never end the comment.
 *
 * @example
 * lineCommentText('a\nb'); // → 'a\\nb'
 */
export function lineCommentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1).replace(LINE_SEPARATORS, escapeSeparator));
}
