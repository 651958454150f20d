/**
 * The per-target request compile, shared by every target: the pure function
 * `router.compile({ target })` calls. The per-target steps come from the
 * target's adapter (index.ts); this module is the pipeline around them. It takes the tools already chosen and rendered for the target, the
 * neutral history and the standing announcements, and returns exactly what is
 * spread into that target's SDK call:
 *
 * | target             | returns                                               | spread into                    |
 * | ------------------ | ----------------------------------------------------- | ------------------------------ |
 * | `anthropic`        | `{ system?, messages, tools? }`                       | `client.messages.create`       |
 * | `openai`           | `{ messages, tools? }`                                | `client.chat.completions.create` |
 * | `openai-responses` | `{ instructions?, input, tools? }`                    | `client.responses.create`      |
 * | `gemini`           | `{ contents, config: { systemInstruction?, tools? } }` | `ai.models.generateContent`    |
 *
 * The pipeline, in order: normalize the history → split off the system text
 * (caller's `system`, leading system messages, then the toolkit directory) →
 * place announcements (channels as the seed describes) → assemble tools
 * (search tool, stable prefix, deferred, loaded: appended, never inserted) →
 * convert messages → check the provider's 400 rules → audit → register the
 * cache key. Pure apart from calling `onWarning`; never mutates its input;
 * identical input gives identical bytes.
 */
import type { Announcement } from '../announcements.js';
import { registerPayloadPrefix } from '../cache-key.js';
import type { ToolkitLoadingInput } from '../toolkit-loading.js';
import type { Target } from '../contract.js';
import type { TargetAdapter, Warn } from './adapter.js';
import { normalizeMessages, type NeutralMessage, type NormalizedMessage } from './history.js';
import { adapterFor } from './index.js';
import { readNativeEntry } from './native.js';
import { placeAnnouncements } from './placement.js';
import type { TargetPayload, TargetToolMap } from './types.js';

export { ToolrouteConfigError } from './errors.js';
export { ANNOUNCEMENT_ANCHOR, placeAnnouncements, type PlacedMessages } from './placement.js';
export type { TargetPayload } from './types.js';

/** Where to put Anthropic `cache_control` breakpoints (other targets cache automatically and ignore this). */
export type CacheBreakpoint =
  /** The end of the stable tool prefix (the last non-deferred stable tool). */
  | 'tools'
  /** The stable system text (caller's system + directory), as its own block. */
  | 'system'
  /** The last block of the caller's `messages[message]`. */
  | { readonly message: number };

/** Codes of the warnings compile can emit, so a sink can dedupe or filter them. */
export const TARGET_WARNING_CODES = [
  'anthropic-announcement-hoist',
  'anthropic-deferred-without-search',
  'tool-search-unsupported',
  'duplicate-tool-name',
  'cache-audit',
  'provider-state-dropped',
  'allowed-tools-unsupported',
] as const;
export type TargetWarningCode = (typeof TARGET_WARNING_CODES)[number];

export interface TargetCompileOptions {
  /**
   * Add the target's tool-search tool: Anthropic `tool_search_tool_regex_20251119`
   * (`true` or `'regex'`) or `tool_search_tool_bm25_20251119` (`'bm25'`);
   * Responses `{ type: 'tool_search' }` (any truthy value). Chat Completions and
   * Gemini have none: ignored with a warning.
   */
  readonly toolSearch?: 'regex' | 'bm25' | boolean;
  /** Warn (code `cache-audit`) when an `<announcements>` block sits at or before the last Anthropic cache breakpoint. */
  readonly cacheAudit?: boolean;
  /** Anthropic cache breakpoints to add; at most 4 in a request, counting any already on rendered tools. */
  readonly cacheBreakpoints?: readonly CacheBreakpoint[];
  /**
   * Also let the provider enforce the blocklist (router compile; opt-in): a
   * `tool_choice` of type `allowed_tools` listing the request's tools the gate
   * lets through now (Chat Completions, Responses). The tools array is
   * untouched, but `tool_choice` is part of the cache key and changes with
   * the blocklist. Anthropic has no such restriction and Gemini's needs the
   * SDK's enum (see `router.allowedToolNames`): ignored there with the warning
   * `allowed-tools-unsupported`. The dispatch gate stays the authority either way.
   */
  readonly allowedTools?: boolean;
  /** Role of the inline system-channel item on Responses. Default `system`. */
  readonly responsesSystemRole?: 'system' | 'developer';
  /**
   * Receives warnings; the library never prints. Called on every compile the
   * condition holds: wrap it with {@link warnOnce} for the seed's warn-once.
   */
  readonly onWarning?: (message: string, code: TargetWarningCode) => void;
}

