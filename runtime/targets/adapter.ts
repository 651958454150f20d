/**
 * The one interface every target implements (one `TargetAdapter<'its-name'>` per module, listed in index.ts): the
 * shared code asks the adapter, and nothing outside this folder branches on a target's name.
 */
import type { AnnouncementPlacement, PlacedMessages } from '../announcements.js';
import type { CacheBlock } from '../cache-reuse.js';
import type { Target } from '../contract.js';
import type { NeutralMessage, ProviderItem } from './history.js';
import type { JsonSchema } from './schema.js';
import type { TargetCompileInput, TargetCompileOptions, TargetWarningCode } from './compile.js';
import type { RenderedToolMap, TargetPayloadMap, TargetToolMap } from './types.js';

/**
 * Why a turn ended when it was not a plain answer or plain tool calls: `paused` (Anthropic's `pause_turn`: sent back as
 * it is, the model goes on), `cut-off` (at the output token limit: a call in it may be half written, so none runs),
 * `refused` (the model declined), `blocked` (the provider's safety filter), `malformed-call` (a call the provider could
 * not read, so the turn carries none: Gemini's `MALFORMED_FUNCTION_CALL` and kin), `failed` (the provider ended the turn
 * with an error, or for a reason it does not name: Responses `failed` / `cancelled`, Gemini `OTHER`), `unfinished` (the
 * response is still being made: a background Responses response queued or in progress, an Anthropic stream snapshot).
 */
export type TurnStop = 'paused' | 'cut-off' | 'refused' | 'blocked' | 'malformed-call' | 'failed' | 'unfinished';

export type { JsonSchema } from './schema.js';

/** A tool as the model sees it, before any target's rules are applied. */
export interface NeutralTool {
  /** A spec tool, a namespace tool, or `load_toolkit`. */
  readonly kind: 'tool' | 'namespace' | 'loader';
  readonly name: string;
  readonly description: string;
  /** `type: "object"` schema, local refs already inlined. */
  readonly parameters: JsonSchema;
  readonly deferLoading: boolean;
}

/** Options of every renderer. */
export interface RenderOptions {
  /** From the spec's `options.openaiStrict`. */
  readonly openaiStrict: boolean;
}

/** Emits one warning (compile prefixes `[toolroute] ` and calls `options.onWarning`). */
export type Warn = (code: TargetWarningCode, message: string) => void;

/** Everything the shared pipeline hands a target to build its payload. */
export interface PayloadContext<T extends Target> {
  readonly input: TargetCompileInput;
  readonly options: TargetCompileOptions;
  /** Caller's system, joined system messages and directory ('' for none). */
  readonly systemText: string;
  /** The history with announcements placed (system messages that joined `systemText` removed). */
  readonly placed: PlacedMessages;
  /** The search tool for `options.toolSearch`, or undefined. */
  readonly searchTool: unknown;
  /** The request's tools in order (search tool, stable, deferred, loaded); may be frozen: copy before changing. */
  readonly tools: readonly TargetToolMap[T][];
  readonly warn: Warn;
}

/** Receives one cache block (runtime/cache-reuse.ts) in the provider's cache order. */
export type BlockSink = (section: CacheBlock['section'], path: string, value: unknown) => void;

/** One target. Every member is required, so a new member is a compile error until each target says what it does. */
export interface TargetAdapter<T extends Target> {
  /** The target name; equal to this adapter's key in the table. */
  readonly target: T;
  /** A spec tool, namespace tool or loader in the target's wire shape. Pure; never mutates its input. */
  render(tool: NeutralTool, options: RenderOptions): RenderedToolMap[T];
  /** Its renames in a tool's `portableParameters` (what an SDK that renders tools itself sends), or undefined for none. */
  readonly wireParameters: ((schema: JsonSchema) => JsonSchema) | undefined;
  /** The name a rendered tool is called by (for duplicate detection), or undefined for a non-tool. */
  toolName(tool: unknown): string | undefined;
  /** Which history system messages join the top-level system text: `all`, or `leading` (later ones keep their place). */
  readonly systemMessages: 'all' | 'leading';
  /** Where announcements go on this target. */
  readonly announcements: AnnouncementPlacement;
  /** The tool-search tool for `options.toolSearch` (one frozen constant per choice), or undefined when the target has none. */
  readonly searchTool: ((option: 'regex' | 'bm25' | true) => TargetToolMap[T]) | undefined;
  /** The tools a compiled payload sends, in order. */
  sentTools(payload: ProviderItem): readonly unknown[];
  /** The sent tools the provider caches before the conversation, in order (Anthropic leaves deferred tools out). */
  cachedTools(tools: readonly unknown[]): readonly unknown[];
  /** A compiled payload cut into cache blocks, in the provider's cache order (runtime/cache-reuse.ts). */
  cacheBlocks(payload: ProviderItem, add: BlockSink): void;
  /** `options.allowedTools`: the gate field (`tool_choice`, `toolConfig`) that restricts the model to `names` (`search`: a tool-search tool among them), or why the target cannot. */
  readonly allowedTools: { readonly choice: (names: readonly string[], search: boolean) => unknown } | { readonly unsupported: string };
  /** The request fragment spread into the SDK call. May throw `ToolrouteConfigError` for a request the provider would reject. */
  buildPayload(context: PayloadContext<T>): TargetPayloadMap[T];
  /** The neutral history entries for one SDK response (`response.is` holds), the whole output kept as `provider` state to replay. Total. */
  readResponse(response: ProviderItem): NeutralMessage[];
  /** The SDK response `readResponse` takes, as named in errors, and whether an object is one (its envelope: the content may still be anything). */
  readonly response: { readonly name: string; is(response: ProviderItem): boolean };
  /** Why the turn ended, when it was not a plain answer or plain tool calls; undefined otherwise. Never throws. */
  stop(response: ProviderItem): TurnStop | undefined;
  /** What the `native` toolkit-loading strategy means here, and the tool forms that mode needs (runtime/toolkit-loading.ts). */
  readonly toolkitLoading: NativeToolkitLoading<T>;
  /** `options.namespaces: 'native'`: a namespace (or toolkit, `deferred` members) as the target's own namespace tool, one member per action; undefined where the target has none. */
  readonly namespaces: { tool(namespace: { readonly name: string; readonly description: string }, members: readonly RenderedToolMap[T][], deferred: boolean): TargetToolMap[T] } | undefined;
  /** The models that accept mid-conversation tool changes (the `tool-changes` strategy), or undefined where the target has none. */
  readonly toolChangeModels: RegExp | undefined;
  /** Whether a tool result carries a failure flag beside its text (Anthropic's `is_error`), so a rejection can be marked without rewording it. */
  readonly toolResultErrorFlag: boolean;
}

