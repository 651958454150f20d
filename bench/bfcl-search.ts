/**
 * Which tools does a task keep? Measured on the Berkeley Function-Calling Leaderboard's "live multiple" set (real user
 * queries, each with the function that answers it): recall@1/@5/@10 of the right function for toolroute's ranking
 * (`toolroute/search`, what `rankByTask` runs), for AI SDK 7's default `toolSearch` matcher (the real one, run through
 * `generateText` with a mock model that calls it), and for `pruneByTask` (the router's, through `registerTools`) with
 * the tags a spec author would plausibly write.
 *
 * Catalogs: every candidate function of the set pooled (one per name, the first definition seen); seeded random
 * subsets of 100 tools (each query counted where its function is in the subset); and 1,000 tools (the pool plus
 * tools of bench/make-spec.ts's flat spec as distractors).
 *
 * Needs AI SDK 7 (Node >= 22): `bash .ci/node24.sh npx tsx bench/bfcl-search.ts [corpus-dir]`.
 * Without `corpus-dir` it reads the pooled catalog and the queries committed in test/fixtures/bfcl; a corpus folder
 * (BFCL_v4_live_multiple.json and possible_answer/, as BFCL publishes them) is pooled the same way.
 * `npx tsx bench/bfcl-search.ts --write-fixture test/fixtures/bfcl <corpus-dir>` writes that fixture from a corpus folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ToolSearch, words, type SearchableTool } from '../search/index.js';
import { createRouter, specFromData, type ToolDefinition } from '../runtime/index.js';
import { makeFlatSpec, prng } from './make-spec.js';

interface BfclFunction { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> }
interface Query { readonly task: string; readonly answer: string }
interface Catalog { readonly label: string; readonly tools: readonly SearchableTool[]; readonly queries: readonly Query[] }
/** Hits at 1, 5 and 10 (ranked), or kept counts (pruneByTask), over `n` queries, and the time they took. */
interface Score { readonly label: string; at1: number; at5: number; at10: number; kept: number; n: number; ms: number }

/** The corpus: its queries and every function it offers, one per name. */
function loadCorpus(dir: string): { functions: BfclFunction[]; queries: Query[] } {
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  const answers = new Map(lines(join(dir, 'possible_answer/BFCL_v4_live_multiple.json')).map((a) => [a['id'], Object.keys((a['ground_truth'] as object[])[0]!)[0]!]));
  const byName = new Map<string, BfclFunction>();
  const queries: Query[] = [];
  for (const row of lines(join(dir, 'BFCL_v4_live_multiple.json'))) {
    for (const f of row['function'] as BfclFunction[]) if (!byName.has(f.name)) byName.set(f.name, f);
    const turns = (row['question'] as { role: string; content: string }[][])[0]!;
    const answer = answers.get(row['id']);
    if (answer !== undefined) queries.push({ task: turns.filter((t) => t.role === 'user').map((t) => t.content).join('\n'), answer });
  }
  return { functions: [...byName.values()], queries };
}

/** The pooled catalog and queries committed in test/fixtures/bfcl (what `--write-fixture` wrote from the corpus). */
function loadFixture(): { functions: BfclFunction[]; queries: Query[] } {
  const dir = new URL('../test/fixtures/bfcl/', import.meta.url);
  const read = (file: string) => JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as unknown;
  return { functions: read('catalog.json') as BfclFunction[], queries: read('queries.json') as Query[] };
}

/** Verbs and filler of tool names that say what a tool does, not what it is about: an author does not tag with them. */
const GENERIC = new Set('get set list create update delete add remove fetch retrieve find search make run call send post put patch query info data details detail item items value values by for with from the and tool api'.split(' '));

/**
 * Tags as a spec author would plausibly write them: the subject words of the tool's name (split on case and
 * separators, at least four letters, generic verbs and filler left out), e.g. `get_current_weather` → weather, current.
 */
function authorTags(name: string): string[] {
  return [...new Set(words(name).filter((w) => /^[a-z]{4,}$/.test(w) && !GENERIC.has(w)))];
}