export interface TargetCompileInput {
  readonly target: Target;
  /** The caller's system prompt. */
  readonly system?: string;
  /** The provider-neutral history. Never mutated; announcements are never written into it. */
  readonly messages: readonly NeutralMessage[];
  /**
   * Chosen tools rendered for the target, in order: the cacheable prefix.
   * Pass the same array (identity) while the choice is unchanged: the cache key is memoized on it.
   */
  readonly stable: readonly unknown[];
  /**
   * Chosen tools with `deferLoading`, rendered for the target: sent after `stable`
   * and before `loaded`, never part of the cache key. (On Anthropic and Responses
   * a deferred tool left in `stable` is recognized by `defer_loading: true`; on
   * Chat Completions and Gemini the flag does not exist on the wire, so pass them here.)
   */
  readonly deferred?: readonly unknown[];
  /**
   * Toolkit tools rendered for the target, appended after everything else: in
   * the `append` toolkit-loading mode the loaded toolkits' tools in load order;
   * in the Anthropic `deferred` mode every toolkit tool, deferred, from the
   * first turn.
   */
  readonly loaded: readonly unknown[];
  /**
   * How toolkit loads in the history are rendered (runtime/toolkit-loading.ts
   * and the target's module): the mode and the catalog. Absent: `load_toolkit`
   * results are plain tool results.
   */
  readonly toolkits?: ToolkitLoadingInput;
  /**
   * The request's `tool_choice` (the router's `options.allowedTools`), sent as
   * is where the target has one; part of the cache key.
   */
  readonly toolChoice?: unknown;
  /** The `<available_toolkits>` directory; appended to the system text when non-empty. */
  readonly directoryXml: string;
  /**
   * Standing announcements, in insertion order. A frozen array is taken as
   * immutable, entries included, and its rendering is memoized (the router
   * passes one frozen list per announcement state).
   */
  readonly announcements: readonly Announcement[];
  readonly options?: TargetCompileOptions;
}

/**
 * Compile one request for one target. See the module comment for the shape per target.
 * Throws {@link ToolrouteConfigError} only for configuration the provider would
 * reject with a 400 (Anthropic: every tool deferred, a deferred search tool,
 * `cache_control` on a deferred tool, more than 4 breakpoints; a breakpoint
 * that names nothing). Model output in the history never throws.
 *
 * @example
 * const payload = compileForTarget({ target: 'anthropic', system: 'Be brief.',
 *   messages: [{ role: 'user', content: 'hi' }], stable: spec.rendered.anthropic.namespaces,
 *   loaded: [], directoryXml: spec.directoryXml, announcements: [] });
 * await client.messages.create({ model: 'claude-…', max_tokens: 1024, ...payload });
 */
export function compileForTarget<T extends Target>(input: TargetCompileInput & { readonly target: T }): TargetPayload<T> {
  const adapter = adapterFor(input.target) as TargetAdapter<Target>;
  const options = input.options ?? {};
  const warn = (code: TargetWarningCode, message: string): void => options.onWarning?.(`[toolroute] ${message}`, code);

  // 1. System text: the stable part of the prompt, in the cache key.
  const split = splitSystem(input, adapter.systemMessages);
  const { systemText } = split;
  // Provider state is for its own target: another target's (or an unreadable one) is dropped, said once.
  const conversation = dropForeignState(split.conversation, adapter.target, warn);

  // 2. Announcements: standing state at the tail, never in the caller's history.
  const placed = placeAnnouncements(conversation, input.announcements, adapter.announcements);
  if (placed.hoisted !== '') {
    warn(
      'anthropic-announcement-hoist',
      'system-channel announcements need a user or tool message to follow, and the history has none; ' +
        'the Anthropic API rejects a leading mid-conversation system message, so they were hoisted into a ' +
        'separate top-level system block after the stable system text (the cache key is unchanged; a cache ' +
        'breakpoint on a message now covers the announcement text).',
    );
  }

  // 3. Tools: search tool + stable prefix, then deferred, then loaded.
  const search = searchTool(adapter, options.toolSearch, warn);
  const tools = assembleTools(adapter, search, input, warn);
  // The key: everything cached before the conversation, as sent (cache-key.ts). An
  // unfrozen stable array is copied into the payload; the key memo goes by the caller's array then.
  const keyTools = tools !== input.stable && Object.isFrozen(tools) ? tools : onlyStable(search, input) ? input.stable : tools;
  const prefix = adapter.cachePrefix(keyTools, placed.hoisted === '' ? systemText : `${systemText}\u0000${placed.hoisted}`, input.toolChoice);

  // 4. Per-target payload.
  const payload: object = adapter.buildPayload({ input, options, systemText, placed, searchTool: search, tools, warn });
  registerPayloadPrefix(payload, prefix);
  return payload as TargetPayload<T>;
}

