/**
 * toolroute as a new user meets it beside the AI SDK: the package as
 * `npm pack` makes it, installed into a fresh app outside the repo with plain
 * `npm install` together with the `ai`, `@ai-sdk/anthropic` and
 * `@ai-sdk/openai` versions installed here (AI SDK 6 with the 3.x provider
 * packages from the lock file; AI SDK 7 with the 4.x ones in the Node 24 leg,
 * `.ci/node24.sh`). The app type-checks against the installed declarations
 * and runs, on this process's Node, a `generateText` loop per provider package
 * against a local fake model server on 127.0.0.1: a call refused before its
 * toolkit is loaded, the toolkit's load, the loaded tool's call and a
 * standing announcement. The test reads the requests as the provider packages
 * sent them. The packing, install and type check: ./fresh-app.ts.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../conversation/mock-provider.js';
import { APP_PRELUDE, freshApp, installed, packToolroute } from './fresh-app.js';

/** The app gets the versions installed in the repo. */
const AI_SDK = ['ai', '@ai-sdk/anthropic', '@ai-sdk/openai'].map(installed);

/** What the fake model does, per provider package: the same three steps in each one's wire format. */
type Step = { readonly calls: readonly { id: string; name: string; input: unknown }[] } | { readonly text: string };
const STEPS: Record<'anthropic' | 'openai', Step[]> = {
  // Anthropic with toolkitLoading 'native': the toolkit's tools are sent deferred and called by name.
  anthropic: [
    { calls: [{ id: 'a1', name: 'get_forecast', input: { city: 'Lisbon' } }, { id: 'a2', name: 'load_toolkit', input: { toolkit_name: 'Weather' } }] },
    { calls: [{ id: 'a3', name: 'get_forecast', input: { city: 'Lisbon', days: 2 } }] },
    { text: 'Sunny in Lisbon.' },
  ],
  // OpenAI Chat with the dispatcher: a loaded tool is called through call_toolkit_tool.
  openai: [
    { calls: [{ id: 'o1', name: 'call_toolkit_tool', input: { tool: 'get_forecast', args: { city: 'Lisbon' } } }, { id: 'o2', name: 'load_toolkit', input: { toolkit_name: 'Weather' } }] },
    { calls: [{ id: 'o3', name: 'call_toolkit_tool', input: { tool: 'get_forecast', args: { city: 'Lisbon', days: 2 } } }] },
    { text: 'Sunny in Lisbon.' },
  ],
};

function answer(provider: 'anthropic' | 'openai', step: Step, n: number): unknown {
  if (provider === 'anthropic') {
    const content = 'text' in step ? [{ type: 'text', text: step.text }] : step.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }));
    return { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: 'text' in step ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
  }
  const message =
    'text' in step
      ? { role: 'assistant', content: step.text }
      : { role: 'assistant', content: null, tool_calls: step.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) };
  return { id: `chatcmpl_${n}`, object: 'chat.completion', created: 0, model: 'gpt-test', choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
}

const APP = `import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { toAiSdk } from 'toolroute/ai-sdk';
import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';
import type { Handlers } from './generated/index.js';

${APP_PRELUDE}

const url = process.env['MODEL_URL'];
const out = [];
for (const provider of ['anthropic', 'openai'] as const) {
  const router = createRouter(generated, handlers);
  router.announce('env', 'The working directory is /srv/app.');
  const model =
    provider === 'anthropic'
      ? createAnthropic({ apiKey: 'test', baseURL: \`\${url}/anthropic/v1\` })('claude-sonnet-4-5')
      : createOpenAI({ apiKey: 'test', baseURL: \`\${url}/openai/v1\` }).chat('gpt-test');
  const settings = toAiSdk(router, { system: 'You are careful.', target: provider, toolkitLoading: provider === 'anthropic' ? 'native' : 'dispatcher' });
  const result = await generateText({ model, ...settings, prompt: 'Weather in Lisbon for two days?', stopWhen: stepCountIs(6), maxOutputTokens: 1024, maxRetries: 0 });
  out.push({ provider, text: result.text, steps: result.steps.length, loaded: router.getLoadedToolkits() });
}
process.stdout.write(JSON.stringify(out));
`;

let base = '';
let tarball = '';
let server: MockProvider;

