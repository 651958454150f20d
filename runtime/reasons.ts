/**
 * Rejection reasons: the text a model reads for a rejected call, each saying what to do next. Model-supplied text is
 * quoted with JSON.stringify and cut, so a hostile name cannot forge instructions or blow up the reason.
 */
import type { ValidationError } from './contract.js';
import { jsonKind, type ArgumentsProblem } from './call-shape.js';
import { isRecord, jsonText } from './targets/history.js';
import { escapePointer } from './targets/schema.js';

/** Longest piece of model-supplied text quoted back. */
const MAX_QUOTED = 64;
/** Most argument problems listed before "…and N more". */
const MAX_ERROR_LINES = 5;
/** Most names listed in one "available: …" list. */
const MAX_LISTED = 20;

/**
 * Quote model- or spec-supplied text for a reason: JSON string syntax, cut.
 * @example
 * quote('a"b'); // → '"a\\"b"'
 */
export function quote(text: string): string { return JSON.stringify(cut(text, MAX_QUOTED)); }

/** A bounded, comma-separated list of names. */
export function listNames(names: readonly string[], limit = MAX_LISTED): string {
  if (names.length === 0) return '(none)';
  const shown = names.slice(0, limit).join(', ');
  return names.length > limit ? `${shown}, … (${names.length - limit} more)` : shown;
}
/** The reference library's text for a nameless call. */
export const emptyNameReason = (available: readonly string[]): string =>
  `Tool call rejected: missing or empty tool name. Call one of: ${listNames(available)}.`;
/** The reference library's text for a blocked tool (kept verbatim: applications match on it). */
export const blockedReason = (name: string): string => `Tool ${quote(name)} is currently blocked.`;
/** A blocked toolkit named in a `load_toolkit` call. */
export const toolkitBlockedReason = (toolkit: string): string => `Toolkit ${quote(toolkit)} is currently blocked.`;

/** An unknown name, with the closest real names or what can be called. */
export function unknownToolReason(name: string, closest: readonly string[], available: readonly string[], hint?: string): string {
  const head = `Unknown tool ${quote(name)}.`;
  if (hint) return `${head} ${hint}`;
  if (closest.length > 0) return `${head}${didYouMean(closest)}`;
  return `${head} Available tools: ${listNames(available)}.`;
}
/** A Responses call whose `namespace` names a tool, not a namespace or toolkit. */
export const notNamespaceReason = (name: string): string => `${quote(name)} is a tool, not a namespace: call it by its own name, with no namespace.`;
/** A tool that exists only as a namespace action, called by its bare name. */
export const actionHint = (tool: string, namespace: string): string =>
  `${quote(tool)} is an action of ${quote(namespace)}: call ${namespace} with {"action":${JSON.stringify(tool)},"args":{…}}.`;

/** A toolkit tool called beside its toolkit's load, where a load offers its tools from the next `unit` (step or turn). */
export const loadedSameTurnReason = (tool: string, toolkit: string, unit: 'step' | 'turn'): string => `Tool ${quote(tool)} did not run: its toolkit ${quote(toolkit)} was loaded in the same ${unit}, and a toolkit's tools can be called from the ${unit} after its load. Call ${tool} again.`;
/** A call in a turn the provider cut off at the output token limit: it did not run, and the model may make it again. */
export const cutOffReason = (tool: string): string =>
  `The call to ${quote(tool)} was cut off at the output token limit, so its arguments may be incomplete and it did not run. Make the call again, with less in it if you can.`;

/** Why a turn that ended abnormally ran none of its calls (possibly partial, or flagged). */
const STOPPED = {
  refused: 'this turn ended in a refusal', blocked: "the provider's safety filter stopped this turn", failed: 'the provider ended this turn with an error',
  unfinished: 'this turn was not finished yet',
};
/** A call of a turn the model refused, the provider's filter stopped, the provider failed or not yet finished: never run. */
export const stoppedTurnReason = (tool: string, stop: keyof typeof STOPPED): string => `The call to ${quote(tool)} did not run: ${STOPPED[stop]}, so the call may be incomplete.`;

