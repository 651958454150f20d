/**
 * A router's tools as Agents SDK function tools: every `invoke` hands the
 * model's raw argument text to `router.dispatch` and returns what the model
 * should read — the handler's result as text, or the router's reason
 * verbatim when the call is rejected.
 */
import type { FunctionTool, RunContext } from '@openai/agents';
import type { ToolDefinition } from '../../runtime/index.js';

/** A call as `dispatch` reads it: a Responses function call (`namespace` for a namespace member). */
export interface AgentsCall {
  readonly call_id: string | undefined;
  readonly name: string;
  readonly namespace?: string;
  readonly arguments: string;
}

/** What the tools need of a router: `dispatch`, with the run's context. */
export type Dispatch<C> = (call: AgentsCall, context: C | undefined) => Promise<{ ok: true; result: unknown } | { ok: false; reason: string }>;

/** Where a tool's calls go: its own name, or a member of a namespace. */
export interface Route {
  readonly name: string;
  readonly namespace?: string;
}

/** The schema the SDK sends when a tool has none: an object with any keys. */
const ANY_OBJECT = Object.freeze({ type: 'object', properties: {} });

/**
 * The text the model reads for a dispatch result: a string as it is,
 * anything else as JSON (never an object the SDK would read as structured
 * content).
 *
 * @example
 * outputText({ ok: true, result: { city: 'Lisbon' } }); // → '{"city":"Lisbon"}'
 * outputText({ ok: false, reason: 'Tool "x" is currently blocked.' }); // → the reason
 */
export function outputText(r: { ok: true; result: unknown } | { ok: false; reason: string }): string {
  if (!r.ok) return r.reason;
  if (typeof r.result === 'string') return r.result;
  return JSON.stringify(r.result) ?? 'null';
}

/**
 * One Agents SDK function tool over `dispatch`. `strict: false`: the model's
 * arguments reach the router unchanged, which validates them and words the
 * reasons. `errorFunction: null`: an exception from `dispatch` (only with
 * the router's `propagateHandlerErrors`) fails the run instead of becoming
 * the SDK's generic message.
 *
 * @example
 * const t = functionTool(def, { name: 'get_time' }, dispatch, { deferLoading: false, enabled: () => true });
 * await t.invoke(runContext, '{"timezone":"UTC"}'); // → the handler's result as text
 */
export function functionTool<C>(
  def: ToolDefinition,
  route: Route,
  dispatch: Dispatch<C>,
  extra: { readonly deferLoading: boolean; readonly enabled: () => boolean },
): FunctionTool<C> {
  const tool: FunctionTool<C> = {
    type: 'function',
    name: def.name,
    description: def.description,
    // A copy: the router's definitions are frozen, and the SDK may normalize what it is given.
    parameters: structuredClone((def.parameters ?? ANY_OBJECT) as FunctionTool<C>['parameters']),
    strict: false,
    invoke: async (runContext: RunContext<C>, input: string, details) => {
      const call: AgentsCall = { call_id: details?.toolCall?.callId, name: route.name, arguments: input, ...(route.namespace === undefined ? {} : { namespace: route.namespace }) };
      return outputText(await dispatch(call, runContext.context));
    },
    errorFunction: null,
    needsApproval: async () => false,
    isEnabled: async () => extra.enabled(),
  };
  if (extra.deferLoading) tool.deferLoading = true;
  return tool;
}

/** The toolkit names the loader offers (its `toolkit_name` enum). */
export function toolkitNamesOf(loader: ToolDefinition | undefined): string[] {
  const props = (loader?.parameters as { properties?: { toolkit_name?: { enum?: unknown[] } } } | undefined)?.properties;
  const names = props?.toolkit_name?.enum;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}
