/** TypeScript specs: imported with tsx, zod `parameters` converted to JSON Schema as the model sends arguments. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { LoadResult } from '../load.js';
import { formatPath } from '../problems.js';
import type { Problem } from '../problems.js';
import { setOwn } from '../validate/context.js';
import { errorCode, errorText, fail, sentence } from './common.js';
import { jsonDataProblems } from './json-data.js';

/**
 * Imports a TypeScript spec and returns its spec value (zod already converted).
 *
 * @example
 * await loadTs('/abs/tools.spec.ts', 'tools.spec.ts'); // { ok: true, spec: { format: 'ts', … } }
 */
export async function loadTs(absolute: string, display: string): Promise<LoadResult> {
  // Checked first: a module the spec imports can be missing too, and that is the spec's error, not a missing spec.
  // The code a read would fail with, as for the other formats: EISDIR for a folder.
  const code = await stat(absolute).then((s) => (s.isFile() ? undefined : s.isDirectory() ? 'EISDIR' : 'EINVAL'), (err: unknown) => errorCode(err));
  if (code !== undefined) return fail(display, 'file_not_found', `cannot read the spec file (${code}).`, 'Check the path; it is resolved from the current directory.');
  let mod: Record<string, unknown>;
  // A top-level await that never settles empties the event loop; Node would then exit (13) without a word.
  let stalled: () => void = () => {};
  try {
    const { tsImport } = await import('tsx/esm/api');
    mod = (await Promise.race([
      tsImport(pathToFileURL(absolute).href, import.meta.url),
      new Promise<never>((_, reject) => {
        stalled = () => reject(new Error('the module never finished loading: a top-level await waits for something that never happens'));
        process.once('beforeExit', stalled);
      }),
    ])) as Record<string, unknown>;
  } catch (err) {
    // Messages from tsx/esbuild quote absolute paths (the spec's, a module beside it); keep output machine-independent.
    const shownDir = path.posix.dirname(display) === '.' ? '' : `${path.posix.dirname(display)}/`;
    // tsx marks each import's URL with a namespace id of its own (`?tsx-namespace=…`): not part of the message.
    const message = errorText(err).replace(/\?tsx-namespace=[\w-]+/g, '').split(pathToFileURL(absolute).href).join(display).split(absolute).join(display).split(`${path.dirname(absolute)}${path.sep}`).join(shownDir);
    // esbuild's syntax errors say where, file included (the spec, or a module it imports), after a first line of their
    // own ("Transform failed with 1 error:").
    const where = /(?:^|\n)([^\n]*?):(\d+):(\d+): ERROR: ([^\n]*)/.exec(message);
    const file = where === null ? display : path.posix.normalize(path.isAbsolute(where[1]!) ? `${shownDir}${path.relative(path.dirname(absolute), where[1]!).split(path.sep).join('/')}` : where[1]!);
    const problem = fail(file, 'ts_load_failed', `importing the TypeScript spec failed: ${sentence(where ? where[4]! : message)}`,
      file === display ? 'Fix the error in the spec module; it must import cleanly with tsx.' : `Fix the error in ${file}, which the spec imports; it must import cleanly with tsx.`);
    return where && !problem.ok ? { ok: false, problems: problem.problems.map((p) => ({ ...p, line: Number(where[2]), column: Number(where[3]) + 1 })) } : problem;
  } finally {
    process.off('beforeExit', stalled);
  }
  // A spec module compiled as CommonJS (a package without `"type": "module"`) comes back as `{ default: module.exports }`,
  // marked `__esModule`: its own exports are one level in.
  const inner = mod.default as Record<string, unknown> | undefined;
  const exports = typeof inner === 'object' && inner !== null && Object.getOwnPropertyDescriptor(inner, '__esModule')?.value === true ? inner : mod;
  const candidate = exports.default !== undefined ? exports.default : exports.spec;
  if (candidate === undefined) {
    return fail(display, 'ts_no_spec_export', 'the TypeScript spec exports no spec.',
      'Export the spec as the default export (`export default defineSpec({ ... })`) or as `export const spec = ...`.');
  }
  // Converting walks the value: a value inside itself or nested without end is reported first.
  const problems: Problem[] = jsonDataProblems(candidate, display, () => ({ line: 1, column: 1 }), isZodSchema);
  if (problems.length > 0) return { ok: false, problems };
  // The same zod as the shape check's (schema/spec-schema.ts), which has loaded it already.
  const { z } = await import('zod');
  const warnings: Problem[] = [];
  const value = convertZod(candidate, [], display, { problems, warnings }, z.toJSONSchema);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, spec: { file: display, format: 'ts', value, locate: () => ({ line: 1, column: 1 }), ...(warnings.length > 0 ? { warnings } : {}) } };
}

