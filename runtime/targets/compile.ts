/**
 * `compileForTarget`: one request-compile pipeline for every target (normalize, system text, announcements, tools,
 * cache key, the adapter's payload), returning what is spread into the SDK call. Pure apart from `onWarning`.
 */
import { placeAnnouncements, type Announcement } from '../announcements.js';
import { registerPayloadPrefix, stablePrefix } from '../cache-key.js';
import type { Target } from '../contract.js';
import { isPlainObject, jsonKind } from '../call-shape.js';
import { assertKnownNames, checkOptions, oneOf, type OptionRules } from '../suggest.js';
import { listNames } from '../reasons.js';
import type { ToolkitLoadingInput } from '../toolkit-loading.js';
import type { TargetAdapter, Warn } from './adapter.js';
import { jsonText, normalizeMessages, type NeutralMessage, type NormalizedMessage } from './history.js';
import { adapterFor } from './index.js';
import { readNativeEntry } from './native.js';
import type { TargetPayload, TargetToolMap } from './types.js';

export { ToolrouteConfigError } from './errors.js';
export { ANNOUNCEMENT_ANCHOR, placeAnnouncements, type PlacedMessages } from '../announcements.js';
export type { TargetPayload } from './types.js';

/**
 * Anthropic `cache_control` breakpoints (other targets cache automatically): `tools` the last non-deferred stable tool,
 * `system` the stable system text, `{ message: i }` the last block of the caller's `messages[i]`.
 */
export type CacheBreakpoint = 'tools' | 'system' | { readonly message: number };

/** Codes of the warnings compile can emit, so a sink can dedupe or filter them. */
export const TARGET_WARNING_CODES = [
  'anthropic-announcement-hoist', 'anthropic-deferred-without-search', 'tool-search-unsupported', 'duplicate-tool-name', 'cache-audit',
  'provider-state-dropped', 'allowed-tools-unsupported', 'tool-changes-unplaced', 'responses-deferred-without-search', 'unpaired-tool-calls', 'unread-messages',
] as const;
export type TargetWarningCode = (typeof TARGET_WARNING_CODES)[number];

export interface TargetCompileOptions {
  /** Add the target's tool-search tool (Anthropic regex for `true`, or bm25; Responses `tool_search`); ignored with a warning where there is none. */
  readonly toolSearch?: 'regex' | 'bm25' | boolean;
  /** Warn (code `cache-audit`) when an `<announcements>` block sits at or before the last Anthropic cache breakpoint. */
  readonly cacheAudit?: boolean;
  /** Anthropic cache breakpoints to add; at most 4 in a request, counting any already on rendered tools. */
  readonly cacheBreakpoints?: readonly CacheBreakpoint[];
  /** Router compile: let the provider enforce the blocklist too (`allowed_tools` tool_choice, part of the cache key) where the target can; the gate stays the authority. */
  readonly allowedTools?: boolean;
  /**
   * Router compile: how a namespace is encoded where the target has its own namespaces (Responses): `native`, a
   * `namespace` tool with one function per action; `action-args` (default), one function with `action` and `args`.
   * Both dispatch the same way. Ignored on targets without namespaces.
   */
  readonly namespaces?: 'native' | 'action-args';
  /** Role of the inline system-channel item on Responses. Default `system`. */
  readonly responsesSystemRole?: 'system' | 'developer';
  /** Receives warnings on every compile the condition holds; the library never prints. Wrap it with {@link warnOnce} to hear each once. */
  readonly onWarning?: (message: string, code: TargetWarningCode) => void;
}

/** Each compile option: whether a value is one it takes, and those values in words. */
const OPTION_VALUES: Readonly<Record<keyof TargetCompileOptions, OptionRules[string]>> = {
  toolSearch: [(v) => typeof v === 'boolean' || v === 'regex' || v === 'bm25', "true, false, 'regex' or 'bm25'", ['regex', 'bm25']],
  cacheAudit: [(v) => typeof v === 'boolean', 'true or false'],
  cacheBreakpoints: [(v) => Array.isArray(v) && v.every((b) => b === 'tools' || b === 'system' || (isPlainObject(b) && Object.keys(b).join() === 'message' && Number.isSafeInteger(b['message']) && (b['message'] as number) >= 0)), "a list of 'tools', 'system' and { message: i }"],
  allowedTools: [(v) => typeof v === 'boolean', 'true or false'],
  namespaces: oneOf(['native', 'action-args']),
  responsesSystemRole: oneOf(['system', 'developer']),
  onWarning: [(v) => typeof v === 'function', 'a function'],
};

