/**
 * The scripted 200-turn conversation, shared by the cache-reuse
 * test and the table in docs/providers.md: one router per (target, strategy) over
 * generated/ (namespaces, flat tools, two toolkits with a deferred tool) plus,
 * registered before the first turn, a third toolkit and a deferred flat tool.
 * Every turn the operator and the "model" do something: block / unblock,
 * apply a policy, announce and retract on every channel, load each toolkit
 * (and unknown or blocked ones), call loaded tools (valid, invalid, blocked,
 * not yet loaded), call namespace actions, flat tools and the deferred tool;
 * then the request is compiled and compared with the previous one as
 * `cacheReuse` compares them (`blocksReuse`, each request cut into blocks once).
 *
 * The model speaks the target's vocabulary: a loaded toolkit's tool is called
 * by its own name where it is visible as a tool (`deferred`, `tool-search`,
 * `append`, `tool-changes`), through `call_toolkit_tool` in `dispatcher` mode.
 * Two tools are registered mid-conversation (turns 50 and 130) and called
 * afterwards. A variant turns the provider gate on (`allowedTools`) or the
 * native namespaces of Responses; every turn also counts the tools the request
 * offers the model that the gate rejects.
 */
import * as gen from '../../generated/index.js';
import { blocksReuse, cacheBlocks, type CacheBlock, type CacheReuse } from '../../runtime/cache-reuse.js';
import { createRouter, type Target, type ToolRouter } from '../../runtime/index.js';
import type { NeutralMessage, NeutralToolCall } from '../../runtime/targets/history.js';
import { TARGET_ADAPTERS, toolkitMode } from '../../runtime/targets/index.js';
import { REGISTERED_CALL_ID } from '../../runtime/targets/openai-responses.js';
import { TOOLKIT_DISPATCHER_NAME, type ToolkitLoadingStrategy, type ToolkitMode } from '../../runtime/toolkit-loading.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { rng } from './rng.js';

export const SCRIPT_TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];
export const SCRIPT_TURNS = 200;
const SYSTEM = 'You are a careful operations assistant. Prefer reading before writing.';
const CHANNELS = ['auto', 'system', 'user_tail'] as const;
/** The explicit tool choice of every turn: namespaces, a flat tool and the deferred flat tool. */
const OFFERED = ['file_ops', 'terminal', 'get_time', 'search_notes'];

/** One turn's comparison with the previous request. */
export interface TurnReuse {
  readonly turn: number;
  readonly reuse: CacheReuse;
  /** Index of the first block of the previous request holding announcements (its volatile tail); the block count when none. */
  readonly volatileFrom: number;
  /** Bytes of the previous request before its volatile tail. */
  readonly stableBytes: number;
  /** The new request starts with the whole previous request except its volatile tail (and the gate's own field). */
  readonly fullExceptTail: boolean;
  /** Tools the new request offers the model (in `tools` and not withdrawn natively) that the gate rejects. */
  readonly offeredNotCallable: readonly string[];
  /** The gate's own field (`tool_choice`, `toolConfig`) differs from the previous request's. */
  readonly gateChanged: boolean;
}

/** The provider gate and the namespace encoding of one run. */
export interface ScriptVariant { readonly gate?: boolean; readonly namespaces?: 'native' }

export interface ScriptRun {
  readonly target: Target;
  readonly strategy: ToolkitLoadingStrategy;
  readonly variant: ScriptVariant;
  readonly mode: ToolkitMode;
  readonly turns: readonly TurnReuse[];
  /** Per request (the first compile, then one per turn): the JSON of its \`tools\` blocks. */
  readonly toolsSections: readonly string[];
  /** The last request compiled (the requests before it are not kept: 200 of them weigh on every later test). */
  readonly lastPayload: unknown;
  readonly keys: readonly (string | undefined)[];
  readonly results: readonly string[];
  readonly history: readonly NeutralMessage[];
  readonly warnings: readonly string[];
  /** How often each kind of step ran. */
  readonly seen: Readonly<Record<string, number>>;
}

type Router = ToolRouter<gen.Registry, unknown, string>;

