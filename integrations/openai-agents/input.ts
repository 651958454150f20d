/**
 * What the Agents SDK's runner lets an application change per model call,
 * used to put toolroute's texts where the model reads them:
 *
 * - `callModelInputFilter`: standing announcements at the tail of each
 *   request (never into the run's history); the reason of a rejected
 *   toolkit load after its empty `tool_search_output` (a `tool_search_output`
 *   carries tools, not text), as toolroute's Responses compile writes it;
 *   and, in place of the SDK's message for a call whose arguments are not
 *   JSON (the SDK answers those without invoking the tool), the router's
 *   reason, or the result of the call when the router accepts the text.
 * - `toolErrorFormatter`: a call to a tool the run does not offer gets the
 *   router's reason (`checkToolCall`) instead of the SDK's message.
 */
import type { AgentInputItem, CallModelInputFilter, ToolErrorFormatter } from '@openai/agents';
import { ANNOUNCEMENT_ANCHOR, LOAD_TOOLKIT_NAME, renderAnnouncements, TOOLKIT_DISPATCHER_NAME, type Announcement } from '../../runtime/index.js';
import { loadedSameTurnReason } from '../../runtime/reasons.js';
import type { AgentsCall } from './tools.js';

/** What the filter and the formatter need of a router. */
export interface InputRouter {
  getAnnouncements(): Announcement[];
  checkToolCall(call: { readonly name: string; readonly namespace?: string; readonly arguments?: string }): { readonly allowed: boolean; readonly reason?: string; readonly code?: string };
}

/** The call id of a tool search item, wherever the SDK keeps it. */
export function searchCallId(item: { readonly call_id?: string | null; readonly callId?: string | null; readonly providerData?: Record<string, unknown> | undefined; readonly id?: string | undefined }): string | undefined {
  const fromData = item.providerData?.['call_id'];
  return item.call_id ?? item.callId ?? (typeof fromData === 'string' ? fromData : undefined) ?? item.id;
}

/**
 * The SDK's output for a call to one of the agent's tools whose arguments it
 * could not parse: it answers such a call itself, without `invoke`.
 */
const SDK_PARSE_ERROR_OUTPUT = 'An error occurred while parsing tool arguments. Please try again with valid JSON.';

/** Runs a call through the router and gives the text the model reads (the tools' `invoke` without a signal). */
export type RunCall = (call: AgentsCall, context: unknown) => Promise<string>;

/**
 * The answers to calls the SDK refused for their argument text but the
 * router accepts, by router and call id: each runs once per router, however
 * many requests, settings objects or runs carry it.
 */
const lateRuns = new WeakMap<object, Map<string, Promise<string>>>();

/**
 * The per-call input filter: the run's items as the SDK built them, each
 * rejected load followed by its reason (once), then the announcement tail.
 * Announcement messages already in the input (a session stores what the
 * model saw) are dropped first, recognized by the block toolroute renders
 * (as text or as text parts), so the tail is the current set, once,
 * whichever filter wrote the old ones.
 *
 * A call whose arguments the SDK could not parse (it never invokes the tool
 * then) gets the router's answer in place of the SDK's message: the reason
 * when the router rejects the text, or, when it accepts it (blank text, which
 * models send for tools without parameters, reads as no arguments), the
 * result of the call, run here through `run` before the model reads it. Only
 * a call made since this filter's first request runs: one already in that
 * request's input (a session's history, a passed `result.history`) shows the
 * result only if this router ran it, and keeps the SDK's message otherwise.
 *
 * @example
 * const filter = inputFilter(router, new Map([['ts_1', 'Toolkit "Database" is currently blocked.']]), run);
 * // [..., tool_search_output(ts_1), { role: 'system', content: 'load_toolkit: Toolkit "Database" is currently blocked.' }, <announcements>]
 */
