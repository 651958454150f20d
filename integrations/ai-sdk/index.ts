/**
 * toolroute/ai-sdk: a router as the tools of the Vercel AI SDK (`ai` 6, an
 * optional peer dependency), for `generateText` / `streamText`.
 *
 * `toAiSdk(router, options)` returns settings to spread into the call:
 *
 * - `tools`: every tool the router can offer in this run, in toolroute's
 *   stable order — the chosen tools (namespaces by default, or flat tools),
 *   then `load_toolkit`, then every toolkit's tools — each `execute` going
 *   through `router.dispatch`. The AI SDK sends tools in the order of this
 *   object, and the prompt cache depends on it.
 * - `activeTools` and `prepareStep`: which of them the model sees, per step.
 *   A toolkit's tools become active in the step after `load_toolkit` loaded
 *   it: active tools only ever grow at the end, so every step's tool list
 *   starts with the previous step's.
 * - `experimental_repairToolCall` and `prepareStep` together put toolroute's
 *   reasons where the AI SDK would send its own: calls the AI SDK refuses
 *   before any `execute` (an unknown or not-yet-loaded tool, arguments that
 *   are not JSON) are checked with `router.checkToolCall`, and their tool
 *   results carry the router's reason instead of the AI SDK's message.
 *   Arguments that are JSON reach `dispatch`, whose rejection (invalid
 *   arguments, blocked, unknown action) is thrown from `execute`, which the AI
 *   SDK sends to the model as the error text.
 * - Standing announcements are added at the tail of each step's prompt
 *   (never to your history), on their channel: a trailing system message for
 *   `system`, a user message at the end otherwise.
 * - `system`: your system prompt with the toolkit directory appended.
 */
