/**
 * `types.gen.ts`: one argument type per tool (json-schema-to-typescript), the
 * name unions, the `Registry`, `Handlers`, `ResolvedToolCall`,
 * `ToolCallCheckResult` and the typed namespace actions, written out so they
 * read well on hover.
 */
import { compile, type Options as JsttOptions } from 'json-schema-to-typescript';
import type { JSONSchema4 } from 'json-schema';
import type { JsonSchema } from '../ir.js';
import { bug } from '../problems.js';
import { jsdoc, propertyKey, tsString } from './code.js';
import { mapSchema } from './schema-walk.js';
import { FIXED_TYPE_NAMES, type EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * json-schema-to-typescript options: no prettier (deterministic and fast), no
 * banner, strict index signatures, and no `$ref` resolution beyond the schema
 * itself (the front end inlines local refs and refuses remote ones).
 */
const JSTT_OPTIONS: Partial<JsttOptions> = {
  bannerComment: '',
  format: false,
  strictIndexSignatures: true,
  declareExternallyReferenced: true,
  unreachableDefinitions: false,
  additionalProperties: true,
  unknownAny: true,
  $refOptions: { resolve: { external: false } },
};

/**
 * Emits `types.gen.ts`.
 *
 * @example
 * const [file] = await emitTypes(ctx); // file.path === 'types.gen.ts'
 */
export async function emitTypes(ctx: EmitContext): Promise<GeneratedFile[]> {
  const { ir } = ctx;
  const out: string[] = [ctx.header, `import type { CallVia, HandlerContext, Rejection, RegistryShape } from ${tsString(ctx.options.runtimeImport)};`, ''];

  out.push('// ── Argument types, one per tool ──', '');
  out.push(await argumentTypes(ctx), '');

  out.push('// ── Names ──', '');
  out.push(`/** Every tool name: the key of its handler. */\nexport type ToolName = ${union(ir.tools.map((t) => tsString(t.name)))};`);
  out.push(`/** Namespace tools (one stable tool per group, routed by \`action\`). */\nexport type NamespaceName = ${union(ir.namespaces.map((n) => tsString(n.name)))};`);
  out.push(`/** Toolkits listed in the directory and loaded through \`load_toolkit\`. */\nexport type ToolkitName = ${union(ir.toolkits.map((k) => tsString(k.name)))};`);
  out.push(`/** Named blocklists from the spec. */\nexport type PolicyName = ${union(ir.policies.map((p) => tsString(p.name)))};`, '');

  out.push('/** Tool name → argument type. */');
  out.push(`export type ToolArgs = ${objectType(ir.tools.map((t, i) => [t.name, t.description, ctx.argTypeNames[i] ?? 'never']))};`, '');
  out.push('/** Toolkit name → the tools it loads. */');
  out.push(`export type ToolkitTools = ${objectType(ir.toolkits.map((k) => [k.name, k.description, union(k.tools.map((i) => tsString(ir.tools[i]?.name ?? '')))]))};`, '');

  out.push('/** The type-level registry `createRouter` reads from a namespace import of this folder. */');
  out.push('export interface Registry extends RegistryShape {');
  out.push('  readonly args: ToolArgs;', '  readonly namespaces: NamespaceName;', '  readonly toolkits: ToolkitName;', '  readonly policies: PolicyName;', '}', '');

  out.push('// ── Handlers and results ──', '');
  out.push('/** One handler per tool, however the tool is exposed (flat, namespace action, toolkit). */');
  out.push(
    `export type Handlers<C = unknown> = ${objectType(
      ir.tools.map((t, i) => [t.name, t.description, `(args: ${ctx.argTypeNames[i] ?? 'never'}, ctx: HandlerContext<C>) => unknown`]),
    )};`,
    '',
  );
  out.push('/** A resolved call: a union over every tool, with its typed arguments (and the library\'s load_toolkit when there are toolkits). */');
  out.push(
    `export type ResolvedToolCall =${unionLines([
      ...ir.tools.map(
        (t, i) => `{ readonly tool: ${tsString(t.name)}; readonly args: ${ctx.argTypeNames[i] ?? 'never'}; readonly via: CallVia; readonly group: string | null }`,
      ),
      // What checkToolCall returns for an accepted load_toolkit call (runtime's LoaderCallOf), so the two types are one.
      ...(ir.toolkits.length > 0
        ? ['{ readonly tool: "load_toolkit"; readonly args: { readonly toolkit_name: ToolkitName }; readonly via: "library"; readonly group: null }']
        : []),
    ])};`,
    '',
  );
  out.push('/** The result of `checkToolCall`: discriminated on `allowed`; `reason` exists exactly when rejected. */');
  out.push('export type ToolCallCheckResult =\n  | { readonly allowed: true; readonly call: ResolvedToolCall }\n  | Rejection;', '');

  out.push('// ── Namespaces ──', '');
  ir.namespaces.forEach((ns, k) => {
    const members = ns.tools.map((i) => `{ readonly action: ${tsString(ir.tools[i]?.name ?? '')}; readonly args: ${ctx.argTypeNames[i] ?? 'never'} }`);
    out.push(`${jsdoc(`A call of namespace \`${ns.name}\`: ${ns.description}`)}export type ${ctx.actionTypeNames[k]} =${unionLines(members)};`, '');
  });
  out.push('/** Namespace name → the `{ action, args }` calls it routes. */');
  out.push(`export type NamespaceActions = ${objectType(ir.namespaces.map((ns, k) => [ns.name, ns.description, ctx.actionTypeNames[k] ?? 'never']))};`, '');
  out.push('/** One dispatcher per namespace, typed by its actions, for applications that route namespaces themselves. */');
  out.push('export type NamespaceDispatchers<C = unknown> = {\n  readonly [N in NamespaceName]: (call: NamespaceActions[N], ctx: HandlerContext<C>) => unknown;\n};');

  return [{ path: 'types.gen.ts', content: `${out.join('\n')}\n`.replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029')) }];
}

/** The root json-schema-to-typescript compiles; its own (empty) declaration is cut from the output. */
const ROOT_NAME = 'ToolrouteArgumentTypesRoot';

/**
 * Every distinct argument schema compiled in ONE json-schema-to-typescript
 * call (each under `definitions`, titled with its type name): one ref-parser
 * pass instead of one per tool, about twice as fast at 1,000 tools. Tools that
 * share a schema get an alias of the first one's type.
 */
async function argumentTypes(ctx: EmitContext): Promise<string> {
  const { ir } = ctx;
  const definitions: Record<string, JSONSchema4> = {};
  const names: string[] = [];
  for (const group of ctx.schemas) {
    const first = group.tools[0];
    const tool = first === undefined ? undefined : ir.tools[first];
    const name = first === undefined ? undefined : ctx.argTypeNames[first];
    if (tool === undefined || name === undefined) throw bug('a distinct schema without a tool');
    definitions[name] = schemaForTypes(group.schema, name, argsComment(tool.name, tool.description));
    names.push(name);
  }
  if (names.length === 0) return '';
  const root = { title: ROOT_NAME, type: 'object', properties: {}, additionalProperties: false, definitions } as JSONSchema4;
  let code = await compile(root, ROOT_NAME, { ...JSTT_OPTIONS, unreachableDefinitions: true });

  const rootDeclaration = `export interface ${ROOT_NAME} {\n\n}\n`;
  if (!code.startsWith(rootDeclaration)) throw bug('json-schema-to-typescript changed how it prints the root type');
  code = code.slice(rootDeclaration.length);
  // jstt notes where each definition came from; the note names our synthetic root, so drop it (one pass).
  code = code.replace(new RegExp(`\\n \\* \\n \\* This interface was referenced by \`${ROOT_NAME}\`'s JSON-Schema\\n \\* via the \`definition\` "[A-Za-z0-9_]+"\\.\\n`, 'g'), '\n');
  if (code.includes(ROOT_NAME)) throw bug('json-schema-to-typescript output still mentions the synthetic root');

  const declared = new Set<string>([...FIXED_TYPE_NAMES, ...ctx.actionTypeNames]);
  for (const declaredName of declarations(code)) {
    if (declared.has(declaredName)) throw bug(`json-schema-to-typescript declared "${declaredName}", a name already taken`);
    declared.add(declaredName);
  }
  for (const name of names) if (!declared.has(name)) throw bug(`json-schema-to-typescript did not name the type "${name}"`);

  const parts = [indentDeclarations(code.trimEnd())];
  // Tools with the same schema share the first one's type under their own name.
  for (const group of ctx.schemas) {
    const [first, ...rest] = group.tools;
    const shared = first === undefined ? undefined : ctx.argTypeNames[first];
    for (const other of rest) {
      const tool = ir.tools[other];
      const name = ctx.argTypeNames[other];
      if (tool === undefined || name === undefined || shared === undefined) throw bug(`tool ${other} has no type name`);
      parts.push(`\n${jsdoc(argsComment(tool.name, tool.description))}export type ${name} = ${shared};`);
    }
  }
  return parts.join('\n');
}

