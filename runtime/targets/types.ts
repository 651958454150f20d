/**
 * Structural types of what each target's official SDK accepts: rendered tools
 * and the request fragments `compile({ target })` returns.
 *
 * The runtime ships without the SDKs (they are devDependencies), so these are
 * our own shapes, written as narrow subsets of the SDK types. The type test
 * (test/targets/sdk-types.test.ts) assigns every one of them to the SDK's own
 * type, so a shape that stops matching a new SDK version fails `tsc`.
 *
 * Arrays are typed mutable (`T[]`) on purpose: the SDK request types use
 * mutable arrays and a `readonly T[]` would not be assignable to them. At run
 * time the `tools` array of a payload (and everything rendered at codegen
 * time) is frozen and shared between compiles, so a turn's compile copies
 * nothing: copy before adding to it (`[...payload.tools, extra]`).
 */
import type { Target, ToolDefinition } from '../contract.js';

/** A JSON Schema object as sent to a provider. */
export type JsonObject = { [key: string]: unknown };

// ─── Anthropic (@anthropic-ai/sdk `messages`) ────────────────────────────────

/** `CacheControlEphemeral`. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** `Tool`. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  defer_loading?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

/** `ToolSearchToolRegex20251119` / `ToolSearchToolBm25_20251119`. */
export type AnthropicToolSearchTool =
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex'; cache_control?: AnthropicCacheControl | null }
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25'; cache_control?: AnthropicCacheControl | null };

export type AnthropicToolUnion = AnthropicTool | AnthropicToolSearchTool;

/** `TextBlockParam`. */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl | null;
}

/** `ToolUseBlockParam`. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: { [key: string]: unknown };
  cache_control?: AnthropicCacheControl | null;
}

/** `ToolReferenceBlockParam`: inside a `tool_result`, makes a deferred tool's definition visible from there on. */
export interface AnthropicToolReferenceBlock {
  type: 'tool_reference';
  tool_name: string;
}

/**
 * `ToolResultBlockParam`: text (the neutral history carries strings), or text
 * followed by `tool_reference` blocks (the result of `load_toolkit` in the
 * `deferred` toolkit-loading mode).
 */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | (AnthropicTextBlock | AnthropicToolReferenceBlock)[];
  /** Set (true) for a tool message flagged `is_error`. */
  is_error?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

/** `ThinkingBlockParam`: sent back exactly as received (extended thinking with tools requires it). */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
  cache_control?: AnthropicCacheControl | null;
}

/** `RedactedThinkingBlockParam`: opaque, sent back unchanged. */
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
  cache_control?: AnthropicCacheControl | null;
}

/** `ServerToolUseBlockParam` for the tool-search tools toolroute adds (`options.toolSearch`). */
export interface AnthropicServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: 'tool_search_tool_regex' | 'tool_search_tool_bm25';
  input: unknown;
  cache_control?: AnthropicCacheControl | null;
}

/** `ToolSearchToolResultBlockParam`: the server-side tool search's result. */
export interface AnthropicToolSearchResultBlock {
  type: 'tool_search_tool_result';
  tool_use_id: string;
  content:
    | { type: 'tool_search_tool_search_result'; tool_references: { type: 'tool_reference'; tool_name: string }[] }
    | { type: 'tool_search_tool_result_error'; error_code: 'invalid_tool_input' | 'unavailable' | 'too_many_requests' | 'execution_time_exceeded'; error_message?: string | null };
  cache_control?: AnthropicCacheControl | null;
}

/**
 * A block of an assistant turn: what toolroute builds, plus what `fromProvider`
 * keeps and compile replays. Blocks of server tools toolroute does not add
 * (web search, code execution…) are replayed too, as received; their types
 * are the SDK's own and are not listed here.
 */
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicToolUseBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicServerToolUseBlock
  | AnthropicToolSearchResultBlock;

/** `UserMessageParam | AssistantMessageParam | SystemMessageParam` (the last one: mid-conversation). */
export type AnthropicMessage =
  | { role: 'user'; content: string | (AnthropicTextBlock | AnthropicToolResultBlock)[] }
  | { role: 'assistant'; content: string | AnthropicAssistantBlock[] }
  | { role: 'system'; content: string | AnthropicTextBlock[] };

/** The converted history (anthropic.ts `toAnthropicMessages`). */
export interface AnthropicConversion {
  readonly messages: AnthropicMessage[];
  /** Requested breakpoint sources that produced no block (a system message moved to the top level, say). */
  readonly unplacedBreakpoints: number[];
}

/** Spread into `client.messages.create({ model, max_tokens, ...payload })`. */
export interface AnthropicPayload {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicToolUnion[];
}

// ─── OpenAI Chat Completions (openai `chat.completions`) ─────────────────────

/** `ChatCompletionFunctionTool` (with `FunctionDefinition`). */
export interface OpenAIChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: JsonObject;
    strict?: boolean | null;
  };
}

/** `ChatCompletionMessageFunctionToolCall`. */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** `ChatCompletionMessageCustomToolCall`: kept from a response and replayed. */
export interface OpenAIChatCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

/** `ChatCompletionMessageParam` (the members the neutral history maps to). */
export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'developer'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      /** Replayed from a response that refused. */
      refusal?: string | null;
      /** Replayed from an audio response: the id of the audio the model produced. */
      audio?: { id: string } | null;
      tool_calls?: (OpenAIChatToolCall | OpenAIChatCustomToolCall)[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Spread into `client.chat.completions.create({ model, ...payload })`. */
export interface OpenAIChatPayload {
  messages: OpenAIChatMessage[];
  tools?: OpenAIChatTool[];
  /** Provider-side blocklist enforcement (`options.allowedTools`): `ChatCompletionAllowedToolChoice`. */
  tool_choice?: OpenAIChatAllowedTools;
}

/** `ChatCompletionAllowedToolChoice`: the model may call only these of `tools`. */
export interface OpenAIChatAllowedTools {
  type: 'allowed_tools';
  allowed_tools: { mode: 'auto'; tools: { type: 'function'; function: { name: string } }[] };
}

// ─── OpenAI Responses (openai `responses`) ───────────────────────────────────

/** `FunctionTool`: `parameters` and `strict` are required keys (either may be null). */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: JsonObject | null;
  strict: boolean | null;
  defer_loading?: boolean;
}