/**
 * Throws a `TypeError` for compile options the types refuse: an unknown key, with the closest known ones, or a value its
 * option does not take.
 * @example checkCompileOptions({ cacheBreakPoints: ['tools'] }); // TypeError: compile options: unknown name "cacheBreakPoints" (did you mean "cacheBreakpoints"?). …
 */
export function checkCompileOptions(options: unknown): void { checkOptions('compile', options, OPTION_VALUES); }

const REQUEST_KEYS: ReadonlySet<string> = new Set(['target', 'system', 'messages', 'tools', 'options']);
/**
 * Throws a `TypeError` for a compile request that is no object, or has a key compile does not read: a misspelt `system`
 * or `tools` would drop the system prompt, or offer every tool, without a word.
 * @example checkCompileRequest({ target: 'openai', systm: 'Be brief.' }); // TypeError: compile request: unknown name "systm" (did you mean "system"?). …
 */
export function checkCompileRequest(request: unknown): void {
  if (!isPlainObject(request)) throw new TypeError(`compile: expected a request object or nothing; got ${jsonKind(request)}.`);
  assertKnownNames('compile request', Object.keys(request), REQUEST_KEYS, () => REQUEST_KEYS, 'A request has target, system, messages, tools and options.');
}

/** What changed in the tool set since `tools` was fixed (see {@link TargetCompileInput.toolChanges}). */
export interface ToolChanges {
  /** Names of request tools the model may not call now (Anthropic `tool_removal`). */
  readonly withdrawn: readonly string[];
  /** Tools registered after the first turn, rendered for the target (Anthropic `tool_definition`, Responses `tool_search_output`). */
  readonly added: readonly unknown[];
}

export interface TargetCompileInput {
  readonly target: Target;
  /** The caller's system prompt. */
  readonly system?: string;
  /** The provider-neutral history. Never mutated; announcements are never written into it. */
  readonly messages: readonly NeutralMessage[];
  /** Chosen tools rendered for the target, in order: the cacheable prefix. Pass the same frozen array while the choice is unchanged (the cache key is memoized on it). */
  readonly stable: readonly unknown[];
  /** Chosen tools with `deferLoading`, rendered: sent after `stable`, before `loaded`. */
  readonly deferred?: readonly unknown[];
  /** Toolkit tools rendered for the target, appended last (loaded ones in `append` mode; every one, deferred, in `deferred` mode). */
  readonly loaded: readonly unknown[];
  /** How toolkit loads in the history are rendered (runtime/toolkit-loading.ts); absent: plain tool results. */
  readonly toolkits?: ToolkitLoadingInput;
  /** The request's gate field (the router's `options.allowedTools`: `tool_choice`, Gemini's `toolConfig`), sent as is; part of the cache key. */
  readonly toolChoice?: unknown;
  /**
   * The tool set's changes from `tools` now, sent at the conversation's tail by the target's own means (Anthropic
   * `tool-changes`, Responses `tool-search`): request tools the gate rejects, and tools registered after the first turn.
   */
  readonly toolChanges?: ToolChanges;
  /** The `<available_toolkits>` directory; appended to the system text when non-empty. */
  readonly directoryXml: string;
  /** Standing announcements, in insertion order. */
  readonly announcements: readonly Announcement[];
  readonly options?: TargetCompileOptions;
}

/**
 * Compile one request for one target. Throws {@link ToolrouteConfigError} only for configuration the provider would
 * reject with a 400; model output in the history never throws.
 * @example
 * const payload = compileForTarget({ target: 'anthropic', system: 'Be brief.',
 *   messages: [{ role: 'user', content: 'hi' }], stable: spec.rendered.anthropic.namespaces,
 *   loaded: [], directoryXml: spec.directoryXml, announcements: [] });
 * await client.messages.create({ model: 'claude-…', max_tokens: 1024, ...payload });
 */
