/**
 * Provider-native entries in the neutral history (an Anthropic block array, a Gemini content, Responses items): read as
 * `fromProvider` and `toolMessage` would have written them, or rejected with `ToolrouteConfigError` when the neutral
 * history cannot carry a part to every target (images, files, refusals). Never dropped.
 */
import { ToolrouteConfigError } from './errors.js';
import { isRecord, normalizeOne, resultText, textOf, type NeutralMessage, type NormalizedMessage } from './history.js';
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { openaiResponses } from './openai-responses.js';
import { items, str } from './replay.js';

type Entry = Record<string, unknown>;
type NativeRead = { readonly messages: NormalizedMessage[]; readonly consumed: number };

/** Anthropic content block types that only an assistant turn carries (the model's output). */
const ANTHROPIC_OUTPUT = new Set([
  'tool_use', 'thinking', 'redacted_thinking', 'compaction', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result',
  'bash_code_execution_tool_result', 'text_editor_code_execution_tool_result', 'tool_search_tool_result', 'container_upload'
]);

/** Text part types: their text is read, nothing else is in them. */
const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/** Whether a Responses media part carries its payload: a URL, a file id or inline data. */
const responsesMedia = (part: Entry): boolean => ['image_url', 'file_id', 'file_data', 'file_url'].some((key) => typeof part[key] === 'string');

/** Native part types the neutral history cannot carry: whether a part carries its payload (without it the part is malformed, not native), and its description. */
const UNSUPPORTED_PARTS: ReadonlyMap<unknown, { readonly carries: (part: Entry) => boolean; readonly what: string }> = new Map([
  ['image', { carries: (part) => isRecord(part['source']), what: "Anthropic 'image' block" }],
  ['document', { carries: (part) => isRecord(part['source']), what: "Anthropic 'document' block" }],
  ['search_result', { carries: (part) => Array.isArray(part['content']), what: "Anthropic 'search_result' block" }],
  ['image_url', { carries: (part) => isRecord(part['image_url']), what: "OpenAI Chat 'image_url' part" }],
  ['input_audio', { carries: (part) => isRecord(part['input_audio']), what: "OpenAI Chat 'input_audio' part" }],
  ['file', { carries: (part) => isRecord(part['file']), what: "OpenAI Chat 'file' part" }],
  ['input_image', { carries: responsesMedia, what: "OpenAI Responses 'input_image' part" }],
  ['input_file', { carries: responsesMedia, what: "OpenAI Responses 'input_file' part" }],
  ['refusal', { carries: (part) => typeof part['refusal'] === 'string', what: "'refusal' part" }],
]);

/** A native part the neutral history cannot carry, described. */
function unsupportedPart(part: Entry): string | undefined {
  const rule = UNSUPPORTED_PARTS.get(part['type']);
  return rule !== undefined && rule.carries(part) ? rule.what : undefined;
}

/** The first Gemini part that is neither text nor a function response, as a description. */
function unsupportedGeminiPart(part: Entry): string | undefined {
  if (typeof part['text'] === 'string' || isRecord(part['functionResponse'])) return undefined;
  const key = Object.keys(part).find((k) => k !== 'thought' && k !== 'thoughtSignature' && k !== 'partMetadata');
  return key === undefined ? undefined : `Gemini '${key}' part`;
}

function reject(index: number, what: string, fix: string): never {
  throw new ToolrouteConfigError('native-history-entry', `messages[${index}] holds a provider-native ${what}. The neutral history carries text, tool calls and tool results ` +
    `to every target, so compile cannot send this part and will not drop it silently. Fix: ${fix}`);
}

const MEDIA_FIX =
  'keep media and files out of the history you pass to compile (toolroute routes tools; it does not convert media between providers), or build this request with the SDK directly.';

const normalized = (messages: readonly NeutralMessage[], src: number): NormalizedMessage[] =>
  messages.map((m) => normalizeOne(m as unknown as Entry, src));

/** Whether an entry is a Responses output item (what `Response.output` holds), as opposed to a message or a call output. */
function isResponsesOutputItem(entry: unknown): boolean {
  if (!isRecord(entry) || typeof entry['type'] !== 'string') return false;
  if (entry['type'] === 'message') return entry['role'] === 'assistant' && Array.isArray(entry['content']) && items(entry['content']).some((p) => p['type'] === 'output_text');
  return entry['role'] === undefined && entry['type'] !== 'function_call_output';
}

