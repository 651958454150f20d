/**
 * `toOpenAiAgents` under the Agents SDK's own `Runner`, against a scripted
 * model on 127.0.0.1 reached through the SDK's OpenAI provider (Responses
 * API): namespace calls as `toolNamespace` members, an invalid call, a
 * malformed one, a blocked one, an unknown tool, a toolkit tool before its
 * load, a blocked toolkit load and a toolkit load through the client tool
 * search, then the loaded tool's call. Every assertion reads the request
 * bodies the SDK sent — what the model receives.
 */
import { Agent, RunContext, Runner, setTracingDisabled, type FunctionTool, type Tool } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createRouter, type HandlerContext } from '../../runtime/index.js';
import * as generated from '../../generated/index.js';
import type { Handlers, ToolName } from '../../generated/index.js';
import { toOpenAiAgents, type OpenAiAgentsSettings } from '../../integrations/openai-agents/index.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { call, search, startScriptedOpenAi, text, type ScriptedOpenAi } from './openai-agents-model.js';

setTracingDisabled(true);

interface Ctx {
  readonly user: string;
}

/** A router over the example spec whose handlers record the context they get; `delete_file` and `Database` blocked. */
function contextRouter() {
  const seen: { tool: ToolName; context: Ctx }[] = [];
  const handler =
    (tool: ToolName) =>
    (args: unknown, ctx: HandlerContext<Ctx>): unknown => {
      seen.push({ tool, context: ctx.context });
      return tool === 'get_forecast' ? { ...(args as object), forecast: 'sunny' } : { tool, ok: true };
    };
  const handlers = {
    read_file: handler('read_file'),
    run_bash: handler('run_bash'),
    get_time: handler('get_time'),
    write_file: handler('write_file'),
    delete_file: handler('delete_file'),
    tail_logs: handler('tail_logs'),
    get_forecast: handler('get_forecast'),
    get_current_weather: handler('get_current_weather'),
    run_query: handler('run_query'),
    describe_table: handler('describe_table'),
  } satisfies Handlers<Ctx>;
  const router = createRouter(generated, handlers);
  router.setBlockedTools(['delete_file', 'Database']);
  router.announce('env', 'Files live in memory.');
  return { router, seen };
}

const SCRIPT = [
  [call('c1', 'write_file', { path: 'plan.md', content: 'walk' }, 'file_ops'), call('c2', 'write_file', { path: 'plan.md' }, 'file_ops'), call('c3', 'write_file', '{"path":', 'file_ops')],
  [call('c4', 'delete_file', { path: 'plan.md' }, 'file_ops'), call('c5', 'get_forecast', { city: 'Lisbon' }), call('c6', 'read_fil', { path: 'plan.md' })],
  [search('s1', { toolkit_name: 'Database' })],
  [search('s2', { toolkit_name: 'weather' })],
  [call('c7', 'get_forecast', { city: 'Lisbon', days: 2 })],
  [text('Lisbon: sunny for two days.')],
];

type Item = Record<string, unknown>;
const input = (body: Item) => body['input'] as Item[];
/** The function call outputs of a request, by call id. */
const outputs = (body: Item) => new Map(input(body).flatMap((i) => (i['type'] === 'function_call_output' ? [[i['call_id'], i['output']] as const] : [])));