/** `n` distinct items of `all`, seeded. */
function sample<T>(all: readonly T[], n: number, seed: number): T[] {
  const rand = prng(seed);
  const copy = [...all];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function record(score: Score, ranked: readonly string[], answer: string): void {
  const at = ranked.indexOf(answer);
  score.n++;
  if (at === 0) score.at1++;
  if (at >= 0 && at < 5) score.at5++;
  if (at >= 0 && at < 10) score.at10++;
}

async function toolroute(catalog: Catalog, score: Score): Promise<void> {
  const search = ToolSearch.build(catalog.tools);
  const start = performance.now();
  for (const q of catalog.queries) record(score, search.rank(q.task, { k: 10 }), q.answer);
  score.ms += performance.now() - start;
}

/** AI SDK 7's default matcher, as a model meets it: `toolSearch({ maxResults: 10 })` over the catalog as deferred tools. */
async function aiSdk(catalog: Catalog, score: Score): Promise<void> {
  // AI SDK 7's API; this checkout type-checks against AI SDK 6, which has no toolSearch.
  const ai = (await import('ai')) as unknown as typeof import('ai') & { toolSearch(options: { maxResults: number }): unknown };
  const { MockLanguageModelV4 } = (await import('ai/test')) as unknown as { MockLanguageModelV4: new (o: unknown) => unknown };
  const tools: Record<string, unknown> = { search: ai.toolSearch({ maxResults: 10 }) };
  for (const t of catalog.tools) tools[t.name] = { ...ai.tool({ description: t.description, inputSchema: ai.jsonSchema({ type: 'object' }) }), deferLoading: true };
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  for (const q of catalog.queries) {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({ content: [{ type: 'tool-call', toolCallId: 'q', toolName: 'search', input: JSON.stringify({ query: q.task }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }),
    });
    const start = performance.now();
    // Loosely typed: AI SDK 6 and 7 type these settings differently, and the catalog is built at run time.
    const generate = ai.generateText as unknown as (settings: Record<string, unknown>) => Promise<{ steps: { toolResults: { output: unknown }[] }[] }>;
    const result = await generate({ model, tools, prompt: q.task, stopWhen: ai.stepCountIs(1) });
    score.ms += performance.now() - start;
    const output = result.steps[0]?.toolResults[0]?.output as { tools: { name: string }[] } | undefined;
    record(score, (output?.tools ?? []).map((t) => t.name), q.answer);
  }
}

/** The router's `pruneByTask` over the catalog as flat tools tagged by {@link authorTags}: kept or not, and how many. */
async function prune(catalog: Catalog, score: Score): Promise<void> {
  const spec = specFromData({ formatVersion: 1, hash: 'bench', openaiStrict: false, schemas: {}, tools: [], flat: [], namespaces: [], toolkits: [], policies: {} }, { directoryXml: '', validators: [] });
  const router = createRouter({ spec }, {});
  // Spec names are portable (no dots): `todo.add` becomes `todo_add`, or `todo_add_2` when that is taken.
  const portable = new Map<string, string>();
  for (const t of catalog.tools) {
    const base = t.name.replace(/[^A-Za-z0-9_-]/g, '_');
    let name = base;
    for (let i = 2; [...portable.values()].includes(name); i++) name = `${base}_${i}`;
    portable.set(t.name, name);
  }
  router.registerTools(catalog.tools.map((t) => ({ name: portable.get(t.name)!, description: t.description ?? '', tags: authorTags(t.name) })));
  const start = performance.now();
  for (const q of catalog.queries) {
    const kept = new Set(router.pruneByTask(q.task).tools.map((t: ToolDefinition) => t.name));
    const hit = kept.has(portable.get(q.answer) ?? q.answer);
    score.n++;
    score.kept += kept.size;
    if (hit) score.at1++;
  }
  score.ms += performance.now() - start;
}

function catalogs(functions: readonly BfclFunction[], queries: readonly Query[]): Catalog[] {
  const tools: SearchableTool[] = functions.map((f) => ({ name: f.name, description: f.description, parameters: f.parameters }));
  const subsets: Catalog[] = [];
  for (let seed = 1; seed <= 10; seed++) {
    const subset = sample(tools, 100, seed);
    const names = new Set(subset.map((t) => t.name));
    subsets.push({ label: '100', tools: subset, queries: queries.filter((q) => names.has(q.answer)) });
  }
  const extra = makeFlatSpec(1_000).tools.map((t) => t.def).filter((t) => !tools.some((b) => b.name === t.name)).slice(0, 1_000 - tools.length);
  // Shuffled (seeded): AI SDK breaks ties by registration order, which must not favour the corpus's own order.
  const thousand = [...tools, ...extra.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))];
  return [
    { label: `${tools.length} (pooled)`, tools: sample(tools, tools.length, 0), queries },
    ...subsets,
    { label: '1,000', tools: sample(thousand, thousand.length, 1_000), queries },
  ];
}

