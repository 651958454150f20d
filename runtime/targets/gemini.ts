/**
 * Gemini (`ai.models.generateContent`): `FunctionDeclaration` with `parametersJsonSchema` (sent untouched by the SDK,
 * unlike `parameters`), the history as `contents` (system messages become user text), the payload `{ contents, config }`.
 */
import { list, namedTool, TAIL_ANNOUNCEMENTS, type TargetAdapter, type TurnStop } from './adapter.js';
import { argumentsObject, isRecord, parseOr, type NormalizedCall, type NormalizedMessage, type ProviderItem } from './history.js';
import { argumentsText, assistantItems, assistantMessage, fnv1a, items, neutralCall, OTHER, readItems, str, type ItemClass, type ReplayCodec } from './replay.js';
import { objectSchema } from './schema.js';
import type { GeminiContent, GeminiFunctionDeclaration, GeminiPart, GeminiPayload, GeminiToolConfig } from './types.js';

/** The thought signature Google documents for function calls of history Gemini did not produce (Gemini API and Vertex AI). */
const FOREIGN_SIGNATURE = 'skip_thought_signature_validator';
/** The prefix of the neutral ids made up for calls Gemini sent without one (never sent back to Gemini). */
const MADE_UP_ID = 'gemini_call_';
/** `finishReason`s that are not a plain answer or plain tool calls (`FinishReason` of @google/genai). */
const STOPS: ReadonlyMap<unknown, TurnStop> = new Map([
  ['MAX_TOKENS', 'cut-off'], ['CONTINUATION', 'cut-off'], ['MALFORMED_FUNCTION_CALL', 'malformed-call'], ['UNEXPECTED_TOOL_CALL', 'malformed-call'], ['TOO_MANY_TOOL_CALLS', 'malformed-call'],
  ...['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION'].map((reason) => [reason, 'blocked'] as const),
  ...['OTHER', 'LANGUAGE', 'NO_IMAGE', 'IMAGE_OTHER'].map((reason) => [reason, 'failed'] as const),
]);

