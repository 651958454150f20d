/**
 * toolroute/ai-sdk: a router as the tools of the Vercel AI SDK (`ai` 6 or 7,
 * an optional peer dependency), for `generateText` / `streamText`.
 *
 * `toAiSdk(router, options)` returns settings to spread into the call:
 *
 * - `tools`: the tools of this run in toolroute's stable order — the chosen
 *   tools (by default `compile()`'s: namespaces, then flat tools in no namespace), then `load_toolkit`, then
 *   what the toolkit-loading strategy adds — each `execute` going through
 *   `router.dispatch`, under the run's `abortSignal` (aborting the run aborts
 *   the handler's `ctx.signal`). The AI SDK sends tools in the order of this object,
 *   and the prompt cache depends on it.
 * - `prepareStep` (and, with `append` only, `activeTools`): which of them the
 *   model sees, per step, as the strategy (`toolkitLoading`) says; without
 *   `activeTools` the AI SDK offers every tool in `tools`, a caller's own
 *   tools added beside these too. Every provider caches a request
 *   as a prefix in the order tools → system → messages, so a tool list that
 *   changes between steps costs the reuse of the system prompt and the whole
 *   conversation behind it:
 *   - `dispatcher` (default): the list is the same on every step from the
 *     first — the chosen tools, `load_toolkit` and `call_toolkit_tool`,
 *     through which a loaded toolkit's tools are called (`{ tool, args }`,
 *     checked by `dispatch` exactly like a namespace action).
 *   - `native` with `target: 'anthropic'`: every toolkit tool is sent from
 *     the first step with `defer_loading: true` (`providerOptions.anthropic
 *     .deferLoading`, kept out of the cached prefix by Anthropic), and the
 *     result of a successful `load_toolkit` carries one `tool_reference`
 *     block per tool of the toolkit (`@ai-sdk/anthropic`'s `tool-reference`
 *     custom content part). Other targets: what the router's `native` means
 *     there when the AI SDK can send it, else the dispatcher (see
 *     {@link aiSdkToolkitMode}).
 *   - `append`: a toolkit's tools become active on the step after its load,
 *     appended at the end (the tool prefix is kept, the cached system prompt
 *     and history behind it are not).
 * - `repairToolCall` (AI SDK 7; `experimental_repairToolCall` on 6) and
 *   `prepareStep` together put toolroute's reasons where the AI SDK would
 *   send its own: calls the AI SDK refuses before any `execute` (an unknown
 *   or not-yet-loaded tool, arguments that are not JSON) are checked with
 *   `router.checkToolCall`, and their tool results carry the router's reason
 *   instead of the AI SDK's message. With the dispatcher, a toolkit tool
 *   called by its own name is repaired into the `call_toolkit_tool` call it
 *   stands for (so it runs after a load earlier in the same step, as
 *   `handleResponse` runs a turn). Arguments that are JSON reach `dispatch`, whose
 *   rejection (invalid arguments, blocked, unknown action) is the output of
 *   `execute`, an {@link AiSdkRejection} (`{ toolroute: 'rejected', code,
 *   reason }`), sent as the reason's text.
 * - What `execute` returns is plain JSON data (./output.ts): the AI SDK
 *   clones it into UI messages and sends it to the browser as JSON, and
 *   `toModelOutput` reads it back from there on the next chat turn.
 * - Standing announcements are added at the tail of each step's prompt
 *   (never to your history), on their channel: a trailing system message for
 *   `system`, a user message at the end otherwise.
 * - `instructions` (and `system` on AI SDK 6): your system prompt with the
 *   toolkit directory appended.
 *
 * `toolrouteSearch(generated)` (./search.ts) is the spec's ranked search as
 * AI SDK 7 `toolSearch`'s custom `search` callback.
 */