const pct = (x: number, n: number) => (n === 0 ? '–' : `${((100 * x) / n).toFixed(1)} %`);

async function main(): Promise<void> {
  const fixture = process.argv.indexOf('--write-fixture');
  if (fixture > 0) {
    // The pooled catalog and the queries, as test/search/bfcl.test.ts reads them (no AI SDK needed).
    const corpus = process.argv[fixture + 2];
    if (corpus === undefined) throw new Error('--write-fixture <out-dir> <corpus-dir>: the BFCL corpus folder is required.');
    const { functions, queries } = loadCorpus(resolve(corpus));
    const out = resolve(process.argv[fixture + 1]!);
    writeFileSync(join(out, 'catalog.json'), `${JSON.stringify(functions.map(({ name, description, parameters }) => ({ name, description, parameters })))}\n`);
    writeFileSync(join(out, 'queries.json'), `${JSON.stringify(queries)}\n`);
    return;
  }
  const major = Number((createRequire(import.meta.url)('ai/package.json') as { version: string }).version.split('.')[0]);
  if (major < 7) throw new Error('bench/bfcl-search.ts compares with AI SDK 7 toolSearch: run it with `bash .ci/node24.sh npx tsx bench/bfcl-search.ts`.');
  const { functions, queries } = process.argv[2] === undefined ? loadFixture() : loadCorpus(resolve(process.argv[2]));
  const rows: string[] = [
    '| catalog (tools) | queries | selection | recall@1 | recall@5 | recall@10 | kept (mean) | time per query |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const groups = new Map<string, Catalog[]>();
  for (const c of catalogs(functions, queries)) groups.set(c.label, [...(groups.get(c.label) ?? []), c]);
  for (const [label, list] of groups) {
    const scores = {
      toolroute: { label: 'toolroute `rankByTask`', at1: 0, at5: 0, at10: 0, kept: 0, n: 0, ms: 0 },
      ai: { label: 'AI SDK 7 `toolSearch` (default)', at1: 0, at5: 0, at10: 0, kept: 0, n: 0, ms: 0 },
      prune: { label: '`pruneByTask`, author tags', at1: 0, at5: 0, at10: 0, kept: 0, n: 0, ms: 0 },
    };
    for (const c of list) {
      await toolroute(c, scores.toolroute);
      await aiSdk(c, scores.ai);
      await prune(c, scores.prune);
    }
    const name = list.length > 1 ? `${label} (${list.length} seeded subsets)` : label;
    for (const s of [scores.toolroute, scores.ai]) {
      rows.push(`| ${name} | ${s.n} | ${s.label} | ${pct(s.at1, s.n)} | ${pct(s.at5, s.n)} | ${pct(s.at10, s.n)} | ≤ 10 | ${(s.ms / s.n).toFixed(3)} ms |`);
    }
    const p = scores.prune;
    rows.push(`| ${name} | ${p.n} | ${p.label} | kept: ${pct(p.at1, p.n)} | | | ${(p.kept / p.n).toFixed(1)} | ${(p.ms / p.n).toFixed(3)} ms |`);
    console.error(`done: ${name}`);
  }
  console.log(`BFCL live_multiple, ${queries.length} queries, ${functions.length} distinct functions; Node ${process.version}, ai ${major}.x\n`);
  console.log(rows.join('\n'));
}

await main();
