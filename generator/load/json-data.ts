/**
 * A spec is JSON data, whatever file it is written in. YAML can say more (an alias inside the mapping it names,
 * `.inf`, a YAML 1.1 timestamp or binary value), JSON text can overflow a number (`1e400`), and a TypeScript spec can
 * hold any object. Everything after loading reads plain data and walks it recursively, so this check runs first.
 */
import type { SpecPath } from '../load.js';
import { formatPath, type Problem } from '../problems.js';
import { errorText } from './common.js';

/**
 * How deep a spec may nest (objects and arrays, from the top). Real argument schemas nest a few dozen levels; ajv's
 * code generator runs out of stack near a thousand.
 */
export const MAX_SPEC_DEPTH = 256;

/** An unpaired UTF-16 surrogate: JSON text can write one (`"\ud800"`), UTF-8 cannot, so no model can ever send it. */
const LONE_SURROGATE = /\p{Cs}/u;
const SURROGATE_HINT = 'Write the character whole (both halves of its surrogate pair), or remove it.';

/** What a value that is not JSON data is, in words. */
function notJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return LONE_SURROGATE.test(value) ? 'a string with an unpaired surrogate (a lone half of a UTF-16 pair), which UTF-8 cannot carry' : undefined;
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)}, a number JSON cannot write`;
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return undefined;
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `${typeof name === 'string' && name !== '' ? `a ${name}` : 'an object'}, not JSON data`;
    }
    default:
      return `a ${typeof value}, not JSON data`;
  }
}

/** At most this many places are reported; a spec with more gets one more problem that says so. */
const MAX_REPORTED = 20;

const JSON_HINT = 'A spec holds JSON data: strings, finite numbers, true, false, null, mappings and lists. Write the value as one of those.';

/**
 * The places where `value` is not JSON data: a value inside itself, a number JSON cannot write, an object that is
 * not a plain mapping or list (`keep` lets a loader accept some: a TS spec's zod schemas), or nesting deeper than
 * {@link MAX_SPEC_DEPTH}. Each is a `not_json_data` problem located with `locate`. A property whose value is
 * `undefined` counts as absent, as in JSON.stringify.
 *
 * @example
 * const loop: Record<string, unknown> = {};
 * loop.self = loop;
 * jsonDataProblems({ a: [1, Infinity], loop }, 'spec.ts', () => ({ line: 1, column: 1 })).map((p) => p.path);
 * // ['a[1]', 'loop.self']
 */
export function jsonDataProblems(
  value: unknown,
  file: string,
  locate: (path: SpecPath) => { line: number; column: number },
  keep: (value: unknown) => boolean = () => false,
): Problem[] {
  const problems: Problem[] = [];
  let more = false;
  /** The path being read, and the mappings and lists along it (a value among them contains itself). */
  const path: (string | number)[] = [];
  const open: object[] = [];
  const report = (message: string, hint: string) => {
    if (problems.length === MAX_REPORTED) more = true;
    else problems.push({ code: 'not_json_data', message, hint, file, ...locate(path), path: formatPath(path) });
  };
  const threw = (error: unknown) => `reading this value threw: ${errorText(error)}`;
  const walk = (node: unknown): void => {
    if (more) return;
    // A TS spec's getter or Proxy may throw anywhere here: that is a problem at its place, never a crash.
    try {
      if (keep(node)) return;
      const what = notJson(node);
      if (what !== undefined) return report(`this value is ${what}.`, typeof node === 'string' ? SURROGATE_HINT : JSON_HINT);
      if (typeof node !== 'object' || node === null) return;
      if (open.includes(node)) return report('this value contains itself (in YAML: an alias of a mapping or list it is inside).', 'Write the repeated part out, or name it under `$defs` and refer to it with `$ref`.');
      if (open.length === MAX_SPEC_DEPTH) return report(`the spec nests deeper than ${MAX_SPEC_DEPTH} levels here.`, 'Flatten the schema, or name a repeated part under `$defs` and refer to it with `$ref`.');
      const keys: readonly (string | number)[] = Array.isArray(node) ? [...node.keys()] : Object.keys(node);
      open.push(node);
      try {
        for (const key of keys) {
          path.push(key);
          try {
            if (typeof key === 'string' && LONE_SURROGATE.test(key)) {
              report('this key has an unpaired surrogate (a lone half of a UTF-16 pair), which UTF-8 cannot carry.', SURROGATE_HINT);
              continue;
            }
            let item: unknown;
            try {
              item = (node as Record<string | number, unknown>)[key];
            } catch (error) {
              report(threw(error), JSON_HINT);
              continue;
            }
            if (item !== undefined) walk(item);
            else if (Array.isArray(node)) report('this list item is undefined.', 'Remove the item or give it a JSON value.');
          } finally {
            path.pop();
          }
        }
      } finally {
        open.pop();
      }
    } catch (error) {
      report(threw(error), JSON_HINT);
    }
  };
  walk(value);
  if (more) {
    problems.push({ code: 'not_json_data', message: `more than ${MAX_REPORTED} values in the spec are not JSON data; the first ${MAX_REPORTED} are listed.`, hint: JSON_HINT, file, line: 0, column: 0, path: '' });
  }
  return problems;
}
