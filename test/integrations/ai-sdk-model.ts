/**
 * A scripted AI SDK language model for the integration tests: each step answers with the next entry of a script (tool
 * calls, or text), as `ai/test`'s MockLanguageModelV3; every call's options are recorded.
 */
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';

/** The token usage every scripted step reports. */
export const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** A tool call the model makes (`input` as JSON text, or an object written as JSON). */
export const call = (id: string, toolName: string, input: unknown): LanguageModelV3Content => ({
  type: 'tool-call',
  toolCallId: id,
  toolName,
  input: typeof input === 'string' ? input : JSON.stringify(input),
});

/** A model that answers step `i` with `script[i]` ("nothing more" after it); `calls` records what each step was sent. */
export function modelOf(script: LanguageModelV3Content[][]) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const content = script[calls.length - 1] ?? [{ type: 'text', text: 'nothing more' }];
      const toolStep = content.some((c) => c.type === 'tool-call');
      return { content, finishReason: { unified: toolStep ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
  return { model, calls };
}
