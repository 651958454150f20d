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
import { argumentsObject, type NeutralMessage, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantMessage, fnv1a, isRecord, items, neutralCall, OTHER, readItems, replayItems, str, type ItemClass, type ReplayCodec } from './replay.js';
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
  cachePrefix: (tools, systemText, toolChoice) => stablePrefix('gemini', tools, systemText, toolChoice),
  toolkitLoading: Object.freeze({ native: 'dispatcher' as const }),
  convertMessages: (messages) => toGeminiContents(messages),
  buildPayload: geminiPayload,
  readResponse: readGeminiResponse,
};

// ─── Reading responses ───────────────────────────────────────────────────────

/**
 * How a Gemini part reads: a `functionCall` part is a call (id '' when Gemini
 * sent none), a text part that is not a thought is text, everything else
 * (thought parts, a bare thoughtSignature, code execution…) is state.
 *
 * @example
 * classifyGeminiPart({ functionCall: { name: 'get_time', args: {} }, thoughtSignature: 'Cv…' });
 * // → { kind: 'call', id: '', name: 'get_time', arguments: '{}' }
 */
export function classifyGeminiPart(part: ProviderItem): ItemClass {
  const fc = part['functionCall'];
  if (isRecord(fc)) return { kind: 'call', id: str(fc['id']), name: str(fc['name']), arguments: argumentsText(fc['args']) };
  if (typeof part['text'] === 'string' && part['thought'] !== true) return { kind: 'text', text: part['text'] };
  return OTHER;
}

/** The prefix of the neutral ids made up for calls Gemini sent without one. */
const MADE_UP_ID = 'gemini_call_';

/**
 * `GenerateContentResponse` → one assistant message from the first
 * candidate (none without one): non-thought text joined, functionCall → calls,
 * the parts kept whole. A call without an `id` gets a neutral one,
 * `gemini_call_<index>_<hash of the parts>` (stable for the same response),
 * so its result pairs with it; compile never sends it to Gemini.
 */
function readGeminiResponse(response: unknown): NeutralMessage[] {
  if (!isRecord(response) || !Array.isArray(response['candidates'])) return [];
  const candidate: unknown = response['candidates'][0];
  const content = isRecord(candidate) ? candidate['content'] : undefined;
  if (!isRecord(content)) return [];
  const parts = items(content['parts']);
  const { text, calls } = readItems(parts, classifyGeminiPart);
  let hash = '';
  const named = calls.map((c, i) => {
    if (c.id !== '') return c;
    if (hash === '') hash = fnv1a(argumentsText(parts));
    return neutralCall(`${MADE_UP_ID}${i}_${hash}`, c.function.name, c.function.arguments);
  });
  return [assistantMessage(text, named, { target: 'gemini', parts })];
}

/** Rebuilds what the application changed: a text part, a functionCall part (keeping the thoughtSignature it replaces). */
const REPLAY: ReplayCodec<GeminiPart> = {
  classify: classifyGeminiPart,
  text: (text) => ({ text }),
  call: (c, raw) => {
    const call: { id?: string; name: string; args: { [key: string]: unknown } } = { name: c.name, args: argumentsObject(c.arguments) };
    if (c.id !== '' && !c.id.startsWith(MADE_UP_ID)) call.id = c.id;
    const part: GeminiPart = { functionCall: call };
    // Gemini validates the signature on the first functionCall part of a step: keep it where it was.
    if (raw !== undefined && typeof raw['thoughtSignature'] === 'string') part.thoughtSignature = raw['thoughtSignature'];
    return part;
  },
  wireId: (neutralId) => neutralId.startsWith(MADE_UP_ID),
};

// ─── Messages ────────────────────────────────────────────────────────────────

/**
 * Contents for `ai.models.generateContent`: assistant turns as `model` with
 * `functionCall` parts; tool results as `functionResponse` parts in a user
 * turn (the function name looked up from the call id; `response` is always an
 * object: a JSON-object result as is, anything else wrapped as `{ result }`,
 * a result with its own `error` key as `{ output }`, and a tool message
 * flagged `is_error` as `{ error: text }`, Gemini's convention); an assistant
 * message with Gemini `provider` state sends its kept parts as received
 * (thought parts, thoughtSignature on its functionCall part; replay.ts);
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
  // Neutral call ids Gemini never saw (made up by fromProvider): their functionResponse carries no id.
  const unsent = new Set<string>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    const prev = contents[contents.length - 1];
    if (prev !== undefined && prev.role === role) prev.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'assistant' && m.state?.target === 'gemini' && m.state.parts.length > 0) {
      // The kept parts as received: thought parts, thoughtSignature on the part it came on.
      for (const c of m.calls) {
        nameById.set(c.id, c.name);
        if (c.id.startsWith(MADE_UP_ID)) unsent.add(c.id);
      }
      push('model', replayItems(m.state.parts, m.text, m.calls, REPLAY) as GeminiPart[]);
    } else if (m.role === 'assistant') {
      const parts: GeminiPart[] = [];
      if (m.text !== '' || m.calls.length === 0) parts.push({ text: m.text });
      for (const c of m.calls) {
        if (c.id !== '') nameById.set(c.id, c.name);
        const call: { id?: string; name: string; args: { [key: string]: unknown } } = { name: c.name, args: argumentsObject(c.arguments) };
        if (c.id.startsWith(MADE_UP_ID)) unsent.add(c.id);
        else if (c.id !== '') call.id = c.id;
        parts.push({ functionCall: call });
      }
      push('model', parts);
    } else if (m.role === 'tool') {
      const name = nameById.get(m.callId) ?? (m.name !== '' ? m.name : m.callId !== '' ? m.callId : 'unknown');
      // Gemini's convention (FunctionResponse.response): an `error` key for a failure, the output otherwise.
      const response: { id?: string; name: string; response: { [key: string]: unknown } } = {
        name,
        response: m.isError ? { error: m.text } : responseObject(m.text),
      };
      if (m.callId !== '' && !unsent.has(m.callId)) response.id = m.callId;
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
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      // A successful result with its own `error` key would read as a failure: wrap it as the output.
      return Object.hasOwn(parsed, 'error') ? { output: parsed } : (parsed as { [key: string]: unknown });
    }
    return { result: parsed };
  } catch {
    return { result: text };
  }
}
