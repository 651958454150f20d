/**
 * `toOpenAiAgents` on Chat Completions (namespaces as the `{ action, args }`
 * tool, toolkits through `load_toolkit` and `call_toolkit_tool`), with the
 * router's `append` strategy on Responses, and its option checks. The SDK's
 * Runner drives a scripted model on 127.0.0.1; assertions read the request
 * bodies the SDK sent.
 */
import { Agent, MemorySession, OpenAIConversationsSession, Runner, setTracingDisabled, type AgentOutputItem, type Model, type ModelRequest, type StreamEvent } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { runOpenAiAgent } from '../../examples/openai-agents.js';
import { memoryTools } from '../../examples/memory-tools.js';
import * as generated from '../../generated/index.js';
import * as flatOnly from '../fixtures/flat-only/expected/index.js';
import { createRouter, type ToolRouter } from '../../runtime/index.js';
import type { Handlers, Registry } from '../../generated/index.js';
import { toOpenAiAgents } from '../../integrations/openai-agents/index.js';
import { notFoundFormatter } from '../../integrations/openai-agents/input.js';
import { call, search, startScriptedOpenAi, text, type ScriptedOpenAi, type TurnItem } from './openai-agents-model.js';

setTracingDisabled(true);

type Item = Record<string, unknown>;
const messages = (body: Item) => body['messages'] as Item[];
/** Tool message contents of a Chat request, by call id. */
const toolResults = (body: Item) => new Map(messages(body).flatMap((m) => (m['role'] === 'tool' ? [[m['tool_call_id'], m['content']] as const] : [])));
const names = (body: Item) => ((body['tools'] ?? []) as Item[]).map((t) => String(t['name'] ?? (t['function'] as Item | undefined)?.['name'] ?? t['type']));

async function runScript(api: 'responses' | 'chat', router: ToolRouter<Registry>, script: readonly (readonly TurnItem[])[]) {
  const model: ScriptedOpenAi = await startScriptedOpenAi(api, script);
  const settings = toOpenAiAgents(router, { api, generated, instructions: 'Be brief.' });
  const agent = new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent });
  const result = await new Runner({ modelProvider: model.provider, tracingDisabled: true }).run(agent, 'Plan a walk in Lisbon.', { ...settings.run, maxTurns: 10 });
  return { settings, result, bodies: model.requests.map((r) => r.body), close: () => model.close() };
}

