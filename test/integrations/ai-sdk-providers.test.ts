/**
 * `toAiSdk` through the AI SDK's real provider packages (`@ai-sdk/anthropic`
 * for the Messages API, `@ai-sdk/openai` for Chat Completions and Responses:
 * 3.x with AI SDK 6, 4.x with AI SDK 7, whichever is installed), with a fake
 * `fetch` that records every request body and answers with a scripted
 * provider response. What is asserted is the bytes a provider would receive,
 * step by step:
 *
 * - `dispatcher` and Anthropic `native`: the `tools` JSON is identical on every
 *   step, and `cacheReuse` finds each request to start with the whole previous
 *   one (the prompt cache can reuse system prompt and conversation);
 * - Anthropic `native`: the toolkit tools are sent with `defer_loading: true`
 *   from the first request and the load's `tool_result` carries
 *   `tool_reference` blocks naming them;
 * - `append`: the `tools` JSON changes on the step after the load, and
 *   `cacheReuse` reports the break (so the checks above can fail);
 * - a rejection's reason is the tool result's text, byte for byte (no
 *   `{"error": …}` wrapping, no error class name), and the standing
 *   announcement is in each request once, at its end.
 *
 * In the cache runs the standing demo announcement is retracted: it is a
 * volatile tail by design, and would make every step a partial reuse.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { toAiSdk, type AiSdkToolkitLoading } from '../../integrations/ai-sdk/index.js';
import { cacheReuse, type Target } from '../../runtime/index.js';

type Step = { readonly calls: readonly { id: string; name: string; input: unknown }[] } | { readonly text: string };
type Provider = 'anthropic' | 'openai' | 'openai-responses';

/** What the model does: writes a file, calls a toolkit tool before the load, loads, calls it after; then answers. */
function script(loadedCall: string): Step[] {
  const forecast = (id: string, city: string) =>
    loadedCall === 'call_toolkit_tool'
      ? { id, name: 'call_toolkit_tool', input: { tool: 'get_forecast', args: { city } } }
      : { id, name: 'get_forecast', input: { city } };
  return [
    { calls: [{ id: 'c1', name: 'file_ops', input: { action: 'write_file', args: { path: 'a.md', content: 'x' } } }, forecast('c2', 'Lisbon')] },
    { calls: [{ id: 'c3', name: 'load_toolkit', input: { toolkit_name: 'Weather' } }] },
    { calls: [forecast('c4', 'Lisbon')] },
    { text: 'Sunny in Lisbon.' },
  ];
}

/** A provider response for one step, in the provider's own wire format. */
function responseBody(provider: Provider, step: Step, n: number): unknown {
  const usage = { anthropic: { input_tokens: 10, output_tokens: 5 } };
  if (provider === 'anthropic') {
    const content = 'text' in step ? [{ type: 'text', text: step.text }] : step.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }));
    return { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: 'text' in step ? 'end_turn' : 'tool_use', stop_sequence: null, usage: usage.anthropic };
  }
  if (provider === 'openai') {
    const message =
      'text' in step
        ? { role: 'assistant', content: step.text }
        : { role: 'assistant', content: null, tool_calls: step.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) };
    return {
      id: `chatcmpl_${n}`,
      object: 'chat.completion',
      created: 0,
      model: 'gpt-5',
      choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  }
  const output =
    'text' in step
      ? [{ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] }]
      : step.calls.map((c) => ({ type: 'function_call', id: `fc_${c.id}`, call_id: c.id, name: c.name, arguments: JSON.stringify(c.input), status: 'completed' }));
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: 0,
    status: 'completed',
    model: 'gpt-5',
    output,
    incomplete_details: null,
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
  };
}

interface Recorded {
  readonly bodies: Record<string, unknown>[];
  readonly urls: string[];
  readonly betas: (string | null)[];
  readonly text: string;
}

