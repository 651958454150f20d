/**
 * toolroute/runtime: what an application imports together with its generated folder. No dependency on the generator; no
 * generated strings are evaluated.
 * @example
 * import { createRouter } from 'toolroute/runtime';
 * import * as generated from './generated/index.js';
 * const router = createRouter(generated, handlers);
 */
export { createRouter, ToolRouter, ToolCallRejectedError, } from './router.js';
export { libraryTool, } from './router.js';
export { DEFAULT_LIMITS } from './call-shape.js';
export { lazyRendered, specFromData } from './spec-data.js';
export { ANNOUNCEMENT_CHANNELS, renderAnnouncements, } from './announcements.js';
export { LOAD_TOOLKIT_NAME, PORTABLE_TOOL_NAME, REJECTION_CODES, TARGETS, RESERVED_TOOL_NAMES, } from './contract.js';
export { ANNOUNCEMENT_ANCHOR, TARGET_WARNING_CODES, ToolrouteConfigError, compileForTarget, warnOnce, } from './targets/compile.js';
export { anthropicToolChanges } from './targets/anthropic.js';
export { cacheKey, stablePrefixOf } from './cache-key.js';
export { renderTool, toolkitMode, toolResultErrorFlag } from './targets/index.js';
export { applyNullDecode, nullDecodePlan } from './targets/strict.js';
export { fromProvider, toolMessage, } from './conversation.js';
export { cacheBlocks, cacheReuse } from './cache-reuse.js';
export { TOOLKIT_DISPATCHER_NAME, TOOLKIT_LOADING_STRATEGIES, } from './toolkit-loading.js';
