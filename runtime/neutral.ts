/**
 * The reference library's provider-neutral tool definitions: a spec tool, a namespace tool (routed by `action` in the `{ action,
 * args }` wire format), the `load_toolkit` loader and the `<available_toolkits>` directory. Pure: the generator and
 * the runtime's registrations call the same functions, so both give the same bytes.
 */
import { escapeXml } from './announcements.js';
import type { JsonSchema, NeutralTool } from './targets/adapter.js';
import { isRecord } from './targets/history.js';

/** What the neutral builders need of a tool (an IR tool or a run-time registration fits). */
export interface NeutralToolInput extends Pick<NeutralTool, 'name' | 'description' | 'parameters'> {
  readonly deferLoading?: boolean;
}

/** A toolkit as listed in the directory: its tools by name. */
export interface DirectoryToolkit { readonly name: string; readonly description: string; readonly tools: readonly string[] }

/**
 * How a namespace tool carries its actions' arguments. `compact` (default): `{ action: enum, args: object }`, the
 * description listing each action's arguments (smallest; only the runtime validator checks `args`). `schema`: `args`
 * is `{ anyOf: [one schema per action] }` (larger, but providers can constrain decoding).
 */
export type NamespaceEncoding = 'compact' | 'schema';

/** The reference library's loader description, kept verbatim so prompts match the reference library's. */
export const LOADER_DESCRIPTION =
  'Load a toolkit to access its specialized tools. Call this when you need tools not available in the current namespace groups. Check the <available_toolkits> directory in your system prompt for options.';

const ACTION_DESCRIPTION = 'The specific tool to invoke within this group.';
const COMPACT_ARGS_DESCRIPTION = 'Arguments for the selected action. See action descriptions above.';
const SCHEMA_ARGS_DESCRIPTION = 'Arguments for the selected action: the schema whose description names it.';

/** A spec tool as a neutral definition. */
export function neutralTool(tool: NeutralToolInput): NeutralTool {
  const { name, description, parameters } = tool;
  return { kind: 'tool', name, description, parameters, deferLoading: tool.deferLoading === true };
}

/** A namespace as one stable tool routed by `action`, in the given encoding. */
export function neutralNamespaceTool(ns: Pick<NeutralToolInput, 'name' | 'description'>, actions: readonly NeutralToolInput[], encoding: NamespaceEncoding): NeutralTool {
  const action = { type: 'string', enum: actions.map((a) => a.name), description: ACTION_DESCRIPTION };
  const compact = encoding === 'compact';
  const docs = compact ? compactActionDocs(actions) : actions.map((a) => `- ${a.name}: ${a.description}`);
  const args = compact
    ? { type: 'object', description: COMPACT_ARGS_DESCRIPTION }
    : { description: SCHEMA_ARGS_DESCRIPTION, anyOf: actions.map(actionArgsSchema) };
  const description = `${ns.description}\n\nAvailable actions:\n${docs.join('\n')}`;
  const parameters = { type: 'object', properties: { action, args }, required: ['action', 'args'] };
  return { kind: 'namespace', name: ns.name, description, parameters, deferLoading: false };
}

/** The `load_toolkit` tool: `toolkit_name` is an enum of the toolkit names. */
export function neutralLoaderTool(toolkitNames: readonly string[]): NeutralTool {
  const toolkitName = { type: 'string', enum: [...toolkitNames], description: 'The name of the toolkit to load.' };
  const parameters = { type: 'object', properties: { toolkit_name: toolkitName }, required: ['toolkit_name'] };
  return { kind: 'loader', name: 'load_toolkit', description: LOADER_DESCRIPTION, parameters, deferLoading: false };
}

/** The `<available_toolkits>` directory for the system prompt; '' without toolkits. Everything is XML-escaped (spec text must never become markup). */
export function directoryXml(toolkits: readonly DirectoryToolkit[]): string {
  if (toolkits.length === 0) return '';
  const lines = toolkits.map(
    (kit) =>
      `  <toolkit name="${escapeXml(kit.name)}" tools="${escapeXml(kit.tools.join(', '))}">${escapeXml(kit.description, 'text')}</toolkit>`,
  );
  return `<available_toolkits>\n${lines.join('\n')}\n</available_toolkits>`;
}

/** One action of a compact namespace: `- name: description`, then one line per argument, `  arg?: type - description` (enums as literal unions, nested values in a compact TS-like form). */
export function compactActionDoc(tool: NeutralToolInput): string {
  const args = argumentRows(tool.parameters).map((arg) => `\n  ${arg.head}: ${arg.type}${arg.tail}`).join('');
  return `- ${tool.name}: ${tool.description}${args}`;
}

/** Argument types at least this long that repeat within a namespace are named once (see {@link compactActionDocs}). */
const ALIAS_MIN_LENGTH = 28;