export function compileForTarget<T extends Target>(input: TargetCompileInput & { readonly target: T }): TargetPayload<T> {
  checkCompileOptions(input.options);
  // Anything else would be left out of the request without a word (an Anthropic-style list of system blocks, say).
  if (input.system !== undefined && typeof input.system !== 'string') throw new TypeError(`compile: system is the system prompt as a string; got ${jsonKind(input.system)}.`);
  if (!Array.isArray(input.messages)) throw new TypeError(`compile: messages is a list of messages; got ${jsonKind(input.messages)}.`);
  const adapter = adapterFor(input.target) as TargetAdapter<Target>;
  const options = input.options ?? {};
  const warn: Warn = (code, message) => options.onWarning?.(`[toolroute] ${message}`, code);
  const { systemText, conversation } = splitSystem(input, adapter.systemMessages, warn);
  const placed = placeAnnouncements(pairToolCalls(dropForeignState(conversation, adapter.target, warn), warn), input.announcements, adapter.announcements);
  if (placed.hoisted !== '') {
    warn('anthropic-announcement-hoist', 'system-channel announcements need a user or tool message to follow, and the history has none; the Anthropic API rejects a leading ' +
      'mid-conversation system message, so they were hoisted into a separate top-level system block after the stable system text (so the announcement text is part of the cached prefix and of the cache key until a message follows).');
  }
  let search: unknown;
  if (options.toolSearch) {
    if (adapter.searchTool !== undefined) search = adapter.searchTool(options.toolSearch);
    else warn('tool-search-unsupported', `target '${adapter.target}' has no tool-search tool; options.toolSearch was ignored (deferred tools are sent in full there).`);
  }
  const tools = assembleTools(adapter, search, input, warn);
  const prefix = stablePrefix(adapter, tools, placed.hoisted === '' ? systemText : `${systemText}\u0000${placed.hoisted}`, input.toolChoice);
  const payload: object = adapter.buildPayload({ input, options, systemText, placed, searchTool: search, tools, warn });
  registerPayloadPrefix(payload, prefix);
  return payload as TargetPayload<T>;
}

/**
 * Wrap a warning sink so each code is reported once (audit findings once per message); share `seen` to dedupe across
 * wrappers.
 * @example
 * const onWarning = warnOnce((message) => logger.warn(message));
 * compileForTarget({ …, options: { onWarning } });
 */
export function warnOnce(sink: (message: string, code: TargetWarningCode) => void, seen: Set<string> = new Set<string>()): (message: string, code: TargetWarningCode) => void {
  return (message, code) => {
    const key = code === 'cache-audit' ? `${code}\u0000${message}` : code;
    if (seen.has(key)) return;
    seen.add(key);
    sink(message, code);
  };
}

/** Caller's `system`, the system messages that join it (leading ones, or all), then the directory. */
function splitSystem(input: TargetCompileInput, joining: 'all' | 'leading', warn: Warn): { systemText: string; conversation: NormalizedMessage[] } {
  const parts: string[] = typeof input.system === 'string' && input.system !== '' ? [input.system] : [];
  const conversation: NormalizedMessage[] = [];
  let leading = true;
  const unread: string[] = [];
  for (const m of normalizeMessages(input.messages, readNativeEntry, unread)) {
    leading &&= m.role === 'system';
    if (m.role !== 'system' || (!leading && joining === 'leading')) conversation.push(m);
    else if (m.text !== '') parts.push(m.text);
  }
  if (unread.length > 0) warn('unread-messages', `${unread.length} history entr${unread.length > 1 ? 'ies are' : 'y is'} not a message: ${listNames(unread, 5)}. A message is an object with role 'system', 'user', 'assistant' or 'tool'.`);
  if (typeof input.directoryXml === 'string' && input.directoryXml !== '') parts.push(input.directoryXml);
  return { systemText: parts.join('\n\n'), conversation };
}

/** The messages without provider state `target` cannot use (their text and calls kept), with one warning. */
function dropForeignState(messages: NormalizedMessage[], target: Target, warn: Warn): NormalizedMessage[] {
  const foreign = messages.filter((m) => m.state !== undefined && m.state?.target !== target);
  const first = foreign[0];
  if (first === undefined) return messages;
  const what = first.state === null ? 'a `provider` field toolroute cannot read' : `${first.state!.target} provider state`;
  const more = foreign.length - 1;
  warn('provider-state-dropped', `messages[${first.src}] carries ${what}, which '${target}' cannot use${more > 0 ? ` (and ${more} more message${more > 1 ? 's' : ''} like it)` : ''}` +
    "; it was left out and those turns' text and tool calls were sent (their reasoning state, such as thinking blocks or signatures, does not carry across providers).");
  return messages.map((m) => (foreign.includes(m) ? { ...m, state: undefined } : m));
}

/**
 * The messages with each call answered once, by results right after its turn in the order of its calls (by id, or an
 * id-less result by name; Gemini pairs id-less results by position): a result answering no call of the turn before it
 * is left out; a call with no result gets an error result; a reused id (Anthropic rejects repeats) is sent as
 * `<id>_<n>`. One warning for all three.
 */
