/**
 * toolroute/search: the ranked tool search. A MiniSearch index (BM25+) over one document per tool
 * ({@link toolDocument}), built at codegen and serialized into the generated folder (`search-index.gen.ts`), loaded on
 * first use. The router's `rankByTask` and `search_tools`, `toolroute eval` and `toolroute/ai-sdk`'s tool-search
 * callback all rank with it.
 */
import MiniSearch, {} from 'minisearch';
import { FIELD_BOOST, FIELDS, term, toolDocument, words } from './documents.js';
export { toolDocument, words, term } from './documents.js';
/** The index's options: the same at build and at load (MiniSearch requires it). */
const OPTIONS = {
    idField: 'name',
    fields: FIELDS,
    tokenize: words,
    processTerm: term,
    searchOptions: { boost: FIELD_BOOST, combineWith: 'OR' },
};
/**
 * A tool index: built from tools, or loaded from what codegen serialized.
 * @example
 * const search = ToolSearch.build([{ name: 'get_forecast', description: 'Weather for the next days' }, { name: 'read_file' }]);
 * search.rank('what will the weather be tomorrow', { k: 5 }); // → ['get_forecast']
 */
export class ToolSearch {
    #index;
    constructor(index) {
        this.#index = index;
    }
    /** An index of `tools` (names must be distinct). */
    static build(tools) {
        const index = new MiniSearch(OPTIONS);
        index.addAll(tools.map((tool) => toolDocument(tool)));
        return new ToolSearch(index);
    }
    /** The index `serialize` wrote. Throws on text that is no serialized index (a damaged generated folder). */
    static load(serialized) {
        return new ToolSearch(MiniSearch.loadJSON(serialized, OPTIONS));
    }
    /**
     * The index as JSON text, for `load`: one line per tool's field lengths and per indexed word, words sorted, so a
     * changed description changes the lines of its words and its tool only. Deterministic: the same tools in the same
     * order give the same text.
     */
    serialize() {
        const { index, fieldLength, averageFieldLength, ...rest } = this.#index.toJSON();
        const lengths = Object.entries(fieldLength).map(([id, lengths]) => `${JSON.stringify(id)}:${JSON.stringify(lengths)}`);
        const words = [...index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map((entry) => JSON.stringify(entry));
        return `${JSON.stringify(rest).slice(0, -1)},\n"fieldLength":{\n${lengths.join(',\n')}\n},\n"averageFieldLength":${JSON.stringify(averageFieldLength)},\n"index":[\n${words.join(',\n')}\n]}`;
    }
    /** Whether a tool of this name is indexed. */
    has(name) {
        return this.#index.has(name);
    }
    /** Index one more tool (a tool registered at run time); a name already indexed is replaced. */
    add(tool) {
        if (this.#index.has(tool.name))
            this.#index.discard(tool.name);
        this.#index.add(toolDocument(tool));
    }
    /**
     * The names of the tools that best match `query`, best first, at most `k`; tools no word of the query matches are
     * left out (so fewer than `k` may come back). Any query is accepted; one with no searchable word ranks nothing.
     */
    rank(query, options) {
        const k = options.k;
        if (!Number.isInteger(k) || k < 1)
            throw new TypeError(`rank: k must be a positive integer; got ${String(k)}.`);
        const include = options.include;
        const hits = this.#index.search(typeof query === 'string' ? query : String(query), include ? { filter: (r) => include(r.id) } : {});
        return hits.slice(0, k).map((r) => r.id);
    }
}
