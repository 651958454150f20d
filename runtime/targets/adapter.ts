/**
 * The one interface every target implements. A target is one module
 * (anthropic.ts, openai.ts, openai-responses.ts, gemini.ts) exporting one
 * `TargetAdapter<'its-name'>`, and one entry in the table in index.ts, typed so
 * that a target without an adapter, or an adapter without a member, does not
 * compile.
 *
 * What the shared code does with an adapter:
 * - rendering (index.ts `renderTool`): a spec tool, a namespace tool and the
 *   `load_toolkit` loader, each from its neutral definition, at codegen (the
 *   generator serializes the result) and at run time (run-time registrations);
 * - reading responses (runtime/conversation.ts `fromProvider`): the
 *   adapter's {@link TargetAdapter.readResponse}; what it keeps is replayed by
 *   its {@link TargetAdapter.convertMessages} (shared rule: replay.ts);
 * - compile (compile.ts `compileForTarget`): the pipeline is shared, the
 *   per-target facts and steps are read from here: which system messages join
 *   the top-level prompt, where announcements go, the search tool, how a
 *   rendered tool is named, the cached prefix, and the payload itself (which
 *   converts the placed history with {@link TargetAdapter.convertMessages}).
 * - toolkit loading (toolkit-loading.ts): what the `native` strategy means on
 *   the target; the target's module renders a load in that mode.
 */
import type { StablePrefix } from '../cache-key.js';
import type { Target } from '../contract.js';
import type { NeutralMessage, NormalizedMessage } from './history.js';
import type { AnnouncementPlacement, PlacedMessages } from './placement.js';
import type { JsonSchema } from './schema.js';
import type { TargetCompileInput, TargetCompileOptions, TargetWarningCode } from './compile.js';
import type {
  AnthropicConversion,
  GeminiContent,
  OpenAIChatMessage,
  RenderedToolMap,
  ResponsesInputItem,
  TargetPayloadMap,
  TargetToolMap,
} from './types.js';

export type { JsonSchema } from './schema.js';

/** A tool as the model sees it, before any target's rules are applied. */
export interface NeutralTool {
  /** What this definition is: a spec tool, a namespace tool, or `load_toolkit`. */
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

/** One renderer: a neutral definition in, the target's wire shape out. Pure; never mutates its input. */
export type ToolRenderer<T extends Target> = (tool: NeutralTool, options: RenderOptions) => RenderedToolMap[T];

/** Emits one warning (compile prefixes `[toolroute] ` and calls `options.onWarning`). */
export type Warn = (code: TargetWarningCode, message: string) => void;

/** What the converted history is on each target. */
export interface TargetMessagesMap {
  anthropic: AnthropicConversion;
  openai: OpenAIChatMessage[];
  'openai-responses': ResponsesInputItem[];
  gemini: GeminiContent[];
}

/** Options of {@link TargetAdapter.convertMessages}; each target reads the ones it has. */
export interface ConvertOptions {
  /** Anthropic: caller message indices (`src`) whose last block gets `cache_control`. */
  readonly cacheBreakpoints?: ReadonlySet<number>;
  /** Responses: role of inline (positional) system messages. Default `system`. */
  readonly systemRole?: 'system' | 'developer';
}

/** Everything the shared pipeline hands a target to build its payload. */
export interface PayloadContext<T extends Target> {
  readonly input: TargetCompileInput;
  readonly options: TargetCompileOptions;
  /** Caller's system, joined system messages and directory: the stable system text ('' for none). */
  readonly systemText: string;
  /** The history with announcements placed (system messages that joined `systemText` removed). */
  readonly placed: PlacedMessages;
  /** The search tool the target returned for `options.toolSearch`, or undefined. */
  readonly searchTool: unknown;
  /**
   * The request's tools in order (search tool, stable, deferred, loaded). May be
   * the caller's frozen `stable` array itself: copy before changing it.
   */
  readonly tools: readonly TargetToolMap[T][];
  readonly warn: Warn;
}

/**
 * One target. Every member is required, so a new member is a compile error in
 * every target module until each says what it does.
 */
export interface TargetAdapter<T extends Target> {
  /** The target name; equal to this adapter's key in the table. */
  readonly target: T;

  // ─── Rendering ─────────────────────────────────────────────────────────────

  /** A spec tool (`kind: 'tool'`). */
  readonly renderTool: ToolRenderer<T>;
  /** A namespace tool (`kind: 'namespace'`: one stable tool per group, routed by `action`). */
  readonly renderNamespace: ToolRenderer<T>;
  /** The `load_toolkit` loader (`kind: 'loader'`). */
  readonly renderLoader: ToolRenderer<T>;
  /** The name a rendered tool is called by (for duplicate detection), or undefined for a non-tool. */
  toolName(tool: unknown): string | undefined;

  // ─── Compile ───────────────────────────────────────────────────────────────

