/**
 * `names.gen.ts`: the name lists as exact tuple types, frozen, for code that
 * needs the names at run time (menus, policy pickers, exhaustiveness checks).
 *
 * The tool names are shipped here once, as one string literal split at
 * spaces (`'read_file run_bash …'.split(' ')`: a string literal costs the
 * engine far less to load than an array literal of thousands of strings, and
 * splitting it less than `JSON.parse` of the same list), and `spec.gen.ts`
 * takes its tools' names from this list rather than carrying a second copy.
 * Tool names are portable names (`PORTABLE_TOOL_NAME`: letters, digits, `_`,
 * `-`), so no name holds a space or needs escaping; a list with any other
 * name (or no name) is written as `JSON.parse('[…]')`. The module imports nothing at run
 * time, so a menu that needs only the names loads only them.
 */
import { PORTABLE_TOOL_NAME } from '../ir.js';
import { jsonParseLiteral, tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * Emits `names.gen.ts`.
 *
 * @example
 * emitNames(ctx)[0].content; // '… export const TOOL_NAMES = Object.freeze(\'read_file run_bash …\'.split(\' \')) as readonly ["read_file", …] satisfies readonly ToolName[]; …'
 */
export function emitNames(ctx: EmitContext): GeneratedFile[] {
  const { ir } = ctx;
  const list = (constName: string, typeName: string, doc: string, names: readonly string[]) =>
    `/** ${doc} */\nexport const ${constName} = Object.freeze([${names.map(tsString).join(', ')}] as const) satisfies readonly ${typeName}[];`;
  const tools = ir.tools.map((t) => t.name);
  const content = [
    ctx.header,
    `import type { NamespaceName, PolicyName, ToolkitName, ToolName } from './types.gen.js';`,
    '',
    // Data in a string literal, the exact tuple as the type (the cast only restates what the generator wrote twice).
    `/** Every tool name, in declaration order. */\nexport const TOOL_NAMES = Object.freeze(${toolNamesValue(tools)}) as readonly [${tools.map(tsString).join(', ')}] satisfies readonly ToolName[];`,
    list('NAMESPACE_NAMES', 'NamespaceName', 'Every namespace name, in declaration order.', ir.namespaces.map((n) => n.name)),
    list('TOOLKIT_NAMES', 'ToolkitName', 'Every toolkit name, in declaration order.', ir.toolkits.map((k) => k.name)),
    list('POLICY_NAMES', 'PolicyName', 'Every policy name, in declaration order.', ir.policies.map((p) => p.name)),
  ].join('\n');
  return [{ path: 'names.gen.ts', content: `${content}\n` }];
}

/**
 * The expression of the tool-name list: `'a b c'.split(' ')` when every name
 * is a portable name (no space, nothing to escape in a single-quoted
 * literal), `JSON.parse('[…]')` otherwise (an empty list, or names the
 * validation would have refused).
 *
 * @example
 * toolNamesValue(['read_file', 'run_bash']); // → "'read_file run_bash'.split(' ')"
 */
export function toolNamesValue(names: readonly string[]): string {
  return names.length > 0 && names.every((n) => PORTABLE_TOOL_NAME.test(n)) ? `'${names.join(' ')}'.split(' ')` : jsonParseLiteral(names);
}
