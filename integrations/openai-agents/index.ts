/**
 * toolroute/openai-agents: a router as the tools of an OpenAI Agents SDK
 * agent (`@openai/agents` 0.20, an optional peer dependency).
 *
 * `toOpenAiAgents(router, options)` returns `agent` (spread into
 * `new Agent({ … })`: `instructions` and `tools`) and `run` (spread into
 * `run(agent, input, { … })` or `new Runner({ … })`):
 *
 * - Every tool is an Agents SDK `FunctionTool` whose `invoke` hands the
 *   model's raw argument text to `router.dispatch`: the gate, validation and
 *   routing are the router's, and a rejection is the tool's output, the
 *   router's reason as it wrote it. Handlers get the run's context
 *   (`RunContext.context`, typed as the router's `C`), and the signal the SDK
 *   hands `invoke` aborts their `ctx.signal`.
 * - Names are the router's, `-` included (the SDK's `tool()` would make
 *   them `_`).
 * - Namespaces: on the Responses API (`api: 'responses'`, the SDK's default),
 *   one `toolNamespace()` group per namespace, whose members the model calls
 *   by name (their schemas come from `generated`); on Chat Completions
 *   (`api: 'chat'`), and for a namespace named with `-` (which
 *   `toolNamespace()` would rename), the namespace tool `{ action, args }` as
 *   toolroute's compile renders it.
 * - Toolkits load as the router's compile renders them for that API (its
 *   `toolkitLoading`, default `native`): on Responses, `load_toolkit` is a
 *   client-executed `toolSearchTool()` whose executor dispatches the load
 *   (gate and reasons apply) and answers with the toolkit's tools, which the
 *   agent carries from the first turn with `deferLoading` (the tool list
 *   never changes); on Chat, `load_toolkit` and `call_toolkit_tool`; with
 *   `append`, `load_toolkit` and each toolkit's tools, enabled once loaded.
 * - `run.toolNotFoundBehavior` and `run.toolErrorFormatter`: a call to a tool
 *   the run does not have reaches the model with the router's reason (in
 *   `tool-search` mode, a toolkit tool not loaded in the run with the tool
 *   search load to make).
 * - `run.callModelInputFilter`: standing announcements at the tail of each
 *   request, a rejected toolkit load's reason after its tool search output,
 *   and, for a call whose arguments are not JSON (which the SDK answers
 *   itself, without invoking the tool), the router's reason, or the call's
 *   result when the router accepts the text (blank text is no arguments).
 */
import { toolNamespace, toolSearchTool, type CallModelInputFilter, type Tool, type ToolErrorFormatter } from '@openai/agents';
import { LOAD_TOOLKIT_NAME, TOOLKIT_DISPATCHER_NAME, type DispatchOptions, type GeneratedModule, type RegistryShape, type ToolDefinition, type ToolRouter } from '../../runtime/index.js';
import { inputFilter, notFoundFormatter, searchCallId, searchLoadReason } from './input.js';
import { functionTool, outputText, toolkitNamesOf, type AgentsCall, type Dispatch } from './tools.js';
import { assertKnownNames } from '../../runtime/suggest.js';

/** Every option `toOpenAiAgents` reads: another key is a typo and throws. */
const OPTION_NAMES: ReadonlySet<string> = new Set(['instructions', 'api', 'generated', 'tools', 'task', 'context']);

/** A namespace name `toolNamespace()` sends unchanged. */
const SDK_NAMESPACE_NAME = /^[A-Za-z0-9_]+$/;

/** The OpenAI API behind the agent's model: the SDK's default Responses, or Chat Completions. */
export type OpenAiAgentsApi = 'responses' | 'chat';
/** How toolkits load in this run: the router's `toolkitLoading` on that API (see the module comment). */
export type OpenAiAgentsToolkitMode = 'tool-search' | 'dispatcher' | 'append';

