/**
 * toolroute/runtime: what an application imports together with its generated folder. No dependency on the generator; no
 * generated strings are evaluated.
 * @example
 * import { createRouter } from 'toolroute/runtime';
 * import * as generated from './generated/index.js';
 * const router = createRouter(generated, handlers);
 */
export {
  createRouter, ToolRouter, ToolCallRejectedError, type BlockableName, type BlocklistOptions, type CompileDoneEvent,
  type RouterEvents, type CallableKind, type CallWithArguments, type CheckRejection, type CheckResult,
  type DispatchOptions, type DispatchResult, type DynamicGroupDefinition, type DynamicResolvedCall,
  type DynamicToolDefinition, type LoaderResolvedCall, type NameCheckResult, type NameOnlyCall,
  type NamespaceResolution, type NeutralCompileResult, type PrunedTool, type PruneResult, type PruneStrategy,
  type ResolvedCall, type ResponseStep, type RouterOptions, type RouterSnapshot, type TargetCompileRequest,
  type TryNamespaceResolution, libraryTool, type LibraryCheckResult, type LibraryResolvedCall, type LibraryToolDefinition,
  type LibraryToolValidate, type LoaderCall, searchableTool,
} from './router.js';
export { DEFAULT_LIMITS, type CallLimits } from './call-shape.js';
export { lazyRendered, specFromData, type RenderSource } from './spec-data.js';
export {
  ANNOUNCEMENT_CHANNELS, renderAnnouncements, type AnnounceOptions, type Announcement, type AnnouncementChannel,
} from './announcements.js';
export {
  LOAD_TOOLKIT_NAME, PORTABLE_TOOL_NAME, REJECTION_CODES, TARGETS, RESERVED_TOOL_NAMES, type CallVia,
  type GeneratedModule, type SearchLoader, type ToolSearchIndex, type GeneratedSpec, type GeneratedTool,
  type HandlerContext, type HandlersOf, type RegistryShape, type Rejection, type RejectionCode, type ResolvedCallOf,
  type SpecData, type SpecToolData, type Target, type ToolCallCheckResultOf, type ToolDefinition, type ToolData,
  type ToolNameOf, type ValidateFn,
} from './contract.js';
export {
  ANNOUNCEMENT_ANCHOR, TARGET_WARNING_CODES, ToolrouteConfigError, compileForTarget, warnOnce, type CacheBreakpoint,
  type TargetCompileInput, type TargetCompileOptions, type TargetPayload, type TargetWarningCode, type ToolChanges,
} from './targets/compile.js';
export { anthropicToolChanges } from './targets/anthropic.js';
export type { TurnStop } from './targets/adapter.js';
export type { AnthropicToolChangesPayload, GeminiToolConfig, ResponsesNamespaceTool } from './targets/types.js';
export { cacheKey, stablePrefixOf, type StablePrefix } from './cache-key.js';
export { renderTool, toolkitMode, toolResultErrorFlag, type NeutralTool, type RenderOptions } from './targets/index.js';
export { applyNullDecode, nullDecodePlan } from './targets/strict.js';
export type { NeutralMessage, NeutralToolCall } from './targets/history.js';
export {
  fromProvider, toolMessage, type AnthropicResponse, type GeminiResponse, type OpenAIChatResponse,
  type OpenAIChatResponseMessage, type ProviderResponseMap, type ProviderItem, type ProviderState,
  type ResponsesResponse, type ToolCallLike, type ToolResultLike,
} from './conversation.js';
export { cacheBlocks, cacheReuse, type CacheBlock, type CacheReuse } from './cache-reuse.js';
export {
  TOOLKIT_DISPATCHER_NAME, TOOLKIT_LOADING_STRATEGIES, type ToolkitLoadingOption, type ToolkitLoadingStrategy,
  type ToolkitMode,
} from './toolkit-loading.js';