/**
 * Wrap a warning sink so each code is reported once (the seed's "warned
 * once"). `seen` is the memory of what was already reported: pass one set to
 * several wrappers to dedupe across them (the router keeps one per router).
 *
 * @example
 * const onWarning = warnOnce((message) => logger.warn(message));
 * compileForTarget({ …, options: { onWarning } });
 */
export function warnOnce(
  sink: (message: string, code: TargetWarningCode) => void,
  seen: Set<string> = new Set<string>(),
): (message: string, code: TargetWarningCode) => void {
  return (message, code) => {
    // Audit findings differ by location: dedupe them by message, the rest by code.
    const key = code === 'cache-audit' ? `${code}\u0000${message}` : code;
    if (seen.has(key)) return;
    seen.add(key);
    sink(message, code);
  };
}

// ─── 1. System text ──────────────────────────────────────────────────────────

/**
 * Caller's `system`, then the history's system messages that join the
 * top-level prompt, then the directory, joined by blank lines. Leading system
 * messages join it on every target; later ones join it too when the adapter
 * says `systemMessages: 'all'` (all but Chat Completions, where a system
 * message keeps its place: openai.ts says why).
 */
function splitSystem(
  input: TargetCompileInput,
  joining: TargetAdapter<Target>['systemMessages'],
): { systemText: string; conversation: NormalizedMessage[] } {
  const all = normalizeMessages(input.messages, readNativeEntry);
  const parts: string[] = [];
  if (typeof input.system === 'string' && input.system !== '') parts.push(input.system);
  const conversation: NormalizedMessage[] = [];
  let leading = true;
  for (const m of all) {
    if (m.role !== 'system') leading = false;
    if (m.role === 'system' && (leading || joining === 'all')) {
      if (m.text !== '') parts.push(m.text);
    } else {
      conversation.push(m);
    }
  }
  if (typeof input.directoryXml === 'string' && input.directoryXml !== '') parts.push(input.directoryXml);
  return { systemText: joinSystem(parts), conversation };
}

// The last joined system text. Turn after turn the parts are the same strings
// (the caller's prompt, the router's directory), so handing back the same
// string object lets the cache-key memo match it by identity instead of
// hashing a long prompt on every compile. One entry, so it cannot grow.
let lastJoin: { readonly parts: readonly string[]; readonly text: string } | undefined;

function joinSystem(parts: readonly string[]): string {
  if (parts.length === 0) return '';
  // One part (e.g. only the directory): that string itself, no copy.
  if (parts.length === 1) return parts[0]!;
  const last = lastJoin;
  if (last !== undefined && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.text;
  const text = parts.join('\n\n');
  lastJoin = { parts, text };
  return text;
}

/**
 * The messages with every provider state compile cannot send to `target`
 * removed: state of another target (a conversation that changed provider) or
 * a `provider` field that is not a state toolroute wrote. Their text and tool
 * calls are kept; one warning names the first such message and the count.
 * The list itself when there is nothing to drop (the common turn: no copy).
 */
function dropForeignState(messages: NormalizedMessage[], target: Target, warn: Warn): NormalizedMessage[] {
  let out: NormalizedMessage[] | undefined;
  let first: NormalizedMessage | undefined;
  let count = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.state === undefined || (m.state !== null && m.state.target === target)) continue;
    out ??= messages.slice();
    out[i] = { ...m, state: undefined };
    first ??= m;
    count++;
  }
  if (out === undefined || first === undefined) return messages;
  const what = first.state === null ? 'a `provider` field toolroute cannot read' : `${first.state!.target} provider state`;
  warn(
    'provider-state-dropped',
    `messages[${first.src}] carries ${what}, which '${target}' cannot use` +
      (count > 1 ? ` (and ${count - 1} more message${count > 2 ? 's' : ''} like it)` : '') +
      "; it was left out and those turns' text and tool calls were sent (their reasoning state, such as thinking blocks or signatures, does not carry across providers).",
  );
  return out;
}

