/**
 * `search.gen.ts` and `search-index.gen.ts`: the ranked tool search (`toolroute/search`), its index built here and
 * serialized. `search.gen.ts` only holds a loader; the index text is imported on the first ranking, so importing the
 * folder neither parses nor scans it.
 */
import { ToolSearch, type SearchableTool } from '../../search/index.js';
import type { IRSpec } from '../ir.js';
import { tsString } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';
import { rawTemplateBody } from './spec.js';

/** The search entry beside the runtime entry it is generated for (`toolroute/runtime` → `toolroute/search`). */
export function searchImport(runtimeImport: string): string {
  const m = /^(.*)runtime(\/index\.js)?$/.exec(runtimeImport);
  return m ? `${m[1]}search${m[2] ?? ''}` : 'toolroute/search';
}

/** The spec's tools as the search reads them: each with its namespaces' and toolkits' names and descriptions. */
export function searchableTools(ir: IRSpec): SearchableTool[] {
  return ir.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    tags: tool.tags,
    parameters: tool.parameters,
    groups: [...tool.namespaces.map((k) => ir.namespaces[k]!), ...tool.toolkits.map((k) => ir.toolkits[k]!)].flatMap((g) => [g.name, g.description]),
  }));
}

/**
 * Emits the loader and the serialized index of every tool (its namespaces' and toolkits' names and descriptions too).
 *
 * @example
 * emitSearchIndex(ctx).map((f) => f.path); // ['search.gen.ts', 'search-index.gen.ts']
 */
export function emitSearchIndex(ctx: EmitContext): GeneratedFile[] {
  const search = ToolSearch.build(searchableTools(ctx.ir));
  const loader = [
    ctx.header,
    `import type { SearchLoader } from ${tsString(ctx.options.runtimeImport)};`,
    '',
    '/** The ranked tool search over this spec, loaded on first use (`router.rankByTask` calls it): index and search code are imported then. */',
    'export const loadSearch: SearchLoader = async () => {',
    `  const [{ ToolSearch }, { searchIndex }] = await Promise.all([import(${tsString(searchImport(ctx.options.runtimeImport))}), import('./search-index.gen.js')]);`,
    '  return ToolSearch.load(searchIndex);',
    '};',
  ].join('\n');
  const index = [ctx.header, '/** The MiniSearch index of the tools (JSON text), read by `loadSearch` in search.gen.ts. */', `export const searchIndex = String.raw\`${rawTemplateBody(search.serialize())}\`;`].join('\n');
  return [
    { path: 'search.gen.ts', content: `${loader}\n` },
    { path: 'search-index.gen.ts', content: `${index}\n` },
  ];
}