/**
 * What `native` toolkit loading is on one target. A `deferred` or `tool-search` target must supply that mode's tool
 * forms (pure, memoized per source object and frozen, so the router's arrays keep their identity).
 * @example const loading: NativeToolkitLoading<'anthropic'> = { native: 'deferred', unloadedTool: (tool) => ({ ...tool, defer_loading: true }) };
 */
export type NativeToolkitLoading<T extends Target> =
  | { readonly native: 'dispatcher' | 'append' }
  | {
      readonly native: 'deferred';
      /** A toolkit tool as sent from the first turn, before any load (Anthropic: `defer_loading: true`). */
      unloadedTool(tool: RenderedToolMap[T]): RenderedToolMap[T];
    }
  | {
      readonly native: 'tool-search';
      /** The loader as sent in place of the rendered function (Responses: a client-executed `tool_search`). */
      loaderTool(loader: RenderedToolMap[T]): TargetToolMap[T];
      /** A toolkit tool as a load's result carries it (Responses: in a `tool_search_output`). */
      loadedTool(tool: RenderedToolMap[T]): RenderedToolMap[T];
    };

/** The table type: one adapter per target, each typed by its own name. */
export type TargetAdapterTable = { readonly [T in Target]: TargetAdapter<T> };

/** Announcements as a user message at the tail (before a prefill without one): every target but Anthropic. */
export const TAIL_ANNOUNCEMENTS: AnnouncementPlacement = Object.freeze({ auto: 'user_tail', withoutTail: 'before-prefill' });

/** The `name` field of a rendered tool (every target but Chat Completions). */
export function namedTool(tool: unknown): string | undefined {
  const name = typeof tool === 'object' && tool !== null ? (tool as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** Whether a rendered tool is deferred on the wire (`defer_loading: true`: Anthropic and Responses). */
export function isMarkedDeferred(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { defer_loading?: unknown }).defer_loading === true;
}

/**
 * `derive`, memoized per source object and frozen, so the router's arrays keep their identity turn after turn.
 * @example const deferred = memoFrozen((tool: AnthropicTool) => ({ ...tool, defer_loading: true }));
 */
export function memoFrozen<S extends object, R extends object>(derive: (source: S) => R): (source: S) => R {
  const memo = new WeakMap<S, R>();
  return (source) => {
    let hit = memo.get(source);
    if (hit === undefined) memo.set(source, (hit = Object.freeze(derive(source))));
    return hit;
  };
}

/** The entries of an array (anything else gives []). */
export function list(value: unknown): readonly unknown[] { return Array.isArray(value) ? value : []; }

/** The leading cache blocks of a payload whose sections are flat fields (both OpenAI targets): one block per tool, `tool_choice`, then the system field. */
export function flatCacheBlocks(p: ProviderItem, add: BlockSink, system?: string): void {
  list(p['tools']).forEach((t, i) => add('tools', `tools[${i}]`, t));
  if (p['tool_choice'] !== undefined) add('tool_choice', 'tool_choice', p['tool_choice']);
  if (system !== undefined && p[system] !== undefined) add('system', system, p[system]);
}

/**
 * Adds `tools` (when there are any) and then `tool_choice` (when given) to a payload, the OpenAI targets' last keys.
 * @example withToolsAndChoice({ messages }, tools, undefined); // { messages, tools }
 */
export function withToolsAndChoice<P extends { tools?: unknown; tool_choice?: unknown }>(out: P, tools: readonly unknown[], toolChoice: unknown): P {
  if (tools.length > 0) out.tools = tools as P['tools'];
  if (toolChoice !== undefined) out.tool_choice = toolChoice as P['tool_choice'];
  return out;
}