describe('toOpenAiAgents on Chat Completions', () => {
  const router = createDemoRouter();
  router.setBlockedTools(['delete_file', 'Database']);
  const reference = createDemoRouter();
  reference.setBlockedTools(['delete_file', 'Database']);
  const reasonOf = async (c: object) => ((await reference.dispatch(c)) as { reason?: string }).reason;
  let run: Awaited<ReturnType<typeof runScript>>;
  beforeAll(async () => {
    run = await runScript('chat', router, [
      [call('c1', 'file_ops', { action: 'write_file', args: { path: 'plan.md', content: 'walk' } }), call('c2', 'file_ops', { action: 'delete_file', args: { path: 'plan.md' } })],
      [call('c3', 'load_toolkit', { toolkit_name: 'Database' }), call('c4', 'get_forecast', { city: 'Lisbon' })],
      [call('c5', 'load_toolkit', { toolkit_name: 'Weather' })],
      [call('c6', 'call_toolkit_tool', { tool: 'get_forecast', args: { city: 'Lisbon' } }), call('c7', 'call_toolkit_tool', { tool: 'get_forecast', args: { city: 7 } }), call('c8', 'get_forecast', { city: 'Lisbon' })],
      [text('Sunny.')],
    ]);
  });
  afterAll(() => run.close());

  it('sends the namespace tools, load_toolkit and call_toolkit_tool, the same on every request', () => {
    expect(run.settings.toolkitLoading).toBe('dispatcher');
    expect(run.bodies).toHaveLength(5);
    expect(names(run.bodies[0]!)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool']);
    for (const body of run.bodies) expect(JSON.stringify(body['tools'])).toBe(JSON.stringify(run.bodies[0]!['tools']));
    const fileOps = (run.bodies[0]!['tools'] as { function: { parameters: { properties: Item } } }[])[0]!;
    expect(Object.keys(fileOps.function.parameters.properties)).toEqual(['action', 'args']);
    expect(run.result.finalOutput).toBe('Sunny.');
  });

  it('the system prompt carries the directory; each request ends with the announcement, once', () => {
    for (const body of run.bodies) {
      const all = messages(body);
      expect(all[0]).toEqual({ role: 'system', content: `Be brief.\n\n${generated.directoryXml}` });
      expect(all.filter((m) => JSON.stringify(m).includes('<announcements>'))).toHaveLength(1);
      expect(String(all.at(-1)!['content'])).toContain('This is a demo server');
    }
  });

  it('namespace calls, blocked calls and loads, and the dispatcher: outputs as the router wrote them', async () => {
    const first = toolResults(run.bodies[1]!);
    expect(first.get('c1')).toBe('{"path":"plan.md","bytes":4}');
    expect(first.get('c2')).toBe('Tool "delete_file" is currently blocked.');
    const second = toolResults(run.bodies[2]!);
    expect(second.get('c3')).toBe(await reasonOf({ name: 'load_toolkit', arguments: { toolkit_name: 'Database' } }));
    expect(second.get('c3')).toBe('Toolkit "Database" is currently blocked.');
    expect(second.get('c4')).toBe(await reasonOf({ name: 'get_forecast', arguments: { city: 'Lisbon' } }));
    expect(String(toolResults(run.bodies[3]!).get('c5'))).toMatch(/^Toolkit "Weather" loaded\. These tools can be called now:\n- get_forecast/);
    const last = toolResults(run.bodies[4]!);
    expect(last.get('c6')).toBe('{"city":"Lisbon","days":3,"forecast":"sunny"}');
    await reference.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } });
    expect(last.get('c7')).toBe(await reasonOf({ name: 'call_toolkit_tool', arguments: { tool: 'get_forecast', args: { city: 7 } } }));
    expect(last.get('c7')).toContain('/args/city');
    // The loaded tool called by its own name, as the load text lists it: the reason says how this run reaches it.
    expect(last.get('c8')).toBe('Tool "get_forecast" is called through call_toolkit_tool in this run: call call_toolkit_tool with {"tool":"get_forecast","args":{…}}.');
  });
});

