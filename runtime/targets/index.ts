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
import { cloneSchema } from './schema.js';
import { deepFreeze } from '../freeze.js';
import { DISPATCHER_TOOL, resolveToolkitMode, type ToolkitLoadingOption, type ToolkitMode } from '../toolkit-loading.js';
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
 * One tool rendered for one form: `neutral` is the seed's `ToolDefinition`, a target its adapter's wire shape. Pure.
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
  const adapter = adapterFor(target);
  const accepts = adapter.toolChangeModels;
  const toolChanges = accepts === undefined ? 'no' : model === undefined ? 'unknown' : accepts.test(model) ? 'yes' : 'no';
  return resolveToolkitMode(adapter.toolkitLoading.native, target, option === 'tool-changes' && accepts === undefined ? 'native' : option, toolChanges);
}

/**
 * Whether the target's tool results carry a failure flag beside their text (Anthropic's `is_error`).
 * @example toolResultErrorFlag('anthropic'); // → true
 */
export function toolResultErrorFlag(target: Target): boolean {
  return adapterFor(target).toolResultErrorFlag;
}

const dispatcherMemo = new Map<Target, unknown>();

/** The toolkit dispatcher tool (`call_toolkit_tool`) rendered for a target: one frozen object per target. */
export function dispatcherTool(target: Target): unknown {
  if (!dispatcherMemo.has(target)) dispatcherMemo.set(target, deepFreeze(renderTool(target, DISPATCHER_TOOL, { openaiStrict: false })));
  return dispatcherMemo.get(target);
}
