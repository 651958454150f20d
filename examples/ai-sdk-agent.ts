/**
 * The example router as the tools of a Vercel AI SDK agent (`generateText`
 * with `stopWhen`), driven by the AI SDK's own mock model so it runs without
 * a network or a key. With a real provider only the `model` line changes:
 *
 *   import { openai } from '@ai-sdk/openai';
 *   const result = await generateText({ model: openai('gpt-5'), ...toAiSdk(router, { system }), prompt, stopWhen: stepCountIs(8) });
 *
 * The scripted model writes a file, calls a tool that does not exist, calls a
 * toolkit tool before loading it, loads the toolkit and calls it again; each
 * mistake comes back with toolroute's reason. With the default toolkit-loading
 * strategy (`dispatcher`) the loaded tool is called through `call_toolkit_tool`
 * and the tool list the model is sent never changes, so the provider's prompt
 * cache keeps the system prompt and the conversation; `--append` runs the old
 * strategy, where the toolkit's tools join the list after the load (and the
 * cache behind the tools is lost once). It prints each step's tools and
 * results. Run it: `npx tsx examples/ai-sdk-agent.ts [--append]`.
 * test/integrations/examples.test.ts runs `runAiSdkAgent()` and checks what it returns.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { toAiSdk, type AiSdkToolkitLoading } from 'toolroute/ai-sdk';
import { createDemoRouter } from './mcp-server.js';

const call = (toolCallId: string, toolName: string, input: unknown): LanguageModelV3Content => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) });

/** What the scripted model answers on each step; a loaded tool is called the way the strategy offers it. */
function script(toolkitLoading: AiSdkToolkitLoading): LanguageModelV3Content[][] {
  const forecast = { city: 'Lisbon', days: 2 };
  return [
    [call('1', 'file_ops', { action: 'write_file', args: { path: 'plan.md', content: 'check the weather' } }), call('2', 'weather_lookup', { city: 'Lisbon' })],
    [call('3', 'get_forecast', { city: 'Lisbon' })],
    [call('4', 'load_toolkit', { toolkit_name: 'Weather' })],
    [toolkitLoading === 'append' ? call('5', 'get_forecast', forecast) : call('5', 'call_toolkit_tool', { tool: 'get_forecast', args: forecast })],
    [{ type: 'text', text: 'Lisbon: sunny for the next two days.' }],
  ];
}

export interface AiSdkStep {
  /** Tool names the model was offered on this step, in order. */
  readonly tools: readonly string[];
  /** The results of the previous step's calls, as the model read them. */
  readonly results: readonly { readonly id: string; readonly type: string; readonly value: string }[];
}

/**
 * Runs the scripted agent and returns, per step, the offered tools and the
 * results the model read, and whether the tools sent were byte-identical on
 * every step (what the prompt cache needs).
 */
export async function runAiSdkAgent(toolkitLoading: AiSdkToolkitLoading = 'dispatcher'): Promise<{ text: string; steps: AiSdkStep[]; toolsIdentical: boolean }> {
  const router = createDemoRouter();
  const STEPS = script(toolkitLoading);
  const requests: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      requests.push(options);
      const content = STEPS[requests.length - 1] ?? [];
      return {
        content,
        finishReason: { unified: content.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined },
        usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  const result = await generateText({
    model,
    ...toAiSdk(router, { system: 'You are a helpful assistant with file and weather tools.', toolkitLoading }),
    prompt: 'Plan a walk in Lisbon.',
    stopWhen: stepCountIs(8),
  });
  const steps = requests.map((r): AiSdkStep => {
    const last = [...r.prompt].reverse().find((m) => m.role === 'tool');
    const results =
      last?.role === 'tool'
        ? last.content.flatMap((p) => (p.type === 'tool-result' ? [{ id: p.toolCallId, type: p.output.type, value: 'value' in p.output ? (typeof p.output.value === 'string' ? p.output.value : JSON.stringify(p.output.value)) : '' }] : []))
        : [];
    return { tools: (r.tools ?? []).map((t) => t.name), results };
  });
  const toolsIdentical = requests.every((r) => JSON.stringify(r.tools) === JSON.stringify(requests[0]!.tools));
  return { text: result.text, steps, toolsIdentical };
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  const { text, steps, toolsIdentical } = await runAiSdkAgent(process.argv.includes('--append') ? 'append' : 'dispatcher');
  for (const [i, step] of steps.entries()) {
    console.log(`step ${i}: tools ${step.tools.join(', ')}`);
    for (const r of step.results) console.log(`  result ${r.id} (${r.type}): ${r.value.split('\n')[0]}`);
  }
  console.log(`final: ${text}`);
  console.log(`tools identical on every step: ${toolsIdentical ? 'yes (the cached prefix holds)' : 'no (each change re-processes the system prompt and the conversation)'}`);
}
