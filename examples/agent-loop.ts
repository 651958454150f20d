/**
 * An agent loop over the generated router, with a scripted fake model (no
 * network), run once per target. Every turn compiles the request for the
 * target — what you would spread into its SDK call — then "sends" it to the
 * fake model and runs the tool calls it returns:
 *
 *   router.compile({ target, system, messages })   → payload for the SDK
 *   router.ownsTool / router.handleTool             → load_toolkit (library-owned)
 *   router.dispatch(call)                           → gate → validate → your handler
 *   router.announce / retractAnnouncement           → standing state, never in history
 *   cacheReuse(target, previous, next)              → how much of the last request the provider can reuse
 *
 * The model loads the Weather toolkit and calls its `get_forecast`. With the
 * default `native` toolkit loading the tools list never changes: on Anthropic
 * the toolkit's tools are sent deferred from the first turn and the load's
 * result carries `tool_reference` blocks; on Responses the load is a
 * client-executed `tool_search`; on Chat and Gemini the model calls loaded
 * tools through `call_toolkit_tool`. The loop itself is the same on all four.
 *
 * Run it: `npx tsx examples/agent-loop.ts` (prints a short transcript).
 * The test in test/targets/agent-loop.test.ts runs `runAgentLoop()` and checks it.
 */
import { pathToFileURL } from 'node:url';
import * as generated from '../generated/index.js';
import {
  cacheBlocks,
  cacheKey,
  cacheReuse,
  createRouter,
  TOOLKIT_DISPATCHER_NAME,
  toolkitMode,
  toolMessage,
  type CacheReuse,
  type NeutralMessage,
  type NeutralToolCall,
  type Target,
} from 'toolroute/runtime';

export const TARGETS_EACH_TURN = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];

const SYSTEM = 'You are a careful coding assistant. Prefer reading before writing.';

/** One compile the loop made: enough to check the cache promise from outside. */
export interface CompileRecord {
  readonly turn: number;
  readonly target: Target;
  readonly cacheKey: string | undefined;
  /** Tool names in payload order (search tools included). */
  readonly tools: readonly string[];
  /** The serialized payload, to check it never carries stale announcements. */
  readonly json: string;
  /** The reuse of the previous turn's request by this one (absent on the first turn). */
  readonly reuse?: CacheReuse;
  /** Blocks of the previous request before its `<announcements>` tail (what must be reused). */
  readonly reusable?: number;
}

export interface AgentLoopResult {
  readonly history: readonly NeutralMessage[];
  readonly compiles: readonly CompileRecord[];
  readonly toolResults: readonly string[];
  readonly warnings: readonly string[];
}

/** What the fake model answers on each turn: tool calls, or a final text. */
type ScriptedReply = { readonly text: string; readonly calls?: readonly NeutralToolCall[] };

const call = (id: string, name: string, args: unknown): NeutralToolCall => rawCall(id, name, JSON.stringify(args));
const rawCall = (id: string, name: string, args: string): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: args } });

/**
 * A call to a loaded toolkit's tool, as the model on `target` makes it: by the
 * tool's own name where the tool is visible to it, through the dispatcher
 * where the provider has no deferral (Chat, Gemini).
 */
const toolkitCall = (target: Target, id: string, tool: string, args: unknown): NeutralToolCall =>
  toolkitMode(target, 'native') === 'dispatcher' ? call(id, TOOLKIT_DISPATCHER_NAME, { tool, args }) : call(id, tool, args);

// The "model": a fixed script. A real loop would send the compiled payload to its SDK
// and read the tool calls from the response; the neutral history shape stays the same.
// Every tool it calls is one the payloads offer: the namespaces, load_toolkit, and the loaded toolkit's tools.
const script = (target: Target): readonly ScriptedReply[] => [
  { text: 'I need weather tools.', calls: [call('call_1', 'load_toolkit', { toolkit_name: 'Weather' })] },
  {
    text: 'Reading the config and the forecast.',
    calls: [
      call('call_2', 'file_ops', { action: 'read_file', args: { path: 'config.json' } }),
      // Invalid arguments (days is at most 14): the reason names /days and what it must be.
      toolkitCall(target, 'call_3', 'get_forecast', { city: 'Lisbon', days: 30 }),
    ],
  },
  // The model recovers: it reads the reason and calls again with valid arguments.
  { text: 'Two days then.', calls: [toolkitCall(target, 'call_4', 'get_forecast', { city: 'Lisbon', days: 2 })] },
  // delete_file is blocked by the operator before this turn: the gate answers, the model is told why.
  { text: 'Cleaning up.', calls: [call('call_5', 'file_ops', { action: 'delete_file', args: { path: 'tmp/cache' } })] },
  // A malformed call: rejected as data, never thrown.
  { text: 'Checking the logs.', calls: [rawCall('call_6', 'terminal', '{"action": "tail_logs", ')] },
  { text: 'Lisbon will be sunny; config.json is fine; tmp/cache could not be deleted here.' },
];

/** The turn before which the operator blocks delete_file. */
export const BLOCK_TURN = 3;

/**
 * Run the scripted conversation to the end on one target.
 *
 * @example
 * const { compiles } = await runAgentLoopOn('gemini');
 * compiles.every((c) => c.reuse === undefined || c.reuse.reusedBlocks >= c.reusable!); // → true
 */