/** A toolkit's name called as a tool (models take the directory's names for tools): what it is, and the calls to make. */
export const toolkitCalledReason = (toolkit: string, loaded: boolean, tools: readonly string[]): string =>
  `${quote(toolkit)} is a toolkit, not a tool. ${loaded ? 'Call' : `Call load_toolkit with {"toolkit_name":${JSON.stringify(toolkit)}} first, then call`} one of its tools by its own name: ${listNames(tools)}.`;

/** A toolkit tool called before its toolkit was loaded: the exact call to make, or (`loadable` false) that there is none now. */
export function notLoadedReason(tool: string, toolkit: string, loadable = true): string {
  return `Tool ${quote(tool)} belongs to toolkit ${quote(toolkit)}, which is not loaded. ` + (loadable
    ? `Call load_toolkit with {"toolkit_name":${JSON.stringify(toolkit)}} first, then call ${tool} again.` : 'Loading it is currently blocked, so the tool cannot be called now.');
}

/** A namespace call whose action is missing or not one of the namespace's tools. */
export function unknownActionReason(namespace: string, action: unknown, actions: readonly string[], closest: readonly string[]): string {
  const what =
    typeof action === 'string'
      ? `Unknown action ${quote(action)} for ${quote(namespace)}.`
      : `A call to ${quote(namespace)} needs "action" (a string) and "args" (an object).`;
  return `${what}${didYouMean(closest)} Valid actions: ${listNames(actions)}.`;
}

/** Arguments that could not be read as a JSON object. */
export function malformedReason(label: string, problem: ArgumentsProblem): string {
  const head = `Arguments for ${label}`;
  switch (problem.kind) {
    case 'too_long':
      return `${head} are too long (${problem.length} characters; the limit is ${problem.limit}). Send less data.`;
    case 'bad_json':
      return `${head} are not valid JSON (${cut(problem.detail, 120)}). Send one JSON object.`;
    case 'not_object':
      return `${head} must be a JSON object; got ${problem.got}.`;
    case 'too_deep':
      return `${head} are nested deeper than ${problem.limit} levels. Send a flatter object.`;
    case 'too_many_values':
      return `${head} contain more than ${problem.limit} values. Send less data.`;
    case 'not_json_data':
      return `${head} must be JSON data; got ${cut(problem.got, 40)}.`;
  }
}
/** The `args` of an envelope call (a namespace's `{ action, args }`, the dispatcher's `{ tool, args }`) that is not an object. */
export const envelopeArgsReason = (tool: string, key: string, value: string, got: string): string =>
  `Arguments for ${quote(tool)} must be {${JSON.stringify(key)}:${JSON.stringify(value)},"args":{…}} with "args" a JSON object; got ${got}.`;

/**
 * An envelope call with keys beside its selector (`action` or `tool`) and `args`: they would be lost, so the call is
 * refused and the model told where they belong.
 * @example
 * strayKeysReason('git', 'action', 'git_commit', ['paths']);
 * // → 'Keys "paths" of the "git" call are outside "args" …'
 */
export function strayKeysReason(tool: string, key: string, value: string, stray: readonly string[]): string {
  const keys = listNames(stray.map(quote), 10);
  return `Key${stray.length > 1 ? 's' : ''} ${keys} of the ${quote(tool)} call ${stray.length > 1 ? 'are' : 'is'} outside "args" and would be ignored, so the call was not run. ` +
    `Put every argument of ${JSON.stringify(value)} inside "args": {${JSON.stringify(key)}:${JSON.stringify(value)},"args":{…}}.`;
}
/** A `load_toolkit` call with keys beside `toolkit_name`: a key the model meant must not vanish without a word. */
export const loaderStrayReason = (stray: readonly string[]): string =>
  `load_toolkit takes only "toolkit_name"; remove ${listNames(stray.map(quote), 10)} and call it as {"toolkit_name": "<name>"}.`;

