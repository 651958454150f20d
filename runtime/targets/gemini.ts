/**
 * Gemini (`ai.models.generateContent` in @google/genai): the tool rendering,
 * the history as `contents`, and the payload `{ contents, config: {
 * systemInstruction?, tools? } }`.
 *
 * Wire facts: `FunctionDeclaration` `{ name, description,
 * parametersJsonSchema? }`. The JSON Schema field is sent untouched by the
 * SDK, unlike `parameters`, which the SDK rewrites in place and which rejects
 * common keywords (`additionalProperties`, `const`, non-string enums); it is
 * omitted when the tool takes no arguments. No tool search; no system role
 * in `contents` (positional system messages become user text).
 */
import { stablePrefix } from '../cache-key.js';
import { namedTool, type NeutralTool, type PayloadContext, type TargetAdapter } from './adapter.js';
import { argumentsObject, type NormalizedMessage } from './history.js';
import { hasProperties, objectSchema } from './schema.js';
import type { GeminiContent, GeminiFunctionDeclaration, GeminiPart, GeminiPayload } from './types.js';

// ─── Rendering ───────────────────────────────────────────────────────────────

/** `FunctionDeclaration`; the same for tools, namespaces and the loader. */
function renderGemini(tool: NeutralTool): GeminiFunctionDeclaration {
  const out: GeminiFunctionDeclaration = { name: tool.name, description: tool.description };
  const schema = objectSchema(tool.parameters);
  if (hasProperties(schema)) out.parametersJsonSchema = schema;
  return out;
}

// ─── Payload ─────────────────────────────────────────────────────────────────

function geminiPayload({ systemText, placed, tools }: PayloadContext<'gemini'>): GeminiPayload {
  const config: GeminiPayload['config'] = {};
  if (systemText !== '') config.systemInstruction = systemText;
  if (tools.length > 0) config.tools = [{ functionDeclarations: tools as GeminiFunctionDeclaration[] }];
  return { contents: toGeminiContents(placed.messages), config };
}

/**
 * The Gemini adapter.
 *
 * @example
 * gemini.renderTool(tool, { openaiStrict: false }); // → { name, description, parametersJsonSchema? }
 */
export const gemini: TargetAdapter<'gemini'> = {
  target: 'gemini',
  renderTool: renderGemini,
  renderNamespace: renderGemini,
  renderLoader: renderGemini,
  toolName: namedTool,
  systemMessages: 'all',
  announcements: Object.freeze({ auto: 'user_tail', withoutTail: 'before-prefill' }),
  searchTool: undefined,
  cachePrefix: (stable, systemText, searchTool) => stablePrefix('gemini', stable, systemText, searchTool),
  convertMessages: (messages) => toGeminiContents(messages),
  buildPayload: geminiPayload,
};

// ─── Messages ────────────────────────────────────────────────────────────────

/**
 * Contents for `ai.models.generateContent`: assistant turns as `model` with
 * `functionCall` parts; tool results as `functionResponse` parts in a user
 * turn (the function name looked up from the call id; `response` is always an
 * object: a JSON-object result as is, anything else wrapped as `{ result }`);
 * positional system messages as user text (Gemini has no system role in
 * contents). Consecutive same-role contents are merged, so parallel results
 * answer their calls in one turn.
 *
 * @example
 * toGeminiContents(normalizeMessages([{ role: 'user', content: 'hi' }]));
 * // → [{ role: 'user', parts: [{ text: 'hi' }] }]
 */
export function toGeminiContents(messages: readonly NormalizedMessage[]): GeminiContent[] {
  const contents: GeminiContent[] = [];
  const nameById = new Map<string, string>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    const prev = contents[contents.length - 1];
    if (prev !== undefined && prev.role === role) prev.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'assistant') {
      const parts: GeminiPart[] = [];
      if (m.text !== '' || m.calls.length === 0) parts.push({ text: m.text });
      for (const c of m.calls) {
        if (c.id !== '') nameById.set(c.id, c.name);
        const call: { id?: string; name: string; args: { [key: string]: unknown } } = { name: c.name, args: argumentsObject(c.arguments) };
        if (c.id !== '') call.id = c.id;
        parts.push({ functionCall: call });
      }
      push('model', parts);
    } else if (m.role === 'tool') {
      const name = nameById.get(m.callId) ?? (m.name !== '' ? m.name : m.callId !== '' ? m.callId : 'unknown');
      const response: { id?: string; name: string; response: { [key: string]: unknown } } = { name, response: responseObject(m.text) };
      if (m.callId !== '') response.id = m.callId;
      push('user', [{ functionResponse: response }]);
    } else {
      push('user', [{ text: m.text }]);
    }
  }
  return contents;
}

function responseObject(text: string): { [key: string]: unknown } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as { [key: string]: unknown };
    return { result: parsed };
  } catch {
    return { result: text };
  }
}