export interface ToOpenAiAgentsOptions<R extends RegistryShape = RegistryShape, C = unknown> {
  /** Your instructions; `agent.instructions` is them plus the toolkit directory. */
  readonly instructions?: string;
  /** The API of the agent's model (default `'responses'`); Chat models have no namespaces or tool search. */
  readonly api?: OpenAiAgentsApi;
  /**
   * The generated folder the router was created from (`import * as generated
   * from './generated/index.js'`): on Responses, the namespaces' members and
   * their schemas. Required there when the tools include a namespace: one registered at run time too, which cannot be
   * told from a namespace of the spec without the folder.
   */
  readonly generated?: GeneratedModule<R>;
  /**
   * The stable tools, as names of flat tools and namespaces (like `compile`'s
   * `tools`). Default: what `compile()` offers (the namespaces and the flat
   * tools in no namespace, or the flat tools). The loader is always added
   * when there are toolkits.
   */
  readonly tools?: readonly string[];
  /** Prune the flat tools of the choice by this task (`router.pruneByTask`), once for the run. */
  readonly task?: string;
  /** The `context` handed to handlers; default: the run's context (`run(agent, input, { context })`). */
  readonly context?: C;
}

/** What to spread into `new Agent({ … })` and `run(agent, input, { … })`. */
export interface OpenAiAgentsSettings<C = unknown> {
  readonly agent: { readonly instructions: string; readonly tools: Tool<C>[] };
  readonly run: {
    readonly callModelInputFilter: CallModelInputFilter;
    readonly toolErrorFormatter: ToolErrorFormatter;
    readonly toolNotFoundBehavior: 'return_error_to_model';
  };
  /** How toolkits load in this run (undefined when the router has none). */
  readonly toolkitLoading: OpenAiAgentsToolkitMode | undefined;
}

type Result = { ok: true; result: unknown } | { ok: false; code?: string; reason: string };

/**
 * The router as Agents SDK settings.
 *
 * Throws a `TypeError` for an unknown `api`, a name in `tools` that is not a
 * flat tool or namespace, and, on Responses, a spec namespace without
 * `generated` (or a `generated` of another spec).
 *
 * @example
 * import { Agent, run } from '@openai/agents';
 * import * as generated from './generated/index.js';
 * const toolroute = toOpenAiAgents(router, { generated, instructions: 'You are a careful assistant.' });
 * const agent = new Agent({ name: 'assistant', model: 'gpt-5', ...toolroute.agent });
 * const result = await run(agent, 'Plan a walk in Lisbon.', { ...toolroute.run, context: { user } });
 */
