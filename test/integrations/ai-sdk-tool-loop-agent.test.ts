/**
 * `toAiSdk`'s settings spread into the AI SDK's agent class, `new ToolLoopAgent({ model, ...settings })`, on AI SDK 6
 * and 7: the agent reads the system prompt as `instructions` (on 6 as well, where `generateText` reads `system`), so
 * the prompt and the toolkit directory reach the model, with `generate` and `stream`; the rest of the settings work
 * through it too (a refused call gets the router's reason). And `generateText` sends that prompt exactly once.
 */
import { generateText, simulateStreamingMiddleware, stepCountIs, ToolLoopAgent, wrapLanguageModel } from 'ai';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';
import { call, modelOf } from './ai-sdk-model.js';

const SYSTEM = 'You are a careful assistant.';

/** The system messages of a request, as text. */
const systemOf = (request: LanguageModelV3CallOptions): string[] => request.prompt.flatMap((m) => (m.role === 'system' ? [m.content] : []));

/** The output of the tool result answering `id` in a request. */
function resultIn(request: LanguageModelV3CallOptions, id: string): unknown {
  for (const m of request.prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result' && p.toolCallId === id) return p.output;
  return undefined;
}

describe('toAiSdk with ToolLoopAgent', () => {
  for (const how of ['generate', 'stream'] as const) {
    it(`${how}: the system prompt and the toolkit directory reach the model; a refused call gets the router's reason`, async () => {
      const router = createDemoRouter();
      router.retractAnnouncement('env');
      const { model, calls } = modelOf([[call('a1', 'get_forecast', { city: 'Lisbon' })], [{ type: 'text', text: 'Load it first.' }]]);
      const agent = new ToolLoopAgent({
        model: how === 'generate' ? model : wrapLanguageModel({ model, middleware: simulateStreamingMiddleware() }),
        ...toAiSdk(router, { system: SYSTEM }),
        stopWhen: stepCountIs(3),
      });
      if (how === 'generate') await agent.generate({ prompt: 'Weather in Lisbon?' });
      else await (await agent.stream({ prompt: 'Weather in Lisbon?' })).consumeStream();
      expect(calls).toHaveLength(2);
      for (const request of calls) {
        expect(systemOf(request)).toHaveLength(1);
        expect(systemOf(request)[0]).toMatch(/^You are a careful assistant\.\n\n<available_toolkits>\n {2}<toolkit name="Weather"/);
      }
      expect(resultIn(calls[1]!, 'a1')).toEqual({ type: 'text', value: expect.stringContaining('Call load_toolkit with {"toolkit_name":"Weather"} first') });
    });
  }

  it('generateText sends the system prompt once, whatever names the settings carry it under', async () => {
    const { model, calls } = modelOf([[{ type: 'text', text: 'Hi.' }]]);
    await generateText({ model, ...toAiSdk(createDemoRouter(), { system: SYSTEM }), prompt: 'Hello', stopWhen: stepCountIs(2) });
    expect(systemOf(calls[0]!)).toEqual([expect.stringMatching(/^You are a careful assistant\.\n\n<available_toolkits>/)]);
  });
});