function newRouter(strategy: ToolkitLoadingStrategy): Router {
  let router = createRouter(gen, recordingHandlers().handlers, { toolkitLoading: strategy }) as unknown as Router;
  router = router.registerTools([
    {
      name: 'search_notes',
      description: 'Search the team notes',
      deferLoading: true,
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      validate: Object.assign((a: unknown) => typeof (a as { query?: unknown }).query === 'string', { errors: null }),
      handler: ({ query }) => ({ hits: [`note about ${String(query)}`] }),
    },
  ]) as unknown as Router;
  router = router.registerToolkits([
    {
      name: 'Archive',
      description: 'Long-term document archive',
      tools: [
        {
          name: 'archive_fetch',
          description: 'Fetch an archived document by id',
          parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          validate: Object.assign((a: unknown) => typeof (a as { id?: unknown }).id === 'string', { errors: null }),
          handler: ({ id }) => ({ id, body: 'archived text' }),
        },
      ],
    },
  ]) as unknown as Router;
  return router;
}

/** A toolkit tool call in the target's vocabulary (`kit`: through the toolkit's native namespace, as `fromProvider` reads it). */
function toolkitCall(mode: ToolkitMode, id: string, tool: string, args: unknown, kit?: string): NeutralToolCall {
  if (mode === 'dispatcher') return { id, type: 'function', function: { name: TOOLKIT_DISPATCHER_NAME, arguments: JSON.stringify({ tool, args }) } };
  if (kit !== undefined) return { id, type: 'function', function: { name: kit, arguments: JSON.stringify({ action: tool, args }) } };
  return { id, type: 'function', function: { name: tool, arguments: JSON.stringify(args) } };
}

const call = (id: string, name: string, args: unknown): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

const TOOLKIT_TOOLS: ReadonlyArray<{ tool: string; kit: string; valid: unknown; invalid: unknown }> = [
  { tool: 'get_forecast', kit: 'Weather', valid: { city: 'Lisbon', days: 2 }, invalid: { city: 'Lisbon', days: 30 } },
  { tool: 'get_current_weather', kit: 'Weather', valid: { city: 'Porto' }, invalid: { town: 'Porto' } },
  { tool: 'run_query', kit: 'Database', valid: { sql: 'SELECT 1' }, invalid: { sql: 42 } },
  { tool: 'describe_table', kit: 'Database', valid: { table: 'users' }, invalid: {} },
  { tool: 'archive_fetch', kit: 'Archive', valid: { id: 'doc-7' }, invalid: { id: 7 } },
];

/** Tools registered mid-conversation, at these turns. */
const LATE_TOOLS = [
  { turn: 50, name: 'lookup_ticket', description: 'Look up a support ticket', key: 'ticket' },
  { turn: 130, name: 'page_oncall', description: 'Page the on-call engineer', key: 'team' },
] as const;

function registerLate(router: Router, late: (typeof LATE_TOOLS)[number]): Router {
  return router.registerTools([
    {
      name: late.name,
      description: late.description,
      parameters: { type: 'object', properties: { [late.key]: { type: 'string' } }, required: [late.key] },
      validate: Object.assign((a: unknown) => typeof (a as Record<string, unknown>)[late.key] === 'string', { errors: null }),
      handler: (args) => ({ done: late.name, args }),
    },
  ]) as unknown as Router;
}

/** A tool the request offers, by name, with the calls that reach it: a namespace on Responses is offered as a whole, callable while one member is. */
export type OfferedCall = { readonly name: string; readonly namespace?: string };