/**
 * Indents json-schema-to-typescript's unformatted output (we run it without
 * prettier, for speed and determinism) by brace depth, and separates top-level
 * declarations with a blank line. Braces inside string literals and comment
 * lines are not counted; the output is otherwise unchanged.
 *
 * @example
 * indentDeclarations('export interface A {\na: {\nb: "{"\n}\n}'); // → 'export interface A {\n  a: {\n    b: "{"\n  }\n}'
 */
export function indentDeclarations(code: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const line of code.split('\n')) {
    const comment = /^\s*(\/\*\*|\*)/.test(line);
    let opens = 0;
    let leadingCloses = 0;
    let closes = 0;
    if (!comment) {
      let seenOther = false;
      for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (c === '"') {
          for (i++; i < line.length && line[i] !== '"'; i++) if (line[i] === '\\') i++;
          seenOther = true;
        } else if (c === '{') {
          opens++;
          seenOther = true;
        } else if (c === '}') {
          if (!seenOther) leadingCloses++;
          else closes++;
        } else if (c !== ' ') seenOther = true;
      }
    }
    const level = Math.max(0, depth - leadingCloses);
    out.push(line === '' ? '' : `${'  '.repeat(level)}${line}`);
    depth = Math.max(0, depth - leadingCloses + opens - closes);
    if (depth === 0 && leadingCloses > 0 && !comment) out.push('');
  }
  return out.join('\n').trimEnd();
}

