/**
 * Per-target request compile: the pure function `router.compile({ target })`
 * calls. It takes the tools already chosen and rendered for the target, the
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
import { renderAnnouncements, type Announcement } from './announcements.js';
import { registerPayloadPrefix, isMarkedDeferred, stablePrefix } from './cache-key.js';
import type { Target } from './contract.js';
import {
  normalizeMessages,
  toAnthropicMessages,
  toGeminiContents,
  toOpenAIChatMessages,
  toResponsesInput,
  type NeutralMessage,
  type NormalizedMessage,
} from './messages.js';
import { ToolrouteConfigError } from './targets/errors.js';
import type {
  AnthropicPayload,
  AnthropicTextBlock,
  AnthropicToolSearchTool,
  AnthropicToolUnion,
  GeminiFunctionDeclaration,
  GeminiPayload,
  OpenAIChatMessage,
  OpenAIChatPayload,
  OpenAIChatTool,
  ResponsesPayload,
  ResponsesTool,
  ResponsesToolSearchTool,
  TargetPayload,
} from './targets/types.js';

export { ToolrouteConfigError } from './targets/errors.js';
export type { TargetPayload } from './targets/types.js';

/**
 * The anchor line the reference library appends after tail state, verbatim
 * (context-chef `tailPhase`): announcements are system state.
 */
export const ANNOUNCEMENT_ANCHOR = 'Above is the current system state. Use it to guide your next action.';

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
  /** Loaded toolkits' tools rendered for the target, in load order: appended after everything else. */
  readonly loaded: readonly unknown[];
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
  const target: Target = input.target;
  const options = input.options ?? {};
  const warn = (code: TargetWarningCode, message: string): void => options.onWarning?.(`[toolroute] ${message}`, code);

  // 1. System text: the stable part of the prompt, in the cache key.
  const { systemText, conversation } = splitSystem(input, target);

  // 2. Announcements: standing state at the tail, never in the caller's history.
  const placed = placeAnnouncements(conversation, input.announcements, target);
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
  const search = searchTool(target, options.toolSearch, warn);
  const tools = assembleTools(target, search, input, warn);
  const prefix = stablePrefix(target, input.stable, systemText, search);

  // 4. Per-target payload.
  let payload: object;
  switch (target) {
    case 'anthropic':
      payload = anthropicPayload(input, options, systemText, placed, search, tools as readonly AnthropicToolUnion[], warn);
      break;
    case 'openai': {
      const messages: OpenAIChatMessage[] = systemText === '' ? [] : [{ role: 'system', content: systemText }];
      messages.push(...toOpenAIChatMessages(placed.messages));
      const out: OpenAIChatPayload = { messages };
      if (tools.length > 0) out.tools = tools as OpenAIChatTool[];
      payload = out;
      break;
    }
    case 'openai-responses': {
      const out: ResponsesPayload = { input: toResponsesInput(placed.messages, options.responsesSystemRole) };
      if (systemText !== '') out.instructions = systemText;
      if (tools.length > 0) out.tools = tools as ResponsesTool[];
      // Key order: instructions, input, tools — the order the docs write them.
      payload = systemText === '' ? out : { instructions: out.instructions, ...out };
      break;
    }
    case 'gemini': {
      const config: GeminiPayload['config'] = {};
      if (systemText !== '') config.systemInstruction = systemText;
      if (tools.length > 0) config.tools = [{ functionDeclarations: tools as GeminiFunctionDeclaration[] }];
      payload = { contents: toGeminiContents(placed.messages), config } satisfies GeminiPayload;
      break;
    }
  }
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
 * messages join it on every target; later ones join it too, except on Chat
 * Completions, where a system message keeps its place (the reference library's
 * behaviour, and the only target where that is free of model-support caveats).
 */