import { jsonSchema, tool, type ModelMessage, type PrepareStepFunction, type Tool, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { ANNOUNCEMENT_ANCHOR, LOAD_TOOLKIT_NAME, renderAnnouncements, type Announcement, type ToolDefinition } from '../../runtime/index.js';

/** What `toAiSdk` needs of a router: its public API only. */
export interface AiSdkRouter {
  compile(): { readonly tools: readonly ToolDefinition[]; readonly directoryXml: string };
  getAllTools(): ToolDefinition[];
  pruneByTask(task: string): { readonly tools: readonly ToolDefinition[] };
  getLoadedToolkits(): string[];
  extractToolkit(name: string): ToolDefinition[];
  snapshot(): unknown;
  restore(snapshot: unknown): unknown;
  getAnnouncements(): Announcement[];
  // `never` parameters: every router's typed methods are assignable (whatever its context type).
  checkToolCall(call: never): { readonly allowed: boolean; readonly reason?: string };
  dispatch(call: never, options: never): Promise<{ ok: true; result: unknown } | { ok: false; code: string; reason: string }>;
}

export interface ToAiSdkOptions<C = unknown> {
  /** Your system prompt; `system` in the result is it plus the toolkit directory. */
  readonly system?: string;
  /**
   * The stable tools, as names of flat tools and namespaces (like `compile`'s
   * `tools`). Default: the namespaces when the router has namespaces or
   * toolkits, else the flat tools. `load_toolkit` is always added when there
   * are toolkits.
   */
  readonly tools?: readonly string[];
  /** Prune the flat tools of the choice by this task (`router.pruneByTask`), once for the run. */
  readonly task?: string;
  /** The `context` handed to handlers; default: the call's `experimental_context`. */
  readonly context?: C;
}

/** What to spread into `generateText` / `streamText`. */
export interface AiSdkSettings {
  readonly tools: ToolSet;
  readonly activeTools: string[];
  readonly prepareStep: PrepareStepFunction<ToolSet>;
  readonly experimental_repairToolCall: ToolCallRepairFunction<ToolSet>;
  /** Announcements on the `system` channel are trailing system messages. */
  readonly allowSystemInMessages: true;
  readonly system: string;
}

/** A call the router rejected: thrown from `execute`, so its message (the reason) is what the model reads. */
export class ToolRejectedError extends Error {
  override readonly name = 'ToolRejectedError';
  readonly code: string;
  constructor(code: string, reason: string) {
    super(reason);
    this.code = code;
  }
}

/** Accepts every value: toolroute validates in `dispatch`, where the reasons are. */
const ACCEPT_ALL = (value: unknown) => ({ success: true as const, value });

/**
 * The router as AI SDK settings.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * const result = await generateText({ model, ...toAiSdk(router, { system: 'You are a careful assistant.' }), prompt, stopWhen: stepCountIs(8) });
 */
export function toAiSdk<C = unknown>(router: AiSdkRouter, options: ToAiSdkOptions<C> = {}): AiSdkSettings {
  const compiled = router.compile();
  const loader = compiled.tools.find((t) => t.name === LOAD_TOOLKIT_NAME);
  const namespaces = compiled.tools.filter((t) => t.name !== LOAD_TOOLKIT_NAME);
  const flat = router.getAllTools();
  const byName = new Map<string, ToolDefinition>([...flat, ...namespaces].map((t) => [t.name, t]));

  // The stable choice, as `compile` makes it.
  let stable: ToolDefinition[];
  if (options.tools !== undefined) {
    stable = options.tools.map((name) => {
      const t = byName.get(name);
      if (t === undefined) throw new TypeError(`toAiSdk: ${JSON.stringify(name)} in \`tools\` is not a flat tool or namespace of this router.`);
      return t;
    });
  } else {
    stable = compiled.tools.length > 0 ? namespaces : flat;
  }
  if (options.task !== undefined) {
    const kept = new Set(router.pruneByTask(options.task).tools.map((t) => t.name));
    const flatNames = new Set(flat.map((t) => t.name));
    stable = stable.filter((t) => !flatNames.has(t.name) || kept.has(t.name));
  }

  // Every toolkit's tools, read without loading anything: the router's state is put back as it was.
  const kits: { name: string; tools: ToolDefinition[] }[] = [];
  const kitNames = toolkitNamesOf(loader);
  if (kitNames.length > 0) {
    const saved = router.snapshot();
    try {
      for (const name of kitNames) kits.push({ name, tools: router.extractToolkit(name) });
    } finally {
      router.restore(saved);
    }
  }

  const rejections = new Map<string, string>();
  const execute = (name: string): Tool['execute'] => async (input, { toolCallId, experimental_context }) => {
    const context = options.context ?? experimental_context;
    const r = await router.dispatch({ id: toolCallId, name, arguments: input } as never, { context } as never);
    if (!r.ok) throw new ToolRejectedError(r.code, r.reason);
    return r.result;
  };
  const tools: ToolSet = {};
  const order: string[] = [];
  const add = (t: ToolDefinition) => {
    if (Object.hasOwn(tools, t.name)) return;
    order.push(t.name);
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema((t.parameters ?? { type: 'object', properties: {} }) as never, { validate: ACCEPT_ALL }),
      execute: execute(t.name),
    } as Tool);
  };
  for (const t of stable) add(t);
  if (loader) add(loader);
  for (const kit of kits) for (const t of kit.tools) add(t);

  const base = new Set([...stable.map((t) => t.name), ...(loader ? [loader.name] : [])]);
  /** Active now: the stable choice and the loader, then loaded toolkits' tools; in `tools` order. */
  const active = (): string[] => {
    const on = new Set(base);
    const loaded = new Set(router.getLoadedToolkits().map((k) => k.toLowerCase()));
    for (const kit of kits) if (loaded.has(kit.name.toLowerCase())) for (const t of kit.tools) on.add(t.name);
    return order.filter((n) => on.has(n));
  };

  const experimental_repairToolCall: ToolCallRepairFunction<ToolSet> = async ({ toolCall }) => {
    // The AI SDK refused the call before `execute` (no such active tool, or input that is not JSON).
    const check = router.checkToolCall({ name: toolCall.toolName, arguments: toolCall.input } as never);
    const reason =
      check.allowed === false && typeof check.reason === 'string'
        ? check.reason
        : `Tool "${toolCall.toolName}" is not offered in this step. Call one of: ${active().join(', ')}.`;
    rejections.set(toolCall.toolCallId, reason);
    return null;
  };

  const prepareStep: PrepareStepFunction<ToolSet> = ({ messages }) => {
    const rewritten = messages.map((m) => withReasons(m, rejections));
    const tail = announcementMessages(router.getAnnouncements());
    return { activeTools: active(), messages: tail.length > 0 ? [...rewritten, ...tail] : rewritten };
  };

  const system = [options.system, compiled.directoryXml].filter((t): t is string => typeof t === 'string' && t !== '').join('\n\n');
  return { tools, activeTools: active(), prepareStep, experimental_repairToolCall, allowSystemInMessages: true, system };
}

/** The toolkit names the loader offers (its `toolkit_name` enum). */
function toolkitNamesOf(loader: ToolDefinition | undefined): string[] {
  const props = (loader?.parameters as { properties?: { toolkit_name?: { enum?: unknown[] } } } | undefined)?.properties;
  const names = props?.toolkit_name?.enum;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/** A tool message whose results answer calls the AI SDK refused gets toolroute's reasons in their place. */
function withReasons(message: ModelMessage, rejections: ReadonlyMap<string, string>): ModelMessage {
  if (message.role !== 'tool' || rejections.size === 0) return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result') return part;
    const reason = rejections.get(part.toolCallId);
    if (reason === undefined || (part.output.type === 'error-text' && part.output.value === reason)) return part;
    changed = true;
    return { ...part, output: { type: 'error-text' as const, value: reason } };
  });
  return changed ? { ...message, content } : message;
}

/** Standing announcements as tail messages: one per channel in use, `system` last (nearest the model's turn). */
function announcementMessages(list: readonly Announcement[]): ModelMessage[] {
  if (list.length === 0) return [];
  const system = list.filter((a) => a.channel === 'system');
  const user = list.filter((a) => a.channel !== 'system');
  const out: ModelMessage[] = [];
  if (user.length > 0) out.push({ role: 'user', content: [{ type: 'text', text: `${renderAnnouncements(user)}\n${ANNOUNCEMENT_ANCHOR}` }] });
  if (system.length > 0) out.push({ role: 'system', content: renderAnnouncements(system) });
  return out;
}