export function toOpenAiAgents<R extends RegistryShape, C = unknown, D extends string = never, L extends string = never>(
  router: ToolRouter<R, C, D, L>,
  options: ToOpenAiAgentsOptions<R, C> = {},
): OpenAiAgentsSettings<C> {
  assertKnownNames('toOpenAiAgents options', Object.keys(options), OPTION_NAMES, () => OPTION_NAMES, `Options are ${[...OPTION_NAMES].join(', ')}.`);
  const api = options.api ?? 'responses';
  if (api !== 'responses' && api !== 'chat') throw new TypeError(`toOpenAiAgents: api ${JSON.stringify(api)} is not an API; use 'responses' or 'chat'.`);
  const send = router.dispatch.bind(router) as unknown as (call: AgentsCall, options?: DispatchOptions<C>) => Promise<Result>;
  // `signal` only when the SDK gave one: dispatch refuses anything else in its place.
  const dispatch: Dispatch<C> = (call, runContext, signal) => send(call, { context: (options.context ?? runContext) as C, ...(signal !== undefined ? { signal } : {}) });

  const compiled = router.compile();
  const loader = compiled.tools.find((t) => t.name === LOAD_TOOLKIT_NAME);
  const library = compiled.tools.filter((t) => t.name !== LOAD_TOOLKIT_NAME && router.ownsTool(t.name));
  const defaults = compiled.tools.filter((t) => t.name !== LOAD_TOOLKIT_NAME && !library.includes(t));
  const flat = router.getAllTools();
  const flatNames = new Set(flat.map((t) => t.name));
  const byName = new Map<string, ToolDefinition>([...flat, ...defaults].map((t) => [t.name, t]));

  // The stable choice, as `compile` makes it.
  let stable: ToolDefinition[] = defaults;
  if (options.tools !== undefined) {
    stable = options.tools.map((name) => {
      const t = byName.get(name);
      if (t === undefined) throw new TypeError(`toOpenAiAgents: ${JSON.stringify(name)} in \`tools\` is not a flat tool or namespace of this router.`);
      return t;
    });
  }
  if (options.task !== undefined) {
    const kept = new Set(router.pruneByTask(options.task).tools.map((t) => t.name));
    stable = stable.filter((t) => !flatNames.has(t.name) || kept.has(t.name));
  }

  const always = () => true;
  const tools: Tool<C>[] = [];
  // The names the model sees, for the "not offered" message: namespace members qualified, the tool search as itself.
  const offeredNames: string[] = [];
  /** With `append`, each toolkit tool's toolkit: offered (and named as offered) once the toolkit is loaded. */
  const appended = new Map<string, string>();
  const add = (def: ToolDefinition, extra: { deferLoading?: boolean; enabled?: () => boolean } = {}) => {
    tools.push(functionTool(def, { name: def.name }, dispatch, { deferLoading: extra.deferLoading ?? false, enabled: extra.enabled ?? always }));
    offeredNames.push(def.name);
  };
  for (const t of stable) {
    const members = api === 'responses' && !flatNames.has(t.name) ? namespaceMembers(options.generated, router, t.name) : undefined;
    // `toolNamespace()` offers a namespace under the name with every character but letters and digits turned into
    // `_`, which toolroute's reasons never use: a namespace named with `-` goes as the namespace tool, whose name is kept.
    if (members === undefined || !SDK_NAMESPACE_NAME.test(t.name)) {
      add(t);
      continue;
    }
    const group = members.tools.map((m) => functionTool(m, { name: m.name, namespace: t.name }, dispatch, { deferLoading: false, enabled: always }));
    tools.push(...toolNamespace({ name: t.name, description: members.description, tools: group }));
    offeredNames.push(...members.tools.map((m) => `${t.name}.${m.name}`));
  }

  const rejections = new Map<string, string>();
  // In `tool-search` mode: each deferred toolkit tool's toolkit.
  const deferred = new Map<string, string>();
  const mode = loader === undefined ? undefined : toolkitModeOf(router, api);
  if (loader !== undefined && mode !== undefined) {
    if (mode.mode === 'tool-search') {
      const kits = toolkitsOf(router, loader);
      // A toolkit tool reached with its toolkit not loaded in the router (the SDK saw its load in an earlier run's
      // history): the router's reason names load_toolkit, which is the tool search here.
      const kitDispatch = (kit: string): Dispatch<C> => async (call, context, signal) => {
        const r = await dispatch(call, context, signal);
        return !r.ok && r.code === 'not_loaded' ? { ok: false, reason: searchLoadReason(call.name, kit) } : r;
      };
      // Built once: the executor answers every load of a toolkit with these same objects, which the agent also carries, deferred.
      const kitTools = new Map(kits.map((kit) => [kit.name, kit.tools.map((t) => functionTool(t, { name: t.name }, kitDispatch(kit.name), { deferLoading: true, enabled: always }))]));
      for (const kit of kits) for (const t of kit.tools) deferred.set(t.name, kit.name);
      tools.push(
        toolSearchTool<C>({
          execution: 'client',
          description: mode.search?.description ?? loader.description,
          parameters: structuredClone(mode.search?.parameters ?? loader.parameters),
          // The load itself is `dispatch`'s: an accepted load answers with the toolkit's tools, a rejected one with none and its reason.
          execute: async ({ toolCall, runContext }) => {
            const id = searchCallId(toolCall);
            const args = typeof toolCall.arguments === 'string' ? toolCall.arguments : JSON.stringify(toolCall.arguments ?? {});
            const call: AgentsCall = { call_id: id, name: LOAD_TOOLKIT_NAME, arguments: args };
            const r = await dispatch(call, runContext.context);
            if (!r.ok) {
              if (id !== undefined) rejections.set(id, r.reason);
              return [];
            }
            const check = router.checkToolCall(call) as { allowed: boolean; call?: { args?: { toolkit_name?: unknown } } };
            const name = check.call?.args?.toolkit_name;
            return typeof name === 'string' ? (kitTools.get(name) ?? []) : [];
          },
        }),
      );
      offeredNames.push('tool_search');
      for (const t of library) add(t);
      // Not among the names offered: the model can call them only once a tool search in this run has loaded them.
      for (const group of kitTools.values()) tools.push(...group);
    } else {
      add(loader);
      if (mode.dispatcher !== undefined) add(mode.dispatcher);
      for (const t of library) add(t);
      if (mode.mode === 'append') {
        const loaded = (kit: string) => router.getLoadedToolkits().some((k) => k.toLowerCase() === kit.toLowerCase());
        for (const kit of toolkitsOf(router, loader)) {
          for (const t of kit.tools) {
            tools.push(functionTool(t, { name: t.name }, dispatch, { deferLoading: false, enabled: () => loaded(kit.name) }));
            appended.set(t.name, kit.name);
          }
        }
      }
    }
  } else {
    for (const t of library) add(t);
  }

  const instructions = [options.instructions, compiled.directoryXml].filter((t): t is string => typeof t === 'string' && t !== '').join('\n\n');
  return {
    agent: { instructions, tools },
    run: {
      callModelInputFilter: inputFilter(router as never, rejections, async (call, context) => outputText(await dispatch(call, context as C))),
      toolErrorFormatter: notFoundFormatter(router as never, [...new Set(offeredNames)], mode?.mode === 'tool-search' ? deferred : undefined, appended),
      toolNotFoundBehavior: 'return_error_to_model',
    },
    toolkitLoading: mode?.mode,
  };
}

