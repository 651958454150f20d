/**
 * `toAiSdk` with the AI SDK's own mock language model (`ai/test`) over a
 * multi-step `generateText` run and a `streamText` run: tool calls
 * dispatched, every rejection code's reason reaching the model (in the next
 * step's prompt, where the AI SDK would have put its own message), a toolkit
 * loaded on one step and used on a later one, announcements at the tail of
 * every prompt and never in the history, and the recorded tool lists stable in
 * order (each step's list starts with the previous step's, byte for byte).
 */
import { generateText, stepCountIs, streamText, type ModelMessage } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const call = (id: string, toolName: string, input: unknown): LanguageModelV3Content => ({
  type: 'tool-call',
  toolCallId: id,
  toolName,
  input: typeof input === 'string' ? input : JSON.stringify(input),
});

/** What the model "says" on each step. */
const SCRIPT: LanguageModelV3Content[][] = [
  [call('c1', 'file_ops', { action: 'write_file', args: { path: 'notes.md', content: 'hello' } }), call('c2', 'read_fil', { path: 'notes.md' })],
  [call('c3', 'get_forecast', { city: 'Lisbon' }), call('c4', 'file_ops', '{"action": "write_file", "args": {'), call('c5', 'file_ops', { action: 'write_file', args: { path: 7 } })],
  [call('c6', 'load_toolkit', { toolkit_name: 'weather' }), call('c7', 'file_ops', { action: 'delete_file', args: { path: 'notes.md' } }), call('c8', 'file_ops', { action: 'wirte_file', args: {} }), call('c9', '', {})],
  [call('c10', 'get_forecast', { city: 'Lisbon', days: 2 }), call('c11', 'read_file', { path: 'notes.md' })],
  [{ type: 'text', text: 'Done: notes.md is written; Lisbon is sunny.' }],
];

function scriptedModel() {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const content = SCRIPT[calls.length - 1] ?? [{ type: 'text', text: 'nothing more' }];
      const toolStep = content.some((c) => c.type === 'tool-call');
      return { content, finishReason: { unified: toolStep ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
  return { model, calls };
}

/** The tool-result outputs of a prompt, by call id. */
function results(prompt: LanguageModelV3CallOptions['prompt']): Map<string, { type: string; value: unknown }> {
  const out = new Map<string, { type: string; value: unknown }>();
  for (const m of prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') out.set(p.toolCallId, p.output as never);
  return out;
}

const toolNames = (o: LanguageModelV3CallOptions) => (o.tools ?? []).map((t) => t.name);

describe('toAiSdk with generateText over a multi-step run', () => {
  it('dispatches, sends toolroute reasons for every rejection, loads a toolkit, keeps the tool list a growing prefix', async () => {
    const router = createDemoRouter();
    router.setBlockedTools(['delete_file']);
    const { model, calls } = scriptedModel();
    const settings = toAiSdk(router, { system: 'You are a careful assistant.' });
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
    const errorText = (id: string) => {
      const out = seen.get(id);
      expect(out?.type, `${id} is an error result`).toBe('error-text');
      return out!.value as string;
    };
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
    // None of the AI SDK's own messages reached the model.
    for (const [, out] of seen) expect(String(out.value)).not.toMatch(/Model tried to call unavailable tool|Invalid input for tool/);

    // The standing announcement ends every prompt, and never enters the history.
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
    const settings = toAiSdk(router, { tools: ['get_time', 'file_ops'] });
    expect(JSON.stringify(router.snapshot())).toBe(before);
    expect(Object.keys(settings.tools)).toEqual(['get_time', 'file_ops', 'load_toolkit', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
    expect(settings.activeTools).toEqual(['get_time', 'file_ops', 'load_toolkit']);
    expect(() => toAiSdk(router, { tools: ['write_file'] })).toThrow(/not a flat tool or namespace/);

    const { model, calls } = scriptedModel();
    await generateText({ model, ...settings, prompt: 'Hi', stopWhen: stepCountIs(1) });
    const last = calls[0]!.prompt[calls[0]!.prompt.length - 1]!;
    expect(last).toEqual({ role: 'system', content: '<announcements>\n<announcement id="policy">\ndelete_file is blocked in production.\n</announcement>\n</announcements>' });
  });

  it('prunes flat tools by task, once for the run', () => {
    const router = createDemoRouter();
    const settings = toAiSdk(router, { tools: ['read_file', 'run_bash', 'get_time'], task: 'read the config file' });
    expect(settings.activeTools).toEqual(['read_file', 'get_time', 'load_toolkit']);
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
    expect(second.get('s2')).toMatchObject({ type: 'error-text', value: expect.stringContaining('Call load_toolkit with {"toolkit_name":"Weather"} first') });
    const history: ModelMessage[] = (await stream.response).messages;
    expect(JSON.stringify(history)).not.toContain('<announcements>');
  });
});
