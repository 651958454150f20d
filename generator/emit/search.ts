/**
 * `search.gen.ts`: the loader of the ranked tool search (`toolroute/search`). It imports the search code on first use
 * and returns an empty index, which the router fills from its tools, so importing the folder loads none of it.
 */
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * The search entry beside the runtime entry it is generated for: `toolroute/runtime` → `toolroute/search`, a path to
 * `runtime/index.js` (or `.ts`, for a checkout run through tsx) → the same path to `search/index.js` (`.ts`); anything
 * else (a specifier whose last segment is not `runtime`) → `toolroute/search`, never a name the user did not write.
 * @example searchImport('../../runtime/index.ts'); // '../../search/index.ts'
 */
export function searchImport(runtimeImport: string): string {
  const m = /^(.*\/)runtime(\/index\.[jt]s)?$/.exec(runtimeImport);
  return m ? `${m[1]}search${m[2] ?? ''}` : 'toolroute/search';
}

/**
 * Emits `loadSearch`, the search's loader.
 *
 * @example
 * emitSearchLoader(ctx).map((f) => f.path); // ['search.gen.ts']
 */
export function emitSearchLoader(ctx: EmitContext): GeneratedFile[] {
  const loader = [
    ctx.header,
    `import type { SearchLoader } from ${tsString(ctx.options.runtimeImport)};`,
    '',
    '/** The ranked tool search, imported on first use (`router.rankByTask` calls it); the router indexes its tools into it. */',
    'export const loadSearch: SearchLoader = async () => {',
    `  const { ToolSearch } = await import(${tsString(searchImport(ctx.options.runtimeImport))});`,
    '  return new ToolSearch();',
    '};',
  ].join('\n');
  return [{ path: 'search.gen.ts', content: `${loader}\n` }];
}
