/**
 * Type test (checked by `tsc -p .`, part of `npm test`): `fromProvider(target, response)`
 * takes each SDK's own response type for its target and rejects another
 * target's. Each `@ts-expect-error` has a twin that compiles, so the check can fail both ways.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { GenerateContentResponse } from '@google/genai';
import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
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
    // @ts-expect-error an OpenAI ChatCompletion is not an Anthropic Message
    fromProvider('anthropic', completion);
    // @ts-expect-error a Responses Response is not an Anthropic Message
    fromProvider('anthropic', response);
    // @ts-expect-error an Anthropic Message is not a ChatCompletion
    fromProvider('openai', message);
    // @ts-expect-error a Responses Response is not a ChatCompletion
    fromProvider('openai', response);
    // @ts-expect-error a ChatCompletion is not a Responses Response
    fromProvider('openai-responses', completion);
    // @ts-expect-error a Gemini response is not a Responses Response
    fromProvider('openai-responses', generated);
    // @ts-expect-error an Anthropic Message is not a Gemini response
    fromProvider('gemini', message);
    // @ts-expect-error a ChatCompletion is not a Gemini response
    fromProvider('gemini', completion);
    expectTypeOf<ChatCompletion>().not.toMatchTypeOf<ProviderResponseMap['anthropic']>();
    expectTypeOf<Message>().not.toMatchTypeOf<ProviderResponseMap['openai']>();
    expectTypeOf<ChatCompletion>().not.toMatchTypeOf<ProviderResponseMap['openai-responses']>();
    expectTypeOf<Message>().not.toMatchTypeOf<ProviderResponseMap['gemini']>();
    // Run time: a response of the wrong target never throws; it reads as an empty turn.
    expect(() => fromProvider('anthropic', completion as unknown as Message)).not.toThrow();
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