export async function runAgentLoopOn(target: Target): Promise<AgentLoopResult> {
  const router = createRouter(generated, {
    read_file: ({ path }) => ({ path, content: '{"debug": false}' }),
    run_bash: ({ command }) => ({ command, exitCode: 0, stdout: '' }),
    get_time: ({ timezone }) => ({ timezone: timezone ?? 'UTC', now: '2026-11-29T12:00:00Z' }),
    write_file: ({ path }) => ({ path, written: true }),
    delete_file: ({ path }) => ({ path, deleted: true }),
    tail_logs: ({ service }) => ({ service, lines: [] }),
    get_forecast: ({ city, days }) => ({ city, days: days ?? 3, sky: 'sunny' }),
    get_current_weather: ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
    run_query: ({ sql }) => ({ sql, rows: [] }),
    describe_table: ({ table }) => ({ table, columns: [] }),
  });

  const history: NeutralMessage[] = [{ role: 'user', content: 'Is config.json sane, and what is the weather in Lisbon?' }];
  const compiles: CompileRecord[] = [];
  const toolResults: string[] = [];
  const warnings: string[] = [];
  const replies = script(target);
  let previous: object | undefined;

  for (let turn = 0; turn < replies.length; turn++) {
    if (turn === BLOCK_TURN) {
      // An operator decision mid-conversation: the tool list stays the same (cache intact);
      // the gate rejects the call and the announcement states the fact.
      router.setBlockedTools(['delete_file']);
      router.announce('tools:blocked', 'delete_file is disabled in this environment; calls to it will be rejected');
    }

    const payload = router.compile({
      target,
      system: SYSTEM,
      messages: history,
      options: { onWarning: (message: string) => warnings.push(message) },
    });
    const json = JSON.stringify(payload);
    const record: CompileRecord = { turn, target, cacheKey: cacheKey(payload), tools: toolNames(payload), json };
    if (previous === undefined) compiles.push(record);
    else {
      // What the provider can serve from its cache: everything before the last turn's announcements.
      const reuse = cacheReuse(target, previous, payload);
      compiles.push({ ...record, reuse, reusable: reusableBlocks(target, previous) });
    }
    previous = payload;

    const reply = replies[turn]!;
    history.push({ role: 'assistant', content: reply.text, ...(reply.calls ? { tool_calls: reply.calls } : {}) });
    if (!reply.calls) break;

    for (const c of reply.calls) {
      if (router.ownsTool(c.function.name)) {
        const content = router.handleTool({ name: c.function.name, arguments: c.function.arguments });
        router.announce('toolkit:loaded', 'Toolkit Weather is loaded: get_forecast, get_current_weather');
        toolResults.push(content);
        history.push({ role: 'tool', tool_call_id: c.id, content });
      } else {
        // The result as text (or the rejection's reason, flagged), as every target expects it.
        const message = toolMessage(c, await router.dispatch(c));
        toolResults.push(message.content ?? '');
        history.push(message);
      }
    }
    if (turn === 1) router.retractAnnouncement('toolkit:loaded'); // no longer news: state, not event
  }
  return { history, compiles, toolResults, warnings };
}

/**
 * Run the scripted conversation on every target.
 *
 * @example
 * const runs = await runAgentLoop();
 * new Set(runs.anthropic.compiles.map((c) => c.cacheKey)).size; // → 1
 */
export async function runAgentLoop(): Promise<Record<(typeof TARGETS_EACH_TURN)[number], AgentLoopResult>> {
  const out = {} as Record<(typeof TARGETS_EACH_TURN)[number], AgentLoopResult>;
  for (const target of TARGETS_EACH_TURN) out[target] = await runAgentLoopOn(target);
  return out;
}

/** Blocks of `previous` before its first `<announcements>` block: the part the next request must repeat. */
function reusableBlocks(target: Target, previous: object): number {
  const blocks = cacheBlocks(target, previous);
  const tail = blocks.findIndex((b) => b.json.includes('<announcements>'));
  return tail === -1 ? blocks.length : tail;
}

/** Tool names of a compiled payload, whatever the target's shape. */
function toolNames(payload: unknown): string[] {
  const p = payload as { tools?: unknown[]; config?: { tools?: Array<{ functionDeclarations?: unknown[] }> } };
  const tools = p.tools ?? p.config?.tools?.[0]?.functionDeclarations ?? [];
  return tools.map((t) => {
    const r = t as { name?: unknown; type?: unknown; function?: { name?: unknown } };
    return String(r.function?.name ?? r.name ?? r.type);
  });
}

// `npx tsx examples/agent-loop.ts`: print a short transcript (examples may print; the library never does).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = await runAgentLoop();
  for (const target of TARGETS_EACH_TURN) {
    const { history, compiles, warnings } = runs[target];
    console.log(`— ${target}`);
    for (const m of history) {
      const calls = m.tool_calls?.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ');
      console.log(`${m.role.padEnd(9)} ${m.content ?? ''}${calls ? `  → ${calls}` : ''}`);
    }
    const keys = new Set(compiles.map((c) => c.cacheKey));
    const full = compiles.filter((c) => c.reuse !== undefined && c.reuse.reusedBlocks >= c.reusable!).length;
    console.log(`cache keys across turns: ${keys.size}; turns reusing the whole previous request (but its announcements): ${full}/${compiles.length - 1}; tools: ${compiles.at(-1)?.tools.join(', ')}`);
    for (const w of warnings) console.log(`warning: ${w}`);
  }
}
