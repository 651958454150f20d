/**
 * `toAiSdk` with the AI SDK's own mock language model (`ai/test`) over a
 * multi-step `generateText` run and a `streamText` run: tool calls
 * dispatched, every rejection code's reason reaching the model as the tool's
 * text (in the next step's prompt, where the AI SDK would have put its own
 * message), a toolkit loaded on one step and used on a later one, exactly one
 * announcement tail at the end of every prompt and never in the history, the
 * caller's context reaching handlers, and the recorded tool lists stable in
 * order (each step's list starts with the previous step's, byte for byte).
 * The same expectations hold on AI SDK 6 and 7; where the two name a setting
 * differently, the test reads the installed major.
 */
import { createRequire } from 'node:module';
import { generateText, stepCountIs, streamText, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../runtime/index.js';
import * as flatOnly from '../fixtures/flat-only/expected/index.js';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { aiSdkToolkitMode, readToolOutput, toAiSdk } from '../../integrations/ai-sdk/index.js';
import { memoryTools } from '../../examples/memory-tools.js';
import { generated, recordingHandlers } from '../runtime/helpers.js';
import { call, modelOf, USAGE } from './ai-sdk-model.js';

/** The installed AI SDK's major (6 or 7). */
const AI_MAJOR = Number((createRequire(import.meta.url)('ai/package.json') as { version: string }).version.split('.')[0]);

/** A rejection as the model reads it: the reason, verbatim, as the tool's text. */
function reasonOf(seen: ReadonlyMap<string, { type: string; value: unknown }>, id: string): string {
  const out = seen.get(id);
  expect(out?.type, `${id} is the reason as text`).toBe('text');
  return out!.value as string;
}

/** The rejection codes of the calls `dispatch` refused, by call id, from the run's tool results. */
function rejectedCodes(steps: readonly StepResult<ToolSet>[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of steps) {
    for (const r of s.toolResults) {
      const read = readToolOutput(r.output);
      if (!read.ok) out.set(r.toolCallId, read.code);
    }
  }
  return out;
}

/** What the model "says" on each step. */
const SCRIPT: LanguageModelV3Content[][] = [
  [call('c1', 'file_ops', { action: 'write_file', args: { path: 'notes.md', content: 'hello' } }), call('c2', 'read_fil', { path: 'notes.md' })],
  [call('c3', 'get_forecast', { city: 'Lisbon' }), call('c4', 'file_ops', '{"action": "write_file", "args": {'), call('c5', 'file_ops', { action: 'write_file', args: { path: 7 } })],
  [call('c6', 'load_toolkit', { toolkit_name: 'weather' }), call('c7', 'file_ops', { action: 'delete_file', args: { path: 'notes.md' } }), call('c8', 'file_ops', { action: 'wirte_file', args: {} }), call('c9', '', {})],
  [call('c10', 'get_forecast', { city: 'Lisbon', days: 2 }), call('c11', 'read_file', { path: 'notes.md' })],
  [{ type: 'text', text: 'Done: notes.md is written; Lisbon is sunny.' }],
];

/** The tool-result outputs of a prompt, by call id. */
function results(prompt: LanguageModelV3CallOptions['prompt']): Map<string, { type: string; value: unknown }> {
  const out = new Map<string, { type: string; value: unknown }>();
  for (const m of prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') out.set(p.toolCallId, p.output as never);
  return out;
}

const toolNames = (o: LanguageModelV3CallOptions) => (o.tools ?? []).map((t) => t.name);

describe('toAiSdk with generateText over a multi-step run', () => {
  it('append: dispatches, sends toolroute reasons for every rejection, loads a toolkit, keeps the tool list a growing prefix', async () => {
    const router = createDemoRouter();
    router.setBlockedTools(['delete_file']);
    const { model, calls } = modelOf(SCRIPT);
    const settings = toAiSdk(router, { system: 'You are a careful assistant.', toolkitLoading: 'append' });
    const result = await generateText({ model, ...settings, prompt: 'Write notes.md, then check the weather in Lisbon.', stopWhen: stepCountIs(8) });

    expect(calls).toHaveLength(5);
    expect(result.text).toBe('Done: notes.md is written; Lisbon is sunny.');

    // Tool lists: the stable part on every step, the toolkit's tools appended from the step after the load.
    // The namespaces, the flat tool in no namespace (get_time), then the loader.
    const stable = ['file_ops', 'terminal', 'get_time', 'load_toolkit'];
    expect(calls.slice(0, 3).map(toolNames)).toEqual([stable, stable, stable]);
    expect(calls.slice(3).map(toolNames)).toEqual([[...stable, 'get_forecast', 'get_current_weather'], [...stable, 'get_forecast', 'get_current_weather']]);
    for (let i = 1; i < calls.length; i++) {
      const before = JSON.stringify(calls[i - 1]!.tools);
      const now = JSON.stringify(calls[i]!.tools!.slice(0, calls[i - 1]!.tools!.length));
      expect(now, `step ${i} starts with step ${i - 1}'s tools`).toBe(before);
    }
    // The system prompt carries the directory; the schema the model sees is toolroute's.
    const system = calls[0]!.prompt[0]!;
    expect(system).toMatchObject({ role: 'system', content: expect.stringContaining('You are a careful assistant.\n\n<available_toolkits>') });
    const fileOps = calls[0]!.tools!.find((t) => t.name === 'file_ops') as { inputSchema: unknown };
    expect(fileOps.inputSchema).toEqual(router.compile().tools.find((t) => t.name === 'file_ops')!.parameters);

    // Every call's result, as the model read it on the following step.
    const seen = new Map<string, { type: string; value: unknown }>();
    for (const c of calls) for (const [id, out] of results(c.prompt)) seen.set(id, out);
    const errorText = (id: string) => reasonOf(seen, id);
    expect(seen.get('c1')).toEqual({ type: 'json', value: { path: 'notes.md', bytes: 5 } });
    expect(errorText('c2')).toMatch(/^Unknown tool "read_fil"\. Did you mean: read_file/); // unknown_tool
    expect(errorText('c3')).toContain('belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first'); // not_loaded
    expect(errorText('c4')).toMatch(/^Arguments for "file_ops" are not valid JSON \(.*\)\. Send one JSON object\.$/); // malformed_arguments
    expect(errorText('c5')).toMatch(/^Invalid arguments for "file_ops" action "write_file":[\s\S]*\/args\/path/); // invalid_arguments
    expect(seen.get('c6')).toMatchObject({ type: 'text', value: expect.stringMatching(/^Toolkit "Weather" loaded\./) });
    expect(errorText('c7')).toBe('Tool "delete_file" is currently blocked.'); // blocked
    expect(errorText('c8')).toMatch(/unknown action "wirte_file"[\s\S]*write_file/i); // unknown_action
    expect(errorText('c9')).toMatch(/^Tool call rejected: missing or empty tool name\. Call one of: read_file, run_bash, get_time, file_ops, terminal, load_toolkit/); // empty_name
    expect(seen.get('c10')).toEqual({ type: 'json', value: { city: 'Lisbon', days: 2, forecast: 'sunny' } });
    // A flat tool the router would accept but this run does not offer: the AI SDK cannot run it, and the model is told why.
    expect(errorText('c11')).toBe('Tool "read_file" is not offered in this step. Call one of: file_ops, terminal, get_time, load_toolkit, get_forecast, get_current_weather.');
    // None of the AI SDK's own messages reached the model, nor an error class name.
    for (const [, out] of seen) expect(String(out.value)).not.toMatch(/Model tried to call unavailable tool|Invalid input for tool|Error:/);
    // The calls dispatch refused are rejection outputs with the router's code; the others never ran.
    expect(rejectedCodes(result.steps)).toEqual(new Map([['c5', 'invalid_arguments'], ['c7', 'blocked'], ['c8', 'unknown_action']]));

    // The standing announcement ends every prompt, exactly once, and never enters the history.
    for (const c of calls) {
      const last = c.prompt[c.prompt.length - 1]!;
      expect(last.role).toBe('user');
      expect(JSON.stringify(last.content)).toContain('<announcement id=\\"env\\">');
      expect(c.prompt.filter((m) => JSON.stringify(m.content).includes('<announcements>'))).toHaveLength(1);
    }
    expect(JSON.stringify(result.response.messages)).not.toContain('<announcements>');
    // The router's state moved: Weather is loaded, notes.md was written through the handler.
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    expect(await router.dispatch({ name: 'read_file', arguments: { path: 'notes.md' } })).toMatchObject({ ok: true, result: 'hello' });
  });

  it('reads the toolkits without loading them, and puts system-channel announcements last', async () => {
    const router = createDemoRouter();
    router.retractAnnouncement('env');
    router.announce('policy', 'delete_file is blocked in production.', { channel: 'system' });
    const before = JSON.stringify(router.snapshot());
    const appended = toAiSdk(router, { tools: ['get_time', 'file_ops'], toolkitLoading: 'append' });
    expect(JSON.stringify(router.snapshot())).toBe(before);
    expect(Object.keys(appended.tools)).toEqual(['get_time', 'file_ops', 'load_toolkit', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
    expect(appended.activeTools).toEqual(['get_time', 'file_ops', 'load_toolkit']);
    // The default (dispatcher): the toolkit tools are not tools of the run at all; everything is active, so no activeTools.
    const settings = toAiSdk(router, { tools: ['get_time', 'file_ops'] });
    expect(JSON.stringify(router.snapshot())).toBe(before);
    expect(Object.keys(settings.tools)).toEqual(['get_time', 'file_ops', 'load_toolkit', 'call_toolkit_tool']);
    expect(settings.activeTools).toBeUndefined();
    expect(() => toAiSdk(router, { tools: ['write_file'] })).toThrow(/not a flat tool or namespace/);

    // Three steps; the announcement changes before the third: each prompt ends with the current one, once.
    const { model, calls } = modelOf([[call('a1', 'get_time', {})], [call('a2', 'get_time', {})], [{ type: 'text', text: 'noon' }]]);
    const result = await generateText({ model, ...settings, prompt: 'Hi', stopWhen: stepCountIs(4), prepareStep: (step) => {
      if (step.stepNumber === 2) router.announce('policy', 'delete_file is allowed again.', { channel: 'system' });
      return settings.prepareStep(step);
    } });
    const tail = (text: string) => ({ role: 'system', content: `<announcements>\n<announcement id="policy">\n${text}\n</announcement>\n</announcements>` });
    expect(calls.map((c) => c.prompt.at(-1))).toEqual([tail('delete_file is blocked in production.'), tail('delete_file is blocked in production.'), tail('delete_file is allowed again.')]);
    for (const c of calls) expect(c.prompt.filter((m) => JSON.stringify(m.content).includes('<announcements>'))).toHaveLength(1);
    expect(JSON.stringify(result.response.messages)).not.toContain('<announcements>');
  });

  it("gives handlers the caller's context: the tool's `context` on AI SDK 7 (toolsContext), `experimental_context` on 6", async () => {
    const { handlers, log } = recordingHandlers();
    const router = createRouter(generated, handlers);
    const settings = toAiSdk(router, { tools: ['get_time'] });
    const ctx = { user: 'ana' };
    const { model } = modelOf([[call('x1', 'get_time', {})], [{ type: 'text', text: 'done' }]]);
    const perVersion = AI_MAJOR >= 7 ? { toolsContext: { get_time: ctx } } : { experimental_context: ctx };
    await generateText({ model, ...settings, ...perVersion, prompt: 'Time?', stopWhen: stepCountIs(3) } as Parameters<typeof generateText>[0]);
    expect(log).toEqual([{ tool: 'get_time', args: {}, callId: 'x1', context: ctx }]);
    // `context` in the options wins over the call's.
    const fixed = toAiSdk(router, { tools: ['get_time'], context: { user: 'fixed' } });
    await generateText({ model: modelOf([[call('x2', 'get_time', {})], [{ type: 'text', text: 'done' }]]).model, ...fixed, ...perVersion, prompt: 'Time?', stopWhen: stepCountIs(3) } as Parameters<typeof generateText>[0]);
    expect(log[1]).toMatchObject({ callId: 'x2', context: { user: 'fixed' } });
  });

  it('names the system prompt and the repair hook as the installed AI SDK does: instructions and repairToolCall on 7; system, instructions (ToolLoopAgent) and experimental_repairToolCall on 6', () => {
    const settings = toAiSdk(createDemoRouter(), { system: 'Be brief.' });
    const keys = Object.keys(settings).sort();
    const named = AI_MAJOR >= 7 ? ['instructions', 'repairToolCall'] : ['experimental_repairToolCall', 'instructions', 'system'];
    expect(keys).toEqual(['allowSystemInMessages', 'prepareStep', 'tools', ...named].sort());
    expect(Object.keys(toAiSdk(createDemoRouter(), { toolkitLoading: 'append' })).sort()).toEqual(['activeTools', 'allowSystemInMessages', 'prepareStep', 'tools', ...named].sort());
    expect(settings.instructions).toMatch(/^Be brief\.\n\n<available_toolkits>/);
    if (AI_MAJOR < 7) expect(settings.system).toBe(settings.instructions);
  });

  it('library tools come after the loader whatever the choice, always active, executed through dispatch', async () => {
    const store = new Map<string, string>();
    const router = createRouter(generated, recordingHandlers().handlers, { libraryTools: memoryTools(store) });
    const settings = toAiSdk(router, { tools: ['get_time'] });
    expect(Object.keys(settings.tools)).toEqual(['get_time', 'load_toolkit', 'call_toolkit_tool', 'remember', 'recall']);
    expect(settings.activeTools).toBeUndefined();
    const append = toAiSdk(router, { tools: ['get_time'], toolkitLoading: 'append' });
    expect(Object.keys(append.tools).slice(0, 4)).toEqual(['get_time', 'load_toolkit', 'remember', 'recall']);
    expect(append.activeTools).toEqual(['get_time', 'load_toolkit', 'remember', 'recall']);
    expect(Object.keys(toAiSdk(router).tools).slice(0, 7)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool', 'remember', 'recall']);
    // Called directly, as the AI SDK calls it (AI SDK 7 adds the tool's `context`).
    const execute = (name: string, input: unknown) => (settings.tools[name]!.execute as (input: unknown, options: object) => Promise<unknown>)(input, { toolCallId: 't1', messages: [], context: undefined });
    expect(await execute('remember', { key: 'k', value: 'v' })).toBe('Remembered "k".');
    expect([...store]).toEqual([['k', 'v']]);
    // A rejection is returned, not thrown: the model reads its reason as the tool's text.
    const rejected = await execute('remember', { key: 'k' });
    expect(rejected).toEqual({ toolroute: 'rejected', code: 'invalid_arguments', reason: expect.stringMatching(/^Invalid arguments for "remember"/) });
    expect(readToolOutput(rejected)).toEqual({ ok: false, code: 'invalid_arguments', reason: (rejected as { reason: string }).reason });
  });

  it('offers search_tools as a library tool: the model finds a toolkit tool by query and calls it without a load', async () => {
    const { handlers, log } = recordingHandlers();
    const router = createRouter(generated, handlers, { searchTools: { k: 2 } });
    const settings = toAiSdk(router, { tools: ['get_time'] });
    expect(Object.keys(settings.tools)).toEqual(['get_time', 'load_toolkit', 'call_toolkit_tool', 'search_tools']);
    expect(settings.activeTools).toBeUndefined();
    const { model, calls } = modelOf([
      [call('q1', 'search_tools', { query: 'weather forecast for the next days' })],
      [call('q2', 'call_toolkit_tool', { tool: 'get_forecast', args: { city: 'Oslo' } })],
      [{ type: 'text', text: 'done' }],
    ]);
    await generateText({ model, ...settings, prompt: 'Weather in Oslo?', stopWhen: stepCountIs(4) });
    const seen = seenResults(calls);
    expect(reasonOf(seen, 'q1').split('\n')[1]).toMatch(/^- get_forecast:/);
    expect(log.map((entry) => entry.tool)).toEqual(['get_forecast']);
    expect(router.getLoadedToolkits()).toContain('Weather');
    // The tools of the run never changed: every step offered the same set, search_tools included.
    expect(calls.map((c) => c.tools?.map((t) => t.name))).toEqual(Array(3).fill(Object.keys(settings.tools)));
  });

  it("refuses search_tools beside Anthropic's native toolkit loading, as compile does, and leaves the router as it was", () => {
    const { handlers } = recordingHandlers();
    const router = createRouter(generated, handlers, { searchTools: true });
    const before = JSON.stringify(router.snapshot());
    expect(() => toAiSdk(router, { toolkitLoading: 'native', target: 'anthropic' })).toThrow(/search-tools-toolkit-loading: .*on anthropic \(deferred\).*Fix: toolkitLoading 'dispatcher'/);
    expect(JSON.stringify(router.snapshot())).toBe(before);
    // Without search_tools the same settings build, and the probe leaves no first turn behind.
    const plain = createRouter(generated, handlers);
    const plainBefore = JSON.stringify(plain.snapshot());
    expect(Object.keys(toAiSdk(plain, { toolkitLoading: 'native', target: 'anthropic' }).tools)).toContain('get_forecast');
    expect(JSON.stringify(plain.snapshot())).toBe(plainBefore);
  });

  it('prunes flat tools by task, once for the run', () => {
    const router = createDemoRouter();
    const settings = toAiSdk(router, { tools: ['read_file', 'run_bash', 'get_time'], task: 'read the config file', toolkitLoading: 'append' });
    expect(settings.activeTools).toEqual(['read_file', 'get_time', 'load_toolkit']);
    expect(Object.keys(toAiSdk(router, { tools: ['read_file', 'run_bash', 'get_time'], task: 'read the config file' }).tools)).toEqual(['read_file', 'get_time', 'load_toolkit', 'call_toolkit_tool']);
  });
});

describe('toAiSdk with streamText', () => {
  it('streams a tool call through dispatch and the reason of a rejected one', async () => {
    const router = createDemoRouter();
    const prompts: LanguageModelV3CallOptions[] = [];
    const streams: LanguageModelV3StreamPart[][] = [
      [
        { type: 'tool-call', toolCallId: 's1', toolName: 'get_time', input: '{}' },
        { type: 'tool-call', toolCallId: 's2', toolName: 'get_forecast', input: '{"city":"Oslo"}' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: USAGE },
      ],
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'It is noon.' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: USAGE },
      ],
    ];
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        prompts.push(options);
        return { stream: simulateReadableStream({ chunks: streams[prompts.length - 1]! }) };
      },
    });
    const stream = streamText({ model, ...toAiSdk(router, { tools: ['get_time'] }), prompt: 'Time?', stopWhen: stepCountIs(3) });
    expect(await stream.text).toBe('It is noon.');
    const second = results(prompts[1]!.prompt);
    expect(second.get('s1')).toEqual({ type: 'text', value: '2026-12-01T12:00:00.000Z' });
    expect(second.get('s2')).toMatchObject({ type: 'text', value: expect.stringContaining('Call load_toolkit with {"toolkit_name":"Weather"} first') });
    // The standing announcement: once at the end of each prompt, never in the history.
    for (const p of prompts) {
      expect(JSON.stringify(p.prompt.at(-1))).toContain('<announcement id=\\"env\\">');
      expect(p.prompt.filter((m) => JSON.stringify(m.content).includes('<announcements>'))).toHaveLength(1);
    }
    const history: ModelMessage[] = (await stream.response).messages;
    expect(JSON.stringify(history)).not.toContain('<announcements>');
  });
});