/** The names a compiled request offers the model now: in `tools` (not deferred), added in the conversation and not withdrawn, and within the gate field. */
export function offeredNames(target: Target, payload: unknown): Map<string, OfferedCall[]> {
  const p = payload as Record<string, unknown>;
  const offered = new Map<string, OfferedCall[]>();
  const name = (tool: unknown): string | undefined => TARGET_ADAPTERS[target].toolName(tool);
  // A Responses namespace: its members, when one of them is callable without a tool search.
  const add = (tool: { type?: string; name?: string; tools?: Array<{ name: string; defer_loading?: boolean }> }, loaded: boolean) => {
    const members = tool.type === 'namespace' ? tool.tools!.filter((m) => loaded || m.defer_loading !== true) : undefined;
    if (members === undefined) offered.set(tool.name!, [{ name: tool.name! }]);
    else if (members.length > 0) offered.set(tool.name!, members.map((m) => ({ namespace: tool.name!, name: m.name })));
  };
  for (const tool of TARGET_ADAPTERS[target].sentTools(p)) {
    const t = tool as { type?: string; defer_loading?: boolean };
    if (t.defer_loading === true || (typeof t.type === 'string' && t.type.startsWith('tool_search'))) continue;
    if (name(tool) !== undefined) add({ ...(tool as object), name: name(tool) }, false);
  }
  let allowed: Set<string> | undefined;
  if (target === 'anthropic') {
    for (const m of (p['messages'] as Array<{ role: string; content: unknown }>) ?? []) {
      for (const b of Array.isArray(m.content) ? (m.content as Array<Record<string, any>>) : []) {
        if (b['type'] === 'tool_result' && Array.isArray(b['content'])) for (const r of b['content']) if (r.type === 'tool_reference') add({ name: r.tool_name }, true);
        if (b['type'] === 'tool_addition') add({ name: b['tool'].type === 'tool_definition' ? b['tool'].definition.name : b['tool'].name }, true);
        if (b['type'] === 'tool_removal') offered.delete(b['tool'].name);
      }
    }
  } else if (target === 'openai-responses') {
    for (const item of (p['input'] as Array<Record<string, any>>) ?? []) if (item['type'] === 'tool_search_output') for (const t of item['tools']) add(t, true);
    const choice = p['tool_choice'] as { tools?: Array<{ name?: string }> } | undefined;
    if (choice?.tools) allowed = new Set(choice.tools.flatMap((t) => (t.name ? [t.name] : [])));
  } else if (target === 'openai') {
    const choice = p['tool_choice'] as { allowed_tools?: { tools: Array<{ function: { name: string } }> } } | undefined;
    if (choice?.allowed_tools) allowed = new Set(choice.allowed_tools.tools.map((t) => t.function.name));
  } else {
    const config = (p['config'] as { toolConfig?: { functionCallingConfig?: { allowedFunctionNames?: string[] } } }) ?? {};
    const names = config.toolConfig?.functionCallingConfig?.allowedFunctionNames;
    if (names) allowed = new Set(names);
  }
  return allowed === undefined ? offered : new Map([...offered].filter(([n]) => allowed.has(n)));
}

/** Index of the first block of a request's volatile tail: announcements, the tail tool changes (Anthropic's trailing system message), the Responses registration pair. */
function volatileStart(target: Target, payload: unknown, blocks: readonly CacheBlock[]): number {
  const marks = [blocks.findIndex((b) => b.json.includes('<announcements>') || b.json.includes(REGISTERED_CALL_ID))];
  const messages = (payload as { messages?: Array<{ role: string }> }).messages ?? [];
  if (target === 'anthropic' && messages.at(-1)?.role === 'system') marks.push(blocks.findIndex((b) => b.path.startsWith(`messages[${messages.length - 1}]`)));
  const found = marks.filter((i) => i !== -1);
  return found.length === 0 ? blocks.length : Math.min(...found);
}

/**
 * Run the script for one target and strategy.
 *
 * @example
 * const run = await runScript('anthropic', 'native');
 * run.turns.every((t) => t.fullExceptTail); // → true
 */
