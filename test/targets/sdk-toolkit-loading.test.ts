/**
 * The native toolkit-loading payloads against the official SDKs, two ways:
 *
 * - types (checked by `tsc -p .`, part of `npm test`): a payload with
 *   `tool_reference` blocks, one with `tool_search` / `tool_search_call` /
 *   `tool_search_output`, and ones with the dispatcher tool are assigned to
 *   the SDKs' own request types; each `@ts-expect-error` case is a near miss
 *   the SDK rejects, with a `satisfies` twin fixing only the named fault;
 * - bytes: the real SDK clients send the payloads to a local HTTP server on
 *   127.0.0.1 that records each request body, and the recorded body is the
 *   payload (Gemini: the SDK's own REST layout of it).
 */
import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  ToolReferenceBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { GoogleGenAI, type GenerateContentParameters } from '@google/genai';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionTool } from 'openai/resources/chat/completions';
import type {
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ResponseToolSearchOutputItemParam,
  ToolSearchTool,
} from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AnthropicPayload, GeminiPayload, OpenAIChatPayload, ResponsesPayload } from '../../runtime/targets/types.js';
import type { NeutralMessage } from '../../runtime/targets/history.js';
import { exampleRouter } from '../runtime/helpers.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

/** A conversation that loads Weather and calls get_forecast, in each target's vocabulary. */
function conversation(dispatcher: boolean): NeutralMessage[] {
  const { router } = exampleRouter();
  const loaded = router.handleTool({ name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' });
  const forecast = dispatcher
    ? { id: 'c2', type: 'function' as const, function: { name: 'call_toolkit_tool', arguments: '{"tool":"get_forecast","args":{"city":"Lisbon"}}' } }
    : { id: 'c2', type: 'function' as const, function: { name: 'get_forecast', arguments: '{"city":"Lisbon"}' } };
  return [
    { role: 'user', content: 'Weather in Lisbon?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: loaded },
    { role: 'assistant', content: null, tool_calls: [forecast] },
    { role: 'tool', tool_call_id: 'c2', content: '{"sky":"sunny"}' },
  ];
}

const system = 'Be brief.';
const anthropicPayload = (): AnthropicPayload => exampleRouter().router.compile({ target: 'anthropic', system, messages: conversation(false) });
const responsesPayload = (): ResponsesPayload => exampleRouter().router.compile({ target: 'openai-responses', system, messages: conversation(false) });
const chatPayload = (): OpenAIChatPayload => exampleRouter().router.compile({ target: 'openai', system, messages: conversation(true) });
const geminiPayload = (): GeminiPayload => exampleRouter().router.compile({ target: 'gemini', system, messages: conversation(true) });

describe('native toolkit-loading payloads are the SDK request types', () => {
  it('anthropic: deferred toolkit tools and tool_reference blocks', () => {
    const payload = anthropicPayload();
    ({ model: 'claude-x', max_tokens: 1, ...payload }) satisfies MessageCreateParamsNonStreaming;
    const result = (payload.messages[2]!.content as ToolResultBlockParam[])[0]!;
    expectTypeOf(result).toMatchTypeOf<ToolResultBlockParam>();
    expect(result.content).toContainEqual({ type: 'tool_reference', tool_name: 'get_forecast' } satisfies ToolReferenceBlockParam);
    expect(payload.tools?.filter((t) => 'defer_loading' in t && t.defer_loading).map((t) => t.name)).toEqual(['get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
  });

  it('openai-responses: client tool_search loader, tool_search_call and tool_search_output items', () => {
    const payload = responsesPayload();
    const params: ResponseCreateParamsNonStreaming = { model: 'gpt-x', ...payload };
    const loader = payload.tools?.find((t) => t.type === 'tool_search');
    const sdkLoader: ToolSearchTool | undefined = loader;
    expect(sdkLoader).toMatchObject({ type: 'tool_search', execution: 'client' });
    const items: ResponseInputItem[] = params.input as ResponseInputItem[];
    const output = items.find((i): i is ResponseToolSearchOutputItemParam => 'type' in i && i.type === 'tool_search_output');
    expect(output?.tools.map((t) => (t as { name: string }).name)).toEqual(['get_forecast', 'get_current_weather']);
    expect(params.tools?.length).toBe(payload.tools?.length);
    expect(payload.input.map((i) => ('type' in i ? i.type : i.role))).toEqual(['user', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output']);
  });

  it('openai chat and gemini: the dispatcher tool', () => {
    const chat = chatPayload();
    const chatParams: ChatCompletionCreateParamsNonStreaming = { model: 'gpt-x', ...chat };
    const dispatcher: ChatCompletionTool | undefined = chatParams.tools?.find((t) => t.type === 'function' && t.function.name === 'call_toolkit_tool');
    expect(dispatcher).toBeDefined();
    const gemini = geminiPayload();
    const geminiParams: GenerateContentParameters = { model: 'gemini-x', ...gemini };
    expect(JSON.stringify(geminiParams.config?.tools)).toContain('"name":"call_toolkit_tool"');
  });

  it('options.allowedTools: tool_choice allowed_tools on Chat and Responses', () => {
    const { router } = exampleRouter();
    router.setBlockedTools(['terminal']);
    const chat: ChatCompletionCreateParamsNonStreaming = { model: 'gpt-x', ...router.compile({ target: 'openai', system, messages: conversation(true), options: { allowedTools: true } }) };
    const responses: ResponseCreateParamsNonStreaming = { model: 'gpt-x', ...router.compile({ target: 'openai-responses', system, messages: conversation(false), options: { allowedTools: true } }) };
    expect(JSON.stringify(chat.tool_choice)).not.toContain('terminal');
    expect(JSON.stringify(responses.tool_choice)).toContain('"type":"tool_search"');
    // @ts-expect-error Chat nests the list under `allowed_tools` (the Responses shape is flat).
    const flat: ChatCompletionCreateParamsNonStreaming['tool_choice'] = { type: 'allowed_tools', mode: 'auto', tools: [] };
    const nested = { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } satisfies ChatCompletionCreateParamsNonStreaming['tool_choice'];
    expect([flat, nested]).toHaveLength(2);
  });

  it('the type check can fail: near misses of each new shape', () => {
    // @ts-expect-error A tool_reference names its tool with `tool_name`, not `name`.
    const ref: ToolReferenceBlockParam = { type: 'tool_reference', name: 'get_forecast' };
    // @ts-expect-error A client tool_search has execution 'server' | 'client'.
    const search: ToolSearchTool = { type: 'tool_search', execution: 'local' };
    // @ts-expect-error A tool_search_output carries `tools`, an array of tool definitions.
    const output: ResponseToolSearchOutputItemParam = { type: 'tool_search_output', call_id: 'c1', tools: 'get_forecast' };
    // @ts-expect-error A tool_search_output's status is 'in_progress' | 'completed' | 'incomplete'.
    const call: ResponseToolSearchOutputItemParam = { type: 'tool_search_output', call_id: 'c1', tools: [], status: 'done' };
    // @ts-expect-error Chat Completions tools have no tool_search type.
    const chatSearch: ChatCompletionTool = { type: 'tool_search' };
    const fixed = {
      ref: { type: 'tool_reference', tool_name: 'get_forecast' } satisfies ToolReferenceBlockParam,
      search: { type: 'tool_search', execution: 'client' } satisfies ToolSearchTool,
      output: { type: 'tool_search_output', call_id: 'c1', tools: [] } satisfies ResponseToolSearchOutputItemParam,
      call: { type: 'tool_search_output', call_id: 'c1', tools: [], status: 'completed' } satisfies ResponseToolSearchOutputItemParam,
      chatSearch: { type: 'function', function: { name: 'call_toolkit_tool' } } satisfies ChatCompletionTool,
    };
    expect([ref, search, output, call, chatSearch]).toHaveLength(5);
    expect(Object.keys(fixed)).toHaveLength(5);
  });
});

// ─── The bytes the real clients send ───────────────────────────────────────────

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());

const last = () => server.last();

describe('the real SDK clients send the native payloads unchanged to a local server', () => {
  it('anthropic: messages.create', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const payload = anthropicPayload();
    const before = JSON.stringify(payload);
    await client.messages.create({ model: 'claude-test', max_tokens: 16, ...payload });
    expect(last().path).toBe('/v1/messages');
    expect(last().body).toEqual({ model: 'claude-test', max_tokens: 16, ...JSON.parse(before) });
    expect(JSON.stringify(last().body)).toContain('{"type":"tool_reference","tool_name":"get_forecast"}');
    expect(JSON.stringify(payload)).toBe(before);
  });

  it('openai responses: responses.create', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const payload = responsesPayload();
    const before = JSON.stringify(payload);
    await client.responses.create({ model: 'gpt-test', ...payload });
    expect(last().path).toBe('/v1/responses');
    expect(last().body).toEqual({ model: 'gpt-test', ...JSON.parse(before) });
    expect(JSON.stringify(last().body)).toMatch(/"type":"tool_search_output","call_id":"c1","execution":"client","status":"completed","tools":\[\{"type":"function","name":"get_forecast"/);
  });

  it('openai chat: chat.completions.create', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const payload = chatPayload();
    const before = JSON.stringify(payload);
    await client.chat.completions.create({ model: 'gpt-test', ...payload });
    expect(last().path).toBe('/v1/chat/completions');
    expect(last().body).toEqual({ model: 'gpt-test', ...JSON.parse(before) });
    expect(JSON.stringify(last().body)).toContain('"name":"call_toolkit_tool"');
  });

  it('gemini: models.generateContent (the SDK moves config.* to the top level)', async () => {
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } } });
    const payload = geminiPayload();
    const before = JSON.stringify(payload);
    await ai.models.generateContent({ model: 'gemini-test', ...payload });
    expect(last().path).toMatch(/\/models\/gemini-test:generateContent/);
    expect(last().body['contents']).toEqual(payload.contents);
    expect((last().body['tools'] as Array<{ functionDeclarations: unknown[] }>)[0]?.functionDeclarations).toEqual(payload.config.tools?.[0]?.functionDeclarations);
    expect(JSON.stringify(last().body['tools'])).toContain('"name":"call_toolkit_tool"');
    expect(JSON.stringify(payload)).toBe(before);
  });
});