/**
 * A throwing handler, as text the model can read. Never throws itself, whatever was thrown (an object without a string
 * form, a throwing `message` getter), so `dispatch` keeps its promise to resolve.
 */
export function handlerErrorReason(tool: string, error: unknown): string {
  let message: string;
  try {
    // A thrown object is read as an Error is (`throw { message: 'quota' }`), else as its JSON (`{}` says nothing), never
    // "[object Object]".
    const raw = error instanceof Error || typeof (error as { message?: unknown } | null)?.message === 'string' ? (error as Error).message : error;
    message = typeof raw === 'string' ? raw : typeof raw === 'object' && raw !== null ? (jsonText(raw) ?? '').replace(/^\{\}$/, '') : String(raw);
  } catch {
    message = '';
  }
  return `Tool ${quote(tool)} failed: ${cut(message, 500) || 'unknown error'}`;
}

/** A call through the toolkit dispatcher tool naming no toolkit tool (or no tool at all). */
export function notToolkitToolReason(dispatcher: string, tool: unknown, names: readonly string[], closest: readonly string[]): string {
  const what =
    typeof tool === 'string' ? `${quote(tool)} is not a tool of any toolkit.` : `A call to ${quote(dispatcher)} needs "tool" (a string) and "args" (an object).`;
  return `${what}${didYouMean(closest)} Toolkit tools: ${listNames(names)}.`;
}

/** A toolkit name the loader does not know. */
export function unknownToolkitReason(requested: unknown, available: readonly string[], closest: readonly string[]): string {
  const what =
    typeof requested === 'string' && requested !== ''
      ? `Unknown toolkit ${quote(requested)}.`
      : 'load_toolkit needs {"toolkit_name": "<name>"}.';
  return `${what}${didYouMean(closest)} Available toolkits: ${listNames(available)}.`;
}

const didYouMean = (closest: readonly string[]): string => (closest.length > 0 ? ` Did you mean: ${closest.join(', ')}?` : '');
const cut = (text: string, max: number): string => text.length > max ? `${text.slice(0, max)}…` : text;

// ---------------------------------------------------------------------------
// Invalid arguments: ajv errors → one line per failing argument.

type Schema = { readonly [key: string]: unknown };

const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** Own-property navigation only: model data must not reach prototypes. */
function at(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const s of segments) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, s)) return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}

const dataAt = (data: unknown, pointer: string): unknown => (pointer === '' ? data : at(data, pointer.slice(1).split('/').map(unescapePointer)));

/** The `properties` of the schema an error's keyword belongs to (its `schemaPath` minus the keyword). */
function parentProperties(schema: Schema | undefined, schemaPath: string): Schema | undefined {
  if (!schema || !schemaPath.startsWith('#')) return undefined;
  const segments = schemaPath.slice(2).split('/').slice(0, -1).map(unescapePointer);
  const node = segments.length === 0 || (segments.length === 1 && segments[0] === '') ? schema : at(schema, segments);
  return isRecord(node) && isRecord(node['properties']) ? node['properties'] : undefined;
}

/** "string", "one of \"a\", \"b\"", … from a property schema. */
function expected(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  if (Array.isArray(schema['enum'])) return `one of ${schema['enum'].map((v) => cut(JSON.stringify(v) ?? '', 40)).join(', ')}`;
  if ('const' in schema) return cut(JSON.stringify(schema['const']) ?? '', 40);
  const t = schema['type'];
  return typeof t === 'string' ? t : Array.isArray(t) ? t.join(' or ') : undefined;
}

