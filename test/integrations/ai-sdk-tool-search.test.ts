/**
 * `toolrouteSearch(generated)` as AI SDK 7's `toolSearch` custom search callback. On AI SDK 7 (the Node 24 leg) a
 * `generateText` run with the AI SDK's mock model calls the real `toolSearch` tool with our callback and with its
 * default matcher side by side: ours ranks by the spec's index (plural forms, argument enum values), and the tools it
 * finds become callable on the next step. AI SDK 6 has no `toolSearch`: there the callback is called as AI SDK 7
 * calls it, with the same expectations on its ranking.
 */
import { createRequire } from 'node:module';
import * as ai from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { toolrouteSearch } from '../../integrations/ai-sdk/index.js';
import { generated } from '../runtime/helpers.js';

const AI_MAJOR = Number((createRequire(import.meta.url)('ai/package.json') as { version: string }).version.split('.')[0]);
const QUERY = 'show me the forecasts in imperial units';
const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
/** The example's toolkit tools, as deferred AI SDK tools would describe them. */
const DEFERRED = generated.spec.toolkits.flatMap((k) => k.tools.map((i) => generated.spec.tools[i]!)).map((t) => ({ name: t.name, description: t.description }));

type ToolSearchFactory = (options?: { search?: ReturnType<typeof toolrouteSearch>; maxResults?: number }) => ai.Tool;

/** One `generateText` run whose model searches with `query`, then ends: the search output and the next step's tool names. */
async function searchRun(search: ai.Tool, query: string) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      return calls.length === 1
        ? { content: [{ type: 'tool-call', toolCallId: 's1', toolName: 'search', input: JSON.stringify({ query }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage: USAGE, warnings: [] }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
  const tools: Record<string, ai.Tool> = { search };
  for (const t of DEFERRED) tools[t.name] = { ...ai.tool({ description: t.description, inputSchema: ai.jsonSchema({ type: 'object' }), execute: async () => 'ok' }), ...{ deferLoading: true } } as ai.Tool;
  const result = await ai.generateText({ model, tools, prompt: query, stopWhen: ai.stepCountIs(2) });
  const output = result.steps[0]!.toolResults[0]!.output as { tools: { name: string }[] };
  return { found: output.tools.map((t) => t.name), nextStepTools: (calls[1]?.tools ?? []).map((t) => t.name) };
}

describe('toolrouteSearch: AI SDK 7 toolSearch with toolroute ranking', () => {
  it(`ranks the deferred tools by the spec's index (AI SDK ${AI_MAJOR})`, async () => {
    const toolSearch = (ai as unknown as { toolSearch?: ToolSearchFactory }).toolSearch;
    if (AI_MAJOR >= 7) {
      expect(typeof toolSearch).toBe('function');
      const ours = await searchRun(toolSearch!({ search: toolrouteSearch(generated), maxResults: 2 }), QUERY);
      expect(ours.found[0]).toBe('get_forecast');
      expect(ours.found.length).toBeLessThanOrEqual(2);
      expect(ours.nextStepTools).toEqual(expect.arrayContaining(['search', 'get_forecast']));
      expect(ours.nextStepTools).not.toContain('run_query');
      // The default matcher, same tools and query: "forecasts" is not the word "forecast", "show" is in describe_table's description.
      const theirs = await searchRun(toolSearch!({ maxResults: 2 }), QUERY);
      expect(theirs.found).toEqual(['describe_table']);
    } else {
      expect(toolSearch).toBeUndefined();
      const search = toolrouteSearch(generated);
      expect((await search({ query: QUERY, tools: DEFERRED }))[0]).toBe('get_forecast');
    }
  });

  it('ranks only the tools it is given, spec tools with their groups; indexes a tool the spec does not know; refuses a module without a loader', async () => {
    const search = toolrouteSearch(generated);
    expect(await search({ query: 'weather forecast', tools: DEFERRED.filter((t) => t.name !== 'get_forecast') })).toEqual(['get_current_weather']);
    expect(await search({ query: 'convert currency', tools: [...DEFERRED, { name: 'convertCurrency', description: 'Exchange rates' }] })).toEqual(['convertCurrency']);
    expect(await search({ query: 'anything', tools: [] })).toEqual([]);
    // "APIs" is only in the Weather toolkit's description: spec tools are indexed with their groups' words.
    expect((await search({ query: 'APIs', tools: DEFERRED })).sort()).toEqual(['get_current_weather', 'get_forecast']);
    expect(() => toolrouteSearch({ spec: generated.spec } as never)).toThrow(/loadSearch; regenerate/);
  });
});