/** A spec namespace's description and members (neutral definitions), from the generated folder; undefined for one registered at run time. */
function namespaceMembers<R extends RegistryShape>(
  generated: GeneratedModule<R> | undefined,
  router: { snapshot(): { readonly spec: string } },
  name: string,
): { description: string; tools: ToolDefinition[] } | undefined {
  if (generated === undefined) {
    throw new TypeError(
      `toOpenAiAgents: on the Responses API a namespace of the spec is sent as a toolNamespace() group, whose members' schemas are in the generated folder; ` +
        `without it, the namespace "${name}" cannot be told from one registered at run time. ` +
        "Pass `generated` (import * as generated from './generated/index.js'), or `api: 'chat'` for the namespace tool.",
    );
  }
  const spec = generated.spec;
  if (spec.hash !== router.snapshot().spec) throw new TypeError('toOpenAiAgents: `generated` is not the generated folder this router was created from (the spec hashes differ).');
  const ns = spec.namespaces.find((n) => n.name === name);
  if (ns === undefined) return undefined;
  return { description: ns.description, tools: ns.tools.map((i) => spec.rendered.neutral.tools[i] as ToolDefinition) };
}

/** Every toolkit's tools, read without loading anything: the router's state is put back as it was. */
function toolkitsOf(router: { snapshot(): unknown; restore(s: unknown): unknown; extractToolkit(name: string): ToolDefinition[] }, loader: ToolDefinition) {
  const kits: { name: string; tools: ToolDefinition[] }[] = [];
  const saved = router.snapshot();
  try {
    for (const name of toolkitNamesOf(loader)) kits.push({ name, tools: router.extractToolkit(name) });
  } finally {
    router.restore(saved);
  }
  return kits;
}

/**
 * How the router's compile loads toolkits for the API: a client `tool_search`
 * tool (Responses' native form), the dispatcher tool, or neither (append).
 * The tool search's and the dispatcher's definitions are taken as compiled.
 */
function toolkitModeOf(
  router: { compile(request: { target: 'openai' | 'openai-responses'; messages: [] }): unknown; snapshot(): unknown; restore(s: unknown): unknown },
  api: OpenAiAgentsApi,
): { mode: OpenAiAgentsToolkitMode; search?: { description: string; parameters: unknown }; dispatcher?: ToolDefinition } {
  // A probe, not a turn: the router's record of the target's first turn is put back as it was.
  const saved = router.snapshot();
  let payload: { tools?: readonly Record<string, unknown>[] };
  try {
    payload = router.compile({ target: api === 'chat' ? 'openai' : 'openai-responses', messages: [] }) as typeof payload;
  } finally {
    router.restore(saved);
  }
  for (const t of payload.tools ?? []) {
    if (t['type'] === 'tool_search') return { mode: 'tool-search', search: { description: String(t['description'] ?? ''), parameters: t['parameters'] } };
    const fn = (t['function'] ?? t) as { name?: unknown; description?: unknown; parameters?: unknown };
    if (fn.name === TOOLKIT_DISPATCHER_NAME) {
      return { mode: 'dispatcher', dispatcher: { name: TOOLKIT_DISPATCHER_NAME, description: String(fn.description ?? ''), parameters: fn.parameters as ToolDefinition['parameters'] } };
    }
  }
  return { mode: 'append' };
}

