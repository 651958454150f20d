/**
 * One scripted agent conversation, written once and rendered as each
 * provider's own response JSON: reasoning state with signatures on every
 * turn (Anthropic thinking / redacted_thinking, Gemini thought parts and
 * thoughtSignature, Responses reasoning items with encrypted_content), a
 * load_toolkit call, parallel calls, and calls that fail in every way the
 * router reports (invalid arguments, blocked, handler error, unknown tool).
 *
 * The opaque values are distinct per turn and contain characters JSON
 * escapes (`/`, `+`, `=`, a quote, a backslash, non-ASCII), so a replay that
 * re-encodes, trims or reorders anything shows in the recorded bytes.
 */
import type { Target } from '../../runtime/contract.js';

export interface ScriptCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** Whether the router rejects it (the tool message must carry the error flag). */
  readonly fails: boolean;
}

export interface ScriptTurn {
  readonly thinking: string;
  /** Anthropic: a redacted_thinking block instead of a thinking block. */
  readonly redacted?: boolean;
  readonly text: string;
  readonly calls: readonly ScriptCall[];
}

const ok = (name: string, args: Record<string, unknown>): ScriptCall => ({ name, args, fails: false });
const bad = (name: string, args: Record<string, unknown>): ScriptCall => ({ name, args, fails: true });

/** Before this turn's response is handled, the application blocks delete_file. */
export const BLOCK_TURN = 3;

export const SCRIPT: readonly ScriptTurn[] = [
  { thinking: 'The user wants weather; load the toolkit first.', text: 'Loading the weather tools.', calls: [ok('load_toolkit', { toolkit_name: 'Weather' })] },
  {
    thinking: 'Read the config and get a forecast, in parallel.',
    text: '',
    calls: [ok('file_ops', { action: 'read_file', args: { path: 'config.json' } }), ok('get_forecast', { city: 'Lisbon', days: 2 })],
  },
  { thinking: 'A longer range would help.', redacted: true, text: 'Checking the month ahead.', calls: [bad('get_forecast', { city: 'Lisbon', days: 30 })] },
  { thinking: 'Clean the temporary folder.', text: '', calls: [bad('file_ops', { action: 'delete_file', args: { path: 'tmp' } })] },
  { thinking: 'Look at the service logs.', text: 'Reading the logs.', calls: [bad('terminal', { action: 'tail_logs', args: { service: 'api' } })] },
  {
    thinking: 'Three things at once: current weather, the time, and a web search.',
    text: '',
    calls: [ok('get_current_weather', { city: 'Porto' }), ok('get_time', {}), bad('web_search', { q: 'Lisbon events' })],
  },
  {
    thinking: 'The database toolkit has the bookings.',
    text: 'Loading the database tools.',
    calls: [ok('load_toolkit', { toolkit_name: 'Database' }), ok('get_time', { timezone: 'Europe/Lisbon' })],
  },
  { thinking: 'Query the bookings.', text: '', calls: [ok('run_query', { sql: 'SELECT count(*) FROM bookings' })] },
  { thinking: 'Summarize for the user — «fin».', text: 'Lisbon: sunny for two days; config.json is fine; tmp could not be deleted here.', calls: [] },
];

/** A distinct opaque value per turn and purpose, with characters JSON escapes. */
export function opaque(kind: string, turn: number): string {
  return `${kind}/${turn}+Eq\u00e9"\\==${'x'.repeat(turn * 7)}`;
}

const callId = (target: Target, turn: number, i: number): string => `${target === 'anthropic' ? 'toolu' : 'call'}_${turn}_${i}`;

