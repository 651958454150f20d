/**
 * toolroute as a new user meets it beside the OpenAI Agents SDK: the packed
 * tarball installed into a fresh app outside the repo with plain `npm install`
 * together with the `@openai/agents` version installed here (./fresh-app.ts).
 * The app type-checks against the installed declarations and runs, on this
 * process's Node, the SDK's own `Runner` with `toolroute/openai-agents` once
 * per OpenAI API, each against a scripted model on 127.0.0.1: on Responses a
 * toolkit tool called before its load, a blocked call, the load through the
 * client tool search and the loaded tool's call; on Chat Completions the same
 * through `load_toolkit` and `call_toolkit_tool`; a standing announcement on
 * both. The test reads the requests as the SDK sent them.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_PRELUDE, freshApp, installed, packToolroute } from './fresh-app.js';
import { call, search, startScriptedOpenAi, text, type ScriptedOpenAi } from './openai-agents-model.js';

const AGENTS = installed('@openai/agents');

const APP = `import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { toOpenAiAgents } from 'toolroute/openai-agents';
import { createRouter } from 'toolroute/runtime';
import * as generated from './generated/index.js';
import type { Handlers } from './generated/index.js';

${APP_PRELUDE}

const out = [];
for (const api of ['responses', 'chat'] as const) {
  const router = createRouter(generated, handlers);
  router.setBlockedTools(['delete_file']);
  router.announce('env', 'The working directory is /srv/app.');
  const toolroute = toOpenAiAgents(router, { api, generated, instructions: 'You are careful.' });
  const agent = new Agent({ name: 'assistant', model: 'gpt-test', ...toolroute.agent });
  const modelProvider = new OpenAIProvider({ apiKey: 'test', baseURL: process.env[api === 'responses' ? 'RESPONSES_URL' : 'CHAT_URL'], useResponses: api === 'responses' });
  const result = await new Runner({ modelProvider, tracingDisabled: true }).run(agent, 'Weather in Lisbon for two days?', { ...toolroute.run, maxTurns: 6 });
  out.push({ api, text: result.finalOutput, toolkitLoading: toolroute.toolkitLoading, loaded: router.getLoadedToolkits() });
}
process.stdout.write(JSON.stringify(out));
`;

let base = '';
let tarball = '';
let responses: ScriptedOpenAi;
let chat: ScriptedOpenAi;

beforeAll(async () => {
  ({ base, tarball } = packToolroute('toolroute-openai-agents-app-'));
  responses = await startScriptedOpenAi('responses', [
    [call('r1', 'get_forecast', { city: 'Lisbon' }), call('r2', 'delete_file', { path: 'plan.md' }, 'file_ops')],
    [search('r3', { toolkit_name: 'Weather' })],
    [call('r4', 'get_forecast', { city: 'Lisbon', days: 2 })],
    [text('Sunny in Lisbon.')],
  ]);
  chat = await startScriptedOpenAi('chat', [
    [
      call('c1', 'call_toolkit_tool', { tool: 'get_forecast', args: { city: 'Lisbon' } }),
      call('c2', 'file_ops', { action: 'delete_file', args: { path: 'plan.md' } }),
      call('c3', 'load_toolkit', { toolkit_name: 'Weather' }),
    ],
    [call('c4', 'call_toolkit_tool', { tool: 'get_forecast', args: { city: 'Lisbon', days: 2 } })],
    [text('Sunny in Lisbon.')],
  ]);
}, 300_000);
afterAll(async () => {
  await responses?.close();
  await chat?.close();
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

type Item = Record<string, unknown>;
/** What the model read for each call, by call id: Responses function call outputs or Chat tool messages. */
function outputs(body: Item): Map<unknown, unknown> {
  const items = (body['input'] ?? body['messages']) as Item[];
  return new Map(items.flatMap((i) => (i['type'] === 'function_call_output' ? [[i['call_id'], i['output']]] : i['role'] === 'tool' ? [[i['tool_call_id'], i['content']]] : [])));
}

describe(`a fresh app with the packed tarball and ${AGENTS}, on Node ${process.versions.node}`, () => {
  it('installs with plain npm install, type-checks, and runs the SDK Runner on Responses and Chat: a refused call, a blocked call, a load, the loaded tool, the announcement', async () => {
    const app = await freshApp(base, tarball, [AGENTS], APP);
    expect(Object.keys(app.dependencies).sort()).toEqual(['@openai/agents', 'toolroute']);
    expect(app.problems).toEqual([]);
    expect(app.tsc.stdout + app.tsc.stderr).toBe('');
    expect(app.tsc.code).toBe(0);

    const run = await app.run({ RESPONSES_URL: responses.url, CHAT_URL: chat.url });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      { api: 'responses', text: 'Sunny in Lisbon.', toolkitLoading: 'tool-search', loaded: ['Weather'] },
      { api: 'chat', text: 'Sunny in Lisbon.', toolkitLoading: 'dispatcher', loaded: ['Weather'] },
    ]);

    const notLoaded = 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first, then call get_forecast again.';
    // On Responses the loader is the tool search.
    const notSearched = 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded in this run. Load it with the tool search, {"toolkit_name":"Weather"}, then call get_forecast again.';
    const blocked = 'Tool "delete_file" is currently blocked.';
    const forecast = '{"city":"Lisbon","days":2,"forecast":"sunny"}';
    const r = responses.requests.map((q) => q.body);
    const c = chat.requests.map((q) => q.body);
    expect([responses.requests.every((q) => q.path === '/v1/responses'), chat.requests.every((q) => q.path === '/v1/chat/completions')]).toEqual([true, true]);
    expect([r.length, c.length]).toEqual([4, 3]);

    // Responses: the refusals as toolroute wrote them; the load answered with the toolkit's tools; the loaded tool's result.
    expect(Object.fromEntries(outputs(r[1]!))).toEqual({ r1: notSearched, r2: blocked });
    const load = (r[2]!['input'] as Item[]).find((i) => i['type'] === 'tool_search_output' && i['call_id'] === 'r3');
    expect((load?.['tools'] as Item[]).map((t) => t['name'])).toEqual(['get_forecast', 'get_current_weather']);
    expect(outputs(r[3]!).get('r4')).toBe(forecast);

    // Chat: the same through load_toolkit and call_toolkit_tool.
    expect(Object.fromEntries(outputs(c[1]!))).toEqual({ c1: notLoaded, c2: blocked, c3: expect.stringMatching(/^Toolkit "Weather" loaded\./) });
    expect(outputs(c[2]!).get('c4')).toBe(forecast);

    // Every request: the instructions with the directory, the same tools, and the announcement once, last.
    for (const bodies of [r, c]) {
      for (const body of bodies) {
        const instructions = body['instructions'] ?? (body['messages'] as Item[])[0]!['content'];
        expect(instructions).toMatch(/^You are careful\.\n\n<available_toolkits>/);
        expect(JSON.stringify(body['tools'])).toBe(JSON.stringify(bodies[0]!['tools']));
        expect(JSON.stringify(body).split('The working directory is /srv/app.')).toHaveLength(2);
        expect(JSON.stringify(((body['input'] ?? body['messages']) as Item[]).at(-1))).toContain('The working directory is /srv/app.');
      }
    }
  }, 300_000);
});