/**
 * The compact docs of a namespace's actions, as lines of its description. A type of {@link ALIAS_MIN_LENGTH}+
 * characters used more than once is written once under `Types:` as `T1 = …`; an action whose argument lines equal an
 * earlier action's ends with `(args as <earlier>)` instead of repeating them.
 * @example
 * compactActionDocs([getUser, getTeam]);
 * // → ['- get_user: Get a user\n  id: string', '- get_team: Get a team (args as get_user)']
 */
export function compactActionDocs(actions: readonly NeutralToolInput[]): string[] {
  const rows = actions.map((action) => argumentRows(action.parameters));
  const uses = new Map<string, number>();
  for (const row of rows) for (const arg of row) if (arg.type.length >= ALIAS_MIN_LENGTH) uses.set(arg.type, (uses.get(arg.type) ?? 0) + 1);
  // Names in order of first use, so the output is deterministic and reads top-down.
  const alias = new Map<string, string>();
  for (const [type, count] of uses) if (count > 1) alias.set(type, `T${alias.size + 1}`);
  const firstWithArgs = new Map<string, string>();
  const docs = actions.map((action, i) => {
    const args = rows[i]!.map((arg) => `\n  ${arg.head}: ${alias.get(arg.type) ?? arg.type}${arg.tail}`).join('');
    const head = `- ${action.name}: ${action.description}`;
    if (args === '') return head;
    const earlier = firstWithArgs.get(args);
    if (earlier !== undefined) return `${head} (args as ${earlier})`;
    firstWithArgs.set(args, action.name);
    return head + args;
  });
  if (alias.size > 0) docs.push(`\nTypes:${[...alias].map(([type, name]) => `\n  ${name} = ${type}`).join('')}`);
  return docs;
}

/** An action's arguments as doc rows: `head` is `name` or `name?`, `type` the compact type, `tail` ` - description` or ''. */
function argumentRows(parameters: JsonSchema): { readonly head: string; readonly type: string; readonly tail: string }[] {
  const properties = isRecord(parameters['properties']) ? Object.entries(parameters['properties']) : [];
  const required = Array.isArray(parameters['required']) ? parameters['required'] : [];
  return properties.map(([key, schema]) => ({
    head: `${propertyKey(key)}${required.includes(key) ? '' : '?'}`,
    type: compactType(schema),
    tail: isRecord(schema) && typeof schema['description'] === 'string' && schema['description'] !== '' ? ` - ${schema['description']}` : '',
  }));
}

/** A schema as a compact TS-like type: `string`, `'a'|'b'`, `integer[]`, `{path: string, n?: number}`; `any` for what it cannot say briefly. */
export function compactType(schema: unknown): string {
  if (!isRecord(schema)) return schema === false ? 'never' : 'any';
  if ('const' in schema) return literal(schema['const']);
  const en = schema['enum'];
  if (Array.isArray(en)) return en.length === 0 ? 'never' : en.map(literal).join('|');
  for (const [keyword, joiner] of [['anyOf', '|'], ['oneOf', '|'], ['allOf', '&']] as const) {
    const members = schema[keyword];
    if (Array.isArray(members) && members.length > 0) return members.map((m) => wrap(compactType(m))).join(joiner);
  }
  const type = schema['type'];
  if (Array.isArray(type)) return type.length === 0 ? 'any' : type.map((t) => (typeof t === 'string' ? compactSingle(t, schema) : 'any')).map(wrap).join('|');
  if (typeof type === 'string') return compactSingle(type, schema);
  if (isRecord(schema['properties'])) return compactSingle('object', schema);
  if ('items' in schema) return compactSingle('array', schema);
  return 'any';
}

function compactSingle(type: string, schema: { readonly [key: string]: unknown }): string {
  if (type === 'array') {
    const items = schema['items'];
    if (Array.isArray(items)) return `[${items.map(compactType).join(', ')}]`;
    return `${wrap(compactType(items ?? {}))}[]`;
  }
  if (type === 'object') {
    const props = argumentRows(schema);
    return props.length === 0 ? 'object' : `{${props.map((arg) => `${arg.head}: ${arg.type}`).join(', ')}}`;
  }
  return type;
}

/** A union or intersection inside an array or another union needs parentheses. */
function wrap(type: string): string {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (c === '"' || c === "'") {
      // Skip a string literal (enum and const values) so its text is never read as syntax.
      for (i++; i < type.length && type[i] !== c; i++) if (type[i] === '\\') i++;
    } else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    else if ((c === '|' || c === '&') && depth === 0) return `(${type})`;
  }
  return type;
}

/** A literal single-quoted when that needs no escape (a double quote costs two bytes once in JSON), else JSON. */
function literal(value: unknown): string {
  if (typeof value === 'string' && /^[^'\\\u0000-\u001f\u2028\u2029]*$/.test(value)) return `'${value}'`;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

function propertyKey(key: string): string { return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : literal(key); }

/** An action's own schema, described with the action it belongs to. */
function actionArgsSchema(tool: NeutralToolInput): JsonSchema {
  const own = typeof tool.parameters['description'] === 'string' ? `: ${tool.parameters['description']}` : '';
  return { ...tool.parameters, description: `Arguments of ${tool.name}${own}` };
}