/** Every tool result the model read in the run, by call id. */
function seenResults(calls: readonly LanguageModelV3CallOptions[]) {
  const seen = new Map<string, { type: string; value: unknown }>();
  for (const c of calls) for (const [id, out] of results(c.prompt)) seen.set(id, out);
  return seen;
}

/** The tools JSON of each request, as the model received it. */
const toolsJson = (calls: readonly LanguageModelV3CallOptions[]) => calls.map((c) => JSON.stringify(c.tools));

const cct = (id: string, input: unknown) => call(id, 'call_toolkit_tool', input);

/** Loads Weather on step 2 and calls its tools through the dispatcher, with every rejection code of that path. */
const DISPATCHER_SCRIPT: LanguageModelV3Content[][] = [
  [call('d1', 'file_ops', { action: 'write_file', args: { path: 'notes.md', content: 'hi' } }), cct('d2', { tool: 'get_forecast', args: { city: 'Lisbon' } })],
  [call('d3', 'load_toolkit', { toolkit_name: 'weather' }), cct('d4', { tool: 'get_forcast', args: { city: 'Lisbon' } })],
  [
    cct('d5', { tool: 'get_forecast', args: { city: 'Lisbon', days: 2 } }),
    cct('d6', { tool: 'get_forecast', args: { city: 7 } }),
    cct('d7', { tool: 'get_current_weather', args: { city: 'Oslo' } }),
    cct('d8', '{"tool": "get_forecast", "args": {'),
    cct('d9', { tool: 'get_forecast', args: { city: 'Porto' }, days: 1 }),
    call('d10', 'get_forecast', { city: 'Faro', days: 1 }),
  ],
  [{ type: 'text', text: 'Lisbon is sunny.' }],
];