describe('toOpenAiAgents on the Responses API, run by the SDK Runner', () => {
  let model: ScriptedOpenAi;
  let bodies: Item[];
  let finalOutput: unknown;
  const { router, seen } = contextRouter();
  // The reasons as the router writes them, from a second router in the same state.
  const reference = contextRouter().router;
  let settings: OpenAiAgentsSettings<Ctx>;
  const reasonOf = async (call: object) => ((await reference.dispatch(call, { context: { user: 'reference' } })) as { reason?: string }).reason;

  beforeAll(async () => {
    model = await startScriptedOpenAi('responses', SCRIPT);
    settings = toOpenAiAgents(router, { generated, instructions: 'Be brief.' });
    const agent = new Agent<Ctx>({ name: 'assistant', model: 'gpt-test', ...settings.agent });
    const runner = new Runner({ modelProvider: model.provider, tracingDisabled: true });
    const result = await runner.run(agent, 'Plan a walk in Lisbon.', { ...settings.run, context: { user: 'ana' }, maxTurns: 10 });
    finalOutput = result.finalOutput;
    bodies = model.requests.map((r) => r.body);
  });
  afterAll(() => model.close());

  it('handlers are typed with the router context, and the tools with it', () => {
    expectTypeOf(settings).toEqualTypeOf<OpenAiAgentsSettings<Ctx>>();
    expectTypeOf(settings.agent.tools).toEqualTypeOf<Tool<Ctx>[]>();
    expect(settings.toolkitLoading).toBe('tool-search');
  });

  it('runs the whole script: six requests, the final text', () => {
    expect(bodies).toHaveLength(6);
    expect(finalOutput).toBe('Lisbon: sunny for two days.');
  });

  it('sends the same tools on every request: namespaces as groups, the loader as a client tool search, toolkit tools deferred', () => {
    const tools = bodies[0]!['tools'] as Item[];
    for (const body of bodies) expect(JSON.stringify(body['tools'])).toBe(JSON.stringify(tools));
    expect(tools.map((t) => `${String(t['type'])}:${String(t['name'] ?? '')}`)).toEqual([
      'namespace:file_ops',
      'namespace:terminal',
      'function:get_time',
      'tool_search:',
      'function:get_forecast',
      'function:get_current_weather',
      'function:run_query',
      'function:describe_table',
    ]);
    const fileOps = tools[0] as { description: string; tools: Item[] };
    expect(fileOps.description).toBe('File system operations');
    expect(fileOps.tools.map((t) => t['name'])).toEqual(['read_file', 'write_file', 'delete_file']);
    expect(fileOps.tools[1]!['parameters']).toEqual((generated.spec.rendered.neutral.tools[3] as Item)['parameters']);
    const loader = tools[3]!;
    expect(loader['execution']).toBe('client');
    expect((loader['parameters'] as { properties: { toolkit_name: { enum: string[] } } }).properties.toolkit_name.enum).toEqual(['Weather', 'Database']);
    expect(tools.slice(4).every((t) => t['defer_loading'] === true)).toBe(true);
  });

  it('instructions carry the toolkit directory; each request ends with the announcement, once', () => {
    for (const body of bodies) {
      expect(body['instructions']).toBe(`Be brief.\n\n${generated.directoryXml}`);
      const items = input(body);
      expect(items.filter((i) => JSON.stringify(i).includes('<announcements>'))).toHaveLength(1);
      expect(String(items.at(-1)!['content'])).toContain('Files live in memory.');
    }
  });

  it('a namespace call runs the handler with the run context; its result is the output text', () => {
    expect(outputs(bodies[1]!).get('c1')).toBe('{"tool":"write_file","ok":true}');
    expect(input(bodies[1]!).find((i) => i['call_id'] === 'c1' && i['type'] === 'function_call')).toMatchObject({ name: 'write_file', namespace: 'file_ops' });
    expect(seen).toEqual([
      { tool: 'write_file', context: { user: 'ana' } },
      { tool: 'get_forecast', context: { user: 'ana' } },
    ]);
  });

  it('invalid and malformed arguments: the model reads the router reason verbatim', async () => {
    const out = outputs(bodies[1]!);
    const invalid = await reasonOf({ call_id: 'c2', name: 'write_file', namespace: 'file_ops', arguments: '{"path":"plan.md"}' });
    expect(invalid).toContain('/content: missing');
    expect(out.get('c2')).toBe(invalid);
    const malformed = await reasonOf({ call_id: 'c3', name: 'write_file', namespace: 'file_ops', arguments: '{"path":' });
    expect(out.get('c3')).toBe(malformed);
    expect(malformed).toContain('not valid JSON');
  });

  it('a blocked call and an unknown tool get the router reasons; a toolkit tool before its load, the tool search load to make', async () => {
    const out = outputs(bodies[2]!);
    expect(out.get('c4')).toBe(await reasonOf({ call_id: 'c4', name: 'delete_file', namespace: 'file_ops', arguments: '{"path":"plan.md"}' }));
    expect(out.get('c4')).toBe('Tool "delete_file" is currently blocked.');
    // The router's reason names load_toolkit, which this run offers as the tool search.
    expect(await reasonOf({ call_id: 'c5', name: 'get_forecast', arguments: '{"city":"Lisbon"}' })).toContain('Call load_toolkit with {"toolkit_name":"Weather"}');
    expect(out.get('c5')).toBe('Tool "get_forecast" belongs to toolkit "Weather", which is not loaded in this run. Load it with the tool search, {"toolkit_name":"Weather"}, then call get_forecast again.');
    expect(out.get('c6')).toBe(await reasonOf({ call_id: 'c6', name: 'read_fil', arguments: '{}' }));
    expect(out.get('c6')).toContain('Unknown tool "read_fil"');
  });

  it('a blocked toolkit load: an empty tool search output, then its reason, on every later request', async () => {
    const reason = await reasonOf({ name: 'load_toolkit', arguments: '{"toolkit_name":"Database"}' });
    expect(reason).toBe('Toolkit "Database" is currently blocked.');
    for (const body of bodies.slice(3)) {
      const items = input(body);
      const at = items.findIndex((i) => i['type'] === 'tool_search_output' && i['call_id'] === 's1');
      expect(items[at]!['tools']).toEqual([]);
      expect(items[at + 1]).toEqual({ role: 'system', content: `load_toolkit: ${reason}` });
      expect(items.filter((i) => i['content'] === `load_toolkit: ${reason}`)).toHaveLength(1);
    }
  });

  it('a toolkit load through tool search: the output carries its tools, and the loaded tool runs', () => {
    const items = input(bodies[4]!);
    const loaded = items.find((i) => i['type'] === 'tool_search_output' && i['call_id'] === 's2')!;
    expect(loaded['execution']).toBe('client');
    expect((loaded['tools'] as Item[]).map((t) => t['name'])).toEqual(['get_forecast', 'get_current_weather']);
    expect(items.find((i) => i['type'] === 'tool_search_call' && i['call_id'] === 's2')).toMatchObject({ arguments: { toolkit_name: 'weather' }, execution: 'client' });
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    expect(outputs(bodies[5]!).get('c7')).toBe('{"city":"Lisbon","days":2,"forecast":"sunny"}');
  });
});