export async function runScript(target: Target, strategy: ToolkitLoadingStrategy, variant: ScriptVariant = {}): Promise<ScriptRun> {
  const random = rng(20261201);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let router = newRouter(strategy);
  const late: string[] = [];
  const toolSearch = target === 'anthropic' ? ('regex' as const) : undefined;
  const mode = toolkitMode(target, strategy);
  // Native namespaces on Responses: the toolkits are namespaces too, and the model calls their tools as members.
  const kitNamespaces = variant.namespaces === 'native' && mode === 'tool-search';
  const blockable: string[] = [...gen.TOOL_NAMES, ...gen.NAMESPACE_NAMES, ...gen.TOOLKIT_NAMES, 'Archive', 'archive_fetch', 'search_notes'];
  const toolkits = [...gen.TOOLKIT_NAMES, 'Archive'];
  const history: NeutralMessage[] = [{ role: 'user', content: 'Check the weather, the database and the archive.' }];
  const toolsSections: string[] = [];
  const keys: (string | undefined)[] = [];
  const results: string[] = [];
  const warnings: string[] = [];
  const turns: TurnReuse[] = [];
  const seen: Record<string, number> = {};
  const count = (what: string) => (seen[what] = (seen[what] ?? 0) + 1);
  const compile = () =>
    router.compile({
      target,
      system: SYSTEM,
      messages: history,
      tools: OFFERED as never,
      options: { ...(toolSearch ? { toolSearch } : {}), ...(variant.gate ? { allowedTools: true } : {}), ...(variant.namespaces ? { namespaces: variant.namespaces } : {}), onWarning: (m: string) => warnings.push(m) },
    });

  let previous = compile();
  // Each payload is cut into blocks once: every turn reads the previous payload's blocks again.
  const blockCache = new WeakMap<object, CacheBlock[]>();
  const blocksOf = (p: unknown): CacheBlock[] => {
    let hit = blockCache.get(p as object);
    if (hit === undefined) blockCache.set(p as object, (hit = cacheBlocks(target, p)));
    return hit;
  };
  const toolsSection = (p: unknown) => JSON.stringify(blocksOf(p).filter((b) => b.section === 'tools').map((b) => b.json));
  toolsSections.push(toolsSection(previous));
  keys.push(router.cacheKey(previous));
  for (let turn = 1; turn <= SCRIPT_TURNS; turn++) {
    // The operator, between turns: state changes that must not touch the cached prefix.
    const registering = LATE_TOOLS.find((t) => t.turn === turn);
    if (registering !== undefined) {
      router = registerLate(router, registering);
      late.push(registering.name);
      blockable.push(registering.name);
      count('register');
    }
    const op = Math.floor(random() * 6);
    if (op === 0) {
      router.setBlockedTools(blockable.filter(() => random() < 0.15) as never);
      count('block');
    } else if (op === 1) {
      if (random() < 0.5) router.applyPolicy(pick(gen.POLICY_NAMES));
      else router.setBlockedTools([]);
      count('policy/unblock');
    } else if (op === 2) {
      router.announce(`a${turn % 4}`, `Fact stated on turn ${turn} <&>`, { channel: pick(CHANNELS) });
      count('announce');
    } else if (op === 3) {
      if (router.retractAnnouncement(`a${Math.floor(random() * 4)}`)) count('retract');
      router.syncToolAnnouncements(gen.TOOL_NAMES.filter(() => random() < 0.5));
    }

    // The model: one or two calls, in this target's vocabulary.
    const calls: NeutralToolCall[] = [];
    const n = 1 + Math.floor(random() * 2);
    for (let i = 0; i < n; i++) {
      const id = `c${turn}_${i}`;
      const kind = Math.floor(random() * 10);
      if (kind === 0 || kind === 1) {
        const kit = pick(toolkits);
        calls.push(call(id, 'load_toolkit', { toolkit_name: random() < 0.5 ? kit : kit.toLowerCase() }));
        count('load');
      } else if (kind === 2) {
        calls.push(call(id, 'load_toolkit', { toolkit_name: 'Nope' }));
        count('load unknown');
      } else if (kind === 3 || kind === 4) {
        const t = pick(TOOLKIT_TOOLS);
        calls.push(toolkitCall(mode, id, t.tool, t.valid, kitNamespaces ? t.kit : undefined));
        count('toolkit call');
      } else if (kind === 5) {
        const t = pick(TOOLKIT_TOOLS);
        calls.push(toolkitCall(mode, id, t.tool, t.invalid, kitNamespaces ? t.kit : undefined));
        count('toolkit call, invalid');
      } else if (kind === 6) {
        calls.push(call(id, 'file_ops', random() < 0.7 ? { action: 'read_file', args: { path: 'a.ts' } } : { action: 'delete_file', args: {} }));
        count('namespace call');
      } else if (kind === 9 && late.length > 0) {
        const name = pick(late);
        const args = { [LATE_TOOLS.find((t) => t.name === name)!.key]: `x${turn}` };
        calls.push(mode === 'dispatcher' ? toolkitCall(mode, id, name, args) : call(id, name, args));
        count('registered call');
      } else if (kind === 7) {
        calls.push(call(id, 'search_notes', { query: `q${turn}` }));
        count('deferred call');
      } else {
        calls.push(call(id, 'get_time', {}));
        count('flat call');
      }
    }
    history.push({ role: 'assistant', content: random() < 0.5 ? `Step ${turn}.` : null, tool_calls: calls });
    for (const c of calls) {
      const r = await router.dispatch(c);
      if (r.ok && r.tool === 'load_toolkit') count('load ok');
      if (!r.ok) count(`rejected ${r.code}`);
      // Load results go in as text, or as JSON of the text as a generic loop writes any result.
      const content = r.ok ? (typeof r.result === 'string' && random() < 0.5 ? r.result : JSON.stringify(r.result)) : r.reason;
      results.push(content);
      history.push({ role: 'tool', tool_call_id: c.id, content });
    }
    if (random() < 0.4) history.push({ role: 'assistant', content: `Reply ${turn}.` }, { role: 'user', content: `Next ${turn}.` });

    const next = compile();
    const reuse = blocksReuse(target, blocksOf(previous), blocksOf(next));
    // The gate's own field may change every turn by design: compared without it.
    const ungated = (p: unknown) => blocksOf(p).filter((b) => b.section !== 'tool_choice');
    const [blocks, nextBlocks] = [ungated(previous), ungated(next)];
    const volatileFrom = volatileStart(target, previous, blocks);
    const same = blocksReuse(target, blocks, nextBlocks).reusedBlocks;
    const stableBytes = blocks.slice(0, volatileFrom).reduce((sum, b) => sum + b.bytes, 0);
    const offeredNotCallable = [...offeredNames(target, next)].filter(([, reach]) => !reach.some((c) => router.checkToolCall(c as { name: string }).allowed)).map(([name]) => name);
    const gateField = (p: unknown) => blocksOf(p).find((b) => b.section === 'tool_choice')?.json;
    turns.push({ turn, reuse, volatileFrom, stableBytes, fullExceptTail: same >= volatileFrom, offeredNotCallable, gateChanged: gateField(previous) !== gateField(next) });
    toolsSections.push(toolsSection(next));
    keys.push(router.cacheKey(next));
    previous = next;
  }
  return { target, strategy, variant, mode, turns, toolsSections, lastPayload: previous, keys, results, history, warnings, seen };
}

