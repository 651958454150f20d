/**
 * toolroute's ranked search as AI SDK 7's `toolSearch` custom search callback: the model's query is ranked over the
 * deferred tools the AI SDK offers it, with the spec's tools indexed as the router indexes them (names split on case
 * and separators, descriptions, tags, group and argument text), instead of the default word match on names and
 * descriptions.
 */
import { searchableTool, type GeneratedSpec, type SearchLoader, type ToolSearchIndex } from '../../runtime/index.js';

/** The `search` option of AI SDK 7's `toolSearch` (its `ToolSearchFunction`). */
export type AiSdkToolSearchFunction = (options: { query: string; tools: Array<{ name: string; description?: string }> }) => Promise<string[]>;

/**
 * A `toolSearch` callback over a generated folder's tools, indexed on the first search. It ranks the tools the AI SDK
 * passes, best first; a tool the spec does not know (one the application added) is indexed by its name and
 * description when first seen.
 * @example
 * import * as generated from './generated/index.js';
 * const search = toolSearch({ search: toolrouteSearch(generated), maxResults: 5 });
 */
export function toolrouteSearch(generated: { readonly spec: GeneratedSpec; readonly loadSearch?: SearchLoader }): AiSdkToolSearchFunction {
  const load = generated?.loadSearch;
  const spec = generated?.spec;
  if (typeof load !== 'function' || !Array.isArray(spec?.tools)) {
    throw new TypeError('toolrouteSearch: expected the namespace import of a generated index.ts with spec and loadSearch; regenerate the folder with this toolroute version.');
  }
  const indexSpec = async () => {
    const search = await load();
    for (const t of spec.tools) if (!search.has(t.name)) search.add(searchableTool(t, t.parameters, spec));
    return search;
  };
  let index: Promise<ToolSearchIndex> | undefined;
  return async ({ query, tools }) => {
    const search = await (index ??= indexSpec().catch((error: unknown) => { index = undefined; throw error; }));
    for (const t of tools) if (!search.has(t.name)) search.add({ name: t.name, description: t.description ?? '', tags: [], parameters: undefined });
    const names = new Set(tools.map((t) => t.name));
    return names.size === 0 ? [] : search.rank(query, { k: names.size, include: (name) => names.has(name) });
  };
}
