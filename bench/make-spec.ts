/**
 * Benchmark specs: deterministic, realistic toolroute specs at any size.
 *
 * Shape of a "mixed" spec of N tools (the shape the issue asks for):
 * - ~85% of the tools in namespaces of 20 (the model sees one tool per namespace);
 * - ~5% flat tools, tagged by domain / verb / object words (1 in 8 untagged: always kept);
 * - ~10% in toolkits of 10 (one in four deferred), listed in the directory XML;
 * - one flat tool also listed by name in the first namespace (a spec reference);
 * - a `prod` policy.
 * A "flat" spec puts every tool at the top level, for `pruneByTask`.
 *
 * Argument schemas come from a small set of realistic templates (pagination,
 * id lookup, filters with enums and arrays, nested address / date-range
 * objects). Templates whose output does not depend on the tool are shared by
 * many tools with byte-identical schemas, so validator dedupe shows; the rest
 * mention the tool's object and are unique.
 *
 * Everything is drawn from a seeded PRNG: the same size gives the same bytes.
 *
 * Run directly to write every spec into bench/.tmp/specs/:
 *   npx tsx bench/make-spec.ts [--quick]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify as toYaml } from 'yaml';

/** A JSON Schema / JSON value as written into the spec. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

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

/** Sizes of the mixed specs (issue 5). */
export const SIZES = [10, 100, 1_000, 10_000] as const;
/** A spec only generated (codegen time and memory), never loaded. */
export const CODEGEN_ONLY_SIZE = 30_000;
/** Sizes of the all-flat specs used by the prune benchmark. */
export const FLAT_SIZES = [1_000, 10_000] as const;
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

const DOMAINS = [
  'billing', 'files', 'users', 'github', 'calendar', 'email', 'crm', 'deploy', 'metrics', 'logs',
  'database', 'search', 'storage', 'payments', 'tickets', 'docs', 'chat', 'weather', 'maps', 'inventory',
  'shipping', 'orders', 'catalog', 'analytics', 'security', 'network', 'dns', 'cdn', 'queue', 'cache',
  'secrets', 'audit', 'hr', 'payroll', 'legal', 'marketing', 'ads', 'survey', 'forms', 'notes',
] as const;
const VERBS = [
  'get', 'list', 'create', 'update', 'delete', 'search', 'export', 'archive', 'sync', 'approve',
  'assign', 'close', 'restore', 'schedule', 'summarize', 'validate',
] as const;
const OBJECTS = [
  'invoice', 'customer', 'file', 'folder', 'user', 'team', 'repo', 'issue', 'event', 'message',
  'contact', 'deal', 'release', 'service', 'dashboard', 'alert', 'record', 'table', 'index', 'bucket',
  'charge', 'refund', 'ticket', 'page', 'thread', 'forecast', 'route', 'item', 'shipment', 'order',
  'product', 'report', 'policy', 'certificate', 'zone', 'job', 'key', 'entry', 'employee', 'campaign',
] as const;

/** One argument-schema template. `shared` templates give byte-identical schemas to every tool using them. */
interface Template {
  readonly id: string;
  readonly shared: boolean;
  schema(object: string): JsonObject;
  /** A valid argument object for `schema(object)`. */
  example(object: string): JsonObject;
}

