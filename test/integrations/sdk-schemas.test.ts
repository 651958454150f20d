/**
 * The parameters schemas the AI SDK and the OpenAI Agents SDK send for toolroute's tools, read from the request bodies
 * their real provider packages write: what `compile` sends for the same tool. A top-level `anyOf` (refused by Anthropic
 * and OpenAI for the whole request) is flattened, and with `target: 'anthropic'` a property key Anthropic refuses goes
 * under its wire name, which the router reads back when the model uses it.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';
import { toOpenAiAgents } from '../../integrations/openai-agents/index.js';
import { createRouter } from '../../runtime/index.js';
import { generated, recordingHandlers } from '../runtime/helpers.js';
import { startScriptedOpenAi, text, type ScriptedOpenAi } from './openai-agents-model.js';

setTracingDisabled(true);

/** Two ways to call it (by query or by page) as a top-level `anyOf`, and an OData-style `$top` key. */
const PAGED = {
  type: 'object',
  properties: { q: { type: 'string' }, $top: { type: 'integer' } },
  anyOf: [{ required: ['q'] }, { properties: { page: { type: 'integer' } }, required: ['page'] }],
};

function pagedRouter() {
  const seen: unknown[] = [];
  const { handlers } = recordingHandlers();
  const router = createRouter(generated, handlers).registerTools([
    { name: 'search_items', description: 'Search items', parameters: PAGED, handler: (args: unknown) => (seen.push(args), 'found 2') },
  ] as never);
  return { router, seen };
}

const compiled = (router: ReturnType<typeof pagedRouter>['router'], target: 'anthropic' | 'openai' | 'openai-responses') => {
  const payload = router.compile({ target, messages: [{ role: 'user', content: 'hi' }], tools: ['search_items'] } as never) as { tools: Record<string, unknown>[] };
  const tool = payload.tools.find((t) => (t['name'] ?? (t['function'] as { name?: string } | undefined)?.name) === 'search_items')!;
  return (tool['input_schema'] ?? tool['parameters'] ?? (tool['function'] as { parameters: unknown }).parameters) as Record<string, unknown>;
};

/** A fetch that records each request body and answers from `answers`, one per request. */
function recordingFetch(answers: readonly unknown[]) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return new Response(JSON.stringify(answers[Math.min(bodies.length, answers.length) - 1]), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { bodies, fetch };
}

const anthropicMessage = (n: number, content: unknown[], stop: string) => ({
  id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 },
});

describe('toAiSdk sends the schemas compile sends', () => {
  it('Anthropic: the flattened schema with wire names, byte for byte, and a call by wire name reaches the handler by the spec name', async () => {
    const { router, seen } = pagedRouter();
    const { bodies, fetch } = recordingFetch([
      anthropicMessage(1, [{ type: 'tool_use', id: 'c1', name: 'search_items', input: { q: 'lamps', _top: 5 } }], 'tool_use'),
      anthropicMessage(2, [{ type: 'text', text: 'Two lamps.' }], 'end_turn'),
    ]);
    const result = await generateText({
      model: createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-5'),
      ...toAiSdk(router, { target: 'anthropic', tools: ['search_items'] }),
      prompt: 'Find lamps',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Two lamps.');
    const sent = (bodies[0]!['tools'] as { name: string; input_schema: unknown }[]).find((t) => t.name === 'search_items')!.input_schema as Record<string, unknown>;
    expect(JSON.stringify(sent)).toBe(JSON.stringify(compiled(router, 'anthropic')));
    expect(sent).not.toHaveProperty('anyOf');
    expect(Object.keys(sent['properties'] as object)).toEqual(['q', '_top', 'page']);
    expect(seen).toEqual([{ q: 'lamps', $top: 5 }]);
  });

  it('OpenAI Chat without a target: no top-level combinator, every branch property offered', async () => {
    const { router } = pagedRouter();
    const { bodies, fetch } = recordingFetch([
      { id: 'c1', object: 'chat.completion', created: 0, model: 'gpt-5', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    ]);
    await generateText({ model: createOpenAI({ apiKey: 'test-key', fetch }).chat('gpt-5'), ...toAiSdk(router, { tools: ['search_items'] }), prompt: 'Find lamps' });
    const sent = (bodies[0]!['tools'] as { function: { name: string; parameters: Record<string, unknown> } }[]).find((t) => t.function.name === 'search_items')!.function.parameters;
    expect(sent).not.toHaveProperty('anyOf');
    expect(sent['properties']).toEqual(compiled(router, 'openai')['properties']);
    expect(sent['properties']).toEqual({ q: { type: 'string' }, $top: { type: 'integer' }, page: { type: 'integer' } });
  });
});

describe('toOpenAiAgents sends the schemas compile sends', () => {
  let model: ScriptedOpenAi | undefined;
  afterAll(() => model?.close());

  it('Responses: no top-level combinator, the properties compile offers', async () => {
    const { router } = pagedRouter();
    model = await startScriptedOpenAi('responses', [[text('ok')]]);
    const settings = toOpenAiAgents(router, { generated, tools: ['search_items'] });
    await new Runner({ modelProvider: model.provider, tracingDisabled: true }).run(new Agent({ name: 'a', model: 'gpt-test', ...settings.agent }), 'Find lamps', { ...settings.run });
    const sent = (model.requests[0]!.body['tools'] as { name?: string; parameters: Record<string, unknown> }[]).find((t) => t.name === 'search_items')!.parameters;
    expect(sent).not.toHaveProperty('anyOf');
    expect(sent['properties']).toEqual(compiled(router, 'openai-responses')['properties']);
    expect(sent['properties']).toEqual({ q: { type: 'string' }, $top: { type: 'integer' }, page: { type: 'integer' } });
  });
});
