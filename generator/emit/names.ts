/** `names.gen.ts`: the name lists as frozen tuples, in a module that imports nothing at run time. */
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * Emits `names.gen.ts`.
 *
 * @example
 * emitNames(ctx)[0].content; // '… export const TOOL_NAMES = Object.freeze(["read_file", …] as const) satisfies readonly ToolName[]; …'
 */
export function emitNames(ctx: EmitContext): GeneratedFile[] {
  const { ir } = ctx;
  const list = (constName: string, typeName: string, doc: string, names: readonly string[]) =>
    `/** ${doc} */\nexport const ${constName} = Object.freeze([${names.map(tsString).join(', ')}] as const) satisfies readonly ${typeName}[];`;
  const content = [
    ctx.header,
    `import type { NamespaceName, PolicyName, ToolkitName, ToolName } from './types.gen.js';`,
    '',
    list('TOOL_NAMES', 'ToolName', 'Every tool name, in declaration order.', ir.tools.map((t) => t.name)),
    list('NAMESPACE_NAMES', 'NamespaceName', 'Every namespace name, in declaration order.', ir.namespaces.map((n) => n.name)),
    list('TOOLKIT_NAMES', 'ToolkitName', 'Every toolkit name, in declaration order.', ir.toolkits.map((k) => k.name)),
    list('POLICY_NAMES', 'PolicyName', 'Every policy name, in declaration order.', ir.policies.map((p) => p.name)),
  ].join('\n');
  return [{ path: 'names.gen.ts', content: `${content}\n` }];
}
