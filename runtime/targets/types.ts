/**
 * Structural types of what each target's SDK accepts: narrow subsets of the SDKs' types, each assigned to the SDK's own
 * in test/targets/sdk-types.test.ts. Arrays are mutable (`T[]`) as in the SDK types, though a payload's may be frozen.
 */
import type { Target, ToolDefinition } from '../contract.js';

/** A JSON Schema object as sent to a provider. */
export type JsonObject = { [key: string]: unknown };
/** `CacheControlEphemeral`. */
export interface AnthropicCacheControl { type: 'ephemeral'; ttl?: '5m' | '1h' }
type Cached = { cache_control?: AnthropicCacheControl | null };
/** `Tool`. */
export interface AnthropicTool extends Cached { name: string; description?: string; input_schema: { type: 'object'; [key: string]: unknown }; defer_loading?: boolean }
/** `ToolSearchToolRegex20251119` / `ToolSearchToolBm25_20251119`. */
export type AnthropicToolSearchTool =
  | ({ type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' } & Cached)
  | ({ type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' } & Cached);

export type AnthropicToolUnion = AnthropicTool | AnthropicToolSearchTool;
/** `TextBlockParam`. */
export interface AnthropicTextBlock extends Cached { type: 'text'; text: string }
/** `ToolUseBlockParam`. */
export interface AnthropicToolUseBlock extends Cached { type: 'tool_use'; id: string; name: string; input: { [key: string]: unknown } }
/** `ToolReferenceBlockParam`: inside a `tool_result`, makes a deferred tool's definition visible from there on. */
export interface AnthropicToolReferenceBlock { type: 'tool_reference'; tool_name: string }
/** `ToolResultBlockParam`: text, or text then `tool_reference` blocks (a `load_toolkit` result in the `deferred` mode). */
export interface AnthropicToolResultBlock extends Cached {
  type: 'tool_result';
  tool_use_id: string;
  content: string | (AnthropicTextBlock | AnthropicToolReferenceBlock)[];
  is_error?: boolean;
}

/** `ThinkingBlockParam`: sent back exactly as received. */
export interface AnthropicThinkingBlock extends Cached { type: 'thinking'; thinking: string; signature: string }
/** `RedactedThinkingBlockParam`: opaque, sent back unchanged. */
export interface AnthropicRedactedThinkingBlock extends Cached { type: 'redacted_thinking'; data: string }
/** `ServerToolUseBlockParam` for the tool-search tools toolroute adds. */
export interface AnthropicServerToolUseBlock extends Cached { type: 'server_tool_use'; id: string; name: 'tool_search_tool_regex' | 'tool_search_tool_bm25'; input: unknown }
/** `ToolSearchToolResultBlockParam`. */
export interface AnthropicToolSearchResultBlock extends Cached {
  type: 'tool_search_tool_result';
  tool_use_id: string;
  content:
    | { type: 'tool_search_tool_search_result'; tool_references: { type: 'tool_reference'; tool_name: string }[] }
    | { type: 'tool_search_tool_result_error'; error_code: 'invalid_tool_input' | 'unavailable' | 'too_many_requests' | 'execution_time_exceeded'; error_message?: string | null };
}

/** A block of an assistant turn: built, or kept by `fromProvider` and replayed (other server tools' blocks too, typed by the SDK). */
export type AnthropicAssistantBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicThinkingBlock | AnthropicRedactedThinkingBlock | AnthropicServerToolUseBlock | AnthropicToolSearchResultBlock;
/** `UserMessageParam | AssistantMessageParam | SystemMessageParam` (the last one: mid-conversation). */
export type AnthropicMessage =
  | { role: 'user'; content: string | (AnthropicTextBlock | AnthropicToolResultBlock)[] }
  | { role: 'assistant'; content: string | AnthropicAssistantBlock[] }
  | { role: 'system'; content: string | AnthropicTextBlock[] };

/** Spread into `client.messages.create({ model, max_tokens, ...payload })`. */
export interface AnthropicPayload { system?: string | AnthropicTextBlock[]; messages: AnthropicMessage[]; tools?: AnthropicToolUnion[] }

/** `BetaToolChangeToolReference` / `BetaToolChangeToolDefinitionParam`: a tool by name, or by value. */
export type AnthropicToolChangeTool = { type: 'tool_reference'; name: string } | { type: 'tool_definition'; definition: AnthropicTool };
/** `BetaRequestToolAdditionBlock` / `BetaRequestToolRemovalBlock`: offered, or withdrawn, from this point on. */
export type AnthropicToolChangeBlock = { type: 'tool_addition'; tool: AnthropicToolChangeTool } | { type: 'tool_removal'; tool: { type: 'tool_reference'; name: string } };
/** `BetaMessageParam` members the `tool-changes` mode sends: system messages may carry tool changes. */
export type AnthropicToolChangesMessage = Exclude<AnthropicMessage, { role: 'system' }> | { role: 'system'; content: string | (AnthropicTextBlock | AnthropicToolChangeBlock)[] };
/**
 * The `tool-changes` payload (`anthropicToolChanges(payload)`): spread into `client.beta.messages.create`; `betas` is
 * sent as the `anthropic-beta` header by the SDK.
 */
export interface AnthropicToolChangesPayload { system?: string | AnthropicTextBlock[]; messages: AnthropicToolChangesMessage[]; tools?: AnthropicToolUnion[]; betas: AnthropicToolChangesBeta[] }
/** The betas of mid-conversation tool changes: references, and (for a tool added by value) inline definitions. */
export type AnthropicToolChangesBeta = 'mid-conversation-tool-changes-2026-07-01' | 'inline-tools-2026-09-15';
/** `ChatCompletionFunctionTool` (with `FunctionDefinition`). */
export interface OpenAIChatTool { type: 'function'; function: { name: string; description?: string; parameters?: JsonObject; strict?: boolean | null } }
/** `ChatCompletionMessageFunctionToolCall`. */
export interface OpenAIChatToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
/** `ChatCompletionMessageCustomToolCall`: kept from a response and replayed. */
export interface OpenAIChatCustomToolCall { id: string; type: 'custom'; custom: { name: string; input: string } }
/** `ChatCompletionMessageParam` (the members the neutral history maps to). */
export type OpenAIChatMessage =
  | { role: 'system' | 'developer' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; refusal?: string | null; audio?: { id: string } | null; tool_calls?: (OpenAIChatToolCall | OpenAIChatCustomToolCall)[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Spread into `client.chat.completions.create({ model, ...payload })`. */
export interface OpenAIChatPayload {
  messages: OpenAIChatMessage[];
  tools?: OpenAIChatTool[];
  /** `options.allowedTools`: `ChatCompletionAllowedToolChoice`. */
  tool_choice?: OpenAIChatAllowedTools;
}

/** `ChatCompletionAllowedToolChoice`: the model may call only these of `tools`. */
export interface OpenAIChatAllowedTools { type: 'allowed_tools'; allowed_tools: { mode: 'auto'; tools: { type: 'function'; function: { name: string } }[] } }
/** `FunctionTool`: `parameters` and `strict` are required keys (either may be null). */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: JsonObject | null;
  strict: boolean | null;
  defer_loading?: boolean;
}

/** `ToolSearchTool`: hosted, or client-executed (the loader in the `tool-search` toolkit-loading mode). */
export interface ResponsesToolSearchTool { type: 'tool_search'; execution?: 'server' | 'client'; description?: string | null; parameters?: unknown }

/** `NamespaceTool`: a spec namespace natively, one function per action (a call names it in `namespace`). */
export interface ResponsesNamespaceTool { type: 'namespace'; name: string; description: string; tools: ResponsesFunctionTool[] }

export type ResponsesTool = ResponsesFunctionTool | ResponsesToolSearchTool | ResponsesNamespaceTool;

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
/** `ResponseFunctionToolCall`: built from the history, or replayed with its item `id`, `namespace` and `status`. */
export interface ResponsesFunctionCallItem { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string; namespace?: string; status?: ItemStatus }
/** `ResponseReasoningItem`: replayed as received. */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  encrypted_content?: string | null;
  status?: ItemStatus;
}

/** `ResponseOutputMessage`: an assistant message item replayed with its `id`. */
export interface ResponsesOutputMessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: ItemStatus;
  content: (
    | { type: 'output_text'; text: string; annotations: { type: 'url_citation'; url: string; title: string; start_index: number; end_index: number }[] }
    | { type: 'refusal'; refusal: string }
  )[];
  phase?: 'commentary' | 'final_answer' | null;
}

/** `ResponseInputItem.ToolSearchCall`. */
export interface ResponsesToolSearchCallItem {
  type: 'tool_search_call';
  arguments: unknown;
  id?: string | null;
  call_id?: string | null;
  execution?: 'server' | 'client';
  status?: ItemStatus | null;
}

/** `ResponseToolSearchOutputItemParam`: the answer to a client-executed tool search. */
export interface ResponsesToolSearchOutputItem { type: 'tool_search_output'; call_id: string; execution: 'client'; status: 'completed'; tools: ResponsesTool[] }
/** `ResponseInputItem` members the history maps to (hosted tools' items are replayed too, typed by the SDK). */
export type ResponsesInputItem =
  | { role: 'user' | 'assistant' | 'system' | 'developer'; content: string }
  | { type: 'function_call_output' | 'custom_tool_call_output'; call_id: string; output: string }
  | ResponsesFunctionCallItem | ResponsesReasoningItem | ResponsesOutputMessageItem | ResponsesToolSearchCallItem | ResponsesToolSearchOutputItem;

/** Spread into `client.responses.create({ model, ...payload })`. */
export interface ResponsesPayload {
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: ResponsesTool[];
  /** `options.allowedTools`: `ToolChoiceAllowed`. */
  tool_choice?: ResponsesAllowedTools;
}

/** `ToolChoiceAllowed` (not nested as on Chat). */
export interface ResponsesAllowedTools { type: 'allowed_tools'; mode: 'auto'; tools: ({ type: 'function' | 'namespace'; name: string } | { type: 'tool_search' })[] }
/** `FunctionDeclaration` with `parametersJsonSchema` (sent untouched by the SDK), never `parameters`. */
export interface GeminiFunctionDeclaration { name: string; description?: string; parametersJsonSchema?: JsonObject }
/** `Part` members the history maps to; `thought` and `thoughtSignature` are replayed on the part they came on. */
export type GeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { functionCall: { id?: string; name: string; args: { [key: string]: unknown } }; thoughtSignature?: string }
  | { functionResponse: { id?: string; name: string; response: { [key: string]: unknown } } };

/** `Content`: the role is `user` or `model` (a `system` role is a 400). */
export interface GeminiContent { role: 'user' | 'model'; parts: GeminiPart[] }
/**
 * `ToolConfig` as `options.allowedTools` fills it: mode `VALIDATED` (the model may call only `allowedFunctionNames`), or
 * `NONE` when nothing is allowed. `mode` is one of those strings; it is typed `any` because the SDK types the field as its string enum
 * `FunctionCallingConfigMode`, which accepts no string literal, and the runtime imports no SDK.
 */
export interface GeminiToolConfig { functionCallingConfig: { mode: any; allowedFunctionNames?: string[] } }
/** Spread into `ai.models.generateContent({ model, ...payload })`. */
export interface GeminiPayload {
  contents: GeminiContent[];
  config: { systemInstruction?: string; tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[]; toolConfig?: GeminiToolConfig };
}
/** What `compile({ target })` returns for each target. */
export interface TargetPayloadMap { anthropic: AnthropicPayload; openai: OpenAIChatPayload; 'openai-responses': ResponsesPayload; gemini: GeminiPayload }
/** The request fragment for target `T`. */
export type TargetPayload<T extends Target> = TargetPayloadMap[T];
/** One entry of the `tools` a target's payload carries (Gemini: of its `functionDeclarations`). */
export interface TargetToolMap { anthropic: AnthropicToolUnion; openai: OpenAIChatTool; 'openai-responses': ResponsesTool; gemini: GeminiFunctionDeclaration }
/** What `renderTool(form, …)` returns for each render form. */
export interface RenderedToolMap {
  neutral: ToolDefinition;
  anthropic: AnthropicTool;
  openai: OpenAIChatTool;
  'openai-responses': ResponsesFunctionTool;
  gemini: GeminiFunctionDeclaration;
}
