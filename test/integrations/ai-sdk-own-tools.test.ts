/**
 * A tool of the application's own added beside the router's, the natural way: `tools: { ...settings.tools, lookup_order }`.
 * Where the strategy offers every router tool on every step (`dispatcher`, `native`), `toAiSdk` sets no `activeTools`,
 * so the AI SDK offers the added tool and runs it; a call to it that the AI SDK refuses keeps the AI SDK's own message
 * (the router knows nothing of that tool). With `append`, `activeTools` lists the router's tools of each step, and the
 * documented way to add one is to add its name in your own `prepareStep`.
 */
import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';
import { call, modelOf } from './ai-sdk-model.js';

const lookupOrder = tool({ description: 'Look up an order', inputSchema: jsonSchema<{ id?: string }>({ type: 'object', properties: { id: { type: 'string' } } }), execute: async () => 'order 42: shipped' });

/** The tool-result outputs the model read in the run, by call id. */
function seen(calls: readonly LanguageModelV3CallOptions[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const c of calls) for (const m of c.prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') out.set(p.toolCallId, p.output);
  return out;
}

const SCRIPT = [
  [call('w1', 'lookup_order', { id: '42' }), call('w2', 'lookup_order', '{"id": '), call('w3', 'get_time', {})],
  [{ type: 'text' as const, text: 'Shipped.' }],
];

describe('toAiSdk beside tools of your own', () => {
  it('dispatcher and native: a tool added to `tools` is offered on every step and runs; the AI SDK keeps its own message for it', async () => {
    const cases = { dispatcher: () => toAiSdk(createDemoRouter()), native: () => toAiSdk(createDemoRouter(), { toolkitLoading: 'native', target: 'anthropic' }) };
    for (const [label, make] of Object.entries(cases)) {
      const settings = make();
      const { model, calls } = modelOf(SCRIPT);
      // As an application writes it: this must type-check as well as run.
      await generateText({ model, ...settings, tools: { ...settings.tools, lookup_order: lookupOrder }, prompt: 'Where is order 42?', stopWhen: stepCountIs(3) });
      for (const c of calls) expect(c.tools!.map((t) => t.name), label).toEqual([...Object.keys(settings.tools), 'lookup_order']);
      const results = seen(calls);
      expect(results.get('w1'), label).toEqual({ type: 'text', value: 'order 42: shipped' });
      // Input that is not JSON, to a tool the router does not own: the AI SDK's message, not a router reason about an unknown tool.
      expect(results.get('w2'), label).toMatchObject({ type: 'error-text', value: expect.stringContaining('lookup_order') });
      expect(JSON.stringify(results.get('w2')), label).not.toMatch(/Unknown tool|not offered/);
      expect(results.get('w3'), label).toMatchObject({ type: 'text', value: expect.any(String) });
    }
  });

  it("append: your tool's name added to each step's activeTools in your prepareStep, as docs/ai-sdk.md shows", async () => {
    const settings = toAiSdk(createDemoRouter(), { toolkitLoading: 'append' });
    const { model, calls } = modelOf(SCRIPT);
    const tools: ToolSet = { ...settings.tools, lookup_order: lookupOrder };
    await generateText({
      model,
      ...settings,
      tools,
      prepareStep: (step) => {
        const prepared = settings.prepareStep(step);
        return { ...prepared, activeTools: [...prepared.activeTools, 'lookup_order'] };
      },
      prompt: 'Where is order 42?',
      stopWhen: stepCountIs(3),
    });
    for (const c of calls) expect(c.tools!.map((t) => t.name)).toEqual([...settings.activeTools, 'lookup_order']);
    expect(seen(calls).get('w1')).toEqual({ type: 'text', value: 'order 42: shipped' });
  });
});