function splitSystem(
  input: TargetCompileInput,
  target: Target,
): { systemText: string; conversation: NormalizedMessage[] } {
  const all = normalizeMessages(input.messages);
  const parts: string[] = [];
  if (typeof input.system === 'string' && input.system !== '') parts.push(input.system);
  const conversation: NormalizedMessage[] = [];
  let leading = true;
  for (const m of all) {
    if (m.role !== 'system') leading = false;
    if (m.role === 'system' && (leading || target !== 'openai')) {
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

// ─── 2. Announcements ────────────────────────────────────────────────────────

/** The history with announcements placed, plus the Anthropic no-tail fallback text. */
export interface PlacedMessages {
  readonly messages: NormalizedMessage[];
  /** `<announcements>` text to hoist into the top-level system (Anthropic, no tail); '' otherwise. */
  readonly hoisted: string;
}

/**
 * Place the standing announcements into a (normalized, system-less) history,
 * exactly as the seed's three channels describe:
 *
 * - channel resolution: `auto` is `system` on Anthropic, `user_tail` elsewhere
 *   (by target, not model: Sonnet 5 has no mid-conversation system messages,
 *   so announce with `user_tail` explicitly there);
 * - `user_tail`: one `<announcements>` block plus {@link ANNOUNCEMENT_ANCHOR},
 *   appended (after a blank line) to the last message when it is the tail user
 *   message; when the tail is a tool result, a new user message right after it;
 *   with no user/tool message at all, a new user message before any trailing
 *   assistant prefill;
 * - `system`: one positional system message right after the tail (the last
 *   user or tool message), so before any assistant prefill. With no tail: on
 *   Anthropic it would precede every user/tool message, which the API rejects,
 *   so it is returned as `hoisted`; elsewhere it goes before the trailing
 *   assistant prefill.
 *
 * Each block lists its announcements in insertion order. Pure: the input array
 * and its messages are never modified.
 *
 * @example
 * placeAnnouncements(normalizeMessages([{ role: 'user', content: 'hi' }]),
 *   [{ id: 'a', content: 'x', channel: 'user_tail' }], 'openai').messages[0].text;
 * // → 'hi\n\n<announcements>\n<announcement id="a">\nx\n</announcement>\n</announcements>\n\nAbove is the current system state. Use it to guide your next action.'
 */
export function placeAnnouncements(
  messages: readonly NormalizedMessage[],
  announcements: readonly Announcement[],
  target: Target,
): PlacedMessages {
  const out = [...messages];
  if (announcements.length === 0) return { messages: out, hoisted: '' };
  const { stitch, xml } = renderedAnnouncements(announcements, target);

  if (stitch !== '') {
    const tail = lastTail(out);
    const tailMessage = tail === -1 ? undefined : out[tail];
    if (tailMessage !== undefined && tailMessage.role === 'user') {
      out[tail] = { ...tailMessage, text: tailMessage.text === '' ? stitch : `${tailMessage.text}\n\n${stitch}` };
    } else {
      out.splice(tail === -1 ? beforePrefill(out) : tail + 1, 0, injected('user', stitch));
    }
  }

  let hoisted = '';
  if (xml !== '') {
    const tail = lastTail(out);
    if (tail !== -1) out.splice(tail + 1, 0, injected('system', xml));
    else if (target === 'anthropic') hoisted = xml;
    else out.splice(beforePrefill(out), 0, injected('system', xml));
  }
  return { messages: out, hoisted };
}

interface RenderedAnnouncements {
  /** The `user_tail` block plus the anchor line; '' when no announcement goes there. */
  readonly stitch: string;
  /** The `system` channel block; '' when none goes there. */
  readonly xml: string;
}

// Rendered blocks per (frozen) announcement list and target: the router passes the
// same frozen list until an announcement changes, so a turn's compile does not
// re-render and re-escape standing state that did not change.
const renderedMemo = new WeakMap<readonly Announcement[], Map<Target, RenderedAnnouncements>>();

function renderedAnnouncements(announcements: readonly Announcement[], target: Target): RenderedAnnouncements {
  const memo = Object.isFrozen(announcements) ? renderedMemo.get(announcements) : undefined;
  const hit = memo?.get(target);
  if (hit !== undefined) return hit;
  const auto = target === 'anthropic' ? 'system' : 'user_tail';
  const tailList = announcements.filter((a) => (a.channel === 'auto' ? auto : a.channel) === 'user_tail');
  const systemList = announcements.filter((a) => (a.channel === 'auto' ? auto : a.channel) === 'system');
  const value: RenderedAnnouncements = {
    stitch: tailList.length > 0 ? `${renderAnnouncements(tailList)}\n\n${ANNOUNCEMENT_ANCHOR}` : '',
    xml: systemList.length > 0 ? renderAnnouncements(systemList) : '',
  };
  if (Object.isFrozen(announcements)) {
    let forList = renderedMemo.get(announcements);
    if (forList === undefined) {
      forList = new Map();
      renderedMemo.set(announcements, forList);
    }
    forList.set(target, value);
  }
  return value;
}

function injected(role: 'user' | 'system', text: string): NormalizedMessage {
  return { role, text, calls: [], callId: '', name: '', positional: role === 'system', src: -1 };
}

/** Index of the conversational tail: the last user or tool message; -1 when there is none. */
function lastTail(messages: readonly NormalizedMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = messages[i]!.role;
    if (role === 'user' || role === 'tool') return i;
  }
  return -1;
}

/** Insertion point before any trailing assistant messages (a prefill). */
function beforePrefill(messages: readonly NormalizedMessage[]): number {
  let at = messages.length;
  while (at > 0 && messages[at - 1]!.role === 'assistant') at--;
  return at;
}

// ─── 3. Tools ────────────────────────────────────────────────────────────────

type Warn = (code: TargetWarningCode, message: string) => void;

// The search tools are constants: built once, and one identity each, so the
// cache-key memo recognizes them without serializing them on every compile.
const ANTHROPIC_SEARCH_REGEX: AnthropicToolSearchTool = Object.freeze({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
const ANTHROPIC_SEARCH_BM25: AnthropicToolSearchTool = Object.freeze({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
const RESPONSES_SEARCH: ResponsesToolSearchTool = Object.freeze({ type: 'tool_search' });

function searchTool(target: Target, option: TargetCompileOptions['toolSearch'], warn: Warn): unknown {
  if (option === undefined || option === false) return undefined;
  if (target === 'anthropic') return option === 'bm25' ? ANTHROPIC_SEARCH_BM25 : ANTHROPIC_SEARCH_REGEX;
  if (target === 'openai-responses') return RESPONSES_SEARCH;
  warn('tool-search-unsupported', `target '${target}' has no tool-search tool; options.toolSearch was ignored (deferred tools are sent in full there).`);
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
function assembleTools(target: Target, search: unknown, input: TargetCompileInput, warn: Warn): readonly unknown[] {
  if (search === undefined && (input.deferred === undefined || input.deferred.length === 0) && input.loaded.length === 0) {
    return Object.isFrozen(input.stable) ? input.stable : [...input.stable];
  }
  const seen = new Set<string>();
  const tools: unknown[] = [];
  const add = (tool: unknown, mayDrop: boolean): void => {
    const name = toolName(target, tool);
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
  return tools;
}

/** The name a rendered tool is called by, per target's shape. */
function toolName(target: Target, tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const record = tool as { name?: unknown; function?: { name?: unknown } };
  const name = target === 'openai' ? record.function?.name : record.name;
  return typeof name === 'string' ? name : undefined;
}

// ─── 4. Anthropic ────────────────────────────────────────────────────────────

function anthropicPayload(
  input: TargetCompileInput,
  options: TargetCompileOptions,
  systemText: string,
  placed: PlacedMessages,
  search: unknown,
  assembled: readonly AnthropicToolUnion[],
  warn: Warn,
): AnthropicPayload {
  const breakpoints = readBreakpoints(options.cacheBreakpoints, input.messages.length);
  // The assembled array may be the caller's frozen stable array: copy before adding a breakpoint to it.
  const tools = breakpoints.tools ? [...assembled] : assembled;

  // Tools: a breakpoint at the end of the stable prefix (never on a deferred tool).
  if (breakpoints.tools) {
    const prefixLength = (search === undefined ? 0 : 1) + input.stable.length;
    let at = -1;
    for (let i = Math.min(prefixLength, tools.length) - 1; i >= 0; i--) {
      if (!isMarkedDeferred(tools[i])) {
        at = i;
        break;
      }
    }
    if (at === -1) {
      throw new ToolrouteConfigError(
        'cache-breakpoint-target',
        "cacheBreakpoints has 'tools' but the stable prefix holds no non-deferred tool to carry it. Fix: drop 'tools' from cacheBreakpoints, or offer at least one non-deferred tool.",
      );
    }
    (tools as AnthropicToolUnion[])[at] = { ...tools[at]!, cache_control: { type: 'ephemeral' } };
  }

  // System: a string unless a breakpoint or the hoist needs separate blocks.
  let system: AnthropicPayload['system'];
  if (breakpoints.system || placed.hoisted !== '') {
    if (breakpoints.system && systemText === '') {
      throw new ToolrouteConfigError(
        'cache-breakpoint-target',
        "cacheBreakpoints has 'system' but the request has no system text. Fix: pass `system`, or drop 'system' from cacheBreakpoints.",
      );
    }
    const blocks: AnthropicTextBlock[] = [];
    if (systemText !== '') {
      const block: AnthropicTextBlock = { type: 'text', text: systemText };
      if (breakpoints.system) block.cache_control = { type: 'ephemeral' };
      blocks.push(block);
    }
    // After the stable text, so the tools+system prefix (and its key) is unchanged by the hoist.
    if (placed.hoisted !== '') blocks.push({ type: 'text', text: placed.hoisted });
    system = blocks;
  } else if (systemText !== '') {
    system = systemText;
  }

  const converted = toAnthropicMessages(placed.messages, breakpoints.messages);
  if (converted.unplacedBreakpoints.length > 0) {
    throw new ToolrouteConfigError(
      'cache-breakpoint-target',
      `cacheBreakpoints names messages[${converted.unplacedBreakpoints.join('], messages[')}], which is a system message; system messages join the top-level system prompt on Anthropic. Fix: use the 'system' breakpoint instead.`,
    );
  }

  const facts = toolFacts(tools);
  checkAnthropicRules(facts, tools.length, system, converted.messages);
  if (facts.anyDeferred && search === undefined && !facts.anySearch) {
    warn(
      'anthropic-deferred-without-search',
      'some tools have defer_loading but the request has no tool-search tool, so the model cannot discover them. Fix: pass options.toolSearch.',
    );
  }

  const payload: AnthropicPayload = { messages: converted.messages };
  if (options.cacheAudit) auditCachePlacement(system, converted.messages, warn);
  const out: AnthropicPayload = system === undefined ? payload : { system, ...payload };
  if (tools.length > 0) out.tools = tools as AnthropicToolUnion[];
  return out;
}

function readBreakpoints(
  list: readonly CacheBreakpoint[] | undefined,
  messageCount: number,
): { tools: boolean; system: boolean; messages: Set<number> } {
  const out = { tools: false, system: false, messages: new Set<number>() };
  for (const bp of list ?? []) {
    if (bp === 'tools') out.tools = true;
    else if (bp === 'system') out.system = true;
    else if (typeof bp === 'object' && bp !== null && Number.isInteger(bp.message) && bp.message >= 0 && bp.message < messageCount) {
      out.messages.add(bp.message);
    } else {
      throw new ToolrouteConfigError(
        'cache-breakpoint-target',
        `cacheBreakpoints entry ${JSON.stringify(bp)} names nothing: use 'tools', 'system' or { message: i } with 0 <= i < ${messageCount} (an index into the messages passed to compile).`,
      );
    }
  }
  return out;
}

const MAX_BREAKPOINTS = 4;

function isSearchTool(tool: unknown): boolean {
  const type = (tool as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith('tool_search_tool_');
}

/** What the Anthropic rules need to know about a tools array. */
interface ToolFacts {
  /** The first tool breaking a per-tool rule, in array order (that is the error reported). */
  readonly firstProblem: { readonly code: 'anthropic-search-tool-deferred' | 'anthropic-deferred-cache-control'; readonly name: string } | undefined;
  readonly anyDeferred: boolean;
  readonly allDeferred: boolean;
  readonly anySearch: boolean;
  readonly cacheControls: number;
}

// Facts per tools array, for arrays that cannot change: frozen, with frozen
// entries (the facts read only top-level fields). The router passes the same
// frozen array turn after turn, so the per-tool passes run once per array.
const toolFactsMemo = new WeakMap<readonly unknown[], ToolFacts>();

function toolFacts(tools: readonly AnthropicToolUnion[]): ToolFacts {
  const hit = toolFactsMemo.get(tools);
  if (hit !== undefined) return hit;
  let firstProblem: ToolFacts['firstProblem'];
  let deferredCount = 0;
  let anySearch = false;
  let cacheControls = 0;
  let immutable = Object.isFrozen(tools);
  for (const tool of tools) {
    const deferred = isMarkedDeferred(tool);
    const search = isSearchTool(tool);
    if (deferred) deferredCount++;
    if (search) anySearch = true;
    if (tool.cache_control != null) cacheControls++;
    if (firstProblem === undefined && deferred && search) firstProblem = { code: 'anthropic-search-tool-deferred', name: tool.name };
    else if (firstProblem === undefined && deferred && tool.cache_control != null) firstProblem = { code: 'anthropic-deferred-cache-control', name: tool.name };
    if (immutable && !Object.isFrozen(tool)) immutable = false;
  }
  const facts: ToolFacts = {
    firstProblem,
    anyDeferred: deferredCount > 0,
    allDeferred: tools.length > 0 && deferredCount === tools.length,
    anySearch,
    cacheControls,
  };
  if (immutable) toolFactsMemo.set(tools, facts);
  return facts;
}

/** The request rules Anthropic answers with a 400 (providers.md §1), checked before sending. */
function checkAnthropicRules(
  facts: ToolFacts,
  toolCount: number,
  system: AnthropicPayload['system'],
  messages: AnthropicPayload['messages'],
): void {
  const problem = facts.firstProblem;
  if (problem?.code === 'anthropic-search-tool-deferred') {
    throw new ToolrouteConfigError(
      'anthropic-search-tool-deferred',
      `the tool-search tool '${problem.name}' has defer_loading: true; Anthropic requires the search tool itself to be loaded. Fix: remove defer_loading from it.`,
    );
  }
  if (problem?.code === 'anthropic-deferred-cache-control') {
    throw new ToolrouteConfigError(
      'anthropic-deferred-cache-control',
      `tool '${problem.name}' has both defer_loading: true and cache_control; deferred tools cannot use prompt caching. Fix: remove cache_control from it (put breakpoints on non-deferred tools, e.g. cacheBreakpoints: ['tools']).`,
    );
  }
  if (facts.allDeferred) {
    throw new ToolrouteConfigError(
      'anthropic-all-tools-deferred',
      `all ${toolCount} tools have defer_loading: true; Anthropic requires at least one non-deferred tool. Fix: pass options.toolSearch (the search tool is never deferred), or mark at least one tool without deferLoading in the spec.`,
    );
  }
  let count = facts.cacheControls;
  if (Array.isArray(system)) count += system.filter((b) => b.cache_control != null).length;
  for (const m of messages) {
    if (Array.isArray(m.content)) count += (m.content as Array<{ cache_control?: unknown }>).filter((b) => b.cache_control != null).length;
  }
  if (count > MAX_BREAKPOINTS) {
    throw new ToolrouteConfigError(
      'anthropic-too-many-breakpoints',
      `the request carries ${count} cache_control breakpoints; Anthropic allows at most ${MAX_BREAKPOINTS}. Fix: pass fewer cacheBreakpoints (rendered tools may carry their own cache_control, which count too).`,
    );
  }
}

/**
 * Warn when an `<announcements>` block sits at or before the last breakpoint:
 * announcements change between turns, so the cached prefix would be rewritten.
 * Segments in prefix order: system blocks, then messages (the reference
 * library's `auditAnthropicCachePlacement`).
 */
function auditCachePlacement(system: AnthropicPayload['system'], messages: AnthropicPayload['messages'], warn: Warn): void {
  const segments: Array<{ location: string; text: string; breakpoint: boolean }> = [];
  if (Array.isArray(system)) {
    system.forEach((b, i) => segments.push({ location: `system[${i}]`, text: b.text, breakpoint: b.cache_control != null }));
  } else if (typeof system === 'string') {
    segments.push({ location: 'system', text: system, breakpoint: false });
  }
  messages.forEach((m, i) => {
    if (typeof m.content === 'string') {
      segments.push({ location: `messages[${i}]`, text: m.content, breakpoint: false });
      return;
    }
    let text = '';
    let breakpoint = false;
    for (const block of m.content as Array<{ text?: unknown; content?: unknown; cache_control?: unknown }>) {
      if (typeof block.text === 'string') text += `\n${block.text}`;
      else if (typeof block.content === 'string') text += `\n${block.content}`;
      if (block.cache_control != null) breakpoint = true;
    }
    segments.push({ location: `messages[${i}]`, text, breakpoint });
  });
  let last = -1;
  segments.forEach((s, i) => {
    if (s.breakpoint) last = i;
  });
  for (let i = 0; i <= last; i++) {
    const segment = segments[i]!;
    if (!segment.text.includes('<announcements>')) continue;
    warn(
      'cache-audit',
      i === last
        ? `cache audit: ${segment.location} carries the final cache_control breakpoint and an <announcements> block, so the cache entry is rewritten whenever announcements change. Fix: move the breakpoint to an earlier, stable message.`
        : `cache audit: an <announcements> block in ${segment.location} sits inside the cached prefix (a breakpoint follows it), so every change to announcements invalidates the cache. Fix: move the breakpoint before the conversation tail.`,
    );
  }
}
