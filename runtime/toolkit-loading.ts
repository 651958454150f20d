/**
 * How a loaded toolkit reaches the model without changing what the provider has cached. `append` (the reference
 * library's behaviour) adds its tools to `tools`, rewriting the cached conversation; `native` (the default) is the
 * target's own way, named by its adapter: Anthropic `deferred` (`defer_loading` tools, `tool_reference` results),
 * Responses `tool-search` (a client-executed `tool_search`), OpenAI Chat and Gemini `dispatcher` (one stable tool,
 * {@link TOOLKIT_DISPATCHER_NAME}). Compile renders it as a pure function of the history and the catalog.
 */
import { LOAD_TOOLKIT_NAME, TARGETS, TOOLKIT_DISPATCHER_NAME, type Target, type ToolDefinition } from './contract.js';
import { deepFreeze } from './freeze.js';
import { quote } from './reasons.js';
import type { NeutralTool } from './targets/adapter.js';
import { argumentsObject, isRecord, parseOr, type NormalizedMessage } from './targets/history.js';
import type { ResponsesTool } from './targets/types.js';

/** The strategies an application chooses from. */
export const TOOLKIT_LOADING_STRATEGIES = ['native', 'dispatcher', 'append', 'tool-changes'] as const;
/**
 * `native`: the target's own mechanism (see the module comment); `dispatcher`: the stable dispatcher tool; `append`:
 * loaded tools appended to `tools`; `tool-changes`: Anthropic's mid-conversation `tool_addition` / `tool_removal`
 * blocks (also what `native` means on Anthropic for a router `model` that accepts them).
 */
export type ToolkitLoadingStrategy = (typeof TOOLKIT_LOADING_STRATEGIES)[number];
/** One strategy for every target, or one per target (a missing target gets `native`). */
export type ToolkitLoadingOption = ToolkitLoadingStrategy | { readonly [T in Target]?: ToolkitLoadingStrategy };
/** What a strategy means on one target. */
export type ToolkitMode = 'deferred' | 'tool-search' | 'dispatcher' | 'append' | 'tool-changes';

export { TOOLKIT_DISPATCHER_NAME } from './contract.js';

/** How the model reaches a toolkit's tools in each mode: what error texts say, so they match the active strategy. */
export const TOOLKIT_MODE_TEXT: { readonly [M in ToolkitMode]: string } = {
  deferred: 'every toolkit tool is sent with defer_loading, and load_toolkit makes its toolkit\'s tools callable',
  'tool-search': 'load_toolkit\'s result brings its toolkit\'s tools through tool search',
  dispatcher: `a loaded toolkit's tools are called through ${TOOLKIT_DISPATCHER_NAME}`,
  append: 'a loaded toolkit\'s tools are appended after the stable tools',
  'tool-changes': 'every toolkit tool is sent with defer_loading, and a load adds its tools to the conversation with tool_addition blocks',
};

/** Check a `toolkitLoading` option's shape once, up front (router creation); each target's strategy is then checked by `toolkitMode` (targets/index.ts). */
export function assertToolkitLoadingOption(option: unknown): asserts option is ToolkitLoadingOption | undefined {
  if (option === undefined || typeof option === 'string') return;
  if (!isRecord(option)) throw new TypeError('toolkitLoading: expected a strategy name or an object of strategies per target.');
  const stray = Object.keys(option).find((key) => !(TARGETS as readonly string[]).includes(key));
  if (stray !== undefined) throw new TypeError(`toolkitLoading: ${JSON.stringify(stray)} is not a target; targets are ${TARGETS.join(', ')}.`);
}

/** The first line of a successful `load_toolkit` result, by which compile recognizes a successful load in the history: the router writes it with this. */
export function loadResultHead(toolkit: string, fresh: boolean): string {
  return fresh ? `Toolkit ${quote(toolkit)} loaded.` : `Toolkit ${quote(toolkit)} is already loaded.`;
}

/** A toolkit as compile needs it: its canonical name and its tools' names, in order. */
export interface CatalogToolkit { readonly name: string; readonly tools: readonly string[] }

/** The toolkits of a router by lowercased name, looked up as `load_toolkit` does (case-insensitive). */
export type ToolkitCatalog = ReadonlyMap<string, CatalogToolkit>;

/** What compile needs to render toolkit loads natively. */
export interface ToolkitLoadingInput {
  readonly mode: ToolkitMode;
  readonly catalog: ToolkitCatalog;
  /** `tool-search` mode: what a load's `tool_search_output` carries, by toolkit name (its tools loaded, or its native namespace). */
  readonly responsesTools?: ReadonlyMap<string, readonly ResponsesTool[]>;
}

/**
 * The `load_toolkit` calls of a history by call id, each with the toolkit its result reports as loaded (undefined when
 * the result is not a successful load).
 * @example loadCalls(normalized, catalog).get('call_1')?.name; // → 'Weather'
 */
export function loadCalls(messages: readonly NormalizedMessage[], catalog: ToolkitCatalog): Map<string, CatalogToolkit | undefined> {
  const requested = new Map<string, CatalogToolkit | undefined>();
  for (const c of messages.flatMap((m) => (m.role === 'assistant' ? m.calls : []))) {
    if (c.name !== LOAD_TOOLKIT_NAME || c.id === '') continue;
    const name = argumentsObject(c.arguments)['toolkit_name'];
    requested.set(c.id, typeof name === 'string' ? catalog.get(name.toLowerCase()) : undefined);
  }
  const out = new Map<string, CatalogToolkit | undefined>([...requested.keys()].map((id) => [id, undefined]));
  for (const m of messages) {
    const kit = m.role === 'tool' ? requested.get(m.callId) : undefined;
    if (kit === undefined) continue;
    // A result may be its text as a JSON string (`JSON.stringify(text)`): JSON that starts with a quote is a string.
    const text = m.text.startsWith('"') ? String(parseOr(m.text, m.text)) : m.text;
    out.set(m.callId, text.startsWith(loadResultHead(kit.name, true)) || text.startsWith(loadResultHead(kit.name, false)) ? kit : undefined);
  }
  return out;
}

/**
 * The announcement listing tools registered after the first turn in the dispatcher modes, so `tools` stays as cached.
 * @example registeredToolsText([{ name: 'ping', description: 'Ping', parameters: { type: 'object', properties: {} } }]);
 * // → 'Tools registered during this conversation: call each through call_toolkit_tool …\n- ping: Ping Arguments: {"type":"object","properties":{}}'
 */
export function registeredToolsText(tools: readonly ToolDefinition[]): string {
  const lines = tools.map((t) => `- ${t.name}: ${t.description} Arguments: ${JSON.stringify(t.parameters)}`);
  return `Tools registered during this conversation: call each through ${TOOLKIT_DISPATCHER_NAME} with { "tool": its name, "args": its arguments }.\n${lines.join('\n')}`;
}

/** The dispatcher tool, provider-neutral: `{ tool, args }`; its text never changes with the catalog. */
export const DISPATCHER_TOOL: NeutralTool = deepFreeze({
  kind: 'loader',
  name: TOOLKIT_DISPATCHER_NAME,
  description:
    'Call a tool of a loaded toolkit. Load the toolkit first with load_toolkit: its result lists the toolkit\'s tools and their arguments. ' +
    'Pass the tool\'s name as `tool` and its arguments as `args`.',
  parameters: {
    type: 'object',
    properties: {
      tool: { type: 'string', description: 'The name of a tool of a loaded toolkit.' },
      args: { type: 'object', description: 'Arguments for that tool, as its load_toolkit listing states them.' },
    },
    required: ['tool', 'args'],
  },
  deferLoading: false,
});