/** Runs a script through the real provider package; the fake fetch records what would go over the wire. */
async function run(provider: Provider, toolkitLoading: AiSdkToolkitLoading, loadedCall: string, options: { steps?: Step[]; announcement?: boolean } = {}): Promise<Recorded> {
  const steps = options.steps ?? script(loadedCall);
  const bodies: Record<string, unknown>[] = [];
  const urls: string[] = [];
  const betas: (string | null)[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    urls.push(String(input));
    betas.push(new Headers(init?.headers).get('anthropic-beta'));
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const step = steps[bodies.length - 1] ?? { text: 'no more' };
    return new Response(JSON.stringify(responseBody(provider, step, bodies.length)), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  let model: LanguageModel;
  if (provider === 'anthropic') model = createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-5');
  else if (provider === 'openai') model = createOpenAI({ apiKey: 'test-key', fetch }).chat('gpt-5');
  else model = createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5');
  const router = createDemoRouter();
  if (options.announcement !== true) router.retractAnnouncement('env');
  const target: Target = provider;
  const result = await generateText({
    model,
    ...toAiSdk(router, { system: 'You are a careful assistant.', toolkitLoading, target }),
    prompt: 'Weather in Lisbon?',
    stopWhen: stepCountIs(6),
  });
  return { bodies, urls, betas, text: result.text };
}

const toolsJson = (r: Recorded) => r.bodies.map((b) => JSON.stringify(b['tools']));
const toolNames = (body: Record<string, unknown>) =>
  (body['tools'] as { name?: string; function?: { name: string } }[]).map((t) => t.name ?? t.function?.name);
/** The tool results the model read in the last request, as text, by call id (each provider's format; Anthropic's blocks as JSON). */
function lastResults(provider: Provider, body: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  if (provider === 'anthropic') {
    for (const m of body['messages'] as { content: unknown }[]) {
      if (!Array.isArray(m.content)) continue;
      for (const b of m.content as { type: string; tool_use_id?: string; content?: unknown }[]) {
        if (b.type === 'tool_result') out.set(b.tool_use_id!, typeof b.content === 'string' ? b.content : JSON.stringify(b.content));
      }
    }
  } else if (provider === 'openai') {
    for (const m of body['messages'] as { role: string; tool_call_id?: string; content?: unknown }[]) if (m.role === 'tool') out.set(m.tool_call_id!, String(m.content));
  } else {
    for (const i of body['input'] as { type?: string; call_id?: string; output?: unknown }[]) if (i.type === 'function_call_output') out.set(i.call_id!, String(i.output));
  }
  return out;
}

const CASES: { provider: Provider; toolkitLoading: AiSdkToolkitLoading; loadedCall: string; stable: string[] }[] = [
  { provider: 'anthropic', toolkitLoading: 'dispatcher', loadedCall: 'call_toolkit_tool', stable: ['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool'] },
  { provider: 'openai', toolkitLoading: 'dispatcher', loadedCall: 'call_toolkit_tool', stable: ['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool'] },
  { provider: 'openai-responses', toolkitLoading: 'dispatcher', loadedCall: 'call_toolkit_tool', stable: ['file_ops', 'terminal', 'get_time', 'load_toolkit', 'call_toolkit_tool'] },
  {
    provider: 'anthropic',
    toolkitLoading: 'native',
    loadedCall: 'get_forecast',
    stable: ['file_ops', 'terminal', 'get_time', 'load_toolkit', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table'],
  },
];

describe('toAiSdk through the real provider packages: the request bodies', () => {
  for (const c of CASES) {
    it(`${c.provider}, ${c.toolkitLoading}: the tools JSON is identical on every request, and each request starts with the whole previous one`, async () => {
      const r = await run(c.provider, c.toolkitLoading, c.loadedCall);
      expect(r.text).toBe('Sunny in Lisbon.');
      expect(r.bodies).toHaveLength(4);
      expect(toolNames(r.bodies[0]!)).toEqual(c.stable);
      const json = toolsJson(r);
      for (let i = 1; i < json.length; i++) expect(json[i], `request ${i}'s tools are request 0's`).toBe(json[0]);
      for (let i = 1; i < r.bodies.length; i++) {
        const reuse = cacheReuse(c.provider, r.bodies[i - 1]!, r.bodies[i]!);
        expect(reuse.full, `request ${i} reuses request ${i - 1} (first mismatch: ${reuse.firstMismatch?.path})`).toBe(true);
      }
      // The loaded toolkit's tool ran on the third step, its result in the fourth request; the early call was refused with the reason, verbatim.
      const results = lastResults(c.provider, r.bodies[3]!);
      expect(results.get('c2')).toBe('Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Call load_toolkit with {"toolkit_name":"Weather"} first, then call get_forecast again.');
      expect(results.get('c4')).toContain('sunny');
    });
  }

  it('anthropic native: defer_loading on the toolkit tools only, and tool_reference blocks in the load result', async () => {
    const r = await run('anthropic', 'native', 'get_forecast');
    const tools = r.bodies[0]!['tools'] as { name: string; defer_loading?: boolean }[];
    expect(tools.filter((t) => t.defer_loading === true).map((t) => t.name)).toEqual(['get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
    const messages = r.bodies[2]!['messages'] as { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[];
    const loadResult = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_result' && b.tool_use_id === 'c3');
    const blocks = loadResult!.content as { type: string; text?: string; tool_name?: string }[];
    expect(blocks[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Toolkit "Weather" loaded\./) });
    expect(blocks.slice(1)).toEqual([
      { type: 'tool_reference', tool_name: 'get_forecast' },
      { type: 'tool_reference', tool_name: 'get_current_weather' },
    ]);
    // Tool search is generally available: the package sends no beta header for it.
    expect(r.betas.every((b) => b === null || !/tool|search|advanced/.test(b)), String(r.betas)).toBe(true);
    expect(r.urls.every((u) => u.endsWith('/messages'))).toBe(true);
  });

  for (const provider of ['anthropic', 'openai', 'openai-responses'] as const) {
    it(`${provider}, append: the tools JSON changes after the load, and the cache reuse breaks there`, async () => {
      const r = await run(provider, 'append', 'get_forecast');
      const json = toolsJson(r);
      expect(json[1]).toBe(json[0]);
      expect(json[2]).not.toBe(json[1]);
      expect(toolNames(r.bodies[2]!)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'get_forecast', 'get_current_weather']);
      expect(cacheReuse(provider, r.bodies[0]!, r.bodies[1]!).full).toBe(true);
      const broken = cacheReuse(provider, r.bodies[1]!, r.bodies[2]!);
      expect(broken.full).toBe(false);
      // Only the four tools before the appended ones are reused: the system prompt and the conversation are not.
      expect(broken.reusedBlocks).toBe(4);
      expect(broken.firstMismatch?.section).not.toBe('tools');
      expect(lastResults(provider, r.bodies[3]!).get('c4')).toContain('sunny');
    });
  }

  for (const provider of ['anthropic', 'openai', 'openai-responses'] as const) {
    it(`${provider}: the model reads each rejection's reason verbatim, and the announcement once at the end of every request`, async () => {
      const steps: Step[] = [
        {
          calls: [
            { id: 'r1', name: 'read_fil', input: { path: 'a.md' } },
            { id: 'r2', name: 'file_ops', input: { action: 'write_file', args: { path: 7 } } },
          ],
        },
        { calls: [{ id: 'r3', name: 'get_time', input: {} }] },
        { text: 'Done.' },
      ];
      const r = await run(provider, 'dispatcher', 'call_toolkit_tool', { steps, announcement: true });
      expect(r.bodies).toHaveLength(3);
      const router = createDemoRouter();
      const invalid = await router.dispatch({ name: 'file_ops', arguments: { action: 'write_file', args: { path: 7 } } });
      expect(invalid.ok).toBe(false);
      const results = lastResults(provider, r.bodies[2]!);
      // Refused before execute (through the repair hook) and refused by dispatch (a reason over several lines, with quotes).
      const unknown = router.checkToolCall({ name: 'read_fil', arguments: '{"path":"a.md"}' });
      expect(results.get('r1')).toBe(!unknown.allowed && unknown.reason);
      expect(results.get('r1')).toMatch(/^Unknown tool "read_fil"/);
      expect(results.get('r2')).toBe(!invalid.ok && invalid.reason);
      expect(results.get('r2')).toContain('\n');
      if (provider === 'anthropic') {
        // With target 'anthropic' a rejection is an error result: the reason as the text of a tool_result with is_error.
        const blocks = (r.bodies[2]!['messages'] as { content: unknown }[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; tool_use_id?: string; is_error?: boolean }[]) : []));
        expect(blocks.filter((b) => b.type === 'tool_result').map((b) => [b.tool_use_id, b.is_error])).toEqual([['r1', true], ['r2', true], ['r3', undefined]]);
      }
      // The standing announcement: in every request once, in its last message.
      for (const body of r.bodies) {
        const json = JSON.stringify(body);
        expect(json.split('<announcement id=\\"env\\">').length - 1).toBe(1);
        const messages = (body['messages'] ?? body['input']) as unknown[];
        expect(JSON.stringify(messages.at(-1))).toContain('<announcement id=\\"env\\">');
      }
    });
  }
});