export function inputFilter(router: InputRouter, rejections: ReadonlyMap<string, string>, run: RunCall): CallModelInputFilter {
  let runs = lateRuns.get(router);
  if (runs === undefined) lateRuns.set(router, (runs = new Map()));
  const answered = runs;
  // The calls of the first request's input: made before this filter, never run by it.
  let before: ReadonlySet<string> | undefined;
  return async ({ modelData, context }) => {
    const unparsed = new Map<string, string | Promise<string>>();
    const accepted = new Map<string, AgentsCall>();
    for (const item of modelData.input) {
      if (item.type !== 'function_call' || parses(item.arguments)) continue;
      const call: AgentsCall = { call_id: item.callId, name: item.name, arguments: item.arguments, ...(item.namespace === undefined ? {} : { namespace: item.namespace }) };
      const check = router.checkToolCall(call);
      if (check.allowed === false && typeof check.reason === 'string') unparsed.set(item.callId, check.reason);
      if (check.allowed) accepted.set(item.callId, call);
    }
    before ??= new Set(accepted.keys());
    for (const item of modelData.input) {
      const call = item.type === 'function_call_result' ? accepted.get(item.callId) : undefined;
      // Only where the SDK answered the call itself: a call it refused for another cause (a deferred tool not
      // loaded in this run) did not run and must not, and an output already replaced is the call's own.
      if (call === undefined || item.type !== 'function_call_result' || textOf(item.output) !== SDK_PARSE_ERROR_OUTPUT) continue;
      let answer = answered.get(item.callId);
      if (answer === undefined && !before.has(item.callId)) answered.set(item.callId, (answer = run(call, context)));
      if (answer !== undefined) unparsed.set(item.callId, answer);
    }
    // All at once: a run that throws (only with the router's `propagateHandlerErrors`) fails the run, never unhandled.
    const answers = new Map(await Promise.all([...unparsed].map(async ([id, answer]) => [id, await answer] as const)));
    const input: AgentInputItem[] = [];
    modelData.input.forEach((item, i) => {
      if (isAnnouncementMessage(item)) return;
      const answer = item.type === 'function_call_result' ? answers.get(item.callId) : undefined;
      input.push(answer === undefined || item.type !== 'function_call_result' ? item : { ...item, output: { type: 'text' as const, text: answer } });
      if (item.type !== 'tool_search_output') return;
      const id = searchCallId(item);
      const loadReason = id === undefined ? undefined : rejections.get(id);
      if (loadReason === undefined) return;
      const message: AgentInputItem = { role: 'system', content: `${LOAD_TOOLKIT_NAME}: ${loadReason}` };
      // A session may already hold it right there.
      const next = modelData.input[i + 1];
      if (next === undefined || !('role' in next) || next.role !== 'system' || messageText(next) !== message.content) input.push(message);
    });
    input.push(...announcementMessages(router.getAnnouncements()));
    return { ...modelData, input };
  };
}

/** A function call output's text: a string, or a text output item. */
function textOf(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  const text = (output as { type?: unknown; text?: unknown } | null)?.text;
  return (output as { type?: unknown } | null)?.type === 'text' && typeof text === 'string' ? text : undefined;
}

/** A message holding an announcements block as toolroute renders it. */
function isAnnouncementMessage(item: AgentInputItem): boolean {
  return 'role' in item && (item.role === 'user' || item.role === 'system') && (messageText(item) ?? '').startsWith('<announcements>\n');
}

/**
 * The text of a message, whichever form it has: the string toolroute writes,
 * or text parts (a session stores a string as parts: the Conversations API
 * gives user messages back as `input_text` parts). Undefined for other items.
 */
function messageText(item: AgentInputItem): string | undefined {
  if (!('role' in item)) return undefined;
  const content: unknown = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((part: { type?: unknown; text?: unknown }) => (typeof part.text === 'string' && (part.type === 'input_text' || part.type === 'output_text' || part.type === 'text') ? part.text : '')).join('');
}