describe("toOpenAiAgents with the router's append strategy", () => {
  it('a toolkit load enables its tools at the end of the list on the next request', async () => {
    const appending = createRouter(generated, demoHandlers, { toolkitLoading: 'append' });
    const run = await runScript('responses', appending, [[call('c1', 'load_toolkit', { toolkit_name: 'Weather' })], [call('c2', 'get_forecast', { city: 'Porto' })], [text('Done.')]]);
    try {
      expect(run.settings.toolkitLoading).toBe('append');
      expect(names(run.bodies[0]!)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
      expect(names(run.bodies[1]!)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'get_forecast', 'get_current_weather']);
      const out = (run.bodies[2]!['input'] as Item[]).find((i) => i['type'] === 'function_call_output' && i['call_id'] === 'c2');
      expect(out?.['output']).toBe('{"city":"Porto","days":3,"forecast":"sunny"}');
    } finally {
      await run.close();
    }
  });

  it('a load and a call of its tool in one turn: the call is to be made again; a tool not offered lists only what is', async () => {
    const appending = createRouter(generated, demoHandlers, { toolkitLoading: 'append' });
    const run = await runScript('responses', appending, [
      [call('c1', 'run_query', { sql: 'select 1' })],
      [call('c2', 'load_toolkit', { toolkit_name: 'Weather' }), call('c3', 'get_forecast', { city: 'Porto' })],
      [text('Done.')],
    ]);
    try {
      const output = (id: string) => (run.bodies.at(-1)!['input'] as Item[]).find((i) => i['type'] === 'function_call_output' && i['call_id'] === id)?.['output'];
      expect(output('c3')).toBe('Tool "get_forecast" did not run: its toolkit "Weather" was loaded in the same turn, and a toolkit\'s tools can be called from the turn after its load. Call get_forecast again.');
      // Before any load, a toolkit tool gets the router's reason (load its toolkit).
      expect(output('c1')).toBe(((await createRouter(generated, demoHandlers, { toolkitLoading: 'append' }).dispatch({ name: 'run_query', arguments: { sql: 'select 1' } })) as { reason: string }).reason);
    } finally {
      await run.close();
    }
    // A name the router accepts but the run does not offer: the list names the tools of loaded toolkits only.
    const router = createRouter(generated, demoHandlers, { toolkitLoading: 'append' });
    const appended = new Map([['get_forecast', 'Weather'], ['get_current_weather', 'Weather'], ['run_query', 'Database'], ['describe_table', 'Database']]);
    const format = notFoundFormatter(router as never, ['get_time', 'load_toolkit'], undefined, appended);
    const notOffered = () => format({ kind: 'tool_not_found', toolName: 'file_ops' } as never);
    expect(notOffered()).toBe('Tool "file_ops" is not offered in this run. Call one of: get_time, load_toolkit.');
    await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } });
    expect(notOffered()).toBe('Tool "file_ops" is not offered in this run. Call one of: get_time, load_toolkit, get_forecast, get_current_weather.');
  });
});

describe('examples/openai-agents.ts', () => {
  it('runs to the final text; the model reads each reason, the load and the loaded tool result', async () => {
    const { text, turns, toolsIdentical } = await runOpenAiAgent();
    expect(text).toBe('Lisbon: sunny for the next two days.');
    expect(toolsIdentical).toBe(true);
    expect(turns[0]!.tools).toEqual([
      'file_ops.read_file',
      'file_ops.write_file',
      'file_ops.delete_file',
      'terminal.run_bash',
      'terminal.tail_logs',
      'get_time',
      'tool_search',
      'get_forecast',
      'get_current_weather',
      'run_query',
      'describe_table',
    ]);
    expect(turns.map((t) => t.results.map((r) => r.value.split('\n')[0]))).toEqual([
      [],
      ['{"path":"plan.md","bytes":17}', 'Invalid arguments for "file_ops" action "write_file":'],
      // Responses: the loader is the tool search.
      ['Tool "get_forecast" belongs to toolkit "Weather", which is not loaded in this run. Load it with the tool search, {"toolkit_name":"Weather"}, then call get_forecast again.'],
      ['loaded: get_forecast, get_current_weather'],
      ['{"city":"Lisbon","days":2,"forecast":"sunny"}'],
    ]);
  });
});

