import { toolInput } from './entries.js';
import { compactActionDoc } from '../neutral.js';
import { quote } from '../reasons.js';
import { assertKnownNames } from '../suggest.js';
/** How many code units of a keyword's start index it (`startKey`); shorter keywords are tested with `includes`. */
const START = 3;
/** The code units `at` … `at + START - 1` of `text` as one number (exact below 2^53). */
function startKey(text, at) {
    return (text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1)) * 0x10000 + text.charCodeAt(at + 2);
}
/** Prunes one router's flat tools. Internal. */
export class Pruner {
    #catalog;
    #strategy;
    #keywords;
    #loader;
    #search;
    #indexed = 0; // catalog tools the search has seen: run-time ones are added to it
    constructor(catalog, strategy, loader) {
        this.#catalog = catalog;
        this.#strategy = strategy;
        this.#loader = loader;
    }
    /** The `k` flat tools the ranked search puts first for the task, best first; `removed` the rest, in flat order. */
    async rankByTask(task, k) {
        const search = await this.#loadSearch();
        const { definitions, flatNames, positions } = this.#index();
        const ranked = search.rank(String(task), { k, include: (name) => positions.has(name) });
        const top = new Set(ranked);
        return { tools: ranked.map((n) => definitions[positions.get(n)]), removed: flatNames.filter((n) => !top.has(n)), kept: ranked.length, total: flatNames.length };
    }
    /** `search_tools`: the `k` callable toolkit tools the search finds, their toolkits marked loaded, listed with their arguments. */
    async searchTools(query, k, gate) {
        const catalog = this.#catalog;
        const search = await this.#loadSearch();
        const kitOf = (t) => catalog.tool(t).toolkits.find((kit) => !gate.kitBlocked[kit]);
        const indexOf = (name) => { const ref = catalog.byName.get(name); return ref?.kind === 'tool' && !gate.toolBlocked[ref.index] && kitOf(ref.index) !== undefined ? ref.index : -1; };
        const found = search.rank(String(query), { k, include: (name) => indexOf(name) >= 0 }).map(indexOf);
        if (found.length === 0)
            return `No tool matches ${quote(String(query))}; try other words, or load a toolkit of the directory.`;
        for (const t of found)
            gate.markLoaded(kitOf(t));
        const docs = found.map((t) => compactActionDoc(toolInput(catalog.tool(t))));
        return `These tools can be called now (through call_toolkit_tool when it is among your tools):\n${docs.join('\n')}`;
    }
    /** The generated folder's search, loaded once (a failed load is retried), with the tools registered since added. */
    async #loadSearch() {
        const loader = this.#loader;
        if (loader === undefined)
            throw new TypeError('rankByTask, searchTools: the generated folder has no search index (search.gen.ts); regenerate it with this toolroute version.');
        const search = await (this.#search ??= loader().catch((error) => { this.#search = undefined; throw error; }));
        const catalog = this.#catalog;
        for (; this.#indexed < catalog.toolCount; this.#indexed++) {
            const e = catalog.tool(this.#indexed);
            if (e.library || search.has(e.name))
                continue;
            const groups = [...e.namespaces.map((k) => catalog.namespaces[k]), ...e.toolkits.map((k) => catalog.toolkits[k])];
            search.add({ name: e.name, description: e.description, tags: e.tags, parameters: e.schema, groups: groups.flatMap((g) => [g.name, g.description]) });
        }
        return search;
    }
    pruneByTask(task) {
        return this.#result(this.#byTask(task));
    }
    allowOnly(names) {
        return this.#result(this.#byName(names, 'allowOnly'));
    }
    pruneByTaskAndAllowlist(task, names, strategy) {
        const byTask = this.#byTask(task);
        const byName = this.#byName(names, 'pruneByTaskAndAllowlist');
        const both = (strategy ?? this.#strategy) === 'intersection';
        return this.#result(byTask.map((keep, p) => (both ? keep & byName[p] : keep | byName[p])));
    }
    /** All flat tools, as the seed's `getAllTools` (a fresh array). */
    getAllTools() {
        return [...this.#index().definitions];
    }
    #index() {
        const catalog = this.#catalog;
        if (this.#keywords?.version === catalog.structureVersion)
            return this.#keywords;
        const always = [];
        const keywords = new Map();
        const entries = catalog.flat.map((t) => catalog.tool(t));
        entries.forEach((entry, p) => {
            if (entry.tags.length === 0)
                return void always.push(p);
            for (const text of [entry.name, ...entry.tags].map((word) => word.toLowerCase())) {
                const keyword = keywords.get(text);
                if (keyword === undefined)
                    keywords.set(text, { text, kept: [p] });
                else if (keyword.kept[keyword.kept.length - 1] !== p)
                    keyword.kept.push(p);
            }
        });
        const short = [];
        const byStart = new Map();
        for (const keyword of keywords.values()) {
            if (keyword.text.length < START)
                short.push(keyword);
            else {
                const key = startKey(keyword.text, 0);
                const list = byStart.get(key);
                if (list === undefined)
                    byStart.set(key, [keyword]);
                else
                    list.push(keyword);
            }
        }
        return (this.#keywords = {
            version: catalog.structureVersion,
            always,
            short,
            byStart,
            names: new Set(entries.map((entry) => entry.name.toLowerCase())),
            definitions: entries.map((entry) => entry.definition),
            flatNames: entries.map((entry) => entry.name),
            positions: new Map(entries.map((entry, p) => [entry.name, p])),
        });
    }
    /**
     * 1 per flat position the task keeps. A keyword is in the task when it starts at some position of it: each position
     * is looked up by its first `START` code units, and only the keywords starting with those are compared.
     */
    #byTask(task) {
        const { always, short, byStart, definitions } = this.#index();
        const text = (typeof task === 'string' ? task : String(task)).toLowerCase();
        const keep = new Uint8Array(definitions.length);
        const mark = (keyword) => {
            for (const p of keyword.kept)
                keep[p] = 1;
        };
        for (const p of always)
            keep[p] = 1;
        for (const keyword of short)
            if (text.includes(keyword.text))
                mark(keyword);
        for (let at = 0; at + START <= text.length; at++) {
            const candidates = byStart.get(startKey(text, at));
            if (candidates !== undefined)
                for (const keyword of candidates)
                    if (text.startsWith(keyword.text, at))
                        mark(keyword);
        }
        return keep;
    }
    /**
     * 1 per allowlisted flat position. A name that is no flat tool throws, naming the closest flat tools: an allowlist that
     * silently matched nothing would offer less than the application meant.
     */
    #byName(names, where) {
        const { names: known, flatNames } = this.#index();
        assertKnownNames(where, names, { has: (name) => known.has(name.toLowerCase()) }, () => flatNames, 'An allowlist names flat tools (matched ignoring case); namespace actions and toolkit tools are offered through their group.');
        const wanted = new Set(names.map((n) => n.toLowerCase()));
        return Uint8Array.from(flatNames, (name) => (wanted.has(name.toLowerCase()) ? 1 : 0));
    }
    /** The kept tools' definitions and the removed tools' names, both in flat order. */
    #result(keep) {
        const { definitions, flatNames } = this.#index();
        const tools = [];
        const removed = [];
        for (let p = 0; p < keep.length; p++) {
            if (keep[p] === 1)
                tools.push(definitions[p]);
            else
                removed.push(flatNames[p]);
        }
        return { tools, removed, kept: tools.length, total: keep.length };
    }
}
/**
 * The `search_tools` library tool (`createRouter`'s `searchTools` option): the model asks for toolkit tools by what
 * they do instead of loading whole toolkits; `run(query, k)` answers.
 */
export function searchToolsDefinition(option, run) {
    const k = option === true ? 5 : typeof option === 'object' && option !== null ? (option.k ?? 5) : Number.NaN; // `'yes'` from JavaScript: refused
    if (!Number.isInteger(k) || k < 1)
        throw new TypeError(`createRouter: searchTools must be true or { k } (searchTools.k must be a positive integer); got ${JSON.stringify(option)}.`);
    const validate = (a) => typeof a === 'object' && a !== null && typeof a.query === 'string' && Object.keys(a).length === 1;
    const description = `Find tools of the toolkits by what they do: returns up to ${k} matching tools with their arguments, ready to call. Cheaper than loading a whole toolkit.`;
    const parameters = { type: 'object', properties: { query: { type: 'string', description: 'What the tool should do, in a few words.' } }, required: ['query'], additionalProperties: false };
    return { name: 'search_tools', description, parameters, validate: Object.assign(validate, { errors: null }), handler: ({ query }) => run(query, k) };
}
