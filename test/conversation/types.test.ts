/**
 * Type test (checked by `tsc -p .`, part of `npm test`): `fromProvider(target, response)`
 * takes each SDK's own response type for its target and rejects another
 * target's. Each `@ts-expect-error` has a twin that compiles, so the check can fail both ways.
 */
import type { Message, RedactedThinkingBlockParam, ThinkingBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { GenerateContentResponse, Part } from '@google/genai';
import type { ChatCompletion, ChatCompletionAssistantMessageParam, ChatCompletionMessage } from 'openai/resources/chat/completions';
import type { Response, ResponseFunctionToolCall, ResponseInputItem, ResponseReasoningItem } from 'openai/resources/responses/responses';
import type {
  AnthropicRedactedThinkingBlock,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  GeminiPart,
  OpenAIChatMessage,
  ResponsesFunctionCallItem,
  ResponsesInputItem,
  ResponsesReasoningItem,
} from '../../runtime/targets/types.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  fromProvider,
  toolMessage,
  type AnthropicResponse,
  type NeutralMessage,
  type GeminiResponse,
  type OpenAIChatResponse,
  type OpenAIChatResponseMessage,
  type ProviderResponseMap,
  type ResponsesResponse,
} from '../../runtime/index.js';
import { anthropicResponse, geminiResponse, openaiChatResponse, responsesResponse } from './script.js';

// Values typed as the SDKs' own response types (the scripted JSON is what the SDKs parse it from).
const message = anthropicResponse(1) as unknown as Message;
const completion = openaiChatResponse(1) as unknown as ChatCompletion;
const chatMessage = completion.choices[0]!.message satisfies ChatCompletionMessage;
const response = responsesResponse(1) as unknown as Response;
const generated = geminiResponse(1) as unknown as GenerateContentResponse;

describe('fromProvider takes each SDK response type', () => {
  it('accepts the right type per target (satisfies twins)', () => {
    expectTypeOf(fromProvider('anthropic', message)).toEqualTypeOf<NeutralMessage[]>();
    expectTypeOf(fromProvider('openai', completion)).toEqualTypeOf<NeutralMessage[]>();
    expectTypeOf(fromProvider('openai', chatMessage)).toEqualTypeOf<NeutralMessage[]>();
    expectTypeOf(fromProvider('openai-responses', response)).toEqualTypeOf<NeutralMessage[]>();
    expectTypeOf(fromProvider('gemini', generated)).toEqualTypeOf<NeutralMessage[]>();
    message satisfies AnthropicResponse;
    completion satisfies OpenAIChatResponse;
    chatMessage satisfies OpenAIChatResponseMessage;
    response satisfies ResponsesResponse;
    generated satisfies GeminiResponse;
    expectTypeOf<Message>().toMatchTypeOf<ProviderResponseMap['anthropic']>();
    expectTypeOf<ChatCompletion>().toMatchTypeOf<ProviderResponseMap['openai']>();
    expectTypeOf<ChatCompletionMessage>().toMatchTypeOf<ProviderResponseMap['openai']>();
    expectTypeOf<Response>().toMatchTypeOf<ProviderResponseMap['openai-responses']>();
    expectTypeOf<GenerateContentResponse>().toMatchTypeOf<ProviderResponseMap['gemini']>();
  });

  it("rejects another target's response type", () => {
    // At run time too: a configuration mistake.
    const refused = (read: () => unknown) => expect(read).toThrow('[toolroute] response-shape:');
    // @ts-expect-error an OpenAI ChatCompletion is not an Anthropic Message
    refused(() => fromProvider('anthropic', completion));
    // @ts-expect-error a Responses Response is not an Anthropic Message
    refused(() => fromProvider('anthropic', response));
    // @ts-expect-error an Anthropic Message is not a ChatCompletion
    refused(() => fromProvider('openai', message));
    // @ts-expect-error a Responses Response is not a ChatCompletion
    refused(() => fromProvider('openai', response));
    // @ts-expect-error a ChatCompletion is not a Responses Response
    refused(() => fromProvider('openai-responses', completion));
    // @ts-expect-error a Gemini response is not a Responses Response
    refused(() => fromProvider('openai-responses', generated));
    // @ts-expect-error an Anthropic Message is not a Gemini response
    refused(() => fromProvider('gemini', message));
    // @ts-expect-error a ChatCompletion is not a Gemini response
    refused(() => fromProvider('gemini', completion));
    expectTypeOf<ChatCompletion>().not.toMatchTypeOf<ProviderResponseMap['anthropic']>();
    expectTypeOf<Message>().not.toMatchTypeOf<ProviderResponseMap['openai']>();
    expectTypeOf<ChatCompletion>().not.toMatchTypeOf<ProviderResponseMap['openai-responses']>();
    expectTypeOf<Message>().not.toMatchTypeOf<ProviderResponseMap['gemini']>();
    // Run time: a response of another target is refused, naming that target; it never reads as an empty turn.
    expect(() => fromProvider('anthropic', completion as unknown as Message)).toThrow("pass target 'openai'");
  });

  it('toolMessage takes a neutral call and a dispatch-result-like value', () => {
    const [reply] = fromProvider('anthropic', message);
    const call = reply!.tool_calls![0]!;
    expectTypeOf(toolMessage(call, { ok: true, result: 1 })).toEqualTypeOf<NeutralMessage>();
    toolMessage({ id: 'c', name: 'x' }, { ok: false, reason: 'no' });
    // @ts-expect-error a failure needs its reason (the text the model reads)
    toolMessage(call, { ok: false });
    toolMessage(call, { ok: false, reason: 'twin' });
  });
});