/** The Gemini adapter. */
export const gemini: TargetAdapter<'gemini'> = {
  target: 'gemini',
  render(tool): GeminiFunctionDeclaration {
    const out: GeminiFunctionDeclaration = { name: tool.name, description: tool.description };
    const schema = objectSchema(tool.parameters);
    // Left out only for a tool that takes nothing: an open map or `patternProperties` has arguments without `properties`.
    const empty = (v: unknown) => v === undefined || v === false || (isRecord(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);
    const takesNothing = Object.entries(schema).every(([k, v]) => k === 'type' || ((k === 'properties' || k === 'required' || k === 'additionalProperties') && empty(v)));
    if (!takesNothing) out.parametersJsonSchema = schema;
    return out;
  },
  toolName: namedTool,
  systemMessages: 'all',
  announcements: TAIL_ANNOUNCEMENTS,
  wireParameters: undefined,
  searchTool: undefined,
  sentTools: (p) => list(isRecord(p['config']) ? p['config']['tools'] : undefined).flatMap((t) => list((t as { functionDeclarations?: unknown } | null)?.functionDeclarations)),
  cachedTools: (tools) => tools,
  cacheBlocks(p, add) {
    const config = isRecord(p['config']) ? p['config'] : {};
    list(config['tools']).forEach((tool, i) => {
      const declarations = (tool as { functionDeclarations?: unknown } | null)?.functionDeclarations;
      if (Array.isArray(declarations)) declarations.forEach((d, j) => add('tools', `config.tools[${i}].functionDeclarations[${j}]`, d));
      else add('tools', `config.tools[${i}]`, tool);
    });
    if (config['toolConfig'] !== undefined) add('tool_choice', 'config.toolConfig', config['toolConfig']);
    if (config['systemInstruction'] !== undefined) add('system', 'config.systemInstruction', config['systemInstruction']);
    // One block per part: consecutive same-role contents are merged, so parts are what a later turn appends.
    list(p['contents']).forEach((c, i) => {
      const role = (c as { role?: unknown } | null)?.role;
      list((c as { parts?: unknown } | null)?.parts).forEach((part, j) => add('conversation', `contents[${i}].parts[${j}]`, { role, part }));
    });
  },
  // VALIDATED, not ANY: the model may still answer in text. https://ai.google.dev/gemini-api/docs/function-calling
  // No name allowed is NONE: an empty `allowedFunctionNames` means "not set", which allows every declaration.
  allowedTools: { choice: (names): GeminiToolConfig => ({ functionCallingConfig: names.length === 0 ? { mode: 'NONE' } : { mode: 'VALIDATED', allowedFunctionNames: [...names] } }) },
  toolkitLoading: Object.freeze({ native: 'dispatcher' as const }),
  namespaces: undefined,
  toolChangeModels: undefined,
  toolResultErrorFlag: false,
  buildPayload({ input, systemText, placed, tools }): GeminiPayload {
    const config: GeminiPayload['config'] = {};
    if (systemText !== '') config.systemInstruction = systemText;
    if (tools.length > 0) config.tools = [{ functionDeclarations: tools as GeminiFunctionDeclaration[] }];
    if (input.toolChoice !== undefined) config.toolConfig = input.toolChoice as GeminiToolConfig;
    return { contents: toGeminiContents(placed.messages), config };
  },
  stop: (response) => {
    // A prompt the filter blocked has no candidate, only the reason.
    if (isRecord(response['promptFeedback']) && response['promptFeedback']['blockReason'] !== undefined) return 'blocked';
    const candidate: unknown = Array.isArray(response['candidates']) ? response['candidates'][0] : undefined;
    return isRecord(candidate) ? STOPS.get(candidate['finishReason']) : undefined;
  },
  // A blocked prompt has no candidates, only its feedback; every response has its usage.
  response: { name: 'a Gemini `GenerateContentResponse` (`models.generateContent`)', is: (r) => Array.isArray(r['candidates']) || isRecord(r['promptFeedback']) || isRecord(r['usageMetadata']) },
  readResponse: (response) => {
    // The first candidate. A call without an `id` gets a stable neutral one, so its result pairs with it: from the
    // response's `responseId` and the parts, so the same call in two turns gets two ids (another target replaying the
    // history refuses a repeated call id).
    const candidate: unknown = Array.isArray(response['candidates']) ? response['candidates'][0] : undefined;
    const content = isRecord(candidate) ? candidate['content'] : undefined;
    if (!isRecord(content)) return [];
    const parts = items(content['parts']);
    if (parts.length === 0) return [];
    const { text, calls } = readItems(parts, classifyGeminiPart);
    const responseId = typeof response['responseId'] === 'string' ? response['responseId'] : '';
    const hash = calls.some((c) => c.id === '') ? fnv1a(`${responseId}\n${argumentsText(parts)}`) : '';
    const named = calls.map((c, i) => (c.id !== '' ? c : neutralCall(`${MADE_UP_ID}${i}_${hash}`, c.function.name, c.function.arguments)));
    return [assistantMessage(text, named, { target: 'gemini', parts })];
  },
};

/** How a Gemini part reads: `functionCall` is a call, non-thought text is text, the rest is state. */
export function classifyGeminiPart(part: ProviderItem): ItemClass {
  const fc = part['functionCall'];
  if (isRecord(fc)) return { kind: 'call', id: str(fc['id']), name: str(fc['name']), arguments: argumentsText(fc['args']) };
  if (typeof part['text'] === 'string' && part['thought'] !== true) return { kind: 'text', text: part['text'] };
  return OTHER;
}

const REPLAY: ReplayCodec<GeminiPart> & { text: (text: string) => GeminiPart } = {
  classify: classifyGeminiPart,
  text: (text) => ({ text }),
  call: (c: NormalizedCall, raw) => {
    const call: { id?: string; name: string; args: { [key: string]: unknown } } = { name: c.name, args: argumentsObject(c.arguments) };
    if (c.id !== '' && !c.id.startsWith(MADE_UP_ID)) call.id = c.id;
    const part: GeminiPart = { functionCall: call };
    // Gemini validates the signature on the first functionCall part of a step: keep it where it was.
    if (raw !== undefined && typeof raw['thoughtSignature'] === 'string') part.thoughtSignature = raw['thoughtSignature'];
    return part;
  },
  wireId: (neutralId) => neutralId.startsWith(MADE_UP_ID),
};

/**
 * Contents for `ai.models.generateContent`: assistant turns as `model`; tool results as `functionResponse` parts (name
 * looked up by call id, `response` always an object); system messages as user text. Same-role contents are merged, so
 * parallel results answer their calls in one turn.
 * @example
 * toGeminiContents(normalizeMessages([{ role: 'user', content: 'hi' }]));
 * // → [{ role: 'user', parts: [{ text: 'hi' }] }]
 */
export function toGeminiContents(messages: readonly NormalizedMessage[]): GeminiContent[] {
  const contents: GeminiContent[] = [];
  const nameById = new Map<string, string>();
  // Neutral call ids Gemini never saw (made up by fromProvider): their functionResponse carries no id.
  const unsent = new Set<string>();
  const push = (role: GeminiContent['role'], all: GeminiPart[]): void => {
    // A bare `{ text: '' }` is no part to Gemini (a 400: "required oneof field 'data'"); a turn of nothing else is left out.
    const parts = all.filter((p) => !('text' in p && p.text === '' && Object.keys(p).length === 1));
    if (parts.length === 0) return;
    const prev = contents[contents.length - 1];
    if (prev !== undefined && prev.role === role) prev.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'assistant') {
      const kept = m.state?.target === 'gemini' ? m.state.parts : undefined;
      for (const c of m.calls) {
        if (c.id !== '' || (kept?.length ?? 0) > 0) nameById.set(c.id, c.name);
        if (c.id.startsWith(MADE_UP_ID)) unsent.add(c.id);
      }
      const parts = assistantItems(m, kept, REPLAY) as GeminiPart[];
      // A turn Gemini did not write (another provider's, or built by hand) has no thought signature, and Gemini 3 refuses a
      // step whose first functionCall lacks one: Google's documented stand-in for such history marks it.
      const first = kept === undefined || kept.length === 0 ? parts.find((p) => 'functionCall' in p) : undefined;
      if (first !== undefined) first.thoughtSignature = FOREIGN_SIGNATURE;
      push('model', parts);
    } else if (m.role === 'tool') {
      const name = nameById.get(m.callId) ?? (m.name !== '' ? m.name : m.callId !== '' ? m.callId : 'unknown');
      const response: { id?: string; name: string; response: { [key: string]: unknown } } = { name, response: m.isError ? { error: m.text } : responseObject(m.text) };
      if (m.callId !== '' && !unsent.has(m.callId)) response.id = m.callId;
      push('user', [{ functionResponse: response }]);
    } else {
      push('user', [{ text: m.text }]);
    }
  }
  // Gemini refuses contents that open with a function call (a history cut from the front): a user turn goes first, as in Google's CLI.
  if (contents[0]?.parts.some((p) => 'functionCall' in p)) contents.unshift({ role: 'user', parts: [{ text: '(Earlier turns are not shown.)' }] });
  return contents;
}

function responseObject(text: string): { [key: string]: unknown } {
  const parsed = parseOr(text, text);
  // A successful result with its own `error` key would read as a failure: wrap it as the output.
  if (isRecord(parsed)) return Object.hasOwn(parsed, 'error') ? { output: parsed } : (parsed as { [key: string]: unknown });
  return { result: parsed };
}