describe('toOpenAiAgents cancellation', () => {
  it("aborting the run aborts the running handler's signal, and the run settles", async () => {
    const aborted: unknown[] = [];
    let started = 0;
    const router = createRouter(generated, {
      ...recordingHandlers().handlers,
      run_bash: (_args: unknown, ctx: HandlerContext) =>
        new Promise<string>((resolve) => {
          started++;
          ctx.signal.addEventListener('abort', () => {
            aborted.push(ctx.signal.reason);
            resolve('stopped');
          });
        }),
    });
    const model = await startScriptedOpenAi('responses', [[call('r1', 'run_bash', { command: 'sleep 60' }, 'terminal')], [text('Done.')]]);
    try {
      const settings = toOpenAiAgents(router, { generated });
      const agent = new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent });
      const runner = new Runner({ modelProvider: model.provider, tracingDisabled: true });
      const stop = new AbortController();
      const run = runner.run(agent, 'Run it.', { ...settings.run, maxTurns: 4, signal: stop.signal }).then(
        (r) => `resolved: ${String(r.finalOutput)}`,
        (error: unknown) => `rejected: ${(error as Error).message}`,
      );
      await expect.poll(() => started).toBe(1);
      stop.abort(new Error('the user stopped the run'));
      const hung = new Promise((resolve) => setTimeout(() => resolve('still running after 3 s'), 3000));
      expect(await Promise.race([run, hung])).toBe('rejected: the user stopped the run');
      expect(aborted).toEqual([stop.signal.reason]);

      // What the tool answers for the aborted call: the router's reason, which says it was cancelled.
      const terminal = toOpenAiAgents(router, { api: 'chat' }).agent.tools.find((t) => t.name === 'terminal') as FunctionTool;
      const cancel = new AbortController();
      const output = terminal.invoke(new RunContext(), JSON.stringify({ action: 'run_bash', args: { command: 'sleep 60' } }), { signal: cancel.signal });
      await expect.poll(() => started).toBe(2);
      cancel.abort();
      expect(await output).toBe('The call to "run_bash" was cancelled by the application before it finished.');
      expect(aborted).toHaveLength(2);
    } finally {
      await model.close();
    }
  });
});
