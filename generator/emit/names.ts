/**
 * `names.gen.ts`: the name lists as frozen tuples. The values are read from the spec's data (each name is shipped once,
 * in spec.gen.ts); the tuple types list every name, so a reviewer and the type checker see them all.
 */
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * Emits `names.gen.ts`.
 *
 * @example
 * emitNames(ctx)[0].content; // '… export const TOOL_NAMES = Object.freeze(spec.tools.map((t) => t.name)) as readonly ToolName[] as readonly ["read_file", …]; …'
 */
export function emitNames(ctx: EmitContext): GeneratedFile[] {
  const { ir } = ctx;
  const list = (constName: string, typeName: string, doc: string, value: string, names: readonly string[]) =>
    `/** ${doc} */\nexport const ${constName} = Object.freeze(${value}) as readonly ${typeName}[] as readonly [${names.map(tsString).join(', ')}];`;
  const content = [
    ctx.header,
    `import type { NamespaceName, PolicyName, ToolkitName, ToolName } from './types.gen.js';`,
    `import { spec } from './spec.gen.js';`,
    '',
    list('TOOL_NAMES', 'ToolName', 'Every tool name, in declaration order.', 'spec.tools.map((t) => t.name)', ir.tools.map((t) => t.name)),
    list('NAMESPACE_NAMES', 'NamespaceName', 'Every namespace name, in declaration order.', 'spec.namespaces.map((n) => n.name)', ir.namespaces.map((n) => n.name)),
    list('TOOLKIT_NAMES', 'ToolkitName', 'Every toolkit name, in declaration order.', 'spec.toolkits.map((k) => k.name)', ir.toolkits.map((k) => k.name)),
    list('POLICY_NAMES', 'PolicyName', 'Every policy name, in declaration order.', 'Object.keys(spec.policies)', ir.policies.map((p) => p.name)),
  ].join('\n');
  return [{ path: 'names.gen.ts', content: `${content}\n` }];
}
