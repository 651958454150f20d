/**
 * runtime/targets/: everything that differs by provider, one adapter module per target listed in
 * {@link TARGET_ADAPTERS}. A new target: its name in `TARGETS` (runtime/contract.ts), its wire types in types.ts, one
 * module here and one entry in the table; the compiler lists whatever is still missing.
 */
import { TARGETS, type RenderForm, type Target, type ToolDefinition } from '../contract.js';
import type { NeutralTool, RenderOptions, TargetAdapter, TargetAdapterTable } from './adapter.js';
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { openaiResponses } from './openai-responses.js';
import { openai } from './openai.js';
import { cloneSchema, portableParameters, type JsonSchema } from './schema.js';
import { deepFreeze } from '../freeze.js';
import { DISPATCHER_TOOL, TOOLKIT_LOADING_STRATEGIES, type ToolkitLoadingOption, type ToolkitMode } from '../toolkit-loading.js';
import type { RenderedToolMap } from './types.js';

export type { JsonSchema, NativeToolkitLoading, NeutralTool, RenderOptions, TargetAdapter } from './adapter.js';

/** The one table of targets; `satisfies` makes a missing target or member a compile error. Frozen: shared by every router. */
export const TARGET_ADAPTERS = Object.freeze({ anthropic, openai, 'openai-responses': openaiResponses, gemini } satisfies TargetAdapterTable);

/** The adapter of a target; a `TypeError` naming the valid targets for anything else. */
export function adapterFor<T extends Target>(target: T): TargetAdapter<T> {
  if (!Object.hasOwn(TARGET_ADAPTERS, target)) {
    throw new TypeError(`[toolroute] unknown target ${JSON.stringify(target)}; expected one of ${TARGETS.map((t) => `'${t}'`).join(', ')}`);
  }
  return (TARGET_ADAPTERS as TargetAdapterTable)[target];
}

/**
 * A tool's parameters for an SDK that renders tools itself (the AI SDK, the OpenAI Agents SDK): the form every target
 * accepts at the top, with `target`'s own renames when the target is known (Anthropic's wire names for property keys).
 * @example sdkParameters({ type: 'object', anyOf: [{ properties: { a: {} } }] }); // → { type: 'object', properties: { a: {} } }
 */
export function sdkParameters(parameters: JsonSchema, target?: Target): JsonSchema {
  const schema = portableParameters(parameters);
  return (target === undefined ? undefined : adapterFor(target).wireParameters)?.(schema) ?? schema;
}

/**
 * One tool rendered for one form: `neutral` is the reference library's `ToolDefinition`, a target its adapter's wire shape. Pure.
 * @example
 * renderTool('anthropic', { kind: 'tool', name: 'get_time', description: 'Get timestamp',
 *   parameters: { type: 'object', properties: {} }, deferLoading: false }, { openaiStrict: false });
 * // → { name: 'get_time', description: 'Get timestamp', input_schema: { type: 'object', properties: {} } }
 */
export function renderTool<F extends RenderForm>(form: F, tool: NeutralTool, options: RenderOptions): RenderedToolMap[F];
export function renderTool(form: RenderForm, tool: NeutralTool, options: RenderOptions): unknown;
export function renderTool(form: RenderForm, tool: NeutralTool, options: RenderOptions): unknown {
  if (form !== 'neutral') return adapterFor(form).render(tool, options);
  const out: { -readonly [K in keyof ToolDefinition]: ToolDefinition[K] } = { name: tool.name, description: tool.description, parameters: cloneSchema(tool.parameters) };
  if (tool.deferLoading) out.deferLoading = true;
  return out;
}

/**
 * What a `toolkitLoading` option means on a target for the router's `model` (its adapter's `native` mode for `native`,
 * or `tool-changes` where the model accepts them). A single `'tool-changes'` means `native` on targets without them.
 * @example
 * toolkitMode('anthropic', 'native');                     // → 'deferred'
 * toolkitMode('anthropic', 'native', 'claude-opus-4-8');  // → 'tool-changes'
 * toolkitMode('openai', { anthropic: 'append' });         // → 'dispatcher'
 */
export function toolkitMode(target: Target, option: ToolkitLoadingOption | undefined, model?: string): ToolkitMode {
  const { toolChangeModels: accepts, toolkitLoading } = adapterFor(target);
  const single = option === 'tool-changes' && accepts === undefined ? 'native' : option;
  const strategy = typeof single === 'string' || single === undefined ? single : single[target];
  // Unknown model: `native` stays the adapter's mode, and an explicit `tool-changes` is trusted.
  const modelTakesChanges = accepts !== undefined && model !== undefined && accepts.test(model);
  if (strategy === undefined || strategy === 'native') return modelTakesChanges ? 'tool-changes' : toolkitLoading.native;
  if (strategy === 'dispatcher' || strategy === 'append') return strategy;
  if (strategy === 'tool-changes') {
    if (modelTakesChanges || (accepts !== undefined && model === undefined)) return strategy;
    throw new TypeError(`toolkitLoading: 'tool-changes' is not available on target '${target}' for this router's model (mid-conversation tool changes are Anthropic's, on the models listed in docs/providers.md); use 'native'.`);
  }
  throw new TypeError(`toolkitLoading: ${JSON.stringify(strategy)} is not a strategy; use one of ${TOOLKIT_LOADING_STRATEGIES.map((s) => `'${s}'`).join(', ')} (or an object of them per target).`);
}

/**
 * Whether the target's tool results carry a failure flag beside their text (Anthropic's `is_error`).
 * @example toolResultErrorFlag('anthropic'); // → true
 */
export function toolResultErrorFlag(target: Target): boolean { return adapterFor(target).toolResultErrorFlag; }

const dispatcherMemo = new Map<Target, unknown>();

/** The toolkit dispatcher tool (`call_toolkit_tool`) rendered for a target: one frozen object per target. */
export function dispatcherTool(target: Target): unknown {
  if (!dispatcherMemo.has(target)) dispatcherMemo.set(target, deepFreeze(renderTool(target, DISPATCHER_TOOL, { openaiStrict: false })));
  return dispatcherMemo.get(target);
}
