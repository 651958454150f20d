/** Data → code text. Spec text reaches generated code only through these, so escaping lives here. */

/** LS and PS are line terminators for some tools and old engines; always written escaped. */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

function escapeSeparator(c: string): string {
  return c === '\u2028' ? '\\u2028' : '\\u2029';
}

/**
 * A TS/JS string literal that evaluates to exactly `text` (LS and PS escaped).
 *
 * @example
 * tsString('a "b"\n'); // → '"a \\"b\\"\\n"'
 */
export function tsString(text: string): string {
  return JSON.stringify(text).replace(LINE_SEPARATORS, escapeSeparator);
}

/**
 * A property key: bare when it is an identifier, a string literal otherwise.
 *
 * @example
 * propertyKey('read_file'); // → 'read_file'
 * propertyKey('my-tool');   // → '"my-tool"'
 */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : tsString(name);
}

/**
 * A JSDoc block for `text` ('' for empty text); spec text can never close the comment.
 *
 * @example
 * jsdoc('Read a file', '  '); // → '  /** Read a file *\/\n'
 */
export function jsdoc(text: string, indent = ''): string {
  if (text.trim() === '') return '';
  const lines = text.replace(/\*\//g, '*\\/').split(/\r\n|[\r\n\u2028\u2029]/);
  // On one line, a text that starts with `@ts-expect-error` or `@ts-ignore` would be a TypeScript directive.
  if (lines.length === 1 && !/^\s*@ts-/.test(lines[0]!)) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`).join('\n')}\n${indent} */\n`;
}

/**
 * The comparator for generated output with no declaration order: UTF-16 code units, not locale.
 *
 * @example
 * ['b', 'B', 'a'].sort(compareText); // → ['B', 'a', 'b']
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * PascalCase identifier from a spec name; a leading digit gets a `_` prefix.
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
 * A shell word for the "Regenerate:" command: bare when safe, single-quoted otherwise.
 *
 * @example
 * shellWord('examples/tools.spec.yaml'); // → 'examples/tools.spec.yaml'
 * shellWord('my specs/a.yaml');          // → "'my specs/a.yaml'"
 */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Text safe inside a `//` line comment: line terminators written as escapes.
 *
 * @example
 * lineCommentText('a\nb'); // → 'a\\nb'
 */
export function lineCommentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1).replace(LINE_SEPARATORS, escapeSeparator));
}