/**
 * `ToolSearchTool`: hosted (`{ type: 'tool_search' }`), or client-executed
 * (`execution: 'client'` with the `description` and `parameters` the model
 * calls it with; the loader in the `tool-search` toolkit-loading mode).
 */
export interface ResponsesToolSearchTool {
  type: 'tool_search';
  execution?: 'server' | 'client';
  description?: string | null;
  parameters?: unknown;
}

export type ResponsesTool = ResponsesFunctionTool | ResponsesToolSearchTool;

/** `ResponseFunctionToolCall`: built from the history, or replayed with its item `id`, `namespace` and `status`. */
export interface ResponsesFunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  namespace?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/** `ResponseReasoningItem`: replayed as received (with `encrypted_content` for stateless use). */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  encrypted_content?: string | null;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/** `ResponseOutputMessage`: an assistant message item replayed with its `id`. */
export interface ResponsesOutputMessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: 'in_progress' | 'completed' | 'incomplete';
  content: (
    | { type: 'output_text'; text: string; annotations: { type: 'url_citation'; url: string; title: string; start_index: number; end_index: number }[] }
    | { type: 'refusal'; refusal: string }
  )[];
  phase?: 'commentary' | 'final_answer' | null;
}

/** `ResponseInputItem.ToolSearchCall`: a tool search the model ran, replayed. */
export interface ResponsesToolSearchCallItem {
  type: 'tool_search_call';
  arguments: unknown;
  id?: string | null;
  call_id?: string | null;
  execution?: 'server' | 'client';
  status?: 'in_progress' | 'completed' | 'incomplete' | null;
}

/** `ResponseToolSearchOutputItemParam`: the answer to a client-executed tool search (the `tool-search` toolkit-loading mode). */
export interface ResponsesToolSearchOutputItem {
  type: 'tool_search_output';
  call_id: string;
  execution: 'client';
  status: 'completed';
  tools: ResponsesTool[];
}

/**
 * `ResponseInputItem` members: `EasyInputMessage`, function calls and their
 * outputs, the output items `fromProvider` keeps and compile replays, and the
 * answer to a client tool search.
 * Items of hosted tools toolroute does not add (web search, MCP…) are replayed
 * too, as received; their types are the SDK's own and are not listed here.
 */
export type ResponsesInputItem =
  | { role: 'user' | 'assistant' | 'system' | 'developer'; content: string }
  | ResponsesFunctionCallItem
  | { type: 'function_call_output'; call_id: string; output: string }
  | ResponsesReasoningItem
  | ResponsesOutputMessageItem
  | ResponsesToolSearchCallItem
  | ResponsesToolSearchOutputItem;

/** Spread into `client.responses.create({ model, ...payload })`. */
export interface ResponsesPayload {
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: ResponsesTool[];
  /** Provider-side blocklist enforcement (`options.allowedTools`): `ToolChoiceAllowed`. */
  tool_choice?: ResponsesAllowedTools;
}

/** `ToolChoiceAllowed` (note: not nested as on Chat): the model may call only these of `tools`. */
export interface ResponsesAllowedTools {
  type: 'allowed_tools';
  mode: 'auto';
  tools: ({ type: 'function'; name: string } | { type: 'tool_search' })[];
}

// ─── Gemini (@google/genai) ──────────────────────────────────────────────────

/**
 * `FunctionDeclaration` with `parametersJsonSchema` (plain JSON Schema, sent
 * untouched by the SDK), never `parameters` (which the SDK rewrites in place).
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema?: JsonObject;
}

/**
 * `Part` members the neutral history maps to. `thought` and
 * `thoughtSignature` come from a response and are replayed on the part they
 * came on (Gemini requires the signature back on its functionCall part).
 */
export type GeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { functionCall: { id?: string; name: string; args: { [key: string]: unknown } }; thoughtSignature?: string }
  | { functionResponse: { id?: string; name: string; response: { [key: string]: unknown } } };

/** `Content`: the role is `user` or `model` (a `system` role is a 400). */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** Spread into `ai.models.generateContent({ model, ...payload })`. */
export interface GeminiPayload {
  contents: GeminiContent[];
  config: {
    systemInstruction?: string;
    tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  };
}

// ─── Maps by target / form ───────────────────────────────────────────────────

/** What `compile({ target })` returns for each target. */
export interface TargetPayloadMap {
  anthropic: AnthropicPayload;
  openai: OpenAIChatPayload;
  'openai-responses': ResponsesPayload;
  gemini: GeminiPayload;
}

/** The request fragment for target `T`. */
export type TargetPayload<T extends Target> = TargetPayloadMap[T];

/** One entry of the `tools` a target's payload carries (Gemini: of its `functionDeclarations`). */
export interface TargetToolMap {
  anthropic: AnthropicToolUnion;
  openai: OpenAIChatTool;
  'openai-responses': ResponsesTool;
  gemini: GeminiFunctionDeclaration;
}

/** What `renderTool(form, …)` returns for each render form. */
export interface RenderedToolMap {
  neutral: ToolDefinition;
  anthropic: AnthropicTool;
  openai: OpenAIChatTool;
  'openai-responses': ResponsesFunctionTool;
  gemini: GeminiFunctionDeclaration;
}
