/**
 * `toAiSdk` and the arguments and context of a call: arguments that are JSON but no object get the reason `dispatch`
 * gives the same text (the AI SDK hands them over parsed, and they are not read again), and a `context` given to
 * `toAiSdk` is checked against the handlers' context type.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../generated/index.js';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';
import { createRouter } from '../../runtime/index.js';
import { generated, recordingHandlers } from '../runtime/helpers.js';
import { call, modelOf } from './ai-sdk-model.js';

/** Each tool result's text the model read in the run, by call id. */
function resultTexts(calls: readonly LanguageModelV3CallOptions[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const c of calls) for (const m of c.prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') out.set(p.toolCallId, (p.output as { value?: unknown }).value);
  return out;
}

describe('toAiSdk, arguments and context', () => {
  it('arguments that are JSON but no object get the reason dispatch gives them, and run nothing', async () => {
    const { handlers, log } = recordingHandlers();
    const router = createRouter(generated, handlers);
    // What the model wrote as the call's arguments text, each valid JSON.
    const texts = ['null', '[1]', '"abc"', '42', '"{\\"timezone\\":\\"UTC\\"}"', '""'];
    const { model, calls } = modelOf([texts.map((t, i) => call(`c${i}`, 'get_time', t)), [{ type: 'text', text: 'ok' }]]);
    await generateText({ model, ...toAiSdk(router), prompt: 'What time is it?', stopWhen: stepCountIs(3) });
    const seen = resultTexts(calls);
    for (const [i, text] of texts.entries()) {
      const direct = await router.dispatch({ id: 'x', function: { name: 'get_time', arguments: text } });
      expect(direct.ok, text).toBe(false);
      expect(seen.get(`c${i}`), text).toBe((direct as { reason: string }).reason);
    }
    expect(log).toEqual([]);
  });

  it("checks a context given to toAiSdk against the handlers' context type (a compile error otherwise)", () => {
    const settingsFor = (handlers: Handlers<{ readonly user: string }>) => {
      const router = createRouter(generated, handlers);
      // @ts-expect-error a context of another type than the handlers take
      toAiSdk(router, { context: 42 });
      return toAiSdk(router, { context: { user: 'ada' } });
    };
    const { handlers } = recordingHandlers();
    expect(Object.keys(settingsFor(handlers as never).tools)).toContain('get_time');
  });

});
