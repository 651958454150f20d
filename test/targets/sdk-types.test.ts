/**
 * Type test: every target's compile result and rendered tool is assignable to
 * the official SDK's own request types (checked by `tsc -p .`, part of
 * `npm test`). The `@ts-expect-error` cases prove the check can fail: each is
 * a payload a target's SDK rejects.
 */
import type {
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool as AnthropicSdkTool,
  ToolUnion as AnthropicSdkToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import type { GenerateContentParameters, FunctionDeclaration, Content } from '@google/genai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type {
  FunctionTool,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  Tool as ResponsesSdkTool,
} from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { compileForTarget } from '../../runtime/targets/compile.js';
import { renderTool } from '../../runtime/targets/index.js';
import type {
  AnthropicPayload,
  GeminiPayload,
  OpenAIChatPayload,
  ResponsesPayload,
} from '../../runtime/targets/types.js';
import { ann, getForecast, readFile, rendered, toolHistory } from './fixtures.js';

const common = {
  system: 'Be brief.',
  messages: toolHistory,
  loaded: [],
  directoryXml: '<available_toolkits/>',
  announcements: [ann('a', 'Tools newly available: grep')],
} as const;

describe('compile results are the SDK request types', () => {
  it('anthropic → MessageCreateParamsNonStreaming', () => {
    const payload = compileForTarget({ ...common, target: 'anthropic', stable: rendered('anthropic', [readFile, getForecast]), options: { toolSearch: 'regex' } });
    expectTypeOf(payload).toEqualTypeOf<AnthropicPayload>();
    const params: MessageCreateParamsNonStreaming = { model: 'claude-x', max_tokens: 1, ...payload };
    const tool: AnthropicSdkTool = renderTool('anthropic', readFile, { openaiStrict: false });
    const union: AnthropicSdkToolUnion[] = payload.tools ?? [];
    expect([params.messages.length, tool.name, union.length]).toEqual([4, 'read_file', 3]);
  });

  it('openai → ChatCompletionCreateParamsNonStreaming', () => {
    const payload = compileForTarget({ ...common, target: 'openai', stable: rendered('openai', [readFile], true) });
    expectTypeOf(payload).toEqualTypeOf<OpenAIChatPayload>();
    const params: ChatCompletionCreateParamsNonStreaming = { model: 'gpt-x', ...payload };
    const tool: ChatCompletionTool = renderTool('openai', readFile, { openaiStrict: true });
    expect([params.messages[0]?.role, tool.type]).toEqual(['system', 'function']);
  });

  it('openai-responses → ResponseCreateParamsNonStreaming', () => {
    const payload = compileForTarget({ ...common, target: 'openai-responses', stable: rendered('openai-responses', [readFile, getForecast]), options: { toolSearch: true } });
    expectTypeOf(payload).toEqualTypeOf<ResponsesPayload>();
    const params: ResponseCreateParamsNonStreaming = { model: 'gpt-x', ...payload };
    const tool: FunctionTool = renderTool('openai-responses', getForecast, { openaiStrict: false });
    const tools: ResponsesSdkTool[] = payload.tools ?? [];
    expect([params.instructions, tool.defer_loading, tools.length]).toEqual([
      'Be brief.\n\nLead system.\n\n<available_toolkits/>',
      true,
      3,
    ]);
  });

  it('gemini → GenerateContentParameters', () => {
    const payload = compileForTarget({ ...common, target: 'gemini', stable: rendered('gemini', [readFile]) });
    expectTypeOf(payload).toEqualTypeOf<GeminiPayload>();
    const params: GenerateContentParameters = { model: 'gemini-x', ...payload };
    const declaration: FunctionDeclaration = renderTool('gemini', readFile, { openaiStrict: false });
    expect([params.config?.systemInstruction, declaration.name]).toEqual(['Be brief.\n\nLead system.\n\n<available_toolkits/>', 'read_file']);
  });
});

describe('the type check can fail', () => {
  it('rejects payloads each SDK rejects', () => {
    const chatTool: ChatCompletionTool = {
      type: 'function',
      function: { name: 'x', parameters: { type: 'object' } },
      // @ts-expect-error Chat Completions has no defer_loading.
      defer_loading: true,
    };

    // @ts-expect-error Responses FunctionTool requires the `strict` key (it may be null, not absent).
    const responsesTool: FunctionTool = { type: 'function', name: 'x', parameters: null };

    // @ts-expect-error Anthropic's input_schema.type must be 'object'.
    const anthropicTool: AnthropicSdkTool = { name: 'x', input_schema: { type: 'array' } };

    // The SDK types Content.role as a plain string, so our payload type is the one that holds
    // Gemini's rule ('user' | 'model'; a 'system' role is a 400).
    // @ts-expect-error Gemini contents have no 'system' role.
    const geminiRole: GeminiPayload['contents'][number] = { role: 'system', parts: [{ text: 'x' }] };

    // @ts-expect-error Chat messages have no 'model' role.
    const chatMessage: ChatCompletionMessageParam = { role: 'model', content: 'x' };

    // @ts-expect-error Anthropic messages have no 'tool' role (results are tool_result blocks in a user turn).
    const anthropicMessage: MessageParam = { role: 'tool', content: 'x' };

    // @ts-expect-error A Responses function_call needs call_id.
    const responsesItem: ResponseInputItem = { type: 'function_call', name: 'x', arguments: '{}' };

    const geminiContent: Content = { role: 'user', parts: [{ text: 'x' }] };

    // Controls: each bad value above with only the named fault fixed type-checks, so every
    // directive is satisfied by the error it names and not by some other mistake on its line.
    const fixed = {
      chatTool: { type: 'function', function: { name: 'x', parameters: { type: 'object' } } } satisfies ChatCompletionTool,
      responsesTool: { type: 'function', name: 'x', parameters: null, strict: null } satisfies FunctionTool,
      anthropicTool: { name: 'x', input_schema: { type: 'object' } } satisfies AnthropicSdkTool,
      geminiRole: { role: 'user', parts: [{ text: 'x' }] } satisfies GeminiPayload['contents'][number],
      chatMessage: { role: 'assistant', content: 'x' } satisfies ChatCompletionMessageParam,
      anthropicMessage: { role: 'user', content: 'x' } satisfies MessageParam,
      responsesItem: { type: 'function_call', name: 'x', arguments: '{}', call_id: 'c' } satisfies ResponseInputItem,
    };
    expect([chatTool, responsesTool, anthropicTool, geminiRole, chatMessage, anthropicMessage, responsesItem, geminiContent].length).toBe(8);
    expect(Object.keys(fixed)).toHaveLength(7);
  });
});
