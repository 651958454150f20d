/**
 * OpenAI Chat Completions (`client.chat.completions.create`): the tool
 * rendering (with the optional strict rewrite, strict.ts), the history
 * conversion (mostly a pass-through) and the payload `{ messages, tools? }`.
 *
 * Wire facts: `ChatCompletionFunctionTool` `{ type, function: { name,
 * description, parameters, strict? } }`; no tool search, so `deferLoading` is
 * dropped from the rendering and deferred tools are sent in full. The only
 * target where a system message after the first turn keeps its place (the
 * reference library's behaviour, and free of model-support caveats here).
 */
import { stablePrefix } from '../cache-key.js';
import type { NeutralTool, PayloadContext, RenderOptions, TargetAdapter } from './adapter.js';
import type { NormalizedMessage } from './history.js';
import { providerSchema } from './schema.js';
import { strictModeFor, toOpenAIStrictSchema } from './strict.js';
import type { OpenAIChatMessage, OpenAIChatPayload, OpenAIChatTool } from './types.js';

// ─── Rendering ───────────────────────────────────────────────────────────────

/**
 * `ChatCompletionFunctionTool`; with `openaiStrict`, the strict rewrite and
 * `strict: true`, or the schema as-is with `strict: false` when strict mode
 * cannot express it. Namespace tools get the namespace strict mode (strict.ts `strictModeFor`).
 */
function renderChat(tool: NeutralTool, options: RenderOptions): OpenAIChatTool {
  const strict = options.openaiStrict ? toOpenAIStrictSchema(tool.parameters, strictModeFor(tool)) : undefined;
  const fn: OpenAIChatTool['function'] = {
    name: tool.name,
    description: tool.description,
    parameters: strict?.ok ? strict.schema : providerSchema(tool.parameters),
  };
  if (strict) fn.strict = strict.ok;
  return { type: 'function', function: fn };
}

/** The name of a rendered Chat tool: `function.name`. */
function chatToolName(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const name = (tool as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? name : undefined;
}

// ─── Payload ─────────────────────────────────────────────────────────────────

function chatPayload({ systemText, placed, tools }: PayloadContext<'openai'>): OpenAIChatPayload {
  const messages: OpenAIChatMessage[] = systemText === '' ? [] : [{ role: 'system', content: systemText }];
  messages.push(...toOpenAIChatMessages(placed.messages));
  const out: OpenAIChatPayload = { messages };
  if (tools.length > 0) out.tools = tools as OpenAIChatTool[];
  return out;
}

/**
 * The OpenAI Chat Completions adapter.
 *
 * @example
 * openai.renderTool(tool, { openaiStrict: false }); // → { type: 'function', function: { name, description, parameters } }
 */
export const openai: TargetAdapter<'openai'> = {
  target: 'openai',
  renderTool: renderChat,
  renderNamespace: renderChat,
  renderLoader: renderChat,
  toolName: chatToolName,
  systemMessages: 'leading',
  announcements: Object.freeze({ auto: 'user_tail', withoutTail: 'before-prefill' }),
  searchTool: undefined,
  cachePrefix: (stable, systemText, searchTool) => stablePrefix('openai', stable, systemText, searchTool),
  convertMessages: (messages) => toOpenAIChatMessages(messages),
  buildPayload: chatPayload,
};

// ─── Messages ────────────────────────────────────────────────────────────────

/**
 * Messages for `client.chat.completions.create`: mostly a pass-through.
 * An assistant turn that only calls tools carries `content: null`.
 *
 * @example
 * toOpenAIChatMessages(normalizeMessages([{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]));
 * // → [{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]
 */
export function toOpenAIChatMessages(messages: readonly NormalizedMessage[]): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.text };
      case 'user':
        return { role: 'user', content: m.text };
      case 'tool':
        return { role: 'tool', tool_call_id: m.callId, content: m.text };
      case 'assistant': {
        if (m.calls.length === 0) return { role: 'assistant', content: m.text };
        return {
          role: 'assistant',
          content: m.text === '' ? null : m.text,
          tool_calls: m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        };
      }
    }
  });
}

