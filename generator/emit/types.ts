/** `types.gen.ts`: argument types, name unions, `Registry`, `Handlers` and the typed namespace actions. */
import { bug } from '../problems.js';
import { isObjectLiteralType, schemaToType } from './arg-types.js';
import { jsdoc, propertyKey, tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

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
  const withResults = ir.tools.flatMap((t, i) => (t.returns !== undefined && ctx.resultTypeNames[i] !== undefined ? [[i, ctx.resultTypeNames[i]!] as const] : []));
  if (withResults.length > 0) {
    out.push('// ── Result types, for the tools whose spec gives `returns` ──', '');
    out.push(resultTypes(ctx, withResults), '');
  }

  out.push('// ── Names ──', '');
  out.push(`/** Every tool name: the key of its handler. */\nexport type ToolName = ${union(ir.tools.map((t) => tsString(t.name)))};`);
  out.push(`/** Namespace tools (one stable tool per group, routed by \`action\`). */\nexport type NamespaceName = ${union(ir.namespaces.map((n) => tsString(n.name)))};`);
  out.push(`/** Toolkits listed in the directory and loaded through \`load_toolkit\`. */\nexport type ToolkitName = ${union(ir.toolkits.map((k) => tsString(k.name)))};`);
  out.push(`/** Named blocklists from the spec. */\nexport type PolicyName = ${union(ir.policies.map((p) => tsString(p.name)))};`, '');

  out.push('/** Tool name → argument type. */');
  out.push(`export type ToolArgs = ${objectType(ir.tools.map((t, i) => [t.name, t.description, ctx.argTypeNames[i] ?? 'never']))};`, '');
  if (withResults.length > 0) {
    out.push('/** Tool name → result type, for the tools whose spec gives `returns` (e.g. an MCP tool\'s output schema). */');
    out.push(`export type ToolResults = ${objectType(withResults.map(([i, name]) => [ir.tools[i]!.name, ir.tools[i]!.description, name]))};`, '');
  }
  out.push('/** Toolkit name → the tools it loads. */');
  out.push(`export type ToolkitTools = ${objectType(ir.toolkits.map((k) => [k.name, k.description, union(k.tools.map((i) => tsString(ir.tools[i]?.name ?? '')))]))};`, '');

  out.push('/** The type-level registry `createRouter` reads from a namespace import of this folder. */');
  out.push('export interface Registry extends RegistryShape {');
  out.push('  readonly args: ToolArgs;', '  readonly namespaces: NamespaceName;', '  readonly toolkits: ToolkitName;', '  readonly policies: PolicyName;');
  if (withResults.length > 0) out.push('  readonly results: ToolResults;');
  out.push('}', '');

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

/**
 * One declaration per distinct argument schema (`schemaToType`): an interface
 * when the type is an object literal, a type alias otherwise. Tools that share
 * a schema get an alias of the first one's type.
 */
async function argumentTypes(ctx: EmitContext): Promise<string> {
  const { ir } = ctx;
  const parts: string[] = [];
  for (const group of ctx.schemas) {
    const first = group.tools[0];
    const tool = first === undefined ? undefined : ir.tools[first];
    const name = first === undefined ? undefined : ctx.argTypeNames[first];
    if (tool === undefined || name === undefined) throw bug('a distinct schema without a tool');
    const own = typeof group.schema['description'] === 'string' ? `\n\n${group.schema['description']}` : '';
    const doc = jsdoc(`${argsComment(tool.name, tool.description)}${own}`);
    // With `applyDefaults`, what the handler receives: the properties the validator fills are required.
    const type = schemaToType(group.schema, '', { applyDefaults: ir.options.applyDefaults });
    parts.push(isObjectLiteralType(group.schema) ? `${doc}export interface ${name} ${type}` : `${doc}export type ${name} = ${type};`);
  }
  // Tools with the same schema share the first one's type under their own name.
  for (const group of ctx.schemas) {
    const [first, ...rest] = group.tools;
    const shared = first === undefined ? undefined : ctx.argTypeNames[first];
    for (const other of rest) {
      const tool = ir.tools[other];
      const name = ctx.argTypeNames[other];
      if (tool === undefined || name === undefined || shared === undefined) throw bug(`tool ${other} has no type name`);
      parts.push(`${jsdoc(argsComment(tool.name, tool.description))}export type ${name} = ${shared};`);
    }
  }
  return parts.join('\n\n');
}

/**
 * The result types of tools with `returns`, printed like argument types (as
 * wide as the schema), one declaration each; specs without `returns` emit
 * exactly what they did.
 */
function resultTypes(ctx: EmitContext, tools: readonly (readonly [number, string])[]): string {
  return tools
    .map(([i, name]) => {
      const tool = ctx.ir.tools[i];
      if (tool?.returns === undefined) throw bug(`tool ${i} has no returns`);
      const own = typeof tool.returns['description'] === 'string' ? `\n\n${tool.returns['description']}` : '';
      const doc = jsdoc(`What \`${tool.name}\` returns.${own}`);
      const type = schemaToType(tool.returns);
      return isObjectLiteralType(tool.returns) ? `${doc}export interface ${name} ${type}` : `${doc}export type ${name} = ${type};`;
    })
    .join('\n\n');
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