describe('library tools and names the run does not offer', () => {
  it('library tools follow the loader and run through dispatch; a flat tool offered only in its namespace is named as offered', async () => {
    const store = new Map<string, string>();
    const router = createRouter(generated, demoHandlers, { libraryTools: memoryTools(store) });
    const run = await runScript('responses', router as never, [[call('c1', 'remember', { key: 'walk', value: 'Lisbon' }), call('c2', 'read_file', { path: 'a' })], [text('Done.')]]);
    try {
      expect(names(run.bodies[0]!)).toEqual(['file_ops', 'terminal', 'get_time', 'tool_search', 'remember', 'recall', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
      expect([...store]).toEqual([['walk', 'Lisbon']]);
      const out = new Map((run.bodies[1]!['input'] as Item[]).flatMap((i) => (i['type'] === 'function_call_output' ? [[i['call_id'], i['output']] as const] : [])));
      expect(out.get('c1')).toBe('Remembered "walk".');
      // The deferred toolkit tools are not among them: this run has not loaded them.
      expect(out.get('c2')).toBe(
        'Tool "read_file" is not offered in this run. Call one of: file_ops.read_file, file_ops.write_file, file_ops.delete_file, terminal.run_bash, terminal.tail_logs, get_time, tool_search, remember, recall.',
      );
    } finally {
      await run.close();
    }
  });
});

describe('announcements with a session', () => {
  it('a session stores what the model saw; the next run still sends the current announcements once, at the tail', async () => {
    const model = await startScriptedOpenAi('responses', [[call('c1', 'get_time', {})], [text('Noon.')], [text('Still noon.')]]);
    try {
      const router = createDemoRouter();
      const session = new MemorySession();
      const runner = new Runner({ modelProvider: model.provider, tracingDisabled: true });
      // A settings object per run, as a server that builds them per request would.
      for (const question of ['What time is it?', 'And now?']) {
        const settings = toOpenAiAgents(router, { generated });
        await runner.run(new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent }), question, { ...settings.run, session });
      }
      const stored = JSON.stringify(await session.getItems());
      expect(stored).toContain('<announcements>');
      const last = model.requests.at(-1)!.body['input'] as Item[];
      expect(last.filter((i) => JSON.stringify(i).includes('<announcements>'))).toHaveLength(1);
      expect(String(last.at(-1)!['content'])).toContain('This is a demo server');
    } finally {
      await model.close();
    }
  });
});

describe('announcements with an OpenAIConversationsSession', () => {
  it('stored blocks come back as input_text parts and are still left out: each request carries the current set once', async () => {
    // The Conversations API as an in-memory store: it gives messages back with their content as parts, never a string.
    const stored: Item[] = [];
    const asApiItem = (item: Item, n: number): Item =>
      typeof item['content'] === 'string' && (item['role'] === 'user' || item['role'] === 'system')
        ? { id: `item_${n}`, ...item, type: 'message', content: [{ type: 'input_text', text: item['content'] }] }
        : { id: `item_${n}`, ...item };
    const client = {
      conversations: {
        create: async () => ({ id: 'conv_1' }),
        items: {
          create: async (_id: string, { items }: { items: Item[] }) => void stored.push(...items.map((i) => asApiItem(i, stored.length))),
          list: (_id: string, options?: { order?: string }) => (async function* () { yield* options?.order === 'desc' ? [...stored].reverse() : [...stored]; })(),
          delete: async () => ({}),
        },
      },
    };
    const model = await startScriptedOpenAi('responses', [[search('s1', { toolkit_name: 'Database' })], [text('Blocked.')], [text('Frozen.')], [text('Go.')]]);
    try {
      const router = createDemoRouter();
      router.setBlockedTools(['Database']);
      router.announce('deploy', 'Deploys are frozen until 18:00.');
      const session = new OpenAIConversationsSession({ client: client as never });
      const runner = new Runner({ modelProvider: model.provider, tracingDisabled: true });
      const lastInputs: Item[][] = [];
      for (const [i, question] of ['Load the database.', 'Can I deploy?', 'And now?'].entries()) {
        if (i === 2) router.retractAnnouncement('deploy');
        const settings = toOpenAiAgents(router, { generated });
        await runner.run(new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent }), question, { ...settings.run, session });
        lastInputs.push(model.requests.at(-1)!.body['input'] as Item[]);
      }
      expect(JSON.stringify(stored)).toContain('"type":"input_text","text":"<announcements>');
      const blocks = lastInputs.map((input) => input.filter((i) => JSON.stringify(i).includes('<announcements>')));
      expect(blocks.map((b) => b.length)).toEqual([1, 1, 1]);
      expect(blocks.map((b) => JSON.stringify(b).includes('Deploys are frozen'))).toEqual([true, true, false]);
      const reasons = lastInputs.map((input) => input.filter((i) => JSON.stringify(i).includes('load_toolkit: Toolkit \\"Database\\" is currently blocked.')));
      expect(reasons.map((r) => r.length)).toEqual([1, 1, 1]);
    } finally {
      await model.close();
    }
  });
});