beforeAll(async () => {
  ({ base, tarball } = packToolroute('toolroute-ai-sdk-app-'));
  const served = { anthropic: 0, openai: 0 };
  server = await startMockProvider((_body, _index, urlPath) => {
    const provider = urlPath.startsWith('/anthropic/') ? 'anthropic' : 'openai';
    const n = served[provider]++;
    return answer(provider, STEPS[provider][n] ?? { text: 'no more' }, n);
  });
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe(`a fresh app with the packed tarball and ${AI_SDK.join(' ')}, on Node ${process.versions.node}`, () => {
  it('installs with plain npm install, type-checks, and runs a generateText loop per provider package: a refused call, a load, the loaded tool, the announcement', async () => {
    const app = await freshApp(base, tarball, AI_SDK, APP);
    expect(Object.keys(app.dependencies).sort()).toEqual(['@ai-sdk/anthropic', '@ai-sdk/openai', 'ai', 'toolroute']);
    expect(app.problems).toEqual([]);
    expect(app.tsc.stdout + app.tsc.stderr).toBe('');
    expect(app.tsc.code).toBe(0);

    const { stdout, stderr } = await app.run({ MODEL_URL: server.url });
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual([
      { provider: 'anthropic', text: 'Sunny in Lisbon.', steps: 3, loaded: ['Weather'] },
      { provider: 'openai', text: 'Sunny in Lisbon.', steps: 3, loaded: ['Weather'] },
    ]);

    const notLoaded = 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first, then call get_forecast again.';
    const anthropic = server.requests.filter((r) => r.path === '/anthropic/v1/messages').map((r) => r.body);
    const openai = server.requests.filter((r) => r.path === '/openai/v1/chat/completions').map((r) => r.body);
    expect([anthropic.length, openai.length]).toEqual([3, 3]);

    // Anthropic: the toolkit's tools deferred; the refusal an error result with toolroute's text; the load answered with tool references.
    const results = (body: Record<string, unknown>) =>
      (body['messages'] as { content: unknown }[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[]) : [])).filter((b) => b.type === 'tool_result');
    expect((anthropic[0]!['tools'] as { name: string; defer_loading?: boolean }[]).filter((t) => t.defer_loading === true).map((t) => t.name)).toEqual(['get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
    const [refused, load, forecast] = results(anthropic[2]!);
    expect(refused).toMatchObject({ tool_use_id: 'a1', content: notLoaded, is_error: true });
    expect(load).toMatchObject({ tool_use_id: 'a2', content: [{ type: 'text', text: expect.stringMatching(/^Toolkit "Weather" loaded\./) }, { type: 'tool_reference', tool_name: 'get_forecast' }, { type: 'tool_reference', tool_name: 'get_current_weather' }] });
    expect(forecast).toMatchObject({ tool_use_id: 'a3', content: '{"city":"Lisbon","days":2,"forecast":"sunny"}' });

    // OpenAI Chat: the refusal is the tool message's text, as toolroute wrote it.
    const tools = (openai[2]!['messages'] as { role: string; tool_call_id?: string; content?: unknown }[]).filter((m) => m.role === 'tool');
    expect(tools.map((m) => [m.tool_call_id, m.content])).toEqual([
      ['o1', notLoaded],
      ['o2', expect.stringMatching(/^Toolkit "Weather" loaded\./)],
      ['o3', '{"city":"Lisbon","days":2,"forecast":"sunny"}'],
    ]);

    // Every request: the system prompt with the directory, the same tools, and the announcement once, at the end.
    for (const [bodies, system] of [[anthropic, (b: Record<string, unknown>) => JSON.stringify(b['system'])], [openai, (b: Record<string, unknown>) => JSON.stringify((b['messages'] as unknown[])[0])]] as const) {
      for (const body of bodies) {
        expect(system(body)).toMatch(/You are careful\.\\n\\n<available_toolkits>/);
        expect(JSON.stringify(body['tools'])).toBe(JSON.stringify(bodies[0]!['tools']));
        expect(JSON.stringify(body).split('The working directory is /srv/app.').length - 1).toBe(1);
        expect(JSON.stringify((body['messages'] as unknown[]).at(-1))).toContain('The working directory is /srv/app.');
      }
    }
  }, 300_000);
});