/** One row of the docs table. */
export interface ReuseRow {
  readonly target: Target;
  readonly strategy: ToolkitLoadingStrategy;
  readonly variant: ScriptVariant;
  readonly mode: ToolkitMode;
  /** Turns whose request starts with the whole previous one except its volatile tail. */
  readonly fullTurns: number;
  readonly turns: number;
  /** Mean bytes of the previous request found again, as a prefix, in the next. */
  readonly meanReusedBytes: number;
  /** Mean bytes of the previous request before its volatile tail (what could be reused at best). */
  readonly meanStableBytes: number;
  /** Bytes of the previous requests' stable parts that the next request did not repeat, summed over the turns. */
  readonly lostBytes: number;
  /** Turns whose gate field changed. */
  readonly gateChanges: number;
  /** Tool-turns where a tool the gate rejects was offered (summed over turns). */
  readonly offeredNotCallable: number;
  /** Bytes of the last request's `tools` (as JSON). */
  readonly toolsBytes: number;
}

export function summarize(run: ScriptRun): ReuseRow {
  const mean = (xs: readonly number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    target: run.target,
    strategy: run.strategy,
    variant: run.variant,
    mode: run.mode,
    fullTurns: run.turns.filter((t) => t.fullExceptTail).length,
    turns: run.turns.length,
    meanReusedBytes: mean(run.turns.map((t) => t.reuse.reusedBytes)),
    meanStableBytes: mean(run.turns.map((t) => t.stableBytes)),
    lostBytes: run.turns.reduce((sum, t) => sum + Math.max(0, t.stableBytes - t.reuse.reusedBytes), 0),
    gateChanges: run.turns.filter((t) => t.gateChanged).length,
    offeredNotCallable: run.turns.reduce((sum, t) => sum + t.offeredNotCallable.length, 0),
    toolsBytes: Buffer.byteLength(JSON.stringify(TARGET_ADAPTERS[run.target].sentTools(run.lastPayload as Record<string, unknown>)), 'utf8'),
  };
}

/** The docs table (markdown), rows in target × strategy order. */
export function reuseTable(rows: readonly ReuseRow[]): string {
  const lines = [
    '| target | strategy (mode) | provider gate | turns with full reuse | turns the gate field changed | tool-turns offered but not callable | bytes of `tools` | bytes not reused, all turns |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const pct = ((100 * r.fullTurns) / r.turns).toFixed(1);
    const strategy = `\`${r.strategy}\` (${r.mode}${r.variant.namespaces ? ', native namespaces' : ''})`;
    const n = (x: number) => x.toLocaleString('en-US');
    lines.push(`| \`${r.target}\` | ${strategy} | ${r.variant.gate ? 'on' : 'off'} | ${r.fullTurns}/${r.turns} (${pct}%) | ${r.gateChanges} | ${n(r.offeredNotCallable)} | ${n(r.toolsBytes)} | ${n(r.lostBytes)} |`);
  }
  return lines.join('\n');
}