/** Whether the SDK could parse these arguments (it answers the others itself). */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Standing announcements as tail messages: one per channel in use, `system`
 * last (nearest the model's turn); `auto` is the user tail, as toolroute's
 * Responses compile places it.
 *
 * @example
 * announcementMessages([{ id: 'env', content: 'Demo server.', channel: 'auto' }]);
 * // → [{ role: 'user', content: '<announcements>…\n\nAbove is the current system state. …' }]
 */
export function announcementMessages(list: readonly Announcement[]): AgentInputItem[] {
  if (list.length === 0) return [];
  const system = list.filter((a) => a.channel === 'system');
  const user = list.filter((a) => a.channel !== 'system');
  const out: AgentInputItem[] = [];
  if (user.length > 0) out.push({ role: 'user', content: `${renderAnnouncements(user)}\n${ANNOUNCEMENT_ANCHOR}` });
  if (system.length > 0) out.push({ role: 'system', content: renderAnnouncements(system) });
  return out;
}

/**
 * In `tool-search` mode, a toolkit tool whose toolkit this run has not
 * loaded: the load to make, through the tool search (the run's loader).
 *
 * @example
 * searchLoadReason('get_forecast', 'Weather');
 * // → 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded in this run. Load it with the tool search, {"toolkit_name":"Weather"}, then call get_forecast again.'
 */
export function searchLoadReason(tool: string, toolkit: string): string {
  return `Tool ${JSON.stringify(tool)} belongs to toolkit ${JSON.stringify(toolkit)}, which is not loaded in this run. Load it with the tool search, {"toolkit_name":${JSON.stringify(toolkit)}}, then call ${tool} again.`;
}

/** In `tool-search` mode, `load_toolkit` called as a function. */
const NO_LOADER_FUNCTION = `There is no ${LOAD_TOOLKIT_NAME} function in this run: a toolkit loads through the tool search, with {"toolkit_name": …} (a toolkit of <available_toolkits>). Then call its tools by name.`;

/**
 * The SDK's message for a call to a tool the run does not have (with
 * `toolNotFoundBehavior: 'return_error_to_model'`) replaced by the router's
 * reason: an unknown name with the closest ones, a toolkit tool before its
 * load with the `load_toolkit` call to make, a blocked tool. A name the
 * router would accept but this run does not offer gets the list of what it
 * offers (with `append`, the tools of the toolkits loaded so far, in
 * `appended`: toolkit by tool), and a tool of a toolkit loaded in the same
 * turn is to be called again.
 *
 * In `tool-search` mode (`deferred`: each toolkit tool's toolkit), the loader
 * is the tool search: a toolkit tool the run has not loaded, whether or not
 * the router has (a run continued with `previousResponseId`), gets the tool
 * search load to make, and `load_toolkit`
 * called by name is told there is no such function.
 *
 * @example
 * await formatter({ kind: 'tool_not_found', toolName: 'get_forecast', … });
 * // → 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit …'
 */
export function notFoundFormatter(router: InputRouter, offered: readonly string[], deferred?: ReadonlyMap<string, string>, appended?: ReadonlyMap<string, string>): ToolErrorFormatter {
  return ({ kind, toolName }) => {
    if (kind !== 'tool_not_found') return undefined;
    if (deferred !== undefined && toolName === LOAD_TOOLKIT_NAME) return NO_LOADER_FUNCTION;
    // A namespaced call arrives qualified (`namespace.name`).
    const dot = toolName.lastIndexOf('.');
    const call = dot > 0 ? { name: toolName.slice(dot + 1), namespace: toolName.slice(0, dot) } : { name: toolName };
    const check = router.checkToolCall(call);
    // The SDK calls a deferred tool not found until a tool search in this run loaded it; a blocked one keeps its reason.
    const toolkit = dot < 0 ? deferred?.get(toolName) : undefined;
    if (toolkit !== undefined && (check.allowed || check.code === 'not_loaded')) return searchLoadReason(toolName, toolkit);
    if (check.allowed === false && typeof check.reason === 'string') return check.reason;
    // With `append`, a toolkit tool the router allows now but the turn did not offer: its toolkit loaded in this turn.
    const kit = dot < 0 ? appended?.get(toolName) : undefined;
    if (kit !== undefined) return loadedSameTurnReason(toolName, kit, 'turn');
    // A loaded toolkit tool called by its own name where the run reaches toolkit tools through the dispatcher (the
    // router's own answer: the dispatcher call of that name resolves, whatever the arguments would say).
    const dispatched = offered.includes(TOOLKIT_DISPATCHER_NAME) && dot < 0 ? router.checkToolCall({ name: TOOLKIT_DISPATCHER_NAME, arguments: JSON.stringify({ tool: toolName, args: {} }) }) : undefined;
    if (dispatched !== undefined && (dispatched.allowed || dispatched.code === 'invalid_arguments')) {
      return `Tool ${JSON.stringify(toolName)} is called through ${TOOLKIT_DISPATCHER_NAME} in this run: call ${TOOLKIT_DISPATCHER_NAME} with {"tool":${JSON.stringify(toolName)},"args":{…}}.`;
    }
    const loaded = [...(appended ?? [])].filter(([name]) => router.checkToolCall({ name }).allowed).map(([name]) => name);
    return `Tool "${toolName}" is not offered in this run. Call one of: ${[...offered, ...loaded].join(', ')}.`;
  };
}
