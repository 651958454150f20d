/**
 * runtime/targets/: everything that differs by provider, one file per target,
 * and the shared pipeline around them. What lives where:
 *
 * | file                  | holds                                                                      |
 * | --------------------- | -------------------------------------------------------------------------- |
 * | `index.ts`            | this table (one adapter per target), `renderTool(form, …)` over it, `toolkitMode` and the dispatcher tool |
 * | `adapter.ts`          | `TargetAdapter`, the interface every target implements, and its extension points |
 * | `anthropic.ts`        | Anthropic Messages: render, messages, payload, cache breakpoints, 400 rules |
 * | `openai.ts`           | OpenAI Chat Completions: render, messages, payload, the 128-tool cap       |
 * | `openai-responses.ts` | OpenAI Responses: render, input items, payload                             |
 * | `gemini.ts`           | Gemini (@google/genai): render, contents, payload                          |
 * | `compile.ts`          | `compileForTarget`: system text, announcements, tools, cache key, then the adapter |
 * | `history.ts`          | the neutral history (`NeutralMessage`) and its normalized form             |
 * | `replay.ts`           | reading a response into the history and replaying kept provider state (shared by the targets) |
 * | `native.ts`           | provider-native history entries: read like responses, or rejected          |
 * | `placement.ts`        | where announcements go (the adapter supplies the per-target rule)         |
 * | `strict.ts`           | the OpenAI strict-mode rewrite and the null decode (both OpenAI targets)  |
 * | `property-keys.ts`    | Anthropic's property-key rule: wire names at render, the key decode at dispatch |
 * | `schema.ts`           | JSON helpers of the renderers (provider schema copy, deep JSON copy)       |
 * | `types.ts`            | the SDK-shaped wire types, checked against the SDKs by test/targets/sdk-types.test.ts |
 * | `errors.ts`           | `ToolrouteConfigError`: the provider would answer 400, caught at compile   |
 *
 * Outside this folder: the cache-key hashing and memo (runtime/cache-key.ts),
 * the `<announcements>` block and store (runtime/announcements.ts), the neutral
 * tool definitions the renderers take (runtime/neutral.ts).
 *
 * A new target: add its name to `TARGETS` (runtime/contract.ts), its wire
 * types to `types.ts` (and the maps at its end), one module here, and one entry
 * in {@link TARGET_ADAPTERS}; the compiler lists whatever is still missing.
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

/**
 * The one table of targets. `satisfies TargetAdapterTable` (a
 * `Record<Target, TargetAdapter>` whose entries are typed by their key) makes
 * a target without an entry, an entry under the wrong key, or an adapter
 * missing a member a compile error (test/targets/adapters.test.ts proves it).
 * Frozen: the table is shared by every router in the process.
 */
export const TARGET_ADAPTERS = Object.freeze({
  anthropic,
  openai,
  'openai-responses': openaiResponses,
  gemini,
} satisfies TargetAdapterTable);

/**
 * The adapter of a target. Throws a `TypeError` naming the valid targets for
 * anything else (a configuration mistake: fail loudly, never pick a default).
 *
 * @example
 * adapterFor('gemini').renderTool(tool, { openaiStrict: false }); // → { name, description, parametersJsonSchema? }
 */
export function adapterFor<T extends Target>(target: T): TargetAdapter<T> {
  const adapter = Object.hasOwn(TARGET_ADAPTERS, target) ? (TARGET_ADAPTERS as TargetAdapterTable)[target] : undefined;
  if (adapter === undefined) {
    throw new TypeError(`[toolroute] unknown target ${JSON.stringify(target)}; expected one of ${TARGETS.map((t) => `'${t}'`).join(', ')}`);
  }
  return adapter;
}

/**
 * Render one tool for one form. Pure; the result is serialized into the
 * generated folder and frozen there.
 *
 * - `neutral`: the seed's `ToolDefinition` `{ name, description, parameters, deferLoading? }`.
 * - a target: that target's adapter, by `tool.kind` (`renderTool`,
 *   `renderNamespace` or `renderLoader`); the wire shapes are described in
 *   each target's module (anthropic.ts, openai.ts, openai-responses.ts, gemini.ts).
 *
 * With `openaiStrict`, the two OpenAI forms get the strict rewrite (strict.ts
 * `toOpenAIStrictSchema`) and `strict: true`; a schema strict mode cannot
 * express is sent as-is with `strict: false`. Anthropic and Gemini payloads are
 * never affected by `openaiStrict`. Output keys are in a fixed order (wrapper
 * keys as each module writes them, schema keys in the spec's declaration order).
 *
 * @example
 * renderTool('anthropic', { kind: 'tool', name: 'get_time', description: 'Get timestamp',
 *   parameters: { type: 'object', properties: {} }, deferLoading: false }, { openaiStrict: false });
 * // → { name: 'get_time', description: 'Get timestamp', input_schema: { type: 'object', properties: {} } }
 */
export function renderTool<F extends RenderForm>(form: F, tool: NeutralTool, options: RenderOptions): RenderedToolMap[F];
export function renderTool(form: RenderForm, tool: NeutralTool, options: RenderOptions): unknown;
export function renderTool(form: RenderForm, tool: NeutralTool, options: RenderOptions): unknown {
  if (form === 'neutral') return renderNeutral(tool);
  const adapter: TargetAdapter<Target> = adapterFor(form);
  switch (tool.kind) {
    case 'namespace':
      return adapter.renderNamespace(tool, options);
    case 'loader':
      return adapter.renderLoader(tool, options);
    default:
      return adapter.renderTool(tool, options);
  }
}

/** The seed's provider-neutral `ToolDefinition`: the `neutral` render form, no target's rules applied. */
function renderNeutral(tool: NeutralTool): ToolDefinition {
  const out: { -readonly [K in keyof ToolDefinition]: ToolDefinition[K] } = {
    name: tool.name,
    description: tool.description,
    parameters: cloneSchema(tool.parameters),
  };
  if (tool.deferLoading) out.deferLoading = true;
  return out;
}

/**
 * What a `toolkitLoading` option means on a target: its adapter's `native`
 * mode for `native` (or a target the option leaves out), else the strategy.
 * Throws a `TypeError` for a value that is not a strategy.
 *
 * @example
 * toolkitMode('anthropic', 'native');             // → 'deferred'
 * toolkitMode('openai', { anthropic: 'append' }); // → 'dispatcher'
 */
export function toolkitMode(target: Target, option: ToolkitLoadingOption | undefined): ToolkitMode {
  return resolveToolkitMode(adapterFor(target).toolkitLoading.native, target, option);
}

const dispatcherMemo = new Map<Target, unknown>();

/**
 * The toolkit dispatcher tool (`call_toolkit_tool`) rendered for a target:
 * one frozen object per target, the same from the first turn on.
 *
 * @example
 * dispatcherTool('openai'); // → { type: 'function', function: { name: 'call_toolkit_tool', … } }
 */
export function dispatcherTool(target: Target): unknown {
  let hit = dispatcherMemo.get(target);
  if (hit === undefined) {
    hit = deepFreeze(renderTool(target, DISPATCHER_TOOL, { openaiStrict: false }));
    dispatcherMemo.set(target, hit);
  }
  return hit;
}
