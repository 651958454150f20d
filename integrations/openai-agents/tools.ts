/**
 * A router's tools as Agents SDK function tools: every `invoke` hands the
 * model's raw argument text to `router.dispatch` and returns what the model
 * should read — the handler's result as text, or the router's reason
 * verbatim when the call is rejected.
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import type { ToolDefinition } from '../../runtime/index.js';
import { resultText } from '../../runtime/targets/history.js';
import { sdkParameters } from '../../runtime/targets/index.js';

/** A call as `dispatch` reads it: a Responses function call (`namespace` for a namespace member). */
export interface AgentsCall {
  readonly call_id: string | undefined;
  readonly name: string;
  readonly namespace?: string;
  readonly arguments: string;
}

/** What the tools need of a router: `dispatch`, with the run's context and, while a tool runs, the SDK's abort signal. */
export type Dispatch<C> = (call: AgentsCall, context: C | undefined, signal?: AbortSignal) => Promise<{ ok: true; result: unknown } | { ok: false; code?: string; reason: string }>;

/** Where a tool's calls go: its own name, or a member of a namespace. */
export interface Route {
  readonly name: string;
  readonly namespace?: string;
}

/** A JSON Schema as `tool()` types a non-strict one (the router's schemas pass as they are). */
type NonStrictSchema = { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: true };

/** The schema of a tool defined without parameters: an object with any keys. */
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
  // What JSON cannot write (a BigInt, a cyclic value) as `toolMessage` writes it: never an exception that ends the run.
  return r.result === undefined ? 'null' : resultText(r.result);
}

/**
 * One Agents SDK function tool over `dispatch`, under the signal the SDK
 * hands `invoke`. Made with the SDK's `tool()`
 * so that `needsApproval: false` is its static policy (a hand-written
 * `async () => false` is a dynamic one, which holds a call with unparseable
 * arguments for manual approval), then given an `invoke` that takes the raw
 * argument text. `strict: false`: the model's arguments reach the router
 * unchanged, which validates them and words the reasons. `errorFunction:
 * null`: an exception from `dispatch` (only with the router's
 * `propagateHandlerErrors`) fails the run instead of becoming the SDK's
 * generic message.
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
): FunctionTool<C, NonStrictSchema, string> {
  const made = tool<NonStrictSchema, C, string>({
    name: def.name,
    description: def.description,
    // A copy (the router's definitions are frozen, and the SDK may normalize what it is given), as toolroute's own
    // adapters send it: no top-level combinator, which OpenAI refuses for the whole request.
    parameters: sdkParameters(def.parameters ?? ANY_OBJECT) as NonStrictSchema,
    strict: false,
    execute: () => {
      throw new Error('unreachable: invoke is replaced below');
    },
    errorFunction: null,
    needsApproval: false,
    isEnabled: () => extra.enabled(),
    ...(extra.deferLoading ? { deferLoading: true } : {}),
  });
  const out: FunctionTool<C, NonStrictSchema, string> = {
    ...made,
    // `tool()` turns every character but letters and digits into `_` (`resolve-library-id` would be offered as
    // `resolve_library_id`, and `list-issues` would collide with `list_issues`); both OpenAI APIs accept `-`, and the
    // SDK sends and matches `name` as it is, so the model is offered the name toolroute's reasons use.
    name: def.name,
    invoke: async (runContext: RunContext<C>, input: string, details) => {
      const call: AgentsCall = { call_id: details?.toolCall?.callId, name: route.name, arguments: input, ...(route.namespace === undefined ? {} : { namespace: route.namespace }) };
      // The SDK's signal (the run's, or its cancellation of this call): aborting it aborts the handler's `ctx.signal`.
      return outputText(await dispatch(call, runContext.context, details?.signal));
    },
  };
  return out;
}

/** The toolkit names the loader offers (its `toolkit_name` enum). */
export function toolkitNamesOf(loader: ToolDefinition | undefined): string[] {
  const props = (loader?.parameters as { properties?: { toolkit_name?: { enum?: unknown[] } } } | undefined)?.properties;
  const names = props?.toolkit_name?.enum;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}
