/**
 * Benchmark specs: deterministic, realistic toolroute specs at any size.
 *
 * Shape of a "mixed" spec of N tools:
 * - ~85% of the tools in namespaces of 20 (the model sees one tool per namespace);
 * - ~5% flat tools, tagged by domain / verb / object words (1 in 8 untagged: always kept);
 * - ~10% in toolkits of 10 (one in four deferred), listed in the directory XML;
 * - one flat tool also listed by name in the first namespace (a spec reference);
 * - a `prod` policy.
 * A "flat" spec puts every tool at the top level, for `pruneByTask`.
 * Argument schemas come from bench/templates.ts.
 *
 * Everything is drawn from a seeded PRNG: the same size gives the same bytes.
 *
 * Run directly to write every spec of a full bench run into bench/.tmp/specs/:
 *   npx tsx bench/make-spec.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify as toYaml } from 'yaml';
import { DOMAINS, OBJECTS, TEMPLATE_BY_ID, VERB_TEMPLATE, VERBS, type Json, type JsonObject, type Template } from './templates.js';

export type { Json, JsonObject } from './templates.js';

/** A tool definition as written in the spec (always inline; refs are plain strings). */
export interface SpecTool {
  name: string;
  description: string;
  tags?: string[];
  parameters: JsonObject;
  deferLoading?: boolean;
}
export interface SpecGroup {
  name: string;
  description: string;
  tools: (SpecTool | string)[];
}
/** The subset of the spec format these benchmarks write. */
export interface BenchSpec {
  version: 1;
  options: { namespaceEncoding: 'compact' | 'schema'; offerUngroupedTools?: false; toolkitLoading?: 'append' };
  tools?: (SpecTool | string)[];
  namespaces?: SpecGroup[];
  toolkits?: SpecGroup[];
  policies?: Record<string, string[]>;
}

const NAMESPACE_SIZE = 20;
const TOOLKIT_SIZE = 10;

/** mulberry32: tiny, fast, good enough for picking words. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the benchmarks need to know about a generated tool besides its definition. */
export interface ToolInfo {
  readonly def: SpecTool;
  readonly template: string;
  readonly object: string;
  readonly domain: string;
  readonly verb: string;
}