// ─── 3. Tools ────────────────────────────────────────────────────────────────

function searchTool(adapter: TargetAdapter<Target>, option: TargetCompileOptions['toolSearch'], warn: Warn): unknown {
  if (option === undefined || option === false) return undefined;
  if (adapter.searchTool !== undefined) return adapter.searchTool(option);
  warn('tool-search-unsupported', `target '${adapter.target}' has no tool-search tool; options.toolSearch was ignored (deferred tools are sent in full there).`);
  return undefined;
}

/**
 * The request's tools: search tool, stable prefix, then deferred and loaded
 * ones not already sent. In the common turn (no search tool, nothing deferred
 * or loaded) that is the stable array itself: a frozen one (the router's) is
 * returned as is, no copy and no name set, so the cost does not grow with the
 * number of tools. Stable tools are never dropped, so this equals the general
 * path's result. The payload's `tools` is then that frozen array: callers that
 * want to add tools copy it (`[...payload.tools, mine]`).
 */
/** Whether the request's tools are just the stable ones (no search tool, nothing deferred or loaded). */
function onlyStable(search: unknown, input: TargetCompileInput): boolean {
  return search === undefined && (input.deferred === undefined || input.deferred.length === 0) && input.loaded.length === 0;
}

function assembleTools(
  adapter: TargetAdapter<Target>,
  search: unknown,
  input: TargetCompileInput,
  warn: Warn,
): readonly TargetToolMap[Target][] {
  if (onlyStable(search, input)) {
    return (Object.isFrozen(input.stable) ? input.stable : [...input.stable]) as readonly TargetToolMap[Target][];
  }
  // Frozen inputs (the router's) give the same frozen array turn after turn, so
  // the cache key stays a lookup; the warnings of the assembly are replayed.
  const frozen = Object.isFrozen(input.stable) && (input.deferred === undefined || Object.isFrozen(input.deferred)) && Object.isFrozen(input.loaded);
  if (frozen) {
    const hit = assembledMemo.get(input.stable);
    if (hit !== undefined && hit.target === adapter.target && hit.search === search && hit.deferred === input.deferred && hit.loaded === input.loaded) {
      for (const [code, message] of hit.warnings) warn(code, message);
      return hit.tools;
    }
  }
  const warnings: Array<[TargetWarningCode, string]> = [];
  const tools = assembleFresh(adapter, search, input, (code, message) => {
    warnings.push([code, message]);
    warn(code, message);
  });
  if (!frozen) return tools;
  Object.freeze(tools);
  assembledMemo.set(input.stable, { target: adapter.target, search, deferred: input.deferred, loaded: input.loaded, tools, warnings });
  return tools;
}

// stable array → the last assembly built on it (one entry: the router passes one stable array per choice).
const assembledMemo = new WeakMap<
  readonly unknown[],
  {
    readonly target: Target;
    readonly search: unknown;
    readonly deferred: readonly unknown[] | undefined;
    readonly loaded: readonly unknown[];
    readonly tools: readonly TargetToolMap[Target][];
    readonly warnings: ReadonlyArray<[TargetWarningCode, string]>;
  }
>();

function assembleFresh(adapter: TargetAdapter<Target>, search: unknown, input: TargetCompileInput, warn: Warn): TargetToolMap[Target][] {
  const seen = new Set<string>();
  const tools: unknown[] = [];
  const add = (tool: unknown, mayDrop: boolean): void => {
    const name = adapter.toolName(tool);
    if (name !== undefined && seen.has(name) && mayDrop) {
      warn('duplicate-tool-name', `tool '${name}' is already in the request; the later copy (deferred or loaded) was left out, as providers reject duplicate names.`);
      return;
    }
    if (name !== undefined) seen.add(name);
    tools.push(tool);
  };
  if (search !== undefined) add(search, false);
  for (const t of input.stable) add(t, false);
  for (const t of input.deferred ?? []) add(t, true);
  for (const t of input.loaded) add(t, true);
  return tools as TargetToolMap[Target][];
}