/** A tool result's content as text, or undefined when it holds something that is not text. */
function plainText(content: unknown): string | undefined {
  if (typeof content === 'string' || content === undefined || content === null) return content ?? '';
  if (!Array.isArray(content)) return undefined;
  return content.every((part) => isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string') ? textOf(content) : undefined;
}

/**
 * One provider-native history entry read, or `undefined` for a neutral one; `consumed` counts the entries it read
 * (consecutive Responses output items are one turn). Throws for a native part the neutral history cannot carry.
 * @example
 * readNativeEntry({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }, 0, entries);
 * // → { messages: [{ role: 'tool', callId: 't1', text: 'ok', … }], consumed: 1 }
 */
export function readNativeEntry(entry: Entry, index: number, entries: readonly unknown[]): NativeRead | undefined {
  // Cheap checks first: a neutral message has a role and string (or null) content.
  const content = entry['content'];
  if (Array.isArray(content)) return readBlocks(entry, content, index, entries);
  if (Array.isArray(entry['parts']) && content === undefined) return readGeminiContent(entry, index);
  if (typeof entry['type'] === 'string' && entry['role'] === undefined) return readResponsesItems(entry, index, entries);
  return undefined;
}

function readBlocks(entry: Entry, content: readonly unknown[], index: number, entries: readonly unknown[]): NativeRead | undefined {
  // A Responses output message item (with its id): read with its sibling output items, kept as received.
  if (isResponsesOutputItem(entry)) return readResponsesItems(entry, index, entries);
  const parts = items(content);
  const what = parts.map(unsupportedPart).find((w) => w !== undefined);
  if (what !== undefined) reject(index, what, MEDIA_FIX);
  const role = entry['role'];
  if (role === 'assistant' && parts.some((p) => ANTHROPIC_OUTPUT.has(String(p['type'])))) {
    if (Array.isArray(entry['tool_calls']) && entry['tool_calls'].length > 0) {
      reject(index, 'Anthropic assistant turn that also has tool_calls', 'give the turn either Anthropic blocks (tool_use) or neutral tool_calls, not both.');
    }
    return { messages: normalized(anthropic.readResponse({ content }), index), consumed: 1 };
  }
  if (role !== 'assistant' && parts.some((p) => p['type'] === 'tool_result')) {
    const out = parts.filter((part) => part['type'] === 'tool_result').map((part) => {
      const text = plainText(part['content']);
      if (text === undefined) reject(index, "Anthropic 'tool_result' block with non-text content", 'give the tool result text content (a string, or text blocks).');
      return normalizeOne({ role: 'tool', tool_call_id: str(part['tool_use_id']), content: text, is_error: part['is_error'] === true }, index);
    });
    const texts = parts.flatMap((part) => (TEXT_PARTS.has(String(part['type'])) && typeof part['text'] === 'string' ? [part['text']] : []));
    // Anthropic puts the text after the results in the same user turn; so does toAnthropicMessages.
    if (texts.length > 0) out.push(normalizeOne({ role: 'user', content: texts.join('\n') }, index));
    return { messages: out, consumed: 1 };
  }
  return undefined;
}

function readGeminiContent(entry: Entry, index: number): NativeRead {
  if (entry['role'] === 'model') return { messages: normalized(gemini.readResponse({ candidates: [{ content: entry }] }), index), consumed: 1 };
  const out: NormalizedMessage[] = [];
  let text: string[] = [];
  const flush = (): void => {
    if (text.length > 0) out.push(normalizeOne({ role: 'user', content: text.join('\n') }, index));
    text = [];
  };
  for (const part of items(entry['parts'])) {
    const what = unsupportedGeminiPart(part);
    if (what !== undefined) reject(index, what, MEDIA_FIX);
    const fr = part['functionResponse'];
    if (isRecord(fr)) {
      flush();
      const response = fr['response'];
      const failed = isRecord(response) && Object.hasOwn(response, 'error');
      // A lone `result` or `output` is the wrapper around a result (as toGeminiContents writes it): unwrapped.
      const wrapped = !failed && isRecord(response) && Object.keys(response).length === 1 && (Object.hasOwn(response, 'result') || Object.hasOwn(response, 'output'));
      const content = resultText(failed ? response['error'] : wrapped ? (response['result'] ?? response['output']) : (response ?? {}));
      out.push(normalizeOne({ role: 'tool', tool_call_id: str(fr['id']), name: str(fr['name']), content, is_error: failed }, index));
    } else if (typeof part['text'] === 'string' && part['thought'] !== true) text.push(part['text']);
  }
  flush();
  return { messages: out, consumed: 1 };
}

function readResponsesItems(entry: Entry, index: number, entries: readonly unknown[]): NativeRead | undefined {
  if (entry['type'] === 'function_call_output') {
    const output = entry['output'];
    const text = plainText(Array.isArray(output) ? items(output).map((p) => (p['type'] === 'input_text' ? { ...p, type: 'text' } : p)) : output);
    if (text === undefined) reject(index, "Responses 'function_call_output' with non-text output", 'give the call output text (a string, or input_text parts).');
    return { messages: [normalizeOne({ role: 'tool', tool_call_id: str(entry['call_id']), content: text }, index)], consumed: 1 };
  }
  if (!isResponsesOutputItem(entry)) return undefined;
  // Consecutive output items are one assistant turn, as they were one response's output.
  let end = index + 1;
  while (end < entries.length && isResponsesOutputItem(entries[end])) end++;
  return { messages: normalized(openaiResponses.readResponse({ output: entries.slice(index, end) }), index), consumed: end - index };
}