describe('the replayed wire types are the SDK request types', () => {
  it('each replayed block, item and part is assignable to its SDK param type (and a broken one is not)', () => {
    expectTypeOf<AnthropicThinkingBlock>().toMatchTypeOf<ThinkingBlockParam>();
    expectTypeOf<AnthropicRedactedThinkingBlock>().toMatchTypeOf<RedactedThinkingBlockParam>();
    expectTypeOf<AnthropicToolResultBlock>().toMatchTypeOf<ToolResultBlockParam>();
    expectTypeOf<Extract<OpenAIChatMessage, { role: 'assistant' }>>().toMatchTypeOf<ChatCompletionAssistantMessageParam>();
    expectTypeOf<ResponsesReasoningItem>().toMatchTypeOf<ResponseReasoningItem>();
    expectTypeOf<ResponsesFunctionCallItem>().toMatchTypeOf<ResponseFunctionToolCall>();
    expectTypeOf<ResponsesInputItem>().toMatchTypeOf<ResponseInputItem>();
    expectTypeOf<GeminiPart>().toMatchTypeOf<Part>();
    const thinking = { type: 'thinking', thinking: 't', signature: 's' } as const;
    thinking satisfies ThinkingBlockParam;
    // @ts-expect-error a thinking block without its signature is not a ThinkingBlockParam
    ({ type: 'thinking', thinking: 't' }) satisfies ThinkingBlockParam;
    const reasoning = { type: 'reasoning' as const, id: 'rs_1', summary: [], encrypted_content: 'e' };
    reasoning satisfies ResponseReasoningItem;
    // @ts-expect-error a reasoning item needs its id and summary
    ({ type: 'reasoning', encrypted_content: 'e' }) satisfies ResponseReasoningItem;
    const part = { functionCall: { name: 'get_time', args: {} }, thoughtSignature: 'sig' };
    part satisfies Part;
    // @ts-expect-error the signature is a string on the part, not an object
    ({ functionCall: { name: 'get_time', args: {} }, thoughtSignature: { value: 'sig' } }) satisfies Part;
    expect(thinking.signature).toBe('s');
  });
});