const ORDER: JsonObject = { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction' };
const CURRENCY: JsonObject = { type: 'string', enum: ['EUR', 'USD', 'GBP', 'JPY', 'CHF'], description: 'ISO 4217 code' };
const ADDRESS: JsonObject = {
  type: 'object',
  description: 'Postal address',
  properties: {
    street: { type: 'string' },
    city: { type: 'string', description: 'City name, e.g. Lisbon' },
    postal_code: { type: 'string', pattern: '^[A-Za-z0-9 -]{3,10}$' },
    country: { type: 'string', enum: ['PT', 'FR', 'DE', 'US', 'GB', 'JP', 'BR'] },
  },
  required: ['city', 'country'],
  additionalProperties: false,
};
const DATE_RANGE: JsonObject = {
  type: 'object',
  description: 'Inclusive date range (ISO 8601 dates)',
  properties: {
    from: { type: 'string', description: 'Start date, YYYY-MM-DD' },
    to: { type: 'string', description: 'End date, YYYY-MM-DD' },
  },
  required: ['from', 'to'],
  additionalProperties: false,
};

const TEMPLATES: readonly Template[] = [
  {
    id: 'paginate',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 50, description: 'Page size' },
        cursor: { type: 'string', description: 'Opaque cursor from the previous page' },
        order: ORDER,
      },
      additionalProperties: false,
    }),
    example: () => ({ limit: 20, order: 'desc' }),
  },
  {
    id: 'by-id',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1, description: 'Identifier' },
        include: { type: 'array', items: { type: 'string', enum: ['owner', 'history', 'links', 'metadata'] }, uniqueItems: true },
      },
      required: ['id'],
      additionalProperties: false,
    }),
    example: () => ({ id: 'id_42', include: ['owner', 'links'] }),
  },
  {
    id: 'search',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Free-text query' },
        filters: {
          type: 'object',
          properties: {
            status: { type: 'array', items: { type: 'string', enum: ['open', 'closed', 'pending', 'archived'] } },
            created: DATE_RANGE,
            owner: { type: 'string' },
          },
          additionalProperties: false,
        },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
      required: ['query'],
      additionalProperties: false,
    }),
    example: () => ({ query: 'overdue', filters: { status: ['open', 'pending'], created: { from: '2026-01-01', to: '2026-03-31' } }, limit: 10 }),
  },
  {
    id: 'export',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['csv', 'json', 'xlsx', 'pdf'] },
        range: DATE_RANGE,
        columns: { type: 'array', items: { type: 'string' }, maxItems: 50 },
        compress: { type: 'boolean', default: false },
      },
      required: ['format', 'range'],
      additionalProperties: false,
    }),
    example: () => ({ format: 'csv', range: { from: '2026-01-01', to: '2026-01-31' }, columns: ['id', 'total'] }),
  },
  {
    id: 'schedule',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        at: { type: 'string', description: 'When, ISO 8601 date-time' },
        timezone: { type: 'string', description: 'IANA time zone, e.g. Europe/Paris' },
        repeat: {
          type: 'object',
          properties: {
            every: { type: 'integer', minimum: 1 },
            unit: { type: 'string', enum: ['minute', 'hour', 'day', 'week', 'month'] },
            until: { type: 'string' },
          },
          required: ['every', 'unit'],
          additionalProperties: false,
        },
        notify: { type: 'array', items: { type: 'string', description: 'Email address' } },
      },
      required: ['at'],
      additionalProperties: false,
    }),
    example: () => ({ at: '2026-05-01T09:00:00Z', timezone: 'Europe/Lisbon', repeat: { every: 1, unit: 'week' } }),
  },
  {
    id: 'create',
    shared: false,
    schema: (object) => ({
      type: 'object',
      properties: <JsonObject>{
        name: { type: 'string', minLength: 1, maxLength: 200, description: `Display name of the ${object}` },
        [`${object}_type`]: { type: 'string', enum: ['standard', 'premium', 'internal', 'trial'] },
        owner: {
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string' }, address: ADDRESS },
          required: ['id'],
          additionalProperties: false,
        },
        labels: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        amount: { type: 'number', minimum: 0 },
        currency: CURRENCY,
      },
      required: ['name', `${object}_type`],
      additionalProperties: false,
    }),
    example: (object) => ({
      name: `New ${object}`,
      [`${object}_type`]: 'standard',
      owner: { id: 'u_1', address: { city: 'Lisbon', country: 'PT' } },
      labels: ['q2'],
      amount: 120.5,
      currency: 'EUR',
    }),
  },
  {
    id: 'update',
    shared: false,
    schema: (object) => ({
      type: 'object',
      properties: <JsonObject>{
        [`${object}_id`]: { type: 'string', description: `The ${object} to change` },
        patch: {
          type: 'object',
          description: `Fields of the ${object} to replace`,
          properties: {
            name: { type: 'string' },
            status: { type: 'string', enum: ['active', 'suspended', 'closed'] },
            labels: { type: 'array', items: { type: 'string' } },
            address: ADDRESS,
          },
          additionalProperties: false,
        },
        if_match: { type: 'string', description: 'ETag for optimistic concurrency' },
      },
      required: [`${object}_id`, 'patch'],
      additionalProperties: false,
    }),
    example: (object) => ({ [`${object}_id`]: 'x_7', patch: { status: 'active', labels: ['vip'] } }),
  },
  {
    id: 'bulk',
    shared: false,
    schema: (object) => ({
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 100, description: `${object} ids` },
        reason: { type: 'string', enum: ['duplicate', 'expired', 'requested', 'fraud', 'other'] },
        note: { type: 'string', maxLength: 1000 },
        dry_run: { type: 'boolean', default: true },
      },
      required: ['ids', 'reason'],
      additionalProperties: false,
    }),
    example: () => ({ ids: ['a', 'b', 'c'], reason: 'expired', dry_run: false }),
  },
];

/** Which template a verb uses. */
const VERB_TEMPLATE: Readonly<Record<(typeof VERBS)[number], string>> = {
  get: 'by-id', list: 'paginate', create: 'create', update: 'update', delete: 'bulk', search: 'search',
  export: 'export', archive: 'bulk', sync: 'paginate', approve: 'by-id', assign: 'update', close: 'bulk',
  restore: 'by-id', schedule: 'schedule', summarize: 'search', validate: 'by-id',
};
const TEMPLATE_BY_ID = new Map(TEMPLATES.map((t) => [t.id, t]));

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
  // (bench/run.ts checks the output holds one validator per tool).
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

/** Specs the harness writes, by id. */
export function allSpecs(quick: boolean): MadeSpec[] {
  const sizes = quick ? SIZES.filter((s) => s <= 1_000) : SIZES;
  const flats = quick ? FLAT_SIZES.filter((s) => s <= 1_000) : FLAT_SIZES;
  return [
    ...sizes.map((s) => makeMixedSpec(s)),
    makeMixedSpec(1_000, 'schema'),
    makeMixedSpec(1_000, 'compact', true),
    ...(quick ? [] : [makeMixedSpec(CODEGEN_ONLY_SIZE)]),
    ...flats.map((s) => makeFlatSpec(s)),
  ];
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
  const quick = process.argv.includes('--quick');
  for (const made of allSpecs(quick)) process.stdout.write(`${writeSpec(made, join(TMP_DIR, 'specs'))}\n`);
}
