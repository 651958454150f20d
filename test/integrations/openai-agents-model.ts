/**
 * A scripted OpenAI model on 127.0.0.1 for the Agents SDK tests: the SDK's
 * own OpenAI provider (Responses or Chat Completions, over the real `openai`
 * client it depends on) pointed at the project's mock provider server, which
 * answers each request with the next scripted turn and records the request
 * bodies — what the model receives.
 */
import { OpenAIProvider } from '@openai/agents';
import { startMockProvider, type RecordedRequest } from '../conversation/mock-provider.js';

/** One item of a scripted model turn. */
export type TurnItem =
  | { readonly call: { readonly id: string; readonly name: string; readonly args: unknown; readonly namespace?: string } }
  | { readonly search: { readonly id: string; readonly args: unknown } }
  | { readonly text: string };

/** A function call item (`args` as JSON unless it is already text). */
export const call = (id: string, name: string, args: unknown, namespace?: string): TurnItem => ({ call: { id, name, args, ...(namespace === undefined ? {} : { namespace }) } });
/** A client-executed tool search call (Responses only). */
export const search = (id: string, args: unknown): TurnItem => ({ search: { id, args } });
export const text = (value: string): TurnItem => ({ text: value });

const argText = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args));

function responsesItem(item: TurnItem): unknown {
  if ('call' in item) {
    const { id, name, args, namespace } = item.call;
    return { type: 'function_call', id: `fc_${id}`, call_id: id, name, arguments: argText(args), status: 'completed', ...(namespace === undefined ? {} : { namespace }) };
  }
  if ('search' in item) return { type: 'tool_search_call', id: `ts_${item.search.id}`, call_id: item.search.id, execution: 'client', arguments: item.search.args, status: 'completed' };
  return { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.text, annotations: [] }] };
}

function chatMessage(items: readonly TurnItem[]): unknown {
  const calls = items.flatMap((i) => ('call' in i ? [{ id: i.call.id, type: 'function', function: { name: i.call.name, arguments: argText(i.call.args) } }] : []));
  const content = items.flatMap((i) => ('text' in i ? [i.text] : [])).join('') || null;
  return { role: 'assistant', content, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

function answer(path: string, index: number, turn: readonly TurnItem[]): unknown {
  if (path.includes('/chat/completions')) {
    const message = chatMessage(turn);
    return {
      id: `chatcmpl_${index}`,
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, finish_reason: (message as { tool_calls?: unknown }).tool_calls ? 'tool_calls' : 'stop', message }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  }
  return {
    id: `resp_${index}`,
    object: 'response',
    created_at: 0,
    model: 'gpt-test',
    status: 'completed',
    output: turn.map(responsesItem),
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}

export interface ScriptedOpenAi {
  /** The SDK's OpenAI provider, on the Responses API or Chat Completions, pointed at the server. */
  readonly provider: OpenAIProvider;
  /** The server's base URL (`http://127.0.0.1:<port>/v1`), for an SDK in another process. */
  readonly url: string;
  /** Every request the SDK sent, in order. */
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Start the scripted model: request `i` is answered with `turns[i]` (a final
 * text once the script is over).
 *
 * @example
 * const model = await startScriptedOpenAi('responses', [[call('c1', 'get_time', {})], [text('Noon.')]]);
 * const runner = new Runner({ modelProvider: model.provider, tracingDisabled: true });
 */
export async function startScriptedOpenAi(api: 'responses' | 'chat', turns: readonly (readonly TurnItem[])[]): Promise<ScriptedOpenAi> {
  const server = await startMockProvider((_body, index, path) => answer(path, index, turns[index] ?? [text('Done.')]));
  const url = `${server.url}/v1`;
  const provider = new OpenAIProvider({ apiKey: 'test', baseURL: url, useResponses: api === 'responses' });
  return { provider, url, requests: server.requests, close: () => server.close() };
}