/**
 * Whether a value is a zod schema (duck-typed: the spec may load its own copy of zod).
 *
 * @example
 * isZodSchema(z.string()); // true
 */
export function isZodSchema(v: unknown): v is z.ZodType {
  return typeof v === 'object' && v !== null && '_zod' in v && typeof (v as { _zod?: { def?: unknown } })._zod?.def === 'object';
}

/** What converting finds: problems stop generation, warnings do not. */
interface Findings {
  readonly problems: Problem[];
  readonly warnings: Problem[];
}

/**
 * Copies a TS spec value, turning zod schemas under `parameters` into JSON
 * Schema as the model sends arguments (`io: 'input'`: defaulted and optional
 * properties are not required).
 */
function convertZod(v: unknown, p: (string | number)[], file: string, found: Findings, toJSONSchema: typeof z.toJSONSchema): unknown {
  if (Array.isArray(v)) return v.map((item, i) => convertZod(item, [...p, i], file, found, toJSONSchema));
  if (isZodSchema(v)) {
    if (p[p.length - 1] !== 'parameters') return v; // validation reports it as a wrong type, with its path
    try {
      const flagged = new Set<string>();
      const override = ({ zodSchema, path }: { zodSchema: unknown; path: (string | number)[] }) => {
        // zod writes a default or literal JSON cannot hold (Infinity, NaN) as null: the spec would say another value.
        for (const [key, value] of notJsonValues(zodSchema)) {
          found.problems.push({ code: 'not_json_data', message: `this zod ${key === 'default' ? 'default' : 'literal'} is ${String(value)}, a number JSON cannot write (zod would write null).`,
            hint: key === 'default' ? 'Use a finite number, or leave the default out and handle its absence in the handler.' : 'Use a finite number: JSON has no NaN or Infinity.', file, line: 1, column: 1, path: formatPath([...p, ...path, key]) });
        }
        const unchecked = uncheckedRules(zodSchema);
        const here = formatPath([...p, ...path]);
        if (unchecked.length > 0 && !flagged.has(here)) {
          flagged.add(here);
          found.warnings.push(uncheckedWarning(unchecked, file, here));
        }
        for (const regex of lostFlagPatterns(zodSchema)) {
          const at = formatPath([...p, ...path, 'pattern']);
          if (flagged.has(`${at} ${String(regex)}`)) continue;
          flagged.add(`${at} ${String(regex)}`);
          found.warnings.push(regexFlagsWarning(regex, file, at));
        }
      };
      return stripZodIntegerBounds(toJSONSchema(v, { io: 'input', unrepresentable: 'throw', override }));
    } catch (err) {
      found.problems.push({ code: 'zod_conversion_failed', message: `this zod schema cannot be written as JSON Schema: ${sentence(err instanceof Error ? err.message : String(err))}`,
        hint: 'Use only zod types that have a JSON Schema form (no transforms on output, dates, functions, maps, sets or `z.custom()` types).',
        file, line: 1, column: 1, path: formatPath(p) });
      return {};
    }
  }
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) setOwn(out, k, convertZod(item, [...p, k], file, found, toJSONSchema));
    return out;
  }
  return v;
}

/**
 * Regex flags that change what a pattern matches, which zod keeps when it checks a value but drops when it writes
 * `pattern` (JSON Schema has no flags): i (case), m (lines), s (`.` and line breaks), y (a match from the start only).
 */
const LOST_FLAGS = /[imsy]/g;

/**
 * The regexes of a zod schema's own checks (`.regex(/…/i)`) with a flag that JSON Schema's `pattern` cannot carry.
 *
 * @example
 * lostFlagPatterns(z.string().regex(/^a$/i)); // → [/^a$/i]
 */
function lostFlagPatterns(zodSchema: unknown): RegExp[] {
  type Def = { pattern?: unknown; checks?: unknown };
  const def = (zodSchema as { _zod?: { def?: Def } } | null)?._zod?.def;
  // A format's own pattern (`z.email({ pattern })`, `z.stringFormat(name, regex)`), and each `.regex()` check's.
  const checks = Array.isArray(def?.checks) ? (def.checks as { _zod?: { def?: Def } }[]) : [];
  const patterns = [def?.pattern, ...checks.map((check) => check?._zod?.def?.pattern)];
  return patterns.filter((pattern): pattern is RegExp => pattern instanceof RegExp && pattern.flags.match(LOST_FLAGS) !== null);
}

