/**
 * Library-owned tools: the router's own tools beside `load_toolkit`, given to `createRouter` as `libraryTools`. This
 * module owns their registration rules and the text `handleTool` returns; the catalog stores them as tool entries
 * (`library: true`), so they resolve, pass the gate, validate and run as the application's tools do.
 */
import { LOAD_TOOLKIT_NAME, PORTABLE_TOOL_NAME, type HandlerContext, type ValidationError } from '../contract.js';
import { isPlainObject } from '../call-shape.js';
import { quote } from '../reasons.js';
import type { LibraryToolDefinition, LibraryToolValidate } from './types.js';
import { resultText } from '../targets/history.js';

/** The keys of a definition: every one is required, and no other is accepted. */
const DEFINITION_KEYS = ['name', 'description', 'parameters', 'validate', 'handler'] as const;

/** A checked definition: the schema is a frozen copy, the rest as given. */
export type PlannedLibraryTool = LibraryToolDefinition<never, never>;

/**
 * Define one library tool, typed: the handler's `args` are the type the `validate` type guard checks (an
 * `ajv.compile<Args>(schema)` result), or the handler's own annotation; a guard and an annotation that disagree do not
 * compile. Returns the definition unchanged (the checks run in `createRouter`).
 * @example
 * const remember = libraryTool({
 *   name: 'remember',
 *   description: 'Store a fact for later turns.',
 *   parameters: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } }, required: ['key', 'value'], additionalProperties: false },
 *   validate: ajv.compile<{ key: string; value: string }>(schema),
 *   handler: ({ key, value }) => { memory.set(key, value); return `Remembered "${key}".`; },
 * });
 * const router = createRouter(generated, handlers, { libraryTools: [remember] });
 */
export function libraryTool<const N extends string, V extends LibraryToolValidate<unknown>, A = Record<string, unknown>, C = unknown>(
  definition: Omit<LibraryToolDefinition<never, C, N>, 'validate' | 'handler'> & {
    readonly validate: V;
    readonly handler: (args: GuardedArgs<V, A>, ctx: HandlerContext<C>) => unknown;
  },
): LibraryToolDefinition<GuardedArgs<V, A>, C, N> { return definition as LibraryToolDefinition<GuardedArgs<V, A>, C, N>; }

/** The handler's arguments: what a type-guard `validate` checks, else `A` (the handler's annotation, or a JSON object). */
export type GuardedArgs<V, A> = V extends (data: any, ...rest: any[]) => data is infer G ? G : A;

/**
 * Check `libraryTools` and return the definitions to register, in order. `taken(name)` says what else holds a name
 * (undefined: free). Throws a `TypeError` naming the tool and the fix on any mistake.
 * @example
 * planLibraryTools([remember], (name) => (name === 'read_file' ? 'a tool of the spec' : undefined)); // → [{ name: 'remember', … }]
 */
export function planLibraryTools(definitions: unknown, taken: (name: string) => string | undefined): PlannedLibraryTool[] {
  const where = 'createRouter: libraryTools';
  if (definitions === undefined) return [];
  if (!Array.isArray(definitions)) throw new TypeError(`${where} must be an array of library tool definitions (see libraryTool).`);
  const planned: PlannedLibraryTool[] = [];
  definitions.forEach((def: unknown, i) => {
    if (!isPlainObject(def)) throw new TypeError(`${where}[${i}] must be an object { name, description, parameters, validate, handler }.`);
    const label = typeof def['name'] === 'string' ? JSON.stringify(def['name']) : `[${i}]`;
    const missing = DEFINITION_KEYS.filter((k) => def[k] === undefined);
    const unknown = Object.keys(def).filter((k) => !(DEFINITION_KEYS as readonly string[]).includes(k));
    const problems = [
      ...(missing.length > 0 ? [`missing ${missing.map((k) => `\`${k}\``).join(', ')}`] : []),
      ...(unknown.length > 0 ? [`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (library tools are never tagged, grouped or deferred)`] : []),
    ];
    if (problems.length > 0) throw new TypeError(`${where} ${label}: ${problems.join('; ')}. A library tool is { name, description, parameters, validate, handler }.`);
    const name = def['name'];
    if (typeof name !== 'string' || !PORTABLE_TOOL_NAME.test(name)) {
      throw new TypeError(`${where} ${label}: the name must match ${PORTABLE_TOOL_NAME.source} (the tool-name rule of every target).`);
    }
    const holder = planned.some((p) => p.name === name) ? 'another library tool' : taken(name);
    if (holder !== undefined) throw new TypeError(`${where} ${label}: the name is already taken by ${holder}; pick another.`);
    if (typeof def['description'] !== 'string' || def['description'] === '') {
      throw new TypeError(`${where} ${label}: \`description\` must be a non-empty string (the model reads it).`);
    }
    if (typeof def['validate'] !== 'function') {
      throw new TypeError(`${where} ${label}: \`validate\` must be a function (e.g. ajv.compile(parameters)); the runtime compiles no schema.`);
    }
    if (typeof def['handler'] !== 'function') throw new TypeError(`${where} ${label}: \`handler\` must be a function.`);
    planned.push({
      name,
      description: def['description'],
      parameters: staticSchema(def['parameters'], `${where} ${label}`),
      validate: def['validate'] as PlannedLibraryTool['validate'],
      handler: def['handler'] as PlannedLibraryTool['handler'],
    });
  });
  return planned;
}

