/**
 * Toolkits in `tool-search` mode (Responses, the router's `native`) when the
 * run has not loaded a toolkit the router may have: the SDK calls a deferred
 * tool only after a tool search in the run's own input has loaded it. The
 * model is told to load it with the tool search (never `load_toolkit`, which
 * is no function here, and never a list naming the tool as callable), and
 * following that reaches the tool. The scripted model runs on 127.0.0.1
 * through the SDK's OpenAI provider; the assertions read the request bodies.
 */
import { Agent, MemorySession, Runner, setTracingDisabled, type Session } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { toOpenAiAgents } from '../../integrations/openai-agents/index.js';
import { exampleRouter, generated } from '../runtime/helpers.js';
import { call, search, startScriptedOpenAi, text, type ScriptedOpenAi, type TurnItem } from './openai-agents-model.js';

setTracingDisabled(true);

type Item = Record<string, unknown>;
type Router = ReturnType<typeof exampleRouter>['router'];

const NOT_SEARCHED = 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded in this run. Load it with the tool search, {"toolkit_name":"Weather"}, then call get_forecast again.';
const FORECAST = '{"tool":"get_forecast","args":{"city":"Porto"}}';

/** One run on `model` with new settings; `extra` goes to the run options (a session, a previousResponseId). */
async function runOn(model: ScriptedOpenAi, router: Router, extra: { session?: Session; previousResponseId?: string } = {}) {
  const settings = toOpenAiAgents(router, { generated });
  expect(settings.toolkitLoading).toBe('tool-search');
  const agent = new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent });
  await new Runner({ modelProvider: model.provider, tracingDisabled: true }).run(agent, 'Weather?', { ...settings.run, maxTurns: 8, ...extra });
}

/** Every function call output the model read, by call id. */
const outputs = (model: ScriptedOpenAi) =>
  new Map(model.requests.flatMap((r) => (r.body['input'] as Item[]).flatMap((i) => (i['type'] === 'function_call_output' ? [[i['call_id'], i['output']] as const] : []))));

async function withModel(turns: readonly (readonly TurnItem[])[], body: (model: ScriptedOpenAi) => Promise<void>) {
  const model = await startScriptedOpenAi('responses', turns);
  try {
    await body(model);
  } finally {
    await model.close();
  }
}

describe('tool-search mode: a toolkit this run has not loaded', () => {
  it('continued with previousResponseId (the router has it loaded): the tool search load to make, and then the call runs', async () => {
    const { router } = exampleRouter();
    const turns = [[search('s1', { toolkit_name: 'Weather' })], [call('c1', 'get_forecast', { city: 'Lisbon' })], [text('Sunny.')]];
    await withModel([...turns, [call('c2', 'get_forecast', { city: 'Porto' })], [search('s2', { toolkit_name: 'Weather' })], [call('c3', 'get_forecast', { city: 'Porto' })], [text('Sunny too.')]], async (model) => {
      await runOn(model, router);
      expect(router.getLoadedToolkits()).toEqual(['Weather']);
      await runOn(model, router, { previousResponseId: 'resp_2' });
      const out = outputs(model);
      expect(out.get('c2')).toBe(NOT_SEARCHED);
      expect(out.get('c3')).toBe(FORECAST);
    });
  });

  it("the router's search_tools cannot load for this mode: toOpenAiAgents refuses the configuration", () => {
    const { router } = exampleRouter({ searchTools: true });
    expect(() => toOpenAiAgents(router, { generated })).toThrow(/search-tools-toolkit-loading: .*on openai-responses \(tool-search\)/);
  });

  it("building the settings is no turn: the router's snapshot is the same before and after", () => {
    const { router } = exampleRouter();
    const before = JSON.stringify(router.snapshot());
    toOpenAiAgents(router, { generated });
    expect(JSON.stringify(router.snapshot())).toBe(before);
  });

  it('load_toolkit called by name: there is no such function, the tool search loads; a name not offered lists no deferred tool', async () => {
    const { router } = exampleRouter();
    await withModel([[call('c1', 'load_toolkit', { toolkit_name: 'Weather' }), call('c2', 'read_file', { path: 'a' })], [search('s1', { toolkit_name: 'Weather' })], [call('c3', 'get_forecast', { city: 'Porto' })]], async (model) => {
      await runOn(model, router);
      const out = outputs(model);
      expect(out.get('c1')).toBe('There is no load_toolkit function in this run: a toolkit loads through the tool search, with {"toolkit_name": …} (a toolkit of <available_toolkits>). Then call its tools by name.');
      expect(out.get('c2')).toBe('Tool "read_file" is not offered in this run. Call one of: file_ops.read_file, file_ops.write_file, file_ops.delete_file, terminal.run_bash, terminal.tail_logs, get_time, tool_search.');
      expect(out.get('c3')).toBe(FORECAST);
    });
  });

  it("loaded in the session's history but not in this router (a new process): the tool search load to make, and then the call runs", async () => {
    const session = new MemorySession();
    await withModel([[search('s1', { toolkit_name: 'Weather' })], [call('c1', 'get_forecast', { city: 'Lisbon' })], [text('Sunny.')], [call('c2', 'get_forecast', { city: 'Porto' })], [search('s2', { toolkit_name: 'Weather' })], [call('c3', 'get_forecast', { city: 'Porto' })]], async (model) => {
      await runOn(model, exampleRouter().router, { session });
      const fresh = exampleRouter();
      await runOn(model, fresh.router, { session });
      const out = outputs(model);
      expect(out.get('c2')).toBe(NOT_SEARCHED);
      expect(out.get('c3')).toBe(FORECAST);
      expect(fresh.log.map((c) => c.callId)).toEqual(['c3']);
    });
  });
});