/**
 * What a zod schema checks or does that its JSON Schema leaves out, so the validator never does it (and the model is
 * not shown it), in words; empty for most schemas.
 */
function uncheckedRules(zodSchema: unknown): string[] {
  type Def = { type?: unknown; coerce?: unknown; protocol?: unknown; hostname?: unknown; checks?: unknown; out?: { _zod?: { def?: Def } } };
  const def = (zodSchema as { _zod?: { def?: Def } } | null)?._zod?.def;
  if (def === undefined) return [];
  const checks = Array.isArray(def.checks) ? (def.checks as { _zod?: { def?: { check?: unknown } } }[]).map((c) => c?._zod?.def?.check) : [];
  return [
    ...(checks.includes('custom') ? ['a custom check (`.refine()`, `.superRefine()`)'] : []),
    ...(checks.includes('overwrite') ? ['a rewrite of the value (`.trim()`, `.toLowerCase()`…; its other checks see the value as sent)'] : []),
    ...(def.type === 'pipe' ? [def.out?._zod?.def?.type === 'transform' ? 'a `.transform()`' : 'the output side of a `.pipe()` (`z.stringbool()`…)'] : []),
    ...(def.type === 'catch' ? ['a `.catch()` fallback'] : []),
    ...(def.coerce === true ? ['coercion (`z.coerce`: a value of another type is refused, not converted)'] : []),
    ...(def.protocol instanceof RegExp || def.hostname instanceof RegExp ? ['a URL `protocol` or `hostname` rule'] : []),
  ];
}

/** The `zod_not_checked` warning for what `uncheckedRules` found at `path` (formatted). */
function uncheckedWarning(rules: readonly string[], file: string, path: string): Problem {
  return { code: 'zod_not_checked', severity: 'warning', file, line: 1, column: 1, path,
    message: `this zod schema has ${rules.join('; ')}: JSON Schema cannot carry ${rules.length === 1 ? 'it' : 'them'}, so the model is not shown ${rules.length === 1 ? 'it' : 'them'} and the validator does not check ${rules.length === 1 ? 'it' : 'them'}.`,
    hint: 'Check it in the handler (the arguments arrive as the model sent them), or write it as JSON Schema (`pattern`, `enum`, `minimum`…) where it can be.' };
}

/** A zod default's or literal's values that JSON cannot hold (a non-finite number), with the keyword zod writes them under. */
function notJsonValues(zodSchema: unknown): (readonly ['default' | 'const', number])[] {
  const def = (zodSchema as { _zod?: { def?: { type?: unknown; defaultValue?: unknown; values?: unknown } } } | null)?._zod?.def;
  const values = def?.type === 'default' || def?.type === 'prefault' ? [def.defaultValue] : def?.type === 'literal' && Array.isArray(def.values) ? def.values : [];
  const key = def?.type === 'literal' ? 'const' : 'default';
  return values.filter((v): v is number => typeof v === 'number' && !Number.isFinite(v)).map((v) => [key, v] as const);
}

/** The `zod_regex_flags` warning for one regex at `path` (formatted). */
function regexFlagsWarning(regex: RegExp, file: string, path: string): Problem {
  const flags = regex.flags.match(LOST_FLAGS)!.join('');
  const looser = flags.includes('y');
  return {
    code: 'zod_regex_flags', severity: 'warning', file, line: 1, column: 1, path,
    message: `the zod regex ${String(regex)} has the flag${flags.length > 1 ? 's' : ''} ${flags}, which a JSON Schema \`pattern\` cannot carry: ` +
      `the model is shown, and the validator checks, \`${regex.source}\` without ${flags.length > 1 ? 'them' : 'it'}` +
      `${looser ? ' (without y it matches anywhere in the value, not only from its start)' : ' (so it refuses values the zod schema accepts)'}.`,
    hint: 'Write what the flag does into the pattern and drop the flag: `[Aa]` for either case (i), `[\\s\\S]` for any character (s), a leading `^` (y); or match the value per line in the handler (m).',
  };
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
    setOwn(out, k, stripZodIntegerBounds(v));
  }
  return out;
}