/** The Anthropic `Message` for a turn. */
export function anthropicResponse(turn: number): Record<string, unknown> {
  const t = SCRIPT[turn]!;
  const content: unknown[] = [
    t.redacted ? { type: 'redacted_thinking', data: opaque('redacted', turn) } : { type: 'thinking', thinking: t.thinking, signature: opaque('sig', turn) },
  ];
  if (t.text !== '') content.push({ type: 'text', text: t.text, citations: null });
  t.calls.forEach((c, i) => content.push({ type: 'tool_use', id: callId('anthropic', turn, i), name: c.name, input: c.args, caller: { type: 'direct' } }));
  return {
    id: `msg_${turn}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: t.calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** The Chat Completions `ChatCompletion` for a turn (Chat has no reasoning state to return). */
export function openaiChatResponse(turn: number): Record<string, unknown> {
  const t = SCRIPT[turn]!;
  const message: Record<string, unknown> = { role: 'assistant', content: t.text === '' ? null : t.text, refusal: null, annotations: [] };
  if (t.calls.length > 0) {
    message['tool_calls'] = t.calls.map((c, i) => ({ id: callId('openai', turn, i), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  }
  return {
    id: `chatcmpl_${turn}`,
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test',
    choices: [{ index: 0, finish_reason: t.calls.length > 0 ? 'tool_calls' : 'stop', logprobs: null, message }],
  };
}

/**
 * Whether a Responses request offers a client-executed `tool_search` tool:
 * then the model answers a toolkit load with a `tool_search_call` item (what
 * toolroute's tool-search toolkit loading offers), else with a function call.
 */
export function offersClientToolSearch(body: Record<string, unknown> | undefined): boolean {
  const tools = body?.['tools'];
  return Array.isArray(tools) && tools.some((t) => (t as Record<string, unknown>)['type'] === 'tool_search' && (t as Record<string, unknown>)['execution'] === 'client');
}

/**
 * The Responses `Response` for a turn: a reasoning item with encrypted_content,
 * a message item, function_call items (a `load_toolkit` call is a client
 * `tool_search_call` when the request offered a client tool search).
 */
export function responsesResponse(turn: number, body?: Record<string, unknown>): Record<string, unknown> {
  const t = SCRIPT[turn]!;
  const output: unknown[] = [
    { id: `rs_${turn}`, type: 'reasoning', summary: [{ type: 'summary_text', text: t.thinking }], encrypted_content: opaque('enc', turn), status: 'completed' },
  ];
  if (t.text !== '') {
    output.push({ id: `msg_${turn}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: t.text, annotations: [] }] });
  }
  const toolSearch = offersClientToolSearch(body);
  t.calls.forEach((c, i) =>
    output.push(
      toolSearch && c.name === 'load_toolkit'
        ? { id: `ts_${turn}_${i}`, type: 'tool_search_call', call_id: callId('openai-responses', turn, i), arguments: c.args, execution: 'client', status: 'completed' }
        : { id: `fc_${turn}_${i}`, type: 'function_call', call_id: callId('openai-responses', turn, i), name: c.name, arguments: JSON.stringify(c.args), status: 'completed' },
    ),
  );
  return { id: `resp_${turn}`, object: 'response', created_at: 0, model: 'gpt-test', status: 'completed', output, parallel_tool_calls: true, tool_choice: 'auto', tools: [] };
}

/**
 * The Gemini `GenerateContentResponse` for a turn: a thought part, the text,
 * functionCall parts with the thoughtSignature on the first only (what Gemini
 * does for parallel calls). Even turns omit `functionCall.id` (the Gemini API
 * usually does), odd turns carry one.
 */
export function geminiResponse(turn: number): Record<string, unknown> {
  const t = SCRIPT[turn]!;
  const parts: Record<string, unknown>[] = [{ text: t.thinking, thought: true }];
  if (t.text !== '') parts.push({ text: t.text });
  t.calls.forEach((c, i) => {
    const functionCall: Record<string, unknown> = { name: c.name, args: c.args };
    if (turn % 2 === 1) functionCall['id'] = callId('gemini', turn, i);
    parts.push(i === 0 ? { functionCall, thoughtSignature: opaque('tsig', turn) } : { functionCall });
  });
  // A turn without calls carries its signature on the last part, as Gemini does.
  if (t.calls.length === 0) parts[parts.length - 1]!['thoughtSignature'] = opaque('tsig', turn);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    responseId: `gresp_${turn}`,
    modelVersion: 'gemini-test',
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
  };
}

/** The scripted response per target; `body` is the request (Responses answers what the request offered). */
export const RESPONSE_OF: Readonly<Record<Target, (turn: number, body?: Record<string, unknown>) => Record<string, unknown>>> = {
  anthropic: anthropicResponse,
  openai: openaiChatResponse,
  'openai-responses': responsesResponse,
  gemini: geminiResponse,
};