/** A JSON Pointer into the arguments as a reason shows it: the model's keys are in it, so each segment is cut, and the whole is JSON-quoted unless plain. */
function pointerText(pointer: string): string {
  const text = cut(pointer.split('/').map((segment) => cut(segment, MAX_QUOTED)).join('/'), 4 * MAX_QUOTED);
  return /^[\w/.~$-]*$/.test(text) ? text : JSON.stringify(text);
}

function line(error: ValidationError, schema: Schema | undefined, data: unknown, prefix: string): string {
  const p = error.params;
  const path = prefix + error.instancePath;
  const where = path === '' ? '(arguments)' : pointerText(path);
  switch (error.keyword) {
    case 'required': {
      const missing = String(p['missingProperty'] ?? '');
      const want = expected(parentProperties(schema, error.schemaPath)?.[missing]);
      return `${pointerText(`${path}/${escapePointer(missing)}`)}: missing (required${want ? `, expected ${want}` : ''})`;
    }
    case 'type':
      return `${where}: expected ${String(p['type'])}, got ${jsonKind(dataAt(data, error.instancePath))}`;
    case 'enum': {
      const allowed = Array.isArray(p['allowedValues']) ? p['allowedValues'] : [];
      return `${where}: must be one of ${allowed.map((v) => cut(JSON.stringify(v) ?? '', 40)).join(', ')}`;
    }
    case 'const':
      return `${where}: must be ${cut(JSON.stringify(p['allowedValue']) ?? '', 60)}`;
    case 'additionalProperties': {
      const extra = String(p['additionalProperty'] ?? '');
      const allowed = Object.keys(parentProperties(schema, error.schemaPath) ?? {});
      return `${pointerText(`${path}/${escapePointer(extra)}`)}: unexpected property ${quote(extra)}${
        allowed.length > 0 ? ` (allowed: ${listNames(allowed, 10)})` : ''
      }`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${where}: must be ${String(p['comparison'])} ${String(p['limit'])}`;
    case 'minLength':
    case 'maxLength':
      return `${where}: must be at ${error.keyword === 'minLength' ? 'least' : 'most'} ${String(p['limit'])} characters`;
    case 'minItems':
    case 'maxItems':
      return `${where}: must have at ${error.keyword === 'minItems' ? 'least' : 'most'} ${String(p['limit'])} items`;
    case 'pattern':
      return `${where}: must match the pattern ${cut(JSON.stringify(p['pattern']) ?? '', 80)}`;
    case 'format':
      return `${where}: must be a valid ${String(p['format'])}`;
    default:
      return `${where}: ${cut(error.message ?? `fails "${error.keyword}"`, 120)}`;
  }
}

/**
 * Invalid arguments, one line per failing argument by JSON pointer, capped. `schema` (the tool's parameters) lets a
 * line name the expected type of a missing property or the allowed properties; `prefix` is prepended to every pointer
 * (e.g. `/args` for a namespace call).
 * @example
 * invalidReason('"read_file"', [{ instancePath: '', schemaPath: '#/required', keyword: 'required',
 *   params: { missingProperty: 'path' } }], schema, {}, '', 'read_file');
 * // → 'Invalid arguments for "read_file":\n- /path: missing (required, expected string)\nFix them and call read_file again.'
 */
export function invalidReason(label: string, errors: readonly ValidationError[] | null | undefined, schema: Schema | undefined, data: unknown, prefix: string, retry: string): string {
  const all = [...new Set(errorLines(errors ?? [], schema, data, prefix))].map((text) => `- ${text}`);
  const lines = all.length === 0 ? [`- (arguments): do not match the tool's parameters${takes(schema)}`] : all.slice(0, MAX_ERROR_LINES);
  if (all.length > lines.length) lines.push(`- …and ${all.length - lines.length} more`);
  return `Invalid arguments for ${label}:\n${lines.join('\n')}\nFix them and call ${retry} again.`;
}

/** For a check that says only yes or no: what the parameters take (`; it takes query (string, required) and nothing else`). */
function takes(schema: Schema | undefined): string {
  const properties = isRecord(schema?.['properties']) ? Object.entries(schema['properties']) : [];
  const required = new Set(Array.isArray(schema?.['required']) ? schema['required'] : []);
  const each = properties.map(([key, s]) => `${key} (${isRecord(s) && typeof s['type'] === 'string' ? s['type'] : 'any type'}${required.has(key) ? ', required' : ''})`);
  return each.length === 0 ? '' : `; it takes ${each.join(', ')}${schema?.['additionalProperties'] === false ? ' and nothing else' : ''}`;
}

const isCombinator = (e: ValidationError): boolean => e.keyword === 'anyOf' || e.keyword === 'oneOf';

/** One line per error; a failed `anyOf` / `oneOf` is explained by its branches' errors (ajv lists them before it). */
function errorLines(errors: readonly ValidationError[], schema: Schema | undefined, data: unknown, prefix: string): string[] {
  const combinators = errors.filter(isCombinator);
  const inBranch = (e: ValidationError, c: ValidationError) => e !== c && e.schemaPath.startsWith(`${c.schemaPath}/`);
  const explain = (error: ValidationError): string[] =>
    isCombinator(error) ? combinatorLines(error, errors.filter((e) => inBranch(e, error)), schema, data, prefix) : [line(error, schema, data, prefix)];
  return errors.filter((error) => !combinators.some((c) => inBranch(error, c))).flatMap(explain);
}

/**
 * A failed `anyOf` / `oneOf`. When a branch is clearly meant (the others fail a `const` / `enum` discriminator or the
 * value's type, or it fails on the fewest keywords) its own errors, with their pointers; otherwise one line naming what
 * each branch needs.
 */
function combinatorLines(combinator: ValidationError, branchErrors: readonly ValidationError[], schema: Schema | undefined, data: unknown, prefix: string): string[] {
  const where = prefix + combinator.instancePath || '(arguments)';
  const passing = combinator.params['passingSchemas'];
  if (Array.isArray(passing)) return [`${where}: must match exactly one of the allowed forms; it matches forms ${passing.map((i) => Number(i) + 1).join(' and ')}`];
  const branches = new Map<number, ValidationError[]>();
  for (const e of branchErrors) {
    const k = Number.parseInt(e.schemaPath.slice(combinator.schemaPath.length + 1), 10);
    branches.set(k, [...(branches.get(k) ?? []), e]);
  }
  if (branches.size === 0) return [`${where}: must match one of the allowed forms`];
  const self = combinator.instancePath;
  // A branch's errors all lie at or below the combinator's value: a discriminator is the value or a direct property.
  const mismatch = (e: ValidationError) =>
    ((e.keyword === 'const' || e.keyword === 'enum') && e.instancePath.slice(self.length).lastIndexOf('/') <= 0) || (e.keyword === 'type' && e.instancePath === self);
  let meant = [...branches].filter(([, errs]) => !errs.some(mismatch));
  const fewest = Math.min(...meant.map(([, errs]) => errs.length));
  if (meant.length > 1 && meant.filter(([, errs]) => errs.length === fewest).length === 1) meant = meant.filter(([, errs]) => errs.length === fewest);
  if (meant.length === 1) return errorLines(meant[0]![1], schema, data, prefix);
  const needs = (meant.length > 0 ? meant : [...branches]).map(([k, errs]) => {
    const sorted = [...errs.filter(mismatch), ...errs.filter((e) => !mismatch(e))];
    return { k, text: [...new Set(errorLines(sorted, schema, data, prefix))].slice(0, 2).join(', ') };
  });
  if (new Set(needs.map((n) => n.text)).size === 1) return [needs[0]!.text];
  return [`${where}: matches none of the allowed forms; ${needs.map((n) => `form ${n.k + 1} needs ${n.text}`).join('; ')}`];
}