/** A generated spec plus the facts the harness needs (valid example calls, tasks). */
export interface MadeSpec {
  readonly id: string;
  readonly spec: BenchSpec;
  readonly tools: readonly ToolInfo[];
  /** A valid argument object for a tool. */
  exampleArgs(toolName: string): JsonObject;
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function sentenceCase(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Make `count` distinct tools in a deterministic order. */
function makeTools(count: number, rand: () => number): ToolInfo[] {
  const used = new Map<string, number>();
  const out: ToolInfo[] = [];
  for (let i = 0; i < count; i++) {
    const domain = pick(rand, DOMAINS);
    const verb = pick(rand, VERBS);
    const object = pick(rand, OBJECTS);
    const base = `${domain}_${verb}_${object}`;
    const seen = (used.get(base) ?? 0) + 1;
    used.set(base, seen);
    const name = seen === 1 ? base : `${base}_${seen}`;
    const template = TEMPLATE_BY_ID.get(VERB_TEMPLATE[verb]) as Template;
    out.push({
      def: {
        name,
        description: `${sentenceCase(verb)} ${object} records in ${domain}`,
        parameters: template.schema(object),
      },
      template: template.id,
      object,
      domain,
      verb,
    });
  }
  return out;
}

function finish(id: string, spec: BenchSpec, tools: ToolInfo[]): MadeSpec {
  const byName = new Map(tools.map((t) => [t.def.name, t]));
  return {
    id,
    spec,
    tools,
    exampleArgs(toolName) {
      const info = byName.get(toolName);
      if (!info) throw new Error(`bench: no tool ${toolName} in ${id}`);
      return (TEMPLATE_BY_ID.get(info.template) as Template).example(info.object);
    },
  };
}

function tagsFor(info: ToolInfo, index: number, rand: () => number): string[] | undefined {
  if (index % 8 === 7) return undefined; // untagged: always kept
  const all = [info.domain, info.verb, info.object];
  const n = 1 + Math.floor(rand() * 3);
  return all.slice(0, n);
}

/**
 * A mixed spec of `size` tools: namespaces of 20, some flat tools, some toolkits.
 *
 * @example
 * const { spec } = makeMixedSpec(1000); // 42 namespaces + flat + 10 toolkits
 */
export function makeMixedSpec(size: number, encoding: 'compact' | 'schema' = 'compact', distinct = false): MadeSpec {
  const rand = prng(0x5eed0000 + size);
  const tools = makeTools(size, rand);
  // Distinct: every tool gets its own argument schema (one validator each), the codegen worst case.
  // The difference must be one the validator checks, as real tools differ: an optional
  // string argument named after the tool with its own length bound. A description alone
  // would not do: the generator shares one validator between schemas that differ only
  // in annotations, so such a spec would compile a tenth of the validators it claims
  // (bench/run.ts checks that the schemas differ once their annotations are removed).
  if (distinct) {
    tools.forEach((t, i) => {
      const p = t.def.parameters as { properties?: Record<string, Json> };
      t.def.parameters = {
        ...p,
        description: `Arguments of ${t.def.name}`,
        properties: { ...p.properties, [`${t.def.name}_note`]: { type: 'string', maxLength: 64 + i } },
      };
    });
  }
  // The second flat tool always takes the `search` arguments, so the flat-call
  // dispatch benchmark checks the same schema as the namespace one at every size.
  const second = tools[1];
  if (second) {
    const search = TEMPLATE_BY_ID.get('search') as Template;
    tools[1] = { ...second, template: 'search', def: { ...second.def, parameters: search.schema(second.object) } };
  }
  const toolkitCount = Math.max(2, Math.round(size * 0.1));
  const flatCount = Math.max(2, Math.round(size * 0.05));
  const nsCount = size - toolkitCount - flatCount;

  const flat = tools.slice(0, flatCount).map((t, i) => {
    const tags = tagsFor(t, i, rand);
    if (tags) t.def.tags = tags;
    return t.def;
  });
  const nsTools = tools.slice(flatCount, flatCount + nsCount);
  const kitTools = tools.slice(flatCount + nsCount);

  const namespaces: SpecGroup[] = [];
  const nsNameUses = new Map<string, number>();
  for (let start = 0; start < nsTools.length; start += NAMESPACE_SIZE) {
    const chunk = nsTools.slice(start, start + NAMESPACE_SIZE);
    const domain = (chunk[0] as ToolInfo).domain;
    const n = (nsNameUses.get(domain) ?? 0) + 1;
    nsNameUses.set(domain, n);
    namespaces.push({
      name: n === 1 ? `${domain}_ops` : `${domain}_ops_${n}`,
      description: `${sentenceCase(domain)} operations (group ${namespaces.length + 1})`,
      tools: chunk.map((t) => t.def),
    });
  }
  // A tool defined flat and listed by name in a namespace (the example spec does this with read_file).
  const first = namespaces[0];
  const firstFlat = flat[0];
  if (first && firstFlat) first.tools.unshift(firstFlat.name);

  const toolkits: SpecGroup[] = [];
  const kitNameUses = new Map<string, number>();
  for (let start = 0; start < kitTools.length; start += TOOLKIT_SIZE) {
    const chunk = kitTools.slice(start, start + TOOLKIT_SIZE);
    chunk.forEach((t, i) => {
      if ((start + i) % 4 === 1) t.def.deferLoading = true;
    });
    const domain = (chunk[0] as ToolInfo).domain;
    const n = (kitNameUses.get(domain) ?? 0) + 1;
    kitNameUses.set(domain, n);
    toolkits.push({
      name: `${sentenceCase(domain)}${n === 1 ? '' : `_${n}`}_Kit`,
      description: `${sentenceCase(domain)} APIs, loaded on demand`,
      tools: chunk.map((t) => t.def),
    });
  }

  const spec: BenchSpec = {
    version: 1,
    // The reference's tool list (namespaces and the toolkit loader: no ungrouped flat tools, no native deferred toolkit tools), so compile() compares like for like.
    options: { namespaceEncoding: encoding, offerUngroupedTools: false, toolkitLoading: 'append' },
    tools: flat,
    namespaces,
    toolkits,
    policies: { prod: [(nsTools[0] as ToolInfo).def.name, (kitTools[0] as ToolInfo).def.name] },
  };
  return finish(distinct ? `distinct-${size}` : `mixed-${size}${encoding === 'schema' ? '-schema' : ''}`, spec, tools);
}

/**
 * An all-flat spec of `size` tagged tools (1 in 8 untagged), for `pruneByTask`.
 *
 * @example
 * const { spec } = makeFlatSpec(10_000);
 */
export function makeFlatSpec(size: number): MadeSpec {
  const rand = prng(0xf1a70000 + size);
  const tools = makeTools(size, rand);
  const flat = tools.map((t, i) => {
    const tags = tagsFor(t, i, rand);
    // Every tagged tool also carries one short area tag (`db`, `api`, …), the kind real specs use.
    if (tags) t.def.tags = [SHORT_TAGS[DOMAINS.indexOf(t.domain as (typeof DOMAINS)[number]) % SHORT_TAGS.length] as string, ...tags];
    return t.def;
  });
  return finish(`flat-${size}`, { version: 1, options: { namespaceEncoding: 'compact' }, tools: flat }, tools);
}

/**
 * Realistic task sentences for `pruneByTask`: a few domain words, a verb, an
 * object, noise words, sometimes an exact tool name, sometimes nothing that matches.
 *
 * @example
 * makeTasks(makeFlatSpec(1000), 8);
 */
export function makeTasks(made: MadeSpec, count: number): string[] {
  const rand = prng(0x7a5c0000 + made.tools.length);
  const shapes: ((r: () => number) => string)[] = [
    (r) => `Please ${pick(r, VERBS)} the ${pick(r, OBJECTS)} for the ${pick(r, DOMAINS)} account of customer 4217 and tell me what changed.`,
    (r) => `Read the auth.ts file and check why the ${pick(r, OBJECTS)} total is wrong since last Tuesday.`,
    (r) => `Can you ${pick(r, VERBS)} every ${pick(r, OBJECTS)} in ${pick(r, DOMAINS)} that is older than 30 days, then ${pick(r, VERBS)} a summary to the ${pick(r, DOMAINS)} channel?`,
    (r) => `Use ${pick(r, made.tools).def.name} to look at yesterday's numbers.`,
    () => 'What time is it in Tokyo right now?',
    (r) => `The ${pick(r, DOMAINS)} dashboard shows a spike — find the ${pick(r, OBJECTS)} responsible and ${pick(r, VERBS)} it. Also compare with the ${pick(r, DOMAINS)} ${pick(r, OBJECTS)} from Q3.`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((shapes[i % shapes.length] as (r: () => number) => string)(rand));
  return out;
}

/** Short area tags of the flat specs (none is a substring of another, of the filler words, or of a verb). */
export const SHORT_TAGS = ['db', 'api', 'fs', 'git', 'ci', 'ui', 'ml', 'vm'] as const;

/**
 * Short, realistic tasks (3–10 words) naming about half of the short area
 * tags, so a prune keeps about half of a flat spec's tools.
 *
 * @example
 * makeShortTasks(makeFlatSpec(1000), 12); // e.g. 'db, api, git and ui errors since monday'
 */
export function makeShortTasks(made: MadeSpec, count: number): string[] {
  const rand = prng(0x5407_0000 + made.tools.length);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const pool = [...SHORT_TAGS];
    const picked: string[] = [];
    while (picked.length < 4) picked.push(pool.splice(Math.floor(rand() * pool.length), 1)[0] as string);
    const [a, b, c, d] = picked as [string, string, string, string];
    const shapes = [
      `${a} ${b} ${c} ${d}`,
      `${a}, ${b}, ${c} and ${d} errors`,
      `check ${a} ${b} ${c} and ${d} health since monday`,
      `why are ${a}, ${b}, ${c}, ${d} slow today?`,
    ];
    out.push(shapes[i % shapes.length] as string);
  }
  return out;
}

/**
 * Long tasks: paragraphs of four of `makeTasks`' sentences (about 60–90 words).
 *
 * @example
 * makeLongTasks(makeFlatSpec(1000), 6);
 */
export function makeLongTasks(made: MadeSpec, count: number): string[] {
  const sentences = makeTasks(made, count * 4);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(sentences.slice(i * 4, i * 4 + 4).join(' '));
  return out;
}

/**
 * The spec of a bench id: `mixed-<n>`, `distinct-<n>` (every schema its own
 * validator) or `flat-<n>`.
 *
 * @example
 * makeSpec('mixed-1000').tools.length; // 1000
 */
export function makeSpec(id: string): MadeSpec {
  const m = /^(mixed|distinct|flat)-(\d+)$/.exec(id);
  if (!m) throw new Error(`bench: unknown spec id ${id}`);
  const size = Number(m[2]);
  if (m[1] === 'flat') return makeFlatSpec(size);
  return makeMixedSpec(size, 'compact', m[1] === 'distinct');
}

/**
 * Write a spec as YAML (small) or JSON (large; YAML parsing is not what we measure) and return its path.
 *
 * @example
 * writeSpec(makeMixedSpec(10), 'bench/.tmp/specs');
 */
export function writeSpec(made: MadeSpec, dir: string, format: 'yaml' | 'json' = made.tools.length <= 1_000 ? 'yaml' : 'json'): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${made.id}.spec.${format}`);
  const text = format === 'yaml' ? toYaml(made.spec, { lineWidth: 0, aliasDuplicateObjects: false }) : `${JSON.stringify(made.spec, null, 2)}\n`;
  writeFileSync(file, text);
  return file;
}

/** bench/ as an absolute path. */
export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
/** Scratch space, gitignored. */
export const TMP_DIR = join(BENCH_DIR, '.tmp');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const id of ['mixed-10', 'mixed-1000', 'mixed-10000', 'mixed-30000', 'distinct-1000', 'flat-1000', 'flat-10000']) {
    process.stdout.write(`${writeSpec(makeSpec(id), join(TMP_DIR, 'specs'))}\n`);
  }
}
