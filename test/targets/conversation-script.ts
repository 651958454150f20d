/**
 * The scripted 200-turn conversation shared by the cache-reuse
 * test and the README table: one router per (target, strategy) over
 * generated/ (namespaces, flat tools, two toolkits with a deferred tool) plus,
 * registered before the first turn, a third toolkit and a deferred flat tool.
 * Every turn the operator and the "model" do something: block / unblock,
 * apply a policy, announce and retract on every channel, load each toolkit
 * (and unknown or blocked ones), call loaded tools (valid, invalid, blocked,
 * not yet loaded), call namespace actions, flat tools and the deferred tool;
 * then the request is compiled and compared with the previous one by
 * `cacheReuse`.
 *
 * The model speaks the target's vocabulary: a loaded toolkit's tool is called
 * by its own name where it is visible as a tool (`deferred`, `tool-search`,
 * `append`), through `call_toolkit_tool` in `dispatcher` mode.
 */
import * as gen from '../../generated/index.js';
import { cacheBlocks, cacheReuse, type CacheReuse } from '../../runtime/cache-reuse.js';
import { createRouter, type Target, type ToolRouter } from '../../runtime/index.js';
import type { NeutralMessage, NeutralToolCall } from '../../runtime/targets/history.js';
import { toolkitMode } from '../../runtime/targets/index.js';
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
  /** The new request starts with the whole previous request except its volatile tail. */
  readonly fullExceptTail: boolean;
}

export interface ScriptRun {
  readonly target: Target;
  readonly strategy: ToolkitLoadingStrategy;
  readonly mode: ToolkitMode;
  readonly turns: readonly TurnReuse[];
  readonly payloads: readonly unknown[];
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

/** A toolkit tool call in the target's vocabulary. */
function toolkitCall(mode: ToolkitMode, id: string, tool: string, args: unknown): NeutralToolCall {
  if (mode === 'dispatcher') return { id, type: 'function', function: { name: TOOLKIT_DISPATCHER_NAME, arguments: JSON.stringify({ tool, args }) } };
  return { id, type: 'function', function: { name: tool, arguments: JSON.stringify(args) } };
}

const call = (id: string, name: string, args: unknown): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

const TOOLKIT_TOOLS: ReadonlyArray<{ tool: string; valid: unknown; invalid: unknown }> = [
  { tool: 'get_forecast', valid: { city: 'Lisbon', days: 2 }, invalid: { city: 'Lisbon', days: 30 } },
  { tool: 'get_current_weather', valid: { city: 'Porto' }, invalid: { town: 'Porto' } },
  { tool: 'run_query', valid: { sql: 'SELECT 1' }, invalid: { sql: 42 } },
  { tool: 'describe_table', valid: { table: 'users' }, invalid: {} },
  { tool: 'archive_fetch', valid: { id: 'doc-7' }, invalid: { id: 7 } },
];

/**
 * Run the script for one target and strategy.
 *
 * @example
 * const run = await runScript('anthropic', 'native');
 * run.turns.every((t) => t.fullExceptTail); // → true
 */
export async function runScript(target: Target, strategy: ToolkitLoadingStrategy): Promise<ScriptRun> {
  const random = rng(20261201);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const router = newRouter(strategy);
  const toolSearch = target === 'anthropic' ? ('regex' as const) : undefined;
  const mode = toolkitMode(target, strategy);
  const blockable = [...gen.TOOL_NAMES, ...gen.NAMESPACE_NAMES, ...gen.TOOLKIT_NAMES, 'Archive', 'archive_fetch', 'search_notes'];
  const toolkits = [...gen.TOOLKIT_NAMES, 'Archive'];
  const history: NeutralMessage[] = [{ role: 'user', content: 'Check the weather, the database and the archive.' }];
  const payloads: unknown[] = [];
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
      options: { ...(toolSearch ? { toolSearch } : {}), onWarning: (m: string) => warnings.push(m) },
    });

  let previous = compile();
  payloads.push(previous);
  keys.push(router.cacheKey(previous));
  for (let turn = 1; turn <= SCRIPT_TURNS; turn++) {
    // The operator, between turns: state changes that must not touch the cached prefix.
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
      const kind = Math.floor(random() * 9);
      if (kind === 0 || kind === 1) {
        const kit = pick(toolkits);
        calls.push(call(id, 'load_toolkit', { toolkit_name: random() < 0.5 ? kit : kit.toLowerCase() }));
        count('load');
      } else if (kind === 2) {
        calls.push(call(id, 'load_toolkit', { toolkit_name: 'Nope' }));
        count('load unknown');
      } else if (kind === 3 || kind === 4) {
        const t = pick(TOOLKIT_TOOLS);
        calls.push(toolkitCall(mode, id, t.tool, t.valid));
        count('toolkit call');
      } else if (kind === 5) {
        const t = pick(TOOLKIT_TOOLS);
        calls.push(toolkitCall(mode, id, t.tool, t.invalid));
        count('toolkit call, invalid');
      } else if (kind === 6) {
        calls.push(call(id, 'file_ops', random() < 0.7 ? { action: 'read_file', args: { path: 'a.ts' } } : { action: 'delete_file', args: {} }));
        count('namespace call');
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
    const reuse = cacheReuse(target, previous, next);
    const blocks = cacheBlocks(target, previous);
    const firstVolatile = blocks.findIndex((b) => b.json.includes('<announcements>'));
    const volatileFrom = firstVolatile === -1 ? blocks.length : firstVolatile;
    const stableBytes = blocks.slice(0, volatileFrom).reduce((sum, b) => sum + b.bytes, 0);
    turns.push({ turn, reuse, volatileFrom, stableBytes, fullExceptTail: reuse.reusedBlocks >= volatileFrom });
    payloads.push(next);
    keys.push(router.cacheKey(next));
    previous = next;
  }
  return { target, strategy, mode, turns, payloads, keys, results, history, warnings, seen };
}

/** One row of the README table. */
export interface ReuseRow {
  readonly target: Target;
  readonly strategy: ToolkitLoadingStrategy;
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
}

export function summarize(run: ScriptRun): ReuseRow {
  const mean = (xs: readonly number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    target: run.target,
    strategy: run.strategy,
    mode: run.mode,
    fullTurns: run.turns.filter((t) => t.fullExceptTail).length,
    turns: run.turns.length,
    meanReusedBytes: mean(run.turns.map((t) => t.reuse.reusedBytes)),
    meanStableBytes: mean(run.turns.map((t) => t.stableBytes)),
    lostBytes: run.turns.reduce((sum, t) => sum + Math.max(0, t.stableBytes - t.reuse.reusedBytes), 0),
  };
}

/** The README table (markdown), rows in target × strategy order. */
export function reuseTable(rows: readonly ReuseRow[]): string {
  const lines = [
    '| target | strategy (mode) | turns with full reuse | mean reused bytes | mean reusable bytes | bytes not reused, all turns |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const pct = ((100 * r.fullTurns) / r.turns).toFixed(1);
    lines.push(`| \`${r.target}\` | \`${r.strategy}\` (${r.mode}) | ${r.fullTurns}/${r.turns} (${pct}%) | ${r.meanReusedBytes.toLocaleString('en-US')} | ${r.meanStableBytes.toLocaleString('en-US')} | ${r.lostBytes.toLocaleString('en-US')} |`);
  }
  return lines.join('\n');
}
