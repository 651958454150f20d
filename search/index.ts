/**
 * toolroute/search: the ranked tool search. A MiniSearch index (BM25+) over one document per tool
 * ({@link toolDocument}). The generated folder's `loadSearch` imports this module on first use and returns an empty
 * index; the router (or `toolroute/ai-sdk`'s tool-search callback) then adds its tools. The router's `rankByTask` and
 * `search_tools`, `toolroute eval` and that callback all rank with it.
 */
import MiniSearch, { type Options } from 'minisearch';
import { FIELD_BOOST, FIELDS, queryTerms, term, toolDocument, words, type SearchableTool, type ToolDocument } from './documents.js';

export { queryTerms, toolDocument, words, term, type SearchableTool, type ToolDocument } from './documents.js';

/** The index's options: fields, their weights, and how text becomes terms. */
const OPTIONS: Options<ToolDocument> = {
  idField: 'name',
  fields: FIELDS,
  tokenize: words,
  processTerm: term,
  searchOptions: { boost: FIELD_BOOST, combineWith: 'OR' },
};

/** What `rank` may be limited to. */
export interface RankOptions {
  /** How many tools at most (a positive integer). */
  readonly k: number;
  /** Only tools this accepts are ranked (default: every tool of the index). */
  readonly include?: (name: string) => boolean;
}

/**
 * A tool index: empty, or built from tools; tools can be added later.
 * @example
 * const search = ToolSearch.build([{ name: 'get_forecast', description: 'Weather for the next days' }, { name: 'read_file' }]);
 * search.rank('what will the weather be tomorrow', { k: 5 }); // → ['get_forecast']
 */
export class ToolSearch {
  readonly #index: MiniSearch<ToolDocument>;

  /** An empty index: tools are indexed with `add`. */
  constructor() {
    this.#index = new MiniSearch(OPTIONS);
  }

  /** An index of `tools` (names must be distinct). @example const search = ToolSearch.build([{ name: 'get_weather', description: 'Weather by city' }]); */
  static build(tools: readonly SearchableTool[]): ToolSearch {
    const search = new ToolSearch();
    search.#index.addAll(tools.map((tool) => toolDocument(tool)));
    return search;
  }

  /** Whether a tool of this name is indexed. @example search.has('get_weather'); // → true */
  has(name: string): boolean {
    return this.#index.has(name);
  }

  /** Index one more tool (a tool registered at run time); a name already indexed is replaced. @example search.add({ name: 'ping', description: 'Ping a host' }); */
  add(tool: SearchableTool): void {
    if (this.#index.has(tool.name)) this.#index.discard(tool.name);
    this.#index.add(toolDocument(tool));
  }

  /**
   * The names of the tools that best match `query`, best first, at most `k`; tools no word of the query matches are
   * left out (so fewer than `k` may come back). Any query is accepted; one with no searchable word ranks nothing.
   * @example search.rank('weather in Lisbon', { k: 5 }); // → ['get_weather']
   */
  rank(query: string, options: RankOptions): string[] {
    const k = options.k;
    // The router's `rankByTask` checks its `k` by the same rule first (runtime/router/prune.ts), naming itself.
    if (!Number.isSafeInteger(k) || k < 1) throw new TypeError(`rank: k must be a positive integer; got ${JSON.stringify(k) ?? String(k)}.`);
    const include = options.include;
    // Each distinct term is searched once, boosted by how often the query says it: the scores of searching every
    // repeat (MiniSearch sums a term's repeats and counts it once as matched), at the cost of the distinct terms only.
    const counts = queryTerms(typeof query === 'string' ? query : String(query));
    const terms = [...counts.keys()];
    const hits = this.#index.search(terms.join(' '), {
      tokenize: () => terms,
      processTerm: (t) => t,
      boostTerm: (t) => counts.get(t) ?? 1,
      ...(include ? { filter: (r) => include(r.id as string) } : {}),
    });
    // Equal scores go in name order: not by the query's word order, or by when a registration re-indexed a tool.
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.slice(0, k).map((r) => r.id as string);
  }
}