describe('a streamed run', () => {
  it('dispatches the calls and sends the reasons and the tool search load as in a run without streaming', async () => {
    const fc = (callId: string, name: string, args: string, namespace?: string): AgentOutputItem => ({ type: 'function_call', callId, name, arguments: args, status: 'completed', ...(namespace === undefined ? {} : { namespace }) });
    const turns: AgentOutputItem[][] = [
      [fc('c1', 'write_file', '{"path":"a.md"}', 'file_ops'), { type: 'tool_search_call', id: 'ts_s1', callId: 's1', execution: 'client', arguments: { toolkit_name: 'Weather' }, status: 'completed' }],
      [fc('c2', 'get_forecast', '{"city":"Oslo"}')],
      [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sunny.' }] }],
    ];
    const requests: ModelRequest[] = [];
    const model: Model = {
      getResponse: () => Promise.reject(new Error('streamed run only')),
      async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
        requests.push(request);
        const output = turns[requests.length - 1] ?? [];
        yield { type: 'response_done', response: { id: `r${requests.length}`, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: output as never } };
      },
    };
    const settings = toOpenAiAgents(createDemoRouter(), { generated });
    const stream = await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'assistant', model, ...settings.agent }), 'Hi', { ...settings.run, stream: true });
    await stream.completed;
    expect(stream.finalOutput).toBe('Sunny.');
    const results = (r: ModelRequest) => (r.input as Item[]).flatMap((i) => (i['type'] === 'function_call_result' ? [(i['output'] as { text: string }).text] : i['type'] === 'tool_search_output' ? [(i['tools'] as Item[]).map((t) => t['name']).join(',')] : []));
    // The SDK puts the tool search's items before the function results.
    expect(results(requests[1]!)).toEqual(['get_forecast,get_current_weather', expect.stringContaining('/content: missing')]);
    expect(results(requests[2]!).at(-1)).toBe('{"city":"Oslo","days":3,"forecast":"sunny"}');
  });
});

describe('toOpenAiAgents options', () => {
  const router = createDemoRouter();
  it('fails loudly on a configuration mistake', () => {
    expect(() => toOpenAiAgents(router)).toThrow(/a namespace of the spec is sent as a toolNamespace\(\) group.*the namespace "file_ops" cannot be told from one registered at run time\. Pass `generated`/);
    expect(() => toOpenAiAgents(router, { generated: flatOnly as never })).toThrow(/not the generated folder this router was created from/);
    expect(() => toOpenAiAgents(router, { generated, api: 'chats' as never })).toThrow(/api "chats" is not an API/);
    expect(() => toOpenAiAgents(router, { generated, tools: ['write_file'] })).toThrow(/"write_file" in `tools` is not a flat tool or namespace/);
  });

  it('chooses the stable tools like compile: names, or a task pruning the flat ones', () => {
    const only = toOpenAiAgents(router, { api: 'chat', tools: ['get_time', 'read_file'] });
    expect(only.agent.tools.map((t) => t.name)).toEqual(['get_time', 'read_file', 'load_toolkit', 'call_toolkit_tool']);
    const pruned = toOpenAiAgents(router, { api: 'chat', tools: ['read_file', 'run_bash', 'get_time'], task: 'read the file' });
    expect(pruned.agent.tools.map((t) => t.name)).toEqual(['read_file', 'get_time', 'load_toolkit', 'call_toolkit_tool']);
  });
});

/** Handlers for a router with other options than the demo's. */
const demoHandlers = {
  read_file: () => '',
  run_bash: () => '',
  get_time: () => '2026-12-01T12:00:00.000Z',
  write_file: ({ path }) => ({ path }),
  delete_file: () => ({ deleted: true }),
  tail_logs: () => '',
  get_forecast: ({ city, days }) => ({ city, days: days ?? 3, forecast: 'sunny' }),
  get_current_weather: ({ city }) => ({ city }),
  run_query: () => ({ rows: [] }),
  describe_table: () => ({ columns: [] }),
} satisfies Handlers;
