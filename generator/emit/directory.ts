/**
 * `directory.gen.ts`: the `<available_toolkits>` directory XML for the system
 * prompt, escaped, as one string constant.
 */
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * Emits `directory.gen.ts`.
 *
 * @example
 * emitDirectory(ctx)[0].content; // '… export const directoryXml: string = "<available_toolkits>\\n…";'
 */
export function emitDirectory(ctx: EmitContext): GeneratedFile[] {
  const content = [
    ctx.header,
    '',
    "/** The toolkit directory to put in the system prompt (every attribute and text XML-escaped); '' when the spec has no toolkits. */",
    `export const directoryXml: string = ${tsString(ctx.directoryXml)};`,
  ].join('\n');
  return [{ path: 'directory.gen.ts', content: `${content}\n` }];
}