describe('toAiSdk toolkit loading: dispatcher (default)', () => {
  it('keeps the tool list byte-identical on every step; loaded tools run through call_toolkit_tool, with every rejection reason', async () => {
    const router = createDemoRouter();
    const { model, calls } = modelOf(DISPATCHER_SCRIPT);
    const settings = toAiSdk(router, { system: 'You are a careful assistant.' });
    const result = await generateText({ model, ...settings, prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(8), prepareStep: (step) => {
      // Blocked between the load and the calls of step 3: the gate is read at dispatch.
      if (step.stepNumber === 2) router.setBlockedTools(['get_current_weather']);
      return settings.prepareStep(step);
    } });
    expect(calls).toHaveLength(4);
    expect(result.text).toBe('Lisbon is sunny.');

    // The same tools, byte for byte, on every step: before the load, right after it, and after the toolkit's calls.
    expect(calls.map(toolNames)).toEqual(Array(4).fill(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool']));
    const json = toolsJson(calls);
    for (let i = 1; i < json.length; i++) expect(json[i], `step ${i}'s tools are step 0's`).toBe(json[0]);
    const dispatcher = calls[0]!.tools!.find((t) => t.name === 'call_toolkit_tool') as { inputSchema: { required: string[] } };
    expect(dispatcher.inputSchema.required).toEqual(['tool', 'args']);

    const seen = seenResults(calls);
    const errorText = (id: string) => reasonOf(seen, id);
    expect(seen.get('d1')).toEqual({ type: 'json', value: { path: 'notes.md', bytes: 2 } });
    expect(errorText('d2')).toBe('Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first, then call get_forecast again.'); // not_loaded
    // The load's text lists the tools and their arguments: all the model needs for the dispatcher.
    expect(seen.get('d3')).toMatchObject({ type: 'text', value: expect.stringMatching(/^Toolkit "Weather" loaded\.[\s\S]*- get_forecast: [\s\S]*city: string[\s\S]*days\?: integer/) });
    expect(errorText('d4')).toMatch(/^"get_forcast" is not a tool of any toolkit\. Did you mean: get_forecast/); // unknown_action
    expect(seen.get('d5')).toEqual({ type: 'json', value: { city: 'Lisbon', days: 2, forecast: 'sunny' } });
    expect(errorText('d6')).toMatch(/^Invalid arguments for "call_toolkit_tool" tool "get_forecast":[\s\S]*\/args\/city/); // invalid_arguments
    expect(errorText('d7')).toBe('Tool "get_current_weather" is currently blocked.'); // blocked
    expect(errorText('d8')).toMatch(/^Arguments for "call_toolkit_tool" are not valid JSON/); // malformed_arguments (through the repair hook)
    expect(errorText('d9')).toBe('Key "days" of the "call_toolkit_tool" call is outside "args" and would be ignored, so the call was not run. Put every argument of "get_forecast" inside "args": {"tool":"get_forecast","args":{…}}.'); // stray key, named
    // A loaded toolkit tool called by its own name: repaired into the dispatcher call, so it runs and the history matches the tool list.
    expect(seen.get('d10')).toEqual({ type: 'json', value: { city: 'Faro', days: 1, forecast: 'sunny' } });
    const assistant = calls[3]!.prompt.filter((m) => m.role === 'assistant').flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    expect(assistant.find((p) => p.type === 'tool-call' && p.toolCallId === 'd10')).toMatchObject({ toolName: 'call_toolkit_tool', input: { tool: 'get_forecast', args: { city: 'Faro', days: 1 } } });
    for (const [, out] of seen) expect(String(out.value)).not.toMatch(/Model tried to call unavailable tool|Invalid input for tool|Error:/);
    expect(rejectedCodes(result.steps)).toEqual(new Map([['d2', 'not_loaded'], ['d4', 'unknown_action'], ['d6', 'invalid_arguments'], ['d7', 'blocked'], ['d9', 'malformed_arguments']]));
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
  });

  it('repairs a loaded toolkit tool called by its own name with blank input (`{}`, as dispatch reads it) into the dispatcher call', async () => {
    const router = createDemoRouter();
    router.registerToolkits([{ name: 'Clock', description: 'Time', tools: [{ name: 'tick', description: 'One tick.', parameters: {}, handler: () => 'tock' }] }]);
    const { model, calls } = modelOf([
      [call('e1', 'load_toolkit', { toolkit_name: 'Clock' })],
      [call('e2', 'tick', ''), call('e3', 'tick', '  ')],
      [{ type: 'text', text: 'done' }],
    ]);
    await generateText({ model, ...toAiSdk(router), prompt: 'Tick.', stopWhen: stepCountIs(4) });
    const seen = seenResults(calls);
    expect(seen.get('e2')).toEqual({ type: 'text', value: 'tock' });
    expect(seen.get('e3')).toEqual({ type: 'text', value: 'tock' });
  });

  it('the same script with append changes the tool list after the load (the check above can fail)', async () => {
    const { model, calls } = modelOf(DISPATCHER_SCRIPT);
    await generateText({ model, ...toAiSdk(createDemoRouter(), { toolkitLoading: 'append' }), prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(8) });
    const json = toolsJson(calls);
    expect(json[1]).toBe(json[0]);
    expect(json[2]).not.toBe(json[1]);
    expect(calls[2]!.tools!.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'get_forecast', 'get_current_weather']);
    // No dispatcher with append: a call to it is refused, with the reason.
    expect(seenResults(calls).get('d5')).toMatchObject({ type: 'text', value: expect.stringContaining('Tool "call_toolkit_tool" is not offered in this step.') });
  });

  it('fails closed on a strategy or target that does not exist, and on native without a target', () => {
    const router = createDemoRouter();
    expect(() => toAiSdk(router, { toolkitLoading: 'apend' as never })).toThrow(/toolkitLoading "apend" is not a strategy/);
    expect(() => toAiSdk(router, { toolkitLoading: 'native' })).toThrow(/needs `target`/);
    expect(() => toAiSdk(router, { toolkitLoading: 'native', target: 'claude' as never })).toThrow(/target "claude" is not a target/);
    expect(aiSdkToolkitMode('native', 'anthropic')).toBe('deferred');
    for (const target of ['openai', 'openai-responses', 'gemini'] as const) expect(aiSdkToolkitMode('native', target)).toBe('dispatcher');
    expect(Object.keys(toAiSdk(router, { toolkitLoading: 'native', target: 'openai-responses' }).tools)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool']);
  });

  it('offers neither loader nor dispatcher when the router has no toolkits, whatever the strategy', () => {
    const router = createRouter(flatOnly, { get_time: () => 'now', read_file: () => '', stat_file: () => ({}), send_email: () => 'sent' } as never);
    for (const toolkitLoading of ['dispatcher', 'append', 'native'] as const) {
      const settings = toAiSdk(router, { toolkitLoading, target: 'anthropic' });
      expect(Object.keys(settings.tools), toolkitLoading).toEqual(['get_time', 'read_file', 'stat_file', 'send_email']);
      expect(settings.activeTools, toolkitLoading).toEqual(toolkitLoading === 'append' ? Object.keys(settings.tools) : undefined);
    }
  });
});

describe('toAiSdk toolkit loading: native on Anthropic (deferred)', () => {
  it('sends every toolkit tool deferred from the first step, answers the load with tool references, keeps the tools identical; rejections are error results', async () => {
    const router = createDemoRouter();
    const script: LanguageModelV3Content[][] = [
      [call('n1', 'get_forecast', { city: 'Lisbon' })],
      [call('n2', 'load_toolkit', { toolkit_name: 'WEATHER' }), call('n3', 'load_toolkit', { toolkit_name: 'Wether' })],
      [call('n4', 'get_forecast', { city: 'Lisbon', days: 2 }), call('n5', 'load_toolkit', { toolkit_name: 'weather' })],
      [{ type: 'text', text: 'Sunny.' }],
    ];
    const { model, calls } = modelOf(script);
    await generateText({ model, ...toAiSdk(router, { toolkitLoading: 'native', target: 'anthropic' }), prompt: 'Weather?', stopWhen: stepCountIs(8) });
    expect(calls).toHaveLength(4);
    const json = toolsJson(calls);
    for (let i = 1; i < json.length; i++) expect(json[i], `step ${i}'s tools are step 0's`).toBe(json[0]);
    const tools = calls[0]!.tools! as { name: string; providerOptions?: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
    // Deferred: the toolkit tools and nothing else (the loader must stay visible).
    expect(tools.filter((t) => JSON.stringify(t.providerOptions) === '{"anthropic":{"deferLoading":true}}').map((t) => t.name)).toEqual(['get_forecast', 'get_current_weather', 'run_query', 'describe_table']);

    const seen = seenResults(calls);
    expect(seen.get('n1')).toMatchObject({ type: 'error-text', value: expect.stringContaining('which is not loaded. Call load_toolkit') });
    const refs = (id: string) => {
      const out = seen.get(id) as { type: string; value: { type: string; text?: string; providerOptions?: { anthropic: { type: string; toolName: string } } }[] };
      expect(out.type).toBe('content');
      return out.value;
    };
    const loaded = refs('n2');
    expect(loaded[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Toolkit "Weather" loaded\./) });
    expect(loaded.slice(1)).toEqual(['get_forecast', 'get_current_weather'].map((toolName) => ({ type: 'custom', providerOptions: { anthropic: { type: 'tool-reference', toolName } } })));
    expect(seen.get('n3')).toMatchObject({ type: 'error-text', value: expect.stringContaining('"Wether"') }); // a failed load carries no references
    expect(seen.get('n4')).toEqual({ type: 'json', value: { city: 'Lisbon', days: 2, forecast: 'sunny' } });
    expect(refs('n5')[0]).toMatchObject({ text: expect.stringMatching(/^Toolkit "Weather" is already loaded\./) });
    expect(refs('n5')).toHaveLength(3);
  });
});