  /**
   * Which of the history's system messages join the top-level system text:
   * `all`, or `leading` (later ones keep their place in the conversation).
   */
  readonly systemMessages: 'all' | 'leading';
  /** Where announcements go on this target. */
  readonly announcements: AnnouncementPlacement;
  /**
   * The tool-search tool for `options.toolSearch` (called only when it is set
   * and not false), or `undefined` when the target has none (compile then
   * warns `tool-search-unsupported`). Return one frozen constant per choice:
   * the cache-key memo recognizes it by identity.
   */
  readonly searchTool: ((option: 'regex' | 'bm25' | true) => TargetToolMap[T]) | undefined;
  /**
   * The prefix the cache key hashes: what this target's provider caches
   * before the conversation — the request's tools as sent (the adapter leaves
   * out what its provider keeps out of its prefix), the system text as sent,
   * the tool choice. Memoized (runtime/cache-key.ts), so a turn with an
   * unchanged tools array costs a map lookup.
   */
  cachePrefix(tools: readonly unknown[], systemText: string, toolChoice: unknown): StablePrefix;
  /** The placed, normalized history in the target's message shape. Total: never throws. */
  convertMessages(messages: readonly NormalizedMessage[], options: ConvertOptions): TargetMessagesMap[T];
  /**
   * The request fragment spread into the target's SDK call. May throw
   * `ToolrouteConfigError` for a request the provider would reject (never for model output).
   */
  buildPayload(context: PayloadContext<T>): TargetPayloadMap[T];

  // ─── Reading responses back ────────────────────────────────────────────────

  /**
   * The neutral history entries for one response of this target's SDK
   * (`fromProvider(target, response)`, typed per target in
   * runtime/conversation.ts): the text, the tool calls, and the provider's
   * whole output as opaque `provider` state, which {@link convertMessages}
   * replays unchanged for an assistant message carrying it. Total: any input
   * gives a list, nothing is mutated or copied (the state holds the
   * response's own objects).
   */
  readResponse(response: unknown): NeutralMessage[];

  // ─── Toolkit loading ───────────────────────────────────────────────────────

  /**
   * Native toolkit loading (runtime/toolkit-loading.ts): what the `native`
   * strategy means on this target — `deferred` (Anthropic `defer_loading` +
   * `tool_reference` results), `tool-search` (a Responses client-executed
   * `tool_search`), or `dispatcher` where the provider has no deferral — and
   * the tool forms that mode needs, which the router (runtime/router/compile.ts)
   * puts in the request's tools. The rendering of a load's result in that mode
   * lives in the target's module and runs in {@link buildPayload}.
   */
  readonly toolkitLoading: NativeToolkitLoading<T>;
}

/**
 * What `native` toolkit loading is on one target, and the tool forms its mode
 * needs. A union on `native`: a target whose native mode is `deferred` or
 * `tool-search` must supply that mode's forms (a missing one is a compile
 * error), and a `dispatcher` target has none (the dispatcher tool is shared,
 * runtime/targets/index.ts `dispatcherTool`). Every form is pure, memoized per
 * source object and frozen, so the router's tools arrays, and the cache key
 * memoized on them, keep their identity turn after turn.
 *
 * @example
 * const loading: NativeToolkitLoading<'anthropic'> = { native: 'deferred', unloadedTool: (tool) => ({ ...tool, defer_loading: true }) };
 */
export type NativeToolkitLoading<T extends Target> =
  | { readonly native: 'dispatcher' | 'append' }
  | {
      readonly native: 'deferred';
      /**
       * A toolkit tool as the request sends it before any load: every toolkit
       * tool is in the tools from the first turn, in this form, and a load
       * only references it (Anthropic: `defer_loading: true`).
       */
      unloadedTool(tool: RenderedToolMap[T]): RenderedToolMap[T];
    }
  | {
      readonly native: 'tool-search';
      /**
       * The `load_toolkit` loader as the request sends it in place of the
       * rendered function (Responses: a client-executed `tool_search` tool
       * with the loader's description and parameters).
       */
      loaderTool(loader: RenderedToolMap[T]): TargetToolMap[T];
      /**
       * A toolkit tool as a load's result carries it to the model (Responses:
       * the function in a `tool_search_output`, without `defer_loading`).
       */
      loadedTool(tool: RenderedToolMap[T]): RenderedToolMap[T];
    };

/** The table type: one adapter per target, each typed by its own name. */
export type TargetAdapterTable = { readonly [T in Target]: TargetAdapter<T> };

/**
 * The `name` field of a rendered tool, the naming of every target whose tools
 * carry their name at the top level (all but Chat Completions).
 *
 * @example
 * namedTool({ name: 'get_time', input_schema: { type: 'object' } }); // → 'get_time'
 */
export function namedTool(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const name = (tool as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}
