/**
 * The recording server the targets tests send payloads to: one local HTTP
 * server on 127.0.0.1 (test/conversation/mock-provider.ts, the only server in
 * the tests) answering every provider endpoint with a minimal reply each
 * official SDK parses, and `send`, which hands a compiled payload to the
 * target's real SDK client and returns the request body the server recorded.
 *
 * So a test proves what goes over the wire (the SDK's own serialization), not
 * what the router returned.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { Target } from '../../runtime/contract.js';
import { startMockProvider, type RecordedRequest } from '../conversation/mock-provider.js';

/**
 * A minimal successful reply for the endpoint at `path`, enough for each SDK
 * to parse a response (Anthropic messages, Chat completions, Responses, and
 * Gemini generateContent for anything else).
 *
 * @example
 * okAnswer('/v1/messages'); // → { id: 'msg_1', type: 'message', … }
 */
export function okAnswer(path: string): unknown {
  if (path.includes('/v1/messages')) {
    return { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
  }
  if (path.includes('/chat/completions')) return { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }] };
  if (path.includes('/responses')) return { id: 'r', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [] };
  return { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] } }] };
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request, in order, as the SDK wrote it. */
  readonly requests: readonly RecordedRequest[];
  /** The last recorded request (throws when there is none). */
  last(): RecordedRequest;
  /**
   * Send `payload` through `target`'s official client (a test model name and
   * `max_tokens` added where the SDK requires them) and return the recorded
   * request body. Throws unless exactly one request was recorded.
   */
  send(target: Target, payload: object): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Start a recording server on a free port of 127.0.0.1.
 *
 * @example
 * let server: RecordingServer;
 * beforeAll(async () => { server = await startRecordingServer(); });
 * afterAll(() => server.close());
 * const body = await server.send('anthropic', router.compile({ target: 'anthropic', messages }));
 */
export async function startRecordingServer(): Promise<RecordingServer> {
  const mock = await startMockProvider((_body, _index, path) => okAnswer(path));
  const last = (): RecordedRequest => {
    const request = mock.requests.at(-1);
    if (request === undefined) throw new Error('no request recorded yet');
    return request;
  };
  const send = async (target: Target, payload: object): Promise<Record<string, unknown>> => {
    const before = mock.requests.length;
    switch (target) {
      case 'anthropic':
        await new Anthropic({ apiKey: 'test', baseURL: mock.url, maxRetries: 0 }).messages.create({ model: 'claude-test', max_tokens: 16, ...payload } as Anthropic.MessageCreateParamsNonStreaming);
        break;
      case 'openai':
        await new OpenAI({ apiKey: 'test', baseURL: `${mock.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-test', ...payload } as OpenAI.ChatCompletionCreateParamsNonStreaming);
        break;
      case 'openai-responses':
        await new OpenAI({ apiKey: 'test', baseURL: `${mock.url}/v1`, maxRetries: 0 }).responses.create({ model: 'gpt-test', ...payload } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
        break;
      case 'gemini':
        await new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: mock.url, retryOptions: { attempts: 1 } } }).models.generateContent({ model: 'gemini-test', ...(payload as { contents: [] }) });
        break;
    }
    // One call, one request: a retry or a second request would make the body ambiguous.
    if (mock.requests.length !== before + 1) throw new Error(`expected one request, recorded ${mock.requests.length - before}`);
    return last().body;
  };
  return { url: mock.url, requests: mock.requests, last, send, close: () => mock.close() };
}
