/**
 * A model that loads a toolkit and calls one of its tools in the same step (parallel tool calls). The router's own
 * loop (`handleResponse`) runs a turn's calls in order, so the call runs after the load. Through the AI SDK:
 * `dispatcher` and `native` run it too (the call reaches `dispatch`, in call order); with `append` the AI SDK cannot run
 * it (the toolkit's tools are active from the next step), and the model is told it did not run and to call it again,
 * never "not loaded" beside the load's "loaded". Both `generateText` and `streamText` (which checks each call as it
 * arrives, after the calls before it ran).
 */
import { generateText, simulateStreamingMiddleware, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { toAiSdk, type ToAiSdkOptions } from '../../integrations/ai-sdk/index.js';
import { call, modelOf } from './ai-sdk-model.js';

/** The tool-result outputs the model read in the run, by call id. */
function seen(calls: readonly LanguageModelV3CallOptions[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const c of calls) for (const m of c.prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') out.set(p.toolCallId, p.output);
  return out;
}

const FORECAST = { type: 'json', value: { city: 'Lisbon', days: 3, forecast: 'sunny' } };
const AGAIN = 'Tool "get_forecast" did not run: its toolkit "Weather" was loaded in the same step, and a toolkit\'s tools can be called from the step after its load. Call get_forecast again.';

async function run(how: 'generateText' | 'streamText', options: ToAiSdkOptions, script: LanguageModelV3Content[][]) {
  const router = createDemoRouter();
  const { model, calls } = modelOf(script);
  const settings = toAiSdk(router, options);
  if (how === 'generateText') await generateText({ model, ...settings, prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(4) });
  else await streamText({ model: wrapLanguageModel({ model, middleware: simulateStreamingMiddleware() }), ...settings, prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(4) }).consumeStream();
  return { router, calls, results: seen(calls) };
}

const load = (id: string, toolkit_name = 'Weather') => call(id, 'load_toolkit', { toolkit_name });

describe('toAiSdk: a toolkit loaded and used in the same step', () => {
  for (const how of ['generateText', 'streamText'] as const) {
    it(`${how}: dispatcher and native run the call after the load, in call order, as handleResponse does`, async () => {
      const cases: [string, ToAiSdkOptions, string][] = [
        ['dispatcher, through call_toolkit_tool', {}, 'call_toolkit_tool'],
        ['dispatcher, by its own name', {}, 'get_forecast'],
        ['native', { toolkitLoading: 'native', target: 'anthropic' }, 'get_forecast'],
      ];
      for (const [label, options, name] of cases) {
        const input = name === 'call_toolkit_tool' ? { tool: 'get_forecast', args: { city: 'Lisbon' } } : { city: 'Lisbon' };
        const { results } = await run(how, options, [[load('l1'), call('x1', name, input)], [{ type: 'text', text: 'Sunny.' }]]);
        expect(JSON.stringify(results.get('l1')), label).toContain('Toolkit \\"Weather\\" loaded.');
        expect(results.get('x1'), label).toEqual(FORECAST);
      }
    });

    it(`${how}: append tells the model the call did not run and to call it again; called again, it runs`, async () => {
      const script: LanguageModelV3Content[][] = [[load('l1'), call('x1', 'get_forecast', { city: 'Lisbon' })], [call('x2', 'get_forecast', { city: 'Lisbon' })], [{ type: 'text', text: 'Sunny.' }]];
      const { calls, results } = await run(how, { toolkitLoading: 'append' }, script);
      expect(results.get('x1')).toEqual({ type: 'text', value: AGAIN });
      expect(JSON.stringify(calls.map((c) => c.prompt))).not.toContain('which is not loaded');
      expect(results.get('x2')).toEqual(FORECAST);
      // An error result where the target has one, with the same text.
      const anthropic = await run(how, { toolkitLoading: 'append', target: 'anthropic' }, script);
      expect(anthropic.results.get('x1')).toEqual({ type: 'error-text', value: AGAIN });
    });

    it(`${how}: a load that fails in the same step leaves the call's reason "not loaded", in every strategy`, async () => {
      const cases: ToAiSdkOptions[] = [{}, { toolkitLoading: 'append' }];
      for (const options of cases) {
        const { router, results } = await run(how, options, [[load('l1', 'Wether'), call('x1', 'get_forecast', { city: 'Lisbon' })], [{ type: 'text', text: '?' }]]);
        expect(router.getLoadedToolkits()).toEqual([]);
        expect(results.get('x1'), options.toolkitLoading ?? 'dispatcher').toEqual({ type: 'text', value: 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first, then call get_forecast again.' });
      }
    });
  }

  it('a reason, once the model has read it, stays as it was on later steps (the cached prefix does not change)', async () => {
    const script: LanguageModelV3Content[][] = [[call('x0', 'get_forecast', { city: 'Lisbon' })], [load('l1')], [call('x2', 'get_forecast', { city: 'Lisbon' })], [{ type: 'text', text: 'Sunny.' }]];
    const { calls } = await run('generateText', { toolkitLoading: 'append' }, script);
    const x0 = calls.slice(1).map((c) => JSON.stringify(seen([c]).get('x0')));
    expect(x0[0]).toContain('which is not loaded');
    expect(new Set(x0).size).toBe(1);
  });
});