function argsComment(tool: string, description: string): string {
  return `Arguments of \`${tool}\`: ${description}`;
}

function union(members: readonly string[]): string {
  return members.length === 0 ? 'never' : members.join(' | ');
}

function unionLines(members: readonly string[]): string {
  return members.length === 0 ? ' never' : members.map((m) => `\n  | ${m}`).join('');
}

/** `{ readonly key: type; … }` with each entry's description as JSDoc. */
function objectType(entries: readonly (readonly [key: string, description: string, type: string])[]): string {
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, description, type]) => `${jsdoc(description, '  ')}  readonly ${propertyKey(key)}: ${type};`).join('\n')}\n}`;
}

/** Names declared at the top level of json-schema-to-typescript output. */
function declarations(code: string): string[] {
  return [...code.matchAll(/^export (?:declare )?(?:interface|type|enum|const enum) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1] ?? '');
}

/** Keywords json-schema-to-typescript turns into code or names: spec text must never reach them. */
const TYPE_CODE_KEYWORDS = new Set(['tsType', 'tsEnumNames', 'title', '$id', 'id', '$schema', '$comment']);

/**
 * A copy of an argument schema fit for json-schema-to-typescript: keywords it
 * would turn into code or type names (`tsType`, `title`, …) removed at every
 * level, comment terminators in descriptions escaped the way the rest of the
 * output does it, and the root titled with the type name we chose.
 *
 * @example
 * schemaForTypes({ type: 'object', title: 'X', properties: { a: { tsType: 'any' } } }, 'ReadFileArgs', 'Arguments…');
 * // → { type: 'object', properties: { a: {} }, title: 'ReadFileArgs', description: 'Arguments…' }
 */
export function schemaForTypes(schema: JsonSchema, name: string, description: string): JSONSchema4 {
  const own = typeof schema['description'] === 'string' ? `\n\n${schema['description']}` : '';
  const clean = cleanSchema(schema);
  return { ...clean, title: name, description: escapeDescription(`${description}${own}`) } as JSONSchema4;
}

function cleanSchema(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) =>
    Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !TYPE_CODE_KEYWORDS.has(key))
        .map(([key, value]) => {
          if (key === 'description' && typeof value === 'string') return [key, escapeDescription(value)];
          // jstt prints each pattern into a comment escaping only its FIRST `*/`: escape them all first.
          if (key === 'patternProperties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
            return [key, Object.fromEntries(Object.entries(value).map(([pattern, sub]) => [escapeDescription(pattern), sub]))];
          }
          return [key, value];
        }),
    ),
  );
}

/**
 * Comment terminators written `*\/`, as `jsdoc` does (json-schema-to-typescript
 * would write `* /`, which changes the text).
 */
function escapeDescription(text: string): string {
  return text.replace(/\*\//g, '*\\/');
}