function pairToolCalls(messages: NormalizedMessage[], warn: Warn): NormalizedMessage[] {
  const [out, left, stubbed, renamed, used] = [[] as NormalizedMessage[], [] as string[], [] as string[], [] as string[], new Set<string>()];
  let turn: NormalizedMessage | undefined;
  // The calls of `turn`, with the id each is sent with and the result that answers it so far.
  let open: { id: string; sent: string; name: string; answer?: NormalizedMessage }[] = [];
  for (const m of [...messages, undefined]) {
    if (m?.role === 'tool') {
      const call = open.find((c) => c.answer === undefined && (c.id === m.callId || (m.callId === '' && c.name === m.name)));
      if (call !== undefined) call.answer = { ...m, callId: call.sent };
      // A result for a call only the turn's provider state holds (a custom tool call) is sent with it.
      else if (turn?.state !== undefined && !turn.calls.some((c) => c.id === m.callId) && jsonText(turn.state)?.includes(JSON.stringify(m.callId))) out.push(m);
      else left.push(m.callId);
      continue;
    }
    for (const c of open) out.push(c.answer ?? { role: 'tool', text: 'No result was recorded for this call.', calls: [], callId: c.sent, name: c.name, src: -1, isError: true });
    stubbed.push(...open.filter((c) => c.answer === undefined).map((c) => c.sent));
    if (m === undefined) break;
    [open, turn] = [[], m];
    const calls = m.calls.map((c) => {
      let sent = c.id;
      for (let n = 2; m.state === undefined && c.id !== '' && used.has(sent); n++) sent = `${c.id}_${n}`;
      used.add(sent);
      open.push({ id: c.id, sent, name: c.name });
      return sent === c.id ? c : { ...c, id: sent };
    });
    renamed.push(...open.filter((c) => c.sent !== c.id).map((c) => c.id));
    out.push(calls.some((c, k) => c !== m.calls[k]) ? { ...m, calls } : m);
  }
  const said = ([
    [left, 'tool result(s) answering no call of the assistant turn before them', 'were left out'],
    [stubbed, 'tool call(s) with no result', 'were answered with an error result'],
    [renamed, "tool call(s) reusing an earlier call's id", 'were sent as <id>_<n>'],
  ] as const).flatMap(([ids, what, done]) => (ids.length === 0 ? [] : [`${ids.length} ${what} (${ids.slice(0, 5).map((id) => JSON.stringify(id.slice(0, 64))).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}) ${done}`]));
  if (said.length > 0) warn('unpaired-tool-calls', `${said.join('; ')}: providers reject a request whose tool calls and results do not pair.`);
  return out;
}

const NONE: readonly unknown[] = Object.freeze([]);

// The last assembly per frozen stable array: the router passes the same arrays turn after turn, so the cache key
// memoized on the result stays a lookup.
const assembled = new WeakMap<readonly unknown[], { readonly target: Target; readonly parts: readonly unknown[]; readonly tools: readonly unknown[] }>();

/** Search tool, stable, then deferred and loaded ones whose name is not already sent; just the stable array when that is all. */
function assembleTools(adapter: TargetAdapter<Target>, search: unknown, input: TargetCompileInput, warn: Warn): readonly TargetToolMap[Target][] {
  const { stable, deferred = NONE, loaded } = input;
  const frozen = Object.isFrozen(stable);
  if (search === undefined && deferred.length === 0 && loaded.length === 0) return (frozen ? stable : [...stable]) as TargetToolMap[Target][];
  const parts = [search, deferred, loaded];
  const hit = assembled.get(stable);
  if (hit?.target === adapter.target && hit.parts.every((p, i) => p === parts[i])) return hit.tools as TargetToolMap[Target][];
  const seen = new Set<string>();
  const tools: unknown[] = [];
  let clean = true;
  const add = (tool: unknown, mayDrop: boolean): void => {
    const name = adapter.toolName(tool);
    if (name !== undefined && mayDrop && seen.has(name)) {
      clean = false;
      warn('duplicate-tool-name', `tool '${name}' is already in the request; the later copy (deferred or loaded) was left out, as providers reject duplicate names.`);
      return;
    }
    if (name !== undefined) seen.add(name);
    tools.push(tool);
  };
  if (search !== undefined) add(search, false);
  for (const t of stable) add(t, false);
  for (const t of deferred) add(t, true);
  for (const t of loaded) add(t, true);
  // Only a clean assembly is kept: one with warnings is rebuilt, so they are emitted on every compile.
  if (clean && frozen && Object.isFrozen(deferred) && Object.isFrozen(loaded)) assembled.set(stable, { target: adapter.target, parts, tools: Object.freeze(tools) });
  return tools as TargetToolMap[Target][];
}
