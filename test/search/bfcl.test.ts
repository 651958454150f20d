/**
 * The ranking on real user queries (BFCL live_multiple, test/fixtures/bfcl): the right function is in the top 5 and
 * top 10 of the pooled 457-function catalog about as often as docs/search.md reports.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import MiniSearch from 'minisearch';
import { FIELD_BOOST, FIELDS, term, toolDocument, words } from '../../search/documents.js';
import { ToolSearch, type SearchableTool } from '../../search/index.js';

const read = <T>(file: string) => JSON.parse(readFileSync(new URL(`../fixtures/bfcl/${file}`, import.meta.url), 'utf8')) as T;
const catalog = read<SearchableTool[]>('catalog.json');
const queries = read<{ task: string; answer: string }[]>('queries.json');

describe('ranked search on BFCL live_multiple', () => {
  const built = ToolSearch.build(catalog);

  it('finds the right function in the top 5 for ≥ 88 % of 1,053 queries and in the top 10 for ≥ 93 %', () => {
    expect(catalog).toHaveLength(457);
    expect(queries).toHaveLength(1053);
    const ranks = queries.map((q) => built.rank(q.task, { k: 10 }).indexOf(q.answer));
    const recall = (k: number) => ranks.filter((r) => r >= 0 && r < k).length / ranks.length;
    expect(recall(5)).toBeGreaterThanOrEqual(0.88);
    expect(recall(10)).toBeGreaterThanOrEqual(0.93);
    expect(recall(1)).toBeGreaterThanOrEqual(0.6);
  });

  it('ranks every query as MiniSearch ranks the whole query (equal scores in name order), although it searches each distinct word once', () => {
    const plain = new MiniSearch({ idField: 'name', fields: FIELDS, tokenize: words, processTerm: term, searchOptions: { boost: FIELD_BOOST, combineWith: 'OR' } });
    plain.addAll(catalog.map((tool) => toolDocument(tool)));
    // The queries as written, and each with its words said three times over (the repeats are what is searched once).
    for (const task of queries.flatMap((q) => [q.task, `${q.task} ${q.task} ${q.task}`])) {
      const ranked = plain.search(task).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      expect(built.rank(task, { k: 10 }), task).toEqual(ranked.slice(0, 10).map((r) => r.id));
    }
  });

  it('a query that repeats a word 250,000 times (a pasted log) ranks as the word said once', () => {
    expect(built.rank('get '.repeat(250_000), { k: 10 })).toEqual(built.rank('get', { k: 10 }));
  });
});
