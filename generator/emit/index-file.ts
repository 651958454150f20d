/**
 * `index.ts`: the folder's public face. `import * as gen from './generated/index.js'`
 * is what `createRouter(gen, handlers)` receives (contract: `GeneratedModule`).
 */
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * Emits `index.ts`.
 *
 * @example
 * emitIndex(ctx)[0].content; // "… export { spec } from './spec.gen.js'; …"
 */
export function emitIndex(ctx: EmitContext): GeneratedFile[] {
  const manifest = `{ generator: 'toolroute', version: ${tsString(ctx.options.version)}, formatVersion: 1, spec: ${tsString(ctx.options.specDisplay)}, hash: ${tsString(ctx.ir.hash)} }`;
  const content = [
    ctx.header,
    '//',
    '// Usage: `import * as gen from \'./index.js\'` and pass `gen` to `createRouter(gen, handlers)`;',
    '// type your handlers with `Handlers` and your results with `ToolCallCheckResult`.',
    '',
    "export { spec } from './spec.gen.js';",
    "export { directoryXml } from './directory.gen.js';",
    "export { loadSearch } from './search.gen.js';",
    "export { TOOL_NAMES, NAMESPACE_NAMES, TOOLKIT_NAMES, POLICY_NAMES } from './names.gen.js';",
    "export type * from './types.gen.js';",
    '',
    // A constant of its own, so the export's type is written out (TypeScript's isolatedDeclarations asks for that).
    `const MANIFEST = ${manifest} as const;`,
    '/** Which toolroute generated this folder from which spec (manifest.json also lists every file with its sha256). */',
    'export const manifest: typeof MANIFEST = Object.freeze(MANIFEST);',
  ].join('\n');
  return [{ path: 'index.ts', content: `${content}\n` }];
}
