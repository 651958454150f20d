/**
 * Anthropic Messages (`client.messages.create`): the tool rendering, the
 * history conversion, and the payload with its cache breakpoints and the
 * request rules Anthropic answers with a 400 (providers.md §1), checked here
 * before anything is sent.
 *
 * Wire facts: `Tool` `{ name, description, input_schema, defer_loading? }`;
 * tool search is `tool_search_tool_regex_20251119` / `_bm25_20251119`; the
 * `auto` announcement channel is `system` (positional system messages), and
 * `system`-channel text with no tail is hoisted into the top-level system.
 */
import { isMarkedDeferred, stablePrefix } from '../cache-key.js';
import { loadCalls, type ToolkitCatalog } from '../toolkit-loading.js';
import { namedTool, type NeutralTool, type PayloadContext, type TargetAdapter, type Warn } from './adapter.js';
import type { CacheBreakpoint } from './compile.js';
import { ToolrouteConfigError } from './errors.js';
import { argumentsObject, type NeutralMessage, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantMessage, isRecord, items, OTHER, readItems, replayItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { anthropicKeyPlan, anthropicSchema } from './property-keys.js';
import { objectSchema } from './schema.js';
import type {
  AnthropicAssistantBlock,
  AnthropicConversion,
  AnthropicMessage,
  AnthropicPayload,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolSearchTool,
  AnthropicToolUnion,
} from './types.js';

// ─── Rendering ───────────────────────────────────────────────────────────────

/**
 * `Tool` `{ name, description, input_schema, defer_loading? }`; the same for tools, namespaces and the loader.
 * Top-level property keys outside `^[a-zA-Z0-9_.-]{1,64}$` (a 400 for the whole request) go out under
 * wire names; the tool's `keyDecode` maps them back at dispatch (property-keys.ts).
 */
function renderAnthropic(tool: NeutralTool): AnthropicTool {
  const schema = objectSchema(tool.parameters);
  const out: AnthropicTool = {
    name: tool.name,
    description: tool.description,
    input_schema: anthropicSchema(schema, anthropicKeyPlan(schema)) as AnthropicTool['input_schema'],
  };
  if (tool.deferLoading) out.defer_loading = true;
  return out;
}

// The search tools are constants: built once, and one identity each, so the
// cache-key memo recognizes them without serializing them on every compile.
const SEARCH_REGEX: AnthropicToolSearchTool = Object.freeze({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
const SEARCH_BM25: AnthropicToolSearchTool = Object.freeze({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });

/**
 * The Anthropic adapter.
 *
 * @example
 * anthropic.renderTool({ kind: 'tool', name: 'get_time', description: 'Get timestamp',
 *   parameters: { type: 'object', properties: {} }, deferLoading: false }, { openaiStrict: false });
 * // → { name: 'get_time', description: 'Get timestamp', input_schema: { type: 'object', properties: {} } }
 */
export const anthropic: TargetAdapter<'anthropic'> = {
  target: 'anthropic',
  renderTool: renderAnthropic,
  renderNamespace: renderAnthropic,
  renderLoader: renderAnthropic,
  toolName: namedTool,
  systemMessages: 'all',
  // Sonnet 5 has no mid-conversation system messages: announce with `user_tail` explicitly there.
  announcements: Object.freeze({ auto: 'system', withoutTail: 'hoist' }),
  searchTool: (option) => (option === 'bm25' ? SEARCH_BM25 : SEARCH_REGEX),
  cachePrefix: (tools, systemText, toolChoice) => stablePrefix('anthropic', tools, systemText, toolChoice),
  toolkitLoading: Object.freeze({ native: 'deferred' as const, unloadedTool: asDeferred }),
  convertMessages: (messages, options) => toAnthropicMessages(messages, options.cacheBreakpoints),
  buildPayload: anthropicPayload,
  readResponse: readAnthropicResponse,
};

// ─── Reading responses ───────────────────────────────────────────────────────

/**
 * How an Anthropic content block reads in the neutral history: `text` blocks
 * are text, `tool_use` blocks are calls (`input` as JSON text), everything
 * else (thinking, redacted_thinking, server tool blocks) is state.
 *
 * @example
 * classifyAnthropicBlock({ type: 'tool_use', id: 't1', name: 'get_time', input: {} });
 * // → { kind: 'call', id: 't1', name: 'get_time', arguments: '{}' }
 */
export function classifyAnthropicBlock(block: ProviderItem): ItemClass {
  if (block['type'] === 'text') return { kind: 'text', text: str(block['text']) };
  if (block['type'] === 'tool_use') return { kind: 'call', id: str(block['id']), name: str(block['name']), arguments: argumentsText(block['input']) };
  return OTHER;
}

/** `Message` → one assistant message: text blocks joined, tool_use → calls, `content` kept whole. */
function readAnthropicResponse(response: unknown): NeutralMessage[] {
  const content = isRecord(response) ? items(response['content']) : [];
  const { text, calls } = readItems(content, classifyAnthropicBlock);
  return [assistantMessage(text, calls, { target: 'anthropic', content })];
}

/** Rebuilds what the application changed in a replayed turn: a text block, a tool_use block. */
const REPLAY: ReplayCodec<AnthropicAssistantBlock> = {
  classify: classifyAnthropicBlock,
  text: (text) => ({ type: 'text', text }),
  call: (call) => ({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) }),
};

/**
 * The blocks of an assistant turn: the kept `content` replayed (thinking
 * blocks first, as received, then text and tool_use), or built from the
 * neutral text and calls when there is no Anthropic state.
 */
function assistantBlocks(m: NormalizedMessage): AnthropicAssistantBlock[] | undefined {
  if (m.state?.target !== 'anthropic') return undefined;
  const blocks = replayItems(m.state.content, m.text, m.calls, REPLAY);
  // An empty content array is a 400; a state with nothing in it falls back to the neutral fields.
  return blocks.length > 0 ? (blocks as AnthropicAssistantBlock[]) : undefined;
}

// ─── Messages ────────────────────────────────────────────────────────────────

type AnthropicBlock = AnthropicTextBlock | AnthropicToolResultBlock | AnthropicAssistantBlock;
interface AnthropicTurn {
  readonly role: 'user' | 'assistant' | 'system';
  readonly blocks: Array<{ block: AnthropicBlock; src: number }>;
  /** A replayed turn is sent as its blocks, never collapsed to a string. */
  readonly replayed?: boolean;
}

/**
 * Messages for `client.messages.create`. Tool calls become `tool_use` blocks
 * with parsed input; tool results become `tool_result` blocks in a user turn,
 * consecutive results merged into one user message (a user message right
 * after results joins it as a text block, after the results as the API
 * requires); positional system messages become mid-conversation `system`
 * messages. An assistant message with Anthropic `provider` state sends its
 * kept `content` (thinking blocks with their signatures first, as received;
 * replay.ts); a tool message flagged `is_error` gets `is_error: true`.
 * Top-level system text is the caller's business (compile.ts).
 * `breakpoints` are caller message indices (`src`) whose last block gets
 * `cache_control`.
 *
 * @example
 * toAnthropicMessages(normalizeMessages([{ role: 'user', content: 'hi' }])).messages;
 * // → [{ role: 'user', content: 'hi' }]
 */
export function toAnthropicMessages(
  messages: readonly NormalizedMessage[],
  breakpoints: ReadonlySet<number> = new Set(),
): AnthropicConversion {
  const turns: AnthropicTurn[] = [];
  const last = (): AnthropicTurn | undefined => turns[turns.length - 1];
  const onlyResults = (turn: AnthropicTurn | undefined): boolean =>
    turn !== undefined && turn.role === 'user' && turn.blocks.length > 0 && turn.blocks.every((b) => b.block.type === 'tool_result');

  for (const m of messages) {
    if (m.role === 'system') {
      turns.push({ role: 'system', blocks: [{ block: { type: 'text', text: m.text }, src: m.src }] });
    } else if (m.role === 'tool') {
      const block: AnthropicToolResultBlock = m.isError
        ? { type: 'tool_result', tool_use_id: m.callId, content: m.text, is_error: true }
        : { type: 'tool_result', tool_use_id: m.callId, content: m.text };
      const prev = last();
      if (onlyResults(prev)) prev!.blocks.push({ block, src: m.src });
      else turns.push({ role: 'user', blocks: [{ block, src: m.src }] });
    } else if (m.role === 'user') {
      const block: AnthropicTextBlock = { type: 'text', text: m.text };
      const prev = last();
      if (onlyResults(prev)) prev!.blocks.push({ block, src: m.src });
      else turns.push({ role: 'user', blocks: [{ block, src: m.src }] });
    } else {
      const replayed = assistantBlocks(m);
      if (replayed !== undefined) {
        turns.push({ role: 'assistant', blocks: replayed.map((block) => ({ block, src: m.src })), replayed: true });
        continue;
      }
      const blocks: AnthropicTurn['blocks'] = [];
      // An empty text block is a 400 on Anthropic; a tool-calling turn needs none.
      if (m.text !== '' || m.calls.length === 0) blocks.push({ block: { type: 'text', text: m.text }, src: m.src });
      for (const call of m.calls) {
        blocks.push({ block: { type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) }, src: m.src });
      }
      turns.push({ role: 'assistant', blocks });
    }
  }

  const unplaced: number[] = [];
  for (const src of breakpoints) {
    let found = false;
    for (let t = turns.length - 1; t >= 0 && !found; t--) {
      const blocks = turns[t]!.blocks;
      for (let b = blocks.length - 1; b >= 0; b--) {
        if (blocks[b]!.src === src) {
          blocks[b]!.block = { ...blocks[b]!.block, cache_control: { type: 'ephemeral' } };
          found = true;
          break;
        }
      }
    }
    if (!found) unplaced.push(src);
  }

  const out: AnthropicMessage[] = turns.map((turn) => {
    const blocks = turn.blocks.map((b) => b.block);
    const only = blocks[0];
    // A lone plain text block is sent as a string: the smallest form, and the seed's.
    if (turn.replayed !== true && blocks.length === 1 && only !== undefined && only.type === 'text' && only.cache_control === undefined) {
      return { role: turn.role, content: only.text } as AnthropicMessage;
    }
    return { role: turn.role, content: blocks } as AnthropicMessage;
  });
  return { messages: out, unplacedBreakpoints: unplaced };
}

// ─── Payload ─────────────────────────────────────────────────────────────────

function anthropicPayload(context: PayloadContext<'anthropic'>): AnthropicPayload {
  const { input, options, systemText, placed, searchTool: search, tools: assembled, warn } = context;
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

  let messages = converted.messages;
  if (input.toolkits?.mode === 'deferred') messages = withToolReferences(messages, placed.messages, input.toolkits.catalog, deferredNames(assembled));

  const facts = toolFacts(tools);
  checkAnthropicRules(facts, tools.length, system, messages);
  // Toolkit tools deferred by the `deferred` mode are found through load_toolkit, not a search tool.
  const searchNeeded = input.toolkits?.mode === 'deferred' ? otherDeferred(input) : facts.anyDeferred;
  if (searchNeeded && search === undefined && !facts.anySearch) {
    warn(
      'anthropic-deferred-without-search',
      'some tools have defer_loading but the request has no tool-search tool, so the model cannot discover them. Fix: pass options.toolSearch.',
    );
  }

  const payload: AnthropicPayload = { messages };
  if (options.cacheAudit) auditCachePlacement(system, messages, warn);
  const out: AnthropicPayload = system === undefined ? payload : { system, ...payload };
  if (tools.length > 0) out.tools = tools as AnthropicToolUnion[];
  return out;
}

const deferredNamesMemo = new WeakMap<readonly unknown[], ReadonlySet<string>>();

/** Names of the tools a request sends with `defer_loading: true` (memoized per frozen array). */
function deferredNames(tools: readonly AnthropicToolUnion[]): ReadonlySet<string> {
  const hit = deferredNamesMemo.get(tools);
  if (hit !== undefined) return hit;
  const names = new Set<string>();
  for (const t of tools) if (isMarkedDeferred(t)) names.add(t.name);
  if (Object.isFrozen(tools)) deferredNamesMemo.set(tools, names);
  return names;
}

/** Whether anything but the toolkit tools (`loaded` in the `deferred` mode) is deferred. */
function otherDeferred(input: PayloadContext<'anthropic'>['input']): boolean {
  return (input.deferred !== undefined && input.deferred.length > 0) || toolFacts(input.stable as readonly AnthropicToolUnion[]).anyDeferred;
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

// ─── Native toolkit loading: deferred tools + tool_reference ─────────────────

const deferredMemo = new WeakMap<object, AnthropicTool>();

/**
 * An Anthropic tool with `defer_loading: true` (memoized and frozen per source
 * object, so the tools array keeps its identity turn after turn).
 *
 * @example
 * asDeferred({ name: 'get_forecast', input_schema: { type: 'object' } }).defer_loading; // → true
 */
export function asDeferred(tool: AnthropicTool): AnthropicTool {
  if (tool.defer_loading === true) return tool;
  let hit = deferredMemo.get(tool);
  if (hit === undefined) {
    hit = Object.freeze({ ...tool, defer_loading: true });
    deferredMemo.set(tool, hit);
  }
  return hit;
}

/**
 * Rewrite the `tool_result` blocks that answer a successful `load_toolkit`
 * call: the result text, then one `tool_reference` block per tool of the
 * toolkit that the request sends deferred (`deferredNames`). Anthropic expands
 * each reference into the tool's definition at that point of the
 * conversation; the cached prefix (tools, system) is untouched. Tools sent
 * non-deferred are already visible and are not referenced (a reference to a
 * tool that is not in `tools` is a 400: "Tool reference '…' has no
 * corresponding tool definition"). Returns `messages` itself when nothing
 * answers a load.
 *
 * @example
 * withToolReferences(messages, normalized, catalog, new Set(['get_forecast']));
 * // tool_result content → [{ type: 'text', text: 'Toolkit "Weather" loaded. …' }, { type: 'tool_reference', tool_name: 'get_forecast' }]
 */
export function withToolReferences(
  messages: AnthropicMessage[],
  normalized: readonly NormalizedMessage[],
  catalog: ToolkitCatalog,
  deferredNames: ReadonlySet<string>,
): AnthropicMessage[] {
  const loads = loadCalls(normalized, catalog);
  if (loads.size === 0) return messages;
  let changed = false;
  const out = messages.map((message): AnthropicMessage => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    let blocks: typeof message.content | undefined;
    message.content.forEach((block, i) => {
      if (block.type !== 'tool_result') return;
      const kit = loads.get(block.tool_use_id)?.toolkit;
      if (kit === undefined) return;
      const refs = kit.tools.filter((name) => deferredNames.has(name));
      if (refs.length === 0) return;
      blocks ??= [...(message.content as Exclude<typeof message.content, string>)];
      blocks[i] = {
        ...block,
        content: [
          { type: 'text', text: typeof block.content === 'string' ? block.content : '' },
          ...refs.map((tool_name) => ({ type: 'tool_reference' as const, tool_name })),
        ],
      };
    });
    if (blocks === undefined) return message;
    changed = true;
    return { role: 'user', content: blocks };
  });
  return changed ? out : messages;
}
