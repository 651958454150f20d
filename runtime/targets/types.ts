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

/** `ToolResultBlockParam` (text content only: the neutral history carries strings). */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  cache_control?: AnthropicCacheControl | null;
}

/** `UserMessageParam | AssistantMessageParam | SystemMessageParam` (the last one: mid-conversation). */
export type AnthropicMessage =
  | { role: 'user'; content: string | (AnthropicTextBlock | AnthropicToolResultBlock)[] }
  | { role: 'assistant'; content: string | (AnthropicTextBlock | AnthropicToolUseBlock)[] }
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

/** `ChatCompletionMessageParam` (the members the neutral history maps to). */
export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'developer'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Spread into `client.chat.completions.create({ model, ...payload })`. */
export interface OpenAIChatPayload {
  messages: OpenAIChatMessage[];
  tools?: OpenAIChatTool[];
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

/** `ToolSearchTool`. */
export interface ResponsesToolSearchTool {
  type: 'tool_search';
}

export type ResponsesTool = ResponsesFunctionTool | ResponsesToolSearchTool;

/** `ResponseInputItem` members: `EasyInputMessage`, `ResponseFunctionToolCall`, `FunctionCallOutput`. */
export type ResponsesInputItem =
  | { role: 'user' | 'assistant' | 'system' | 'developer'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** Spread into `client.responses.create({ model, ...payload })`. */
export interface ResponsesPayload {
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: ResponsesTool[];
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

/** `Part` members the neutral history maps to. */
export type GeminiPart =
  | { text: string }
  | { functionCall: { id?: string; name: string; args: { [key: string]: unknown } } }
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
