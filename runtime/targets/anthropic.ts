/**
 * Anthropic Messages (`client.messages.create`): `Tool` `{ name, description, input_schema, defer_loading? }`, tool
 * search `tool_search_tool_*_20251119`, the payload with its cache breakpoints, and the request rules Anthropic answers
 * with a 400, checked before anything is sent.
 */
import { withoutCacheControl } from '../cache-key.js';
import { loadCalls, type ToolkitCatalog } from '../toolkit-loading.js';
import { isMarkedDeferred, list, memoFrozen, namedTool, type TargetAdapter, type TurnStop, type Warn } from './adapter.js';
import type { CacheBreakpoint, ToolChanges } from './compile.js';
import { ToolrouteConfigError } from './errors.js';
import { argumentsObject, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantItems, assistantMessage, fnv1a, items, OTHER, readItems, replayItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { anthropicKeyPlan, anthropicSchema } from './property-keys.js';
import { portableParameters, type JsonSchema } from './schema.js';
import type {
  AnthropicAssistantBlock, AnthropicMessage, AnthropicPayload, AnthropicTextBlock, AnthropicTool, AnthropicToolChangeBlock, AnthropicToolChangesBeta,
  AnthropicToolChangesMessage, AnthropicToolChangesPayload, AnthropicToolResultBlock, AnthropicToolSearchTool, AnthropicToolUnion
} from './types.js';

const SEARCH_REGEX: AnthropicToolSearchTool = Object.freeze({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
const SEARCH_BM25: AnthropicToolSearchTool = Object.freeze({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });

/** Top-level property keys Anthropic refuses (a 400 for the whole request) under wire names, decoded back at dispatch (property-keys.ts). */
const wireKeys = (schema: JsonSchema): JsonSchema => anthropicSchema(schema, anthropicKeyPlan(schema));
const deferredForm = memoFrozen((tool: AnthropicTool): AnthropicTool => ({ ...tool, defer_loading: true }));
/** An Anthropic tool with `defer_loading: true`, memoized and frozen per source. */
const asDeferred = (tool: AnthropicTool): AnthropicTool => (tool.defer_loading === true ? tool : deferredForm(tool));

/** The Anthropic adapter. */
export const anthropic: TargetAdapter<'anthropic'> = {
  target: 'anthropic',
  // The same form for tools, namespaces and the loader.
  render(tool): AnthropicTool {
    const out: AnthropicTool = { name: tool.name, description: tool.description, input_schema: wireKeys(portableParameters(tool.parameters)) as AnthropicTool['input_schema'] };
    if (tool.deferLoading) out.defer_loading = true;
    return out;
  },
  toolName: namedTool,
  systemMessages: 'all',
  // Sonnet 5 has no mid-conversation system messages: announce with `user_tail` explicitly there.
  announcements: Object.freeze({ auto: 'system', withoutTail: 'hoist' }),
  wireParameters: wireKeys,
  searchTool: (option) => (option === 'bm25' ? SEARCH_BM25 : SEARCH_REGEX),
  sentTools: (p) => list(p['tools']),
  // "Deferred tools are not included in the system-prompt prefix."
  cachedTools: (tools) => tools.filter((t) => !isMarkedDeferred(t)),
  cacheBlocks(p, add) {
    list(p['tools']).forEach((t, i) => { if (!isMarkedDeferred(t)) add('tools', `tools[${i}]`, t); });
    const system = p['system'];
    if (typeof system === 'string') add('system', 'system', { type: 'text', text: system });
    else list(system).forEach((b, i) => add('system', `system[${i}]`, b));
    // Anthropic documents that a tool_choice change invalidates the message cache.
    if (p['tool_choice'] !== undefined) add('tool_choice', 'tool_choice', p['tool_choice']);
    // One block per content block, so a tool-result turn that gains a text block keeps its first blocks.
    list(p['messages']).forEach((m, i) => {
      const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
      if (typeof content === 'string') add('conversation', `messages[${i}].content`, { role, block: { type: 'text', text: content } });
      else list(content).forEach((b, j) => add('conversation', `messages[${i}].content[${j}]`, { role, block: withoutCacheControl(b) }));
    });
  },
  allowedTools: {
    unsupported:
      "Anthropic has no allowed-tools tool_choice; it withdraws tools with tool_removal blocks in the 'tool-changes' strategy, which this router does not use (toolkitLoading, model). The gate enforces the blocklist alone.",
  },
  // Mid-conversation system messages: Opus 4.8, 5 and 5.5, Fable 5.x, Mythos 5.x (not Sonnet 5).
  // https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages
  namespaces: undefined,
  toolChangeModels: /^claude-(opus-(4-8|5)|fable-5|mythos-5)/,
  toolkitLoading: Object.freeze({ native: 'deferred' as const, unloadedTool: asDeferred }),
  toolResultErrorFlag: true,
  buildPayload({ input, options, systemText, placed, searchTool: search, tools: assembled, warn }): AnthropicPayload {
    const breakpoints = readBreakpoints(options.cacheBreakpoints, input.messages.length);
    const tools = breakpoints.tools ? [...assembled] : assembled;
    if (breakpoints.tools) {
      // At the end of the stable prefix, never on a deferred tool.
      const prefixLength = Math.min((search === undefined ? 0 : 1) + input.stable.length, tools.length);
      const at = tools.slice(0, prefixLength).findLastIndex((t) => !isMarkedDeferred(t));
      if (at === -1) {
        throw new ToolrouteConfigError('cache-breakpoint-target', "cacheBreakpoints has 'tools' but the stable prefix holds no non-deferred tool to carry it. Fix: drop 'tools' from cacheBreakpoints, or offer at least one non-deferred tool.");
      }
      (tools as AnthropicToolUnion[])[at] = { ...tools[at]!, cache_control: { type: 'ephemeral' } };
    }

    // A string unless a breakpoint or the hoist needs separate blocks.
    let system: AnthropicPayload['system'] = systemText === '' ? undefined : systemText;
    if (breakpoints.system || placed.hoisted !== '') {
      if (breakpoints.system && systemText === '') {
        throw new ToolrouteConfigError('cache-breakpoint-target', "cacheBreakpoints has 'system' but the request has no system text. Fix: pass `system`, or drop 'system' from cacheBreakpoints.");
      }
      const blocks: AnthropicTextBlock[] = [];
      if (systemText !== '') blocks.push(breakpoints.system ? { type: 'text', text: systemText, cache_control: { type: 'ephemeral' } } : { type: 'text', text: systemText });
      // After the stable text, so the tools+system prefix (and its key) is unchanged by the hoist.
      if (placed.hoisted !== '') blocks.push({ type: 'text', text: placed.hoisted });
      system = blocks;
    }
    const deferredNames = new Set(tools.filter(isMarkedDeferred).map((t) => t.name));
    const mode = input.toolkits?.mode;
    const deferredMode = mode === 'deferred' || mode === 'tool-changes';
    const changes = input.toolChanges;
    let messages = toAnthropicMessages(placed.messages, breakpoints.messages);
    if (mode === 'deferred') messages = withToolReferences(messages, placed.messages, input.toolkits!.catalog, deferredNames);
    if (mode === 'tool-changes') messages = withToolChanges(messages, placed.messages, input.toolkits!.catalog, deferredNames, changes, warn);
    checkAnthropicRules(tools, system, messages);
    // Toolkit tools deferred by the `deferred` mode are found through load_toolkit, not a search tool.
    const searchNeeded = deferredMode ? (input.deferred?.length ?? 0) > 0 || input.stable.some(isMarkedDeferred) : deferredNames.size > 0;
    if (searchNeeded && search === undefined && !tools.some(isSearchTool)) {
      warn('anthropic-deferred-without-search', 'some tools have defer_loading but the request has no tool-search tool, so the model cannot discover them. Fix: pass options.toolSearch.');
    }
    if (options.cacheAudit) auditCachePlacement(system, messages, warn);
    const out: AnthropicPayload = system === undefined ? { messages } : { system, messages };
    if (tools.length > 0) out.tools = tools as AnthropicToolUnion[];
    if (mode === 'tool-changes') {
      const betas: AnthropicToolChangesBeta[] = ['mid-conversation-tool-changes-2026-07-01'];
      if ((changes?.added.length ?? 0) > 0) betas.push('inline-tools-2026-09-15');
      (out as AnthropicToolChangesPayload).betas = betas;
    }
    return out;
  },
  // A message still streaming has a null `stop_reason` (a snapshot); a finished one always names why it stopped.
  stop: (response) => (response['stop_reason'] === null ? 'unfinished' : STOPS.get(response['stop_reason'])),
  response: { name: 'an Anthropic `Message` (`messages.create`)', is: (response) => Array.isArray(response['content']) },
  readResponse: (response) => {
    const content = items(response['content']);
    if (content.length === 0) return [];
    const { text, calls } = readItems(content, classifyAnthropicBlock);
    return [assistantMessage(text, calls, { target: 'anthropic', content })];
  },
};

/** How an Anthropic content block reads: `text` is text, `tool_use` a call, everything else (thinking, server tools) state. */
export function classifyAnthropicBlock(block: ProviderItem): ItemClass {
  if (block['type'] === 'text') return { kind: 'text', text: str(block['text']) };
  if (block['type'] === 'tool_use') return { kind: 'call', id: str(block['id']), name: str(block['name']), arguments: argumentsText(block['input']) };
  return OTHER;
}

/** A call id as Anthropic takes it (`^[a-zA-Z0-9_-]+$`, else a 400): another provider's (`functions.get_time:0`, '') as a valid one derived from it. */
const anthropicId = (id: string): string => (/^[a-zA-Z0-9_-]+$/.test(id) ? id : `${id.replace(/[^a-zA-Z0-9_-]/g, '_')}_${fnv1a(id)}`);

const REPLAY: ReplayCodec<AnthropicAssistantBlock> & { text: (text: string) => AnthropicAssistantBlock } = {
  classify: classifyAnthropicBlock,
  text: (text) => ({ type: 'text', text }),
  call: (call) => ({ type: 'tool_use', id: anthropicId(call.id), name: call.name, input: argumentsObject(call.arguments) }),
};

type AnthropicBlock = AnthropicTextBlock | AnthropicToolResultBlock | AnthropicAssistantBlock;
interface AnthropicTurn {
  readonly role: 'user' | 'assistant' | 'system';
  readonly blocks: Array<{ block: AnthropicBlock; src: number }>;
  /** A replayed turn is sent as its blocks, never collapsed to a string. */
  readonly replayed?: boolean;
}

/**
 * Messages for `client.messages.create`: tool results become `tool_result` blocks in one user turn (a following user
 * message joins it after the results); system messages stay mid-conversation; Anthropic state sends its kept blocks.
 * `breakpoints` are caller message indices whose last block gets `cache_control`; one that names no block throws.
 * @example
 * toAnthropicMessages(normalizeMessages([{ role: 'user', content: 'hi' }]));
 * // → [{ role: 'user', content: 'hi' }]
 */
export function toAnthropicMessages(messages: readonly NormalizedMessage[], breakpoints: ReadonlySet<number> = new Set()): AnthropicMessage[] {
  const turns: AnthropicTurn[] = [];
  for (const m of messages) {
    const prev = turns[turns.length - 1];
    const afterResults = prev?.role === 'user' && prev.blocks.length > 0 && prev.blocks.every((b) => b.block.type === 'tool_result');
    if (m.role === 'system') {
      turns.push({ role: 'system', blocks: [{ block: { type: 'text', text: m.text }, src: m.src }] });
    } else if (m.role === 'tool' || m.role === 'user') {
      const block: AnthropicBlock =
        m.role === 'user' ? { type: 'text', text: m.text } : m.isError ? { type: 'tool_result', tool_use_id: anthropicId(m.callId), content: m.text, is_error: true } : { type: 'tool_result', tool_use_id: anthropicId(m.callId), content: m.text };
      if (afterResults) prev.blocks.push({ block, src: m.src });
      else turns.push({ role: 'user', blocks: [{ block, src: m.src }] });
    } else {
      const kept = m.state?.target === 'anthropic' ? replayItems(m.state.content, m.text, m.calls, REPLAY) : [];
      // An assistant turn with nothing in it (Claude may end a turn with `content: []`; another provider's whitespace) is a
      // 400 unless it is the last message: it is left out, and the API joins the user turns around it.
      if (kept.length === 0 && m.text.trim() === '' && m.calls.length === 0) continue;
      // An empty content array is a 400: a state with nothing left falls back to the neutral fields.
      const blocks = (kept.length > 0 ? kept : assistantItems(m, undefined, REPLAY)) as AnthropicAssistantBlock[];
      turns.push({ role: 'assistant', blocks: blocks.map((block) => ({ block, src: m.src })), replayed: kept.length > 0 });
    }
  }
  const unplacedBreakpoints: number[] = [];
  for (const src of breakpoints) {
    // Thinking blocks take no `cache_control` (a 400): the last other block of the message carries it.
    const entry = turns.flatMap((t) => t.blocks).findLast((b) => b.src === src && b.block.type !== 'thinking' && b.block.type !== 'redacted_thinking');
    if (entry === undefined) unplacedBreakpoints.push(src);
    else entry.block = { ...entry.block, cache_control: { type: 'ephemeral' } };
  }
  if (unplacedBreakpoints.length > 0) {
    throw new ToolrouteConfigError('cache-breakpoint-target', `cacheBreakpoints names messages[${unplacedBreakpoints.join('], messages[')}], which the request does not carry: a leading ` +
      "system message joins the top-level system prompt on Anthropic (fix: use the 'system' breakpoint), a tool result answering no call or a turn with nothing in it is left out, and thinking blocks take no breakpoint (fix: name a message that is sent, with a block other than thinking).");
  }
  return turns.map((turn) => {
    const only = turn.blocks[0]?.block;
    // A lone plain text block is sent as a string: the smallest form, and the reference library's.
    if (!turn.replayed && turn.blocks.length === 1 && only?.type === 'text' && only.cache_control === undefined) return { role: turn.role, content: only.text };
    return { role: turn.role, content: turn.blocks.map((b) => b.block) };
  }) as AnthropicMessage[];
}

/**
 * A compiled Anthropic payload typed as the `tool-changes` request it is (system messages carrying `tool_addition` /
 * `tool_removal`, and `betas`), or undefined for one of the other modes. Send it with `client.beta.messages.create`.
 * @example
 * const payload = router.compile({ target: 'anthropic', messages });
 * const beta = anthropicToolChanges(payload);
 * if (beta) await client.beta.messages.create({ model, max_tokens: 1024, ...beta });
 */
export function anthropicToolChanges(payload: AnthropicPayload): AnthropicToolChangesPayload | undefined {
  return Array.isArray((payload as Partial<AnthropicToolChangesPayload>).betas) ? (payload as unknown as AnthropicToolChangesPayload) : undefined;
}

function readBreakpoints(breakpoints: readonly CacheBreakpoint[] | undefined, messageCount: number): { tools: boolean; system: boolean; messages: Set<number> } {
  const out = { tools: false, system: false, messages: new Set<number>() };
  for (const bp of breakpoints ?? []) {
    if (bp === 'tools') out.tools = true;
    else if (bp === 'system') out.system = true;
    // The entry's form is checked with the other options (checkCompileOptions); its index only here, against the history.
    else if (bp.message < messageCount) out.messages.add(bp.message);
    else throw new ToolrouteConfigError('cache-breakpoint-target', `cacheBreakpoints entry ${JSON.stringify(bp)} names nothing: { message: i } takes 0 <= i < ${messageCount} (an index into the messages passed to compile).`);
  }
  return out;
}

const MAX_BREAKPOINTS = 4;
/** `stop_reason`s that are not a plain answer or plain tool calls. */
const STOPS: ReadonlyMap<unknown, TurnStop> = new Map([['pause_turn', 'paused'], ['max_tokens', 'cut-off'], ['model_context_window_exceeded', 'cut-off'], ['refusal', 'refused']]);

const isSearchTool = (tool: AnthropicToolUnion): boolean => String((tool as { type?: unknown }).type).startsWith('tool_search_tool_');

/** The request rules Anthropic answers with a 400, checked before sending; a per-tool rule reports the first tool breaking it. */
function checkAnthropicRules(tools: readonly AnthropicToolUnion[], system: AnthropicPayload['system'], messages: AnthropicPayload['messages']): void {
  for (const tool of tools.filter(isMarkedDeferred)) {
    if (isSearchTool(tool)) {
      throw new ToolrouteConfigError('anthropic-search-tool-deferred', `the tool-search tool '${tool.name}' has defer_loading: true; Anthropic requires the search tool itself to be loaded. Fix: remove defer_loading from it.`);
    }
    if (tool.cache_control != null) {
      throw new ToolrouteConfigError('anthropic-deferred-cache-control', `tool '${tool.name}' has both defer_loading: true and cache_control; deferred tools cannot use prompt caching. Fix: remove cache_control from it (put breakpoints on non-deferred tools, e.g. cacheBreakpoints: ['tools']).`);
    }
  }
  if (tools.length > 0 && tools.every(isMarkedDeferred)) {
    throw new ToolrouteConfigError('anthropic-all-tools-deferred', `all ${tools.length} tools have defer_loading: true; Anthropic requires at least one non-deferred tool. Fix: pass options.toolSearch (the search tool is never deferred), or mark at least one tool without deferLoading in the spec.`);
  }
  const marked = (blocks: unknown): number => list(blocks).filter((b) => (b as { cache_control?: unknown }).cache_control != null).length;
  const count = marked(tools) + marked(system) + messages.reduce((n, m) => n + marked(m.content), 0);
  if (count > MAX_BREAKPOINTS) {
    throw new ToolrouteConfigError('anthropic-too-many-breakpoints', `the request carries ${count} cache_control breakpoints; Anthropic allows at most ${MAX_BREAKPOINTS}. Fix: pass fewer cacheBreakpoints (rendered tools may carry their own cache_control, which count too).`);
  }
}

/** Warn when an `<announcements>` block sits at or before the last breakpoint: announcements change between turns, so the cached prefix would be rewritten. */
function auditCachePlacement(system: AnthropicPayload['system'], messages: AnthropicPayload['messages'], warn: Warn): void {
  const segments: Array<{ location: string; text: string; breakpoint: boolean }> = [];
  if (typeof system === 'string') segments.push({ location: 'system', text: system, breakpoint: false });
  else system?.forEach((b, i) => segments.push({ location: `system[${i}]`, text: b.text, breakpoint: b.cache_control != null }));
  messages.forEach((m, i) => {
    if (typeof m.content === 'string') return segments.push({ location: `messages[${i}]`, text: m.content, breakpoint: false });
    // A block's text is its `text`, else its string `content` (a tool result).
    const texts = (m.content as Array<{ text?: unknown; content?: unknown }>).map((b) => (typeof b.text === 'string' ? b.text : b.content));
    const text = texts.filter((t) => typeof t === 'string').map((t) => `\n${t}`).join('');
    return segments.push({ location: `messages[${i}]`, text, breakpoint: m.content.some((b) => b.cache_control != null) });
  });
  const last = segments.findLastIndex((s) => s.breakpoint);
  segments.slice(0, last + 1).forEach((segment, i) => {
    if (!segment.text.includes('<announcements>')) return;
    warn(
      'cache-audit',
      i === last
        ? `cache audit: ${segment.location} carries the final cache_control breakpoint and an <announcements> block, so the cache entry is rewritten whenever announcements change. Fix: move the breakpoint to an earlier, stable message.`
        : `cache audit: an <announcements> block in ${segment.location} sits inside the cached prefix (a breakpoint follows it), so every change to announcements invalidates the cache. Fix: move the breakpoint before the conversation tail.`,
    );
  });
}

/**
 * The `tool-changes` mode: a system message with one `tool_addition` per deferred tool of a toolkit right after the
 * turn holding its successful load's result (fixed in the history, so cached), and at the tail (after the last user or
 * tool-result turn, never after a paused assistant turn) the current changes from `tools`: a `tool_removal` per tool
 * the gate rejects, a by-value `tool_addition` per tool registered after the first turn. Anthropic refuses adjacent
 * system messages, so blocks join a system message already there.
 * @example
 * withToolChanges(messages, normalized, catalog, deferred, { withdrawn: ['delete_file'], added: [] }, warn);
 * // → [..., { role: 'system', content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'delete_file' } }] }]
 */
export function withToolChanges(messages: AnthropicMessage[], normalized: readonly NormalizedMessage[], catalog: ToolkitCatalog, deferredNames: ReadonlySet<string>,
  changes: ToolChanges | undefined, warn: Warn): AnthropicMessage[] {
  const loads = loadCalls(normalized, catalog);
  const out: AnthropicToolChangesMessage[] = [];
  // Blocks go into a system message already at `at` (Anthropic refuses two adjacent ones), before or after its own.
  const addTo = (at: number, blocks: AnthropicToolChangeBlock[], first: boolean): void => {
    const next = out[at];
    if (next?.role !== 'system') return void out.splice(at, 0, { role: 'system', content: blocks });
    const own = typeof next.content === 'string' ? [{ type: 'text' as const, text: next.content }] : next.content;
    out[at] = { role: 'system', content: first ? [...blocks, ...own] : [...own, ...blocks] };
  };
  const added = new Set<string>();
  const pending: Array<{ at: number; blocks: AnthropicToolChangeBlock[] }> = [];
  for (const message of messages) {
    out.push(message);
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    const names = message.content.flatMap((b) => (b.type === 'tool_result' ? (loads.get(b.tool_use_id)?.tools ?? []) : []));
    const fresh = [...new Set<string>(names)].filter((name) => deferredNames.has(name) && !added.has(name));
    fresh.forEach((name) => added.add(name));
    if (fresh.length > 0) pending.push({ at: out.length, blocks: fresh.map((name) => ({ type: 'tool_addition', tool: { type: 'tool_reference', name } })) });
  }
  for (const { at, blocks } of pending.reverse()) addTo(at, blocks, true);
  const tail: AnthropicToolChangeBlock[] = [
    ...(changes?.withdrawn ?? []).map((name): AnthropicToolChangeBlock => ({ type: 'tool_removal', tool: { type: 'tool_reference', name } })),
    ...(changes?.added ?? []).map((definition): AnthropicToolChangeBlock => ({ type: 'tool_addition', tool: { type: 'tool_definition', definition: definition as AnthropicTool } })),
  ];
  if (tail.length > 0) {
    const last = out.findLastIndex((m) => m.role === 'user');
    if (last === -1) warn('tool-changes-unplaced', 'the history has no user turn to place tool changes after; the tools the gate rejects stay visible this turn (the gate still rejects their calls).');
    else addTo(last + 1, tail, false);
  }
  return out as AnthropicMessage[];
}

/**
 * A successful `load_toolkit` call's `tool_result` gains one `tool_reference` block per tool of the toolkit the request
 * sends deferred; the cached prefix is untouched. Returns `messages` itself when nothing answers a load.
 * @example
 * withToolReferences(messages, normalized, catalog, new Set(['get_forecast']));
 * // tool_result content → [{ type: 'text', text: 'Toolkit "Weather" loaded. …' }, { type: 'tool_reference', tool_name: 'get_forecast' }]
 */
export function withToolReferences(messages: AnthropicMessage[], normalized: readonly NormalizedMessage[], catalog: ToolkitCatalog, deferredNames: ReadonlySet<string>): AnthropicMessage[] {
  const loads = loadCalls(normalized, catalog);
  if (loads.size === 0) return messages;
  return messages.map((message): AnthropicMessage => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    const blocks = message.content.map((block) => {
      if (block.type !== 'tool_result') return block;
      const refs = loads.get(block.tool_use_id)?.tools.filter((name) => deferredNames.has(name)) ?? [];
      if (refs.length === 0) return block;
      const text = typeof block.content === 'string' ? block.content : '';
      return { ...block, content: [{ type: 'text' as const, text }, ...refs.map((tool_name) => ({ type: 'tool_reference' as const, tool_name }))] };
    });
    return blocks.some((block, i) => block !== message.content[i]) ? { role: 'user', content: blocks } : message;
  });
}