/** A frozen deep copy of a parameters schema, after checking it is plain JSON with `type: "object"` at the top. */
export function staticSchema(schema: unknown, where: string): Readonly<Record<string, unknown>> {
  if (!isPlainObject(schema) || schema['type'] !== 'object') {
    throw new TypeError(`${where}: \`parameters\` must be a JSON Schema object with type "object" at the top (a bare map of properties is not one).`);
  }
  const properties = schema['properties'];
  if (properties !== undefined && (!isPlainObject(properties) || !Object.values(properties).every((p) => isPlainObject(p) || typeof p === 'boolean'))) {
    throw new TypeError(`${where}: \`parameters.properties\` must map each property name to a schema.`);
  }
  const required = schema['required'];
  if (required !== undefined && (!Array.isArray(required) || !required.every((r) => typeof r === 'string') || new Set(required).size !== required.length)) {
    throw new TypeError(`${where}: \`parameters.required\` must be an array of distinct property names.`);
  }
  const copy = (value: unknown, path: string, depth: number): unknown => {
    if (depth > 64) throw new TypeError(`${where}: \`parameters\` is nested deeper than 64 levels (or refers to itself) at ${path}.`);
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return value;
      throw new TypeError(`${where}: \`parameters\` holds ${String(value)} at ${path}, which JSON cannot carry.`);
    }
    if (Array.isArray(value)) return Object.freeze(value.map((v, i) => copy(v, `${path}/${i}`, depth + 1)));
    // fromEntries defines own properties, so a `__proto__` property name stays a key of the schema.
    if (isPlainObject(value)) return Object.freeze(Object.fromEntries(Object.keys(value).map((key) => [key, copy(value[key], `${path}/${key}`, depth + 1)])));
    throw new TypeError(`${where}: \`parameters\` holds ${typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`} at ${path || '/'}; a schema is plain JSON.`);
  };
  return copy(schema, '', 0) as Readonly<Record<string, unknown>>;
}

/**
 * What `handleTool` returns for a library tool's dispatch result: the handler's string as is, any other value as JSON,
 * a rejection as `Error: …` (its reason: the same text `dispatch` gives the model).
 * @example
 * libraryResultText({ ok: true, result: 'Remembered "city".' }); // → 'Remembered "city".'
 * libraryResultText({ ok: false, reason: 'Tool "recall" is currently blocked.' }); // → 'Error: Tool "recall" is currently blocked.'
 */
export function libraryResultText(r: { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly reason: string }): string {
  return r.ok ? resultText(r.result) : `Error: ${r.reason}`;
}

/**
 * `handleTool`'s answer for a call that is no library tool (the application dispatches it).
 * @example
 * notLibraryText('read_file', ['remember']); // → 'Error: "read_file" is not a library tool; library tools: load_toolkit, remember. Dispatch it with router.dispatch.'
 */
export function notLibraryText(name: string | undefined, library: readonly string[]): string {
  return `Error: ${name ? quote(name) : 'this call'} is not a library tool; library tools: ${[LOAD_TOOLKIT_NAME, ...library].join(', ')}. Dispatch it with router.dispatch.`;
}

/**
 * The `errors` of a validator the application wrote, reduced to entries the reason builder can read: a malformed
 * `errors`, or a getter that throws, must not make a model's bad call throw.
 * @example
 * readableErrors({ errors: [{ instancePath: '/k', schemaPath: '#/type', keyword: 'type', params: {} }, 'oops'] }); // → the first entry only
 */
export function readableErrors(validate: { readonly errors?: unknown }): ValidationError[] {
  try {
    const errors = validate.errors;
    if (!Array.isArray(errors)) return [];
    return errors.filter(
      (e): e is ValidationError =>
        isPlainObject(e) && typeof e['instancePath'] === 'string' && typeof e['schemaPath'] === 'string' && typeof e['keyword'] === 'string' && isPlainObject(e['params']),
    );
  } catch {
    return [];
  }
}