import { createRequire } from 'node:module';
import { jsonSchema, tool, type ModelMessage, type Tool, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { ANNOUNCEMENT_ANCHOR, LOAD_TOOLKIT_NAME, renderAnnouncements, TARGETS, toolkitMode, type Announcement, type DispatchOptions, type Target, type ToolDefinition } from '../../runtime/index.js';
// Within the package: the dispatcher's definition and the load result's first line, as the router writes them.
import { DISPATCHER_TOOL, TOOLKIT_DISPATCHER_NAME } from '../../runtime/toolkit-loading.js';
import { sdkParameters } from '../../runtime/targets/index.js';
import { assertKnownNames } from '../../runtime/suggest.js';
import { loadedSameTurnReason } from '../../runtime/reasons.js';
import { defaultOutput, modelOutput, rejectionData, rejectionOutput, resultData, withToolReferences, type ToolOutput } from './output.js';

export { toolrouteSearch, type AiSdkToolSearchFunction } from './search.js';
export { readToolOutput, type AiSdkRejection, type AiSdkToolOutput } from './output.js';

/** What `toAiSdk` needs of a router: its public API only. `C` is its handlers' context type. */
export interface AiSdkRouter<C = unknown> {
  compile(): { readonly tools: readonly ToolDefinition[]; readonly directoryXml: string };
  getAllTools(): ToolDefinition[];
  pruneByTask(task: string): { readonly tools: readonly ToolDefinition[] };
  getLoadedToolkits(): string[];
  extractToolkit(name: string): ToolDefinition[];
  snapshot(): unknown;
  restore(snapshot: unknown): unknown;
  getAnnouncements(): Announcement[];
  /** Library tools (`libraryTools`) are offered after the loader, whatever the choice. */
  ownsTool?(name: string): boolean;
  // A `never` call: every router's typed methods are assignable; the options carry its context type, so a `context`
  // given to `toAiSdk` is checked against the handlers'.
  checkToolCall(call: never): { readonly allowed: boolean; readonly reason?: string };
  dispatch(call: never, options?: DispatchOptions<C>): Promise<{ ok: true; result: unknown } | { ok: false; code: string; reason: string }>;
}

export interface ToAiSdkOptions<C = unknown, L extends AiSdkToolkitLoading | undefined = AiSdkToolkitLoading | undefined> {
  /** Your system prompt; `instructions` (and `system` on AI SDK 6) in the result is it plus the toolkit directory. */
  readonly system?: string;
  /**
   * The stable tools, as names of flat tools and namespaces (like `compile`'s
   * `tools`). Default: the tools `compile()` offers (the namespaces, then the
   * flat tools in no namespace); when it offers none and there are no
   * toolkits, every flat tool. `load_toolkit` is always added when there are
   * toolkits.
   */
  readonly tools?: readonly string[];
  /** Prune the flat tools of the choice by this task (`router.pruneByTask`), once for the run. */
  readonly task?: string;
  /**
   * The `context` handed to handlers. Default: the tool's `context` on AI SDK
   * 7 (`toolsContext[toolName]`), the call's `experimental_context` on 6.
   */
  readonly context?: C;
  /**
   * How a loaded toolkit's tools reach the model (default `'dispatcher'`):
   * `'dispatcher'` keeps the tool list identical on every step (the stable
   * `call_toolkit_tool` calls loaded tools); `'native'` uses the provider's
   * own deferral where the AI SDK can send it (Anthropic: `defer_loading` +
   * `tool_reference`; needs `target`); `'append'` activates a toolkit's tools
   * at the end of the list after its load, which costs the cached system
   * prompt and conversation on the next step.
   */
  readonly toolkitLoading?: L;
  /**
   * The provider behind the model: needed for `toolkitLoading: 'native'`.
   * With `'anthropic'`, a rejection is sent as an error result (the reason
   * as the text of a `tool_result` with `is_error`); without it, as the
   * tool's text, as every provider package sends that verbatim.
   */
  readonly target?: Target;
}

/** The repair hook, typed by what it reads: the refused call, and the step's tool set (`tools`) as the AI SDK passes it. */
export type AiSdkRepairToolCall = (options: { readonly toolCall: RepairedCall; readonly tools?: object }) => Promise<RepairedCall | null>;

/** The strategies `toAiSdk` offers (the router's names; see {@link aiSdkToolkitMode}). */
export type AiSdkToolkitLoading = 'dispatcher' | 'native' | 'append';
/** What a strategy means for one run: the provider's deferral, the dispatcher tool, or appended tools. */
export type AiSdkToolkitMode = 'deferred' | 'dispatcher' | 'append';

/**
 * `activeTools` under strategy `L`. With `append`: the router's tools of the
 * step (those of the first step in the settings, each later step's from
 * `prepareStep`). The other strategies offer every tool on every step, so
 * they leave the AI SDK's default (every tool in `tools`), and a tool of your
 * own added beside the router's is offered; `never` fits any call's list.
 */
export type AiSdkActiveTools<L extends AiSdkToolkitLoading | undefined> = L extends 'append' ? { activeTools: string[] } : { activeTools?: never };

/** A tool call as the AI SDK hands it to the repair hook. */
type RepairedCall = Parameters<ToolCallRepairFunction<ToolSet>>[0]['toolCall'];

/**
 * What to spread into `generateText` / `streamText` (or `new ToolLoopAgent`).
 * The installed AI SDK's names: AI SDK 7 gets `instructions` and
 * `repairToolCall`, AI SDK 6 `experimental_repairToolCall` and the system
 * prompt as both `system` (what its `generateText` and `streamText` read) and
 * `instructions` (what its `ToolLoopAgent` reads; the functions ignore it).
 * AI SDK 7 keeps `system` and `experimental_repairToolCall` only as
 * deprecated aliases.
 *
 * `prepareStep` and the repair hook are typed by what they read, not by
 * `ToolSet`: the AI SDK types them by the call's `tools`, and a call may add
 * tools of its own (`tools: { ...settings.tools, lookup_order }`, which
 * TypeScript types without `ToolSet`'s index signature), so they fit any call.
 */
export type AiSdkSettings<L extends AiSdkToolkitLoading | undefined = AiSdkToolkitLoading | undefined> = AiSdkCallSettings<L> & Readonly<AiSdkActiveTools<L>>;

/** {@link AiSdkSettings} but `activeTools`. */
export interface AiSdkCallSettings<L extends AiSdkToolkitLoading | undefined> {
  readonly tools: ToolSet;
  /** The step's prompt with toolroute's reasons and the announcement tail; with `append`, its `activeTools`. */
  readonly prepareStep: (step: { readonly messages: ModelMessage[] }) => { messages: ModelMessage[] } & AiSdkActiveTools<L>;
  /** AI SDK 7. */
  readonly repairToolCall?: AiSdkRepairToolCall;
  /** AI SDK 6. */
  readonly experimental_repairToolCall?: AiSdkRepairToolCall;
  /** Announcements on the `system` channel are trailing system messages. */
  readonly allowSystemInMessages: true;
  /** Your system prompt and the toolkit directory: AI SDK 7's name, and AI SDK 6's for `ToolLoopAgent`. */
  readonly instructions: string;
  /** AI SDK 6: the same text, as its `generateText` and `streamText` read it. */
  readonly system?: string;
}

/** The installed AI SDK's major version: it decides the names of two settings (see {@link AiSdkSettings}). */
const AI_SDK_MAJOR = Number((createRequire(import.meta.url)('ai/package.json') as { version: string }).version.split('.')[0]);

/**
 * What `toolkitLoading` (with `target`) means through the AI SDK. `native` is
 * the router's `native` where the AI SDK can send that form: `deferred` on
 * Anthropic; the dispatcher on OpenAI Chat and Gemini (they have no deferral,
 * so the router's `native` is the dispatcher there too) and on OpenAI
 * Responses, whose native form (a client `tool_search` answered by
 * `tool_search_output`) the AI SDK cannot carry: it accepts a model's call
 * only to a tool in the step's active tools, which are exactly the tools it
 * sends, so a tool loaded through `tool_search_output` would have to be sent
 * in `tools` as well. Throws a `TypeError` for an unknown strategy or target,
 * and for `native` without a target: a misspelt option fails loudly.
 *
 * @example
 * aiSdkToolkitMode(undefined, undefined);  // → 'dispatcher'
 * aiSdkToolkitMode('native', 'anthropic'); // → 'deferred'
 * aiSdkToolkitMode('native', 'openai-responses'); // → 'dispatcher'
 */
export function aiSdkToolkitMode(toolkitLoading: AiSdkToolkitLoading | undefined, target: Target | undefined): AiSdkToolkitMode {
  if (target !== undefined && !(TARGETS as readonly string[]).includes(target)) {
    throw new TypeError(`toAiSdk: target ${JSON.stringify(target)} is not a target; targets are ${TARGETS.join(', ')}.`);
  }
  switch (toolkitLoading) {
    case undefined:
    case 'dispatcher':
      return 'dispatcher';
    case 'append':
      return 'append';
    case 'native':
      if (target === undefined) {
        throw new TypeError("toAiSdk: toolkitLoading 'native' needs `target` (the provider behind the model): 'anthropic', 'openai', 'openai-responses' or 'gemini'.");
      }
      return toolkitMode(target, 'native') === 'deferred' ? 'deferred' : 'dispatcher';
    default:
      throw new TypeError(`toAiSdk: toolkitLoading ${JSON.stringify(toolkitLoading)} is not a strategy; use 'dispatcher', 'native' or 'append'.`);
  }
}

/** Accepts every value: toolroute validates in `dispatch`, where the reasons are. */
const ACCEPT_ALL = (value: unknown) => ({ success: true as const, value });

/**
 * The router as AI SDK settings.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * const result = await generateText({ model, ...toAiSdk(router, { system: 'You are a careful assistant.' }), prompt, stopWhen: stepCountIs(8) });
 * // Anthropic's own deferral instead of the dispatcher:
 * // generateText({ model: anthropic('claude-sonnet-4-5'), ...toAiSdk(router, { toolkitLoading: 'native', target: 'anthropic' }), … })
 */
export function toAiSdk<C = unknown, L extends AiSdkToolkitLoading | undefined = undefined>(router: AiSdkRouter<C>, options: ToAiSdkOptions<NoInfer<C>, L> = {}): AiSdkSettings<L> {
  assertKnownNames('toAiSdk options', Object.keys(options), AI_SDK_OPTIONS, () => AI_SDK_OPTIONS, `Options are ${[...AI_SDK_OPTIONS].join(', ')}.`);
  const mode = aiSdkToolkitMode(options.toolkitLoading, options.target);
  if (mode === 'deferred') {
    // The router refuses what it cannot offer on the target (`searchTools` beside a native toolkit loading: found tools
    // the model is told it can call, never shown). Asked by a compile for the target, a probe whose record of the
    // target's first turn is put back.
    const saved = router.snapshot();
    try {
      (router as unknown as { compile(request: unknown): unknown }).compile({ target: options.target, messages: [] });
    } finally {
      router.restore(saved);
    }
  }
  const compiled = router.compile();
  const loader = compiled.tools.find((t) => t.name === LOAD_TOOLKIT_NAME);
  const library = compiled.tools.filter((t) => t.name !== LOAD_TOOLKIT_NAME && router.ownsTool?.(t.name) === true);
  // compile()'s default set: the namespaces, then the flat tools in no namespace.
  const offered = compiled.tools.filter((t) => t.name !== LOAD_TOOLKIT_NAME && !library.includes(t));
  const flat = router.getAllTools();
  const byName = new Map<string, ToolDefinition>([...flat, ...offered].map((t) => [t.name, t]));

  // The stable choice, as `compile` makes it.
  let stable: ToolDefinition[];
  if (options.tools !== undefined) {
    stable = options.tools.map((name) => {
      const t = byName.get(name);
      if (t === undefined) throw new TypeError(`toAiSdk: ${JSON.stringify(name)} in \`tools\` is not a flat tool or namespace of this router.`);
      return t;
    });
  } else {
    stable = offered.length > 0 || loader ? offered : flat;
  }
  if (options.task !== undefined) {
    const kept = new Set(router.pruneByTask(options.task).tools.map((t) => t.name));
    const flatNames = new Set(flat.map((t) => t.name));
    stable = stable.filter((t) => !flatNames.has(t.name) || kept.has(t.name));
  }

  // Every toolkit's tools, read without loading anything: the router's state is put back as it was.
  const kits: { name: string; tools: ToolDefinition[] }[] = [];
  const kitNames = toolkitNamesOf(loader);
  if (kitNames.length > 0) {
    const saved = router.snapshot();
    try {
      for (const name of kitNames) kits.push({ name, tools: router.extractToolkit(name) });
    } finally {
      router.restore(saved);
    }
  }

  // The reasons for calls the AI SDK refused, by call id: `refused` while their step runs, `rejections` once settled.
  const refused = new Map<string, { name: string; input: string; reason: string }>();
  const rejections = new Map<string, string>();
  const rejected = rejectionOutput(options.target);
  const execute = (name: string): Tool['execute'] => async (input, call) => {
    // AI SDK 7 hands the tool its `context` (from `toolsContext`), AI SDK 6 the call's `experimental_context`.
    const { context: own, experimental_context } = call as { context?: unknown; experimental_context?: unknown };
    const context = options.context ?? own ?? experimental_context;
    // The run's `abortSignal`: aborting the run aborts the handler's `ctx.signal` and settles the call as `aborted`.
    const signal = call.abortSignal;
    // The AI SDK hands over the arguments parsed: an object as it is, anything else as the JSON the model wrote, which
    // `dispatch` refuses with its own reason (a string here is not arguments text to parse again).
    const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : JSON.stringify(input);
    const r = await router.dispatch({ id: call.toolCallId, name, arguments: args } as never, { context, ...(signal !== undefined ? { signal } : {}) } as never);
    return r.ok ? resultData(r.result) : rejectionData(r.code, r.reason);
  };
  const tools: ToolSet = {};
  const order: string[] = [];
  const add = (t: ToolDefinition, deferred?: { providerOptions: Tool['providerOptions'] }, success = defaultOutput) => {
    if (Object.hasOwn(tools, t.name)) return;
    order.push(t.name);
    tools[t.name] = tool({
      description: t.description,
      // As toolroute's own adapters send it: no top-level combinator (Anthropic and OpenAI refuse the whole request), and
      // with `target`, that target's renames (dispatch reads them back).
      inputSchema: jsonSchema(sdkParameters(t.parameters ?? { type: 'object', properties: {} }, options.target) as never, { validate: ACCEPT_ALL }),
      execute: execute(t.name),
      toModelOutput: modelOutput(rejected, success),
      ...deferred,
    } as Tool);
  };
  for (const t of stable) add(t);
  const kitTools = new Set(kits.flatMap((kit) => kit.tools.map((t) => t.name)));
  if (loader) {
    add(loader, undefined, mode === 'deferred' ? withToolReferences(kits) : defaultOutput);
    if (mode === 'dispatcher') {
      // A copy: the runtime's constant is frozen, and providers may build on the schema they are given.
      add({ name: DISPATCHER_TOOL.name, description: DISPATCHER_TOOL.description, parameters: structuredClone(DISPATCHER_TOOL.parameters) } as ToolDefinition);
    }
  }
  // Library tools (`libraryTools`) right after the library's own, whatever the choice, as `compile` places them.
  for (const t of library) add(t);
  if (loader) {
    if (mode !== 'dispatcher') {
      const deferred = mode === 'deferred' ? { providerOptions: { anthropic: { deferLoading: true } } } : undefined;
      for (const kit of kits) for (const t of kit.tools) add(t, deferred);
    }
  }

  const base = new Set([...stable.map((t) => t.name), ...(loader ? [loader.name] : []), ...library.map((t) => t.name)]);
  /**
   * With `append`, the router's tools active now, in `tools` order: the stable
   * choice and the loader, then the loaded toolkits' tools. The other modes
   * set no `activeTools`: every tool is active on every step, the caller's own
   * tools too.
   */
  const active = (): string[] => {
    const on = new Set(base);
    const loaded = new Set(router.getLoadedToolkits().map((k) => k.toLowerCase()));
    for (const kit of kits) if (loaded.has(kit.name.toLowerCase())) for (const t of kit.tools) on.add(t.name);
    return order.filter((n) => on.has(n));
  };

  const repairToolCall: AiSdkRepairToolCall = async ({ toolCall, tools: offered }) => {
    // The AI SDK refused the call before `execute` (no such active tool, or input that is not JSON).
    // A tool of the caller's own, beside the router's: the AI SDK's message stands.
    if (offered !== undefined && Object.hasOwn(offered, toolCall.toolName) && !Object.hasOwn(tools, toolCall.toolName)) return null;
    if (mode === 'dispatcher' && kitTools.has(toolCall.toolName)) {
      // A toolkit tool called by its own name: the dispatcher call it stands for, with every key the model sent.
      // Blank input is `{}`, as dispatch reads it (readArguments). Whether its toolkit is loaded is `dispatch`'s to
      // say when the call runs: the AI SDK runs a step's calls in order, so a load earlier in the same step counts,
      // as in `handleResponse`.
      const args = toolCall.input.trim() === '' ? {} : jsonObject(toolCall.input);
      if (args !== undefined) return { ...toolCall, toolName: TOOLKIT_DISPATCHER_NAME, input: JSON.stringify({ tool: toolCall.toolName, args }) };
    }
    const check = router.checkToolCall({ name: toolCall.toolName, arguments: toolCall.input } as never);
    const reason =
      check.allowed === false && typeof check.reason === 'string'
        ? check.reason
        : `Tool "${toolCall.toolName}" is not offered in this step. Call one of: ${Object.keys(offered ?? tools).join(', ')}.`;
    refused.set(toolCall.toolCallId, { name: toolCall.toolName, input: toolCall.input, reason });
    return null;
  };

  /**
   * Fixes the reasons of the calls refused in the step that just ran, once: an
   * earlier prompt that changed would cost the cache. The AI SDK checks a
   * step's calls before any of them runs, and with `append` a toolkit's tools
   * are active from the step after its load; so a toolkit tool refused while
   * its toolkit was not loaded, whose toolkit a call of that same step then
   * loaded, did not run and may now be called: the model is told so, instead
   * of reading "not loaded" beside the load's "loaded".
   */
  const settle = () => {
    for (const [id, call] of refused) {
      const kit = kits.find((k) => k.tools.some((t) => t.name === call.name));
      const runsNow = kit !== undefined && router.checkToolCall({ name: call.name, arguments: call.input } as never).allowed === true;
      rejections.set(id, runsNow ? loadedSameTurnReason(call.name, kit.name, 'step') : call.reason);
    }
    refused.clear();
  };

  // AI SDK 7 carries a step's `messages` override into the next step's `messages`: the tail
  // added last step is taken out (these very objects) before this step's is added, so each
  // request ends with exactly one. AI SDK 6 never hands it back.
  const tails = new WeakSet<ModelMessage>();
  const prepareStep = ({ messages }: { readonly messages: ModelMessage[] }) => {
    settle();
    const rewritten = messages.filter((m) => !tails.has(m)).map((m) => withReasons(m, rejections, rejected));
    const tail = announcementMessages(router.getAnnouncements());
    for (const m of tail) tails.add(m);
    return { ...(mode === 'append' ? { activeTools: active() } : {}), messages: [...rewritten, ...tail] };
  };

  const system = [options.system, compiled.directoryXml].filter((t): t is string => typeof t === 'string' && t !== '').join('\n\n');
  const named = AI_SDK_MAJOR >= 7 ? { instructions: system, repairToolCall } : { system, instructions: system, experimental_repairToolCall: repairToolCall };
  // `activeTools` is there exactly when `L` is 'append' (the types say no more than the strategy does).
  return { tools, ...(mode === 'append' ? { activeTools: active() } : {}), prepareStep, allowSystemInMessages: true, ...named } as AiSdkSettings<L>;
}

/** Every option `toAiSdk` reads: another key is a typo and throws. */
const AI_SDK_OPTIONS: ReadonlySet<string> = new Set(['system', 'tools', 'task', 'context', 'toolkitLoading', 'target']);

/** The JSON object a tool call's input text holds, or undefined. */
function jsonObject(input: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(input);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The toolkit names the loader offers (its `toolkit_name` enum). */
function toolkitNamesOf(loader: ToolDefinition | undefined): string[] {
  const props = (loader?.parameters as { properties?: { toolkit_name?: { enum?: unknown[] } } } | undefined)?.properties;
  const names = props?.toolkit_name?.enum;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/** A tool message whose results answer calls the AI SDK refused gets toolroute's reasons in their place. */
function withReasons(message: ModelMessage, rejections: ReadonlyMap<string, string>, rejected: (reason: string) => ToolOutput): ModelMessage {
  if (message.role !== 'tool' || rejections.size === 0) return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result') return part;
    const reason = rejections.get(part.toolCallId);
    if (reason === undefined) return part;
    const output = rejected(reason);
    if (JSON.stringify(part.output) === JSON.stringify(output)) return part;
    changed = true;
    return { ...part, output };
  });
  return changed ? { ...message, content } : message;
}

/** Standing announcements as tail messages: one per channel in use, `system` last (nearest the model's turn). */
function announcementMessages(list: readonly Announcement[]): ModelMessage[] {
  if (list.length === 0) return [];
  const system = list.filter((a) => a.channel === 'system');
  const user = list.filter((a) => a.channel !== 'system');
  const out: ModelMessage[] = [];
  if (user.length > 0) out.push({ role: 'user', content: [{ type: 'text', text: `${renderAnnouncements(user)}\n${ANNOUNCEMENT_ANCHOR}` }] });
  if (system.length > 0) out.push({ role: 'system', content: renderAnnouncements(system) });
  return out;
}
