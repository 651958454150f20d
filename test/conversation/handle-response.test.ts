/**
 * `router.handleResponse`, the agent loop's one call after the SDK's: through the real OpenAI client against a
 * recording server on 127.0.0.1, a turn with two tool calls gives the assistant turn and one tool message per call in
 * order (a rejection flagged), with the application's context reaching the handlers; a turn with text only is `done`.
 * examples/provider-loop.ts runs it on all four targets (test/conversation/example.test.ts).
 */
import OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as generated from '../../generated/index.js';
import type { Handlers } from '../../generated/index.js';
import { createRouter, type NeutralMessage, type ResponseStep } from '../../runtime/index.js';
import { startMockProvider } from './mock-provider.js';

const completion = (message: Record<string, unknown>) => ({
  id: 'c', object: 'chat.completion', created: 0, model: 'm',
  choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message: { role: 'assistant', refusal: null, ...message } }],
});
const call = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('router.handleResponse', () => {
  it('dispatches every call of a turn in order with the context, and is done on an answer', async () => {
    const seen: string[] = [];
    const noop = () => null;
    const handlers = {
      read_file: noop, run_bash: noop, write_file: noop, delete_file: noop, tail_logs: noop, get_forecast: noop, get_current_weather: noop, run_query: noop, describe_table: noop,
      get_time: ({ timezone }, { context }) => {
        seen.push(`${context.user}:${timezone ?? 'UTC'}`);
        return 'noon';
      },
    } satisfies Handlers<{ user: string }>;
    const router = createRouter(generated, handlers);
    const server = await startMockProvider((_body, i) =>
      i === 0
        ? completion({ content: null, tool_calls: [call('c1', 'get_time', { timezone: 'Europe/Lisbon' }), call('c2', 'get_forecast', { city: 'Lisbon' })] })
        : completion({ content: 'It is noon.' }),
    );
    try {
      const client = new OpenAI({ apiKey: 't', baseURL: `${server.url}/v1`, maxRetries: 0 });
      const history: NeutralMessage[] = [{ role: 'user', content: 'Time and weather in Lisbon?' }];
      const steps: ResponseStep[] = [];
      for (let turn = 0; turn < 5; turn++) {
        const response = await client.chat.completions.create({ model: 'm', ...router.compile({ target: 'openai', messages: history }) });
        const step = await router.handleResponse('openai', response, { context: { user: 'u1' } });
        steps.push(step);
        history.push(...step.messages);
        if (step.done) break;
      }
      expect(steps.map((s) => s.done)).toEqual([false, true]);
      expect(steps[0]!.messages.map((m) => [m.role, m.tool_call_id ?? null, m.is_error ?? false])).toEqual([
        ['assistant', null, false],
        ['tool', 'c1', false],
        // get_forecast before load_toolkit: a rejection the model can act on, flagged.
        ['tool', 'c2', true],
      ]);
      expect(steps[0]!.messages[2]!.content).toContain('load_toolkit');
      expect(seen).toEqual(['u1:Europe/Lisbon']);
      expect(history.at(-1)).toMatchObject({ role: 'assistant', content: 'It is noon.' });
      // The second request carried the first turn's tool results back.
      expect(server.requests[1]!.text).toContain('"tool_call_id":"c2"');
    } finally {
      await server.close();
    }
    // A router whose handlers need a context requires it here, as dispatch does.
    const typeOnly = (response: OpenAI.ChatCompletion) => {
      // @ts-expect-error the context is required
      void router.handleResponse('openai', response);
      void router.handleResponse('openai', response, { context: { user: 'u2' } });
    };
    expectTypeOf(typeOnly).toBeFunction();
  });

  it('is not done on a paused Anthropic turn (pause_turn): the turn is kept to be sent back, and nothing is dispatched', async () => {
    const dispatched: string[] = [];
    const router = createRouter(generated, Object.fromEntries(generated.TOOL_NAMES.map((name) => [name, () => void dispatched.push(name)])) as unknown as Handlers);
    const content = [{ type: 'server_tool_use', id: 'srv1', name: 'tool_search_tool_regex', input: { pattern: 'weather' } }];
    const base = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-4-8', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    const paused = await router.handleResponse('anthropic', { ...base, content, stop_reason: 'pause_turn' } as never);
    expect(paused.done).toBe(false);
    expect(paused.messages).toHaveLength(1);
    expect(router.compile({ target: 'anthropic', messages: [{ role: 'user', content: 'weather?' }, ...paused.messages] }).messages.at(-1)).toEqual({ role: 'assistant', content });
    const answered = await router.handleResponse('anthropic', { ...base, content: [{ type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn' } as never);
    expect(answered.done).toBe(true);
    expect(dispatched).toEqual([]);
  });

  it('input JSON cannot encode again (nested thousands deep) is rejected as malformed on Anthropic and Gemini, never run as {}', async () => {
    const dispatched: string[] = [];
    const router = createRouter(generated, Object.fromEntries(generated.TOOL_NAMES.map((name) => [name, () => void dispatched.push(name)])) as unknown as Handlers);
    const input = JSON.parse(`{"timezone":${'['.repeat(20000)}${']'.repeat(20000)}}`) as unknown;
    const base = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-4-8', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    const anthropic = await router.handleResponse('anthropic', { ...base, content: [{ type: 'tool_use', id: 't1', name: 'get_time', input }], stop_reason: 'tool_use' } as never);
    const gemini = await router.handleResponse('gemini', { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: input } }] } }] } as never);
    for (const step of [anthropic, gemini]) {
      expect(step.messages.at(-1)).toMatchObject({ role: 'tool', is_error: true });
      expect(step.messages.at(-1)!.content).toMatch(/^Arguments for "get_time" are not valid JSON/);
    }
    expect(dispatched).toEqual([]);
  });

  it('runs no call of a turn cut off at the output token limit, on every target: each is answered with why, and the loop goes on', async () => {
    const dispatched: string[] = [];
    const router = createRouter(generated, Object.fromEntries(generated.TOOL_NAMES.map((name) => [name, () => void dispatched.push(name)])) as unknown as Handlers);
    const write = { action: 'write_file', args: { path: 'config.json', content: '{"debug": tr' } };
    const cut = {
      anthropic: { id: 'm', type: 'message', role: 'assistant', model: 'claude-opus-4-8', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 }, stop_reason: 'max_tokens', content: [{ type: 'tool_use', id: 't1', name: 'file_ops', input: write }] },
      openai: { ...completion({ content: null, tool_calls: [call('t1', 'file_ops', write)] }), choices: [{ index: 0, finish_reason: 'length', logprobs: null, message: { role: 'assistant', refusal: null, content: null, tool_calls: [call('t1', 'file_ops', write)] } }] },
      'openai-responses': { object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ type: 'function_call', call_id: 't1', name: 'file_ops', arguments: JSON.stringify(write) }] },
      gemini: { candidates: [{ finishReason: 'MAX_TOKENS', content: { role: 'model', parts: [{ functionCall: { id: 't1', name: 'file_ops', args: write } }] } }] },
    } as const;
    for (const [target, response] of Object.entries(cut)) {
      const step = await router.handleResponse(target as keyof typeof cut, response as never);
      expect(step.done, target).toBe(false);
      expect(step.messages.at(-1), target).toMatchObject({ role: 'tool', tool_call_id: 't1', is_error: true });
      expect(step.messages.at(-1)!.content, target).toMatch(/^The call to "file_ops" was cut off at the output token limit/);
    }
    expect(dispatched).toEqual([]);
    // The same call in a turn that ended normally runs.
    await router.handleResponse('anthropic', { ...cut.anthropic, stop_reason: 'tool_use' } as never);
    expect(dispatched).toEqual(['write_file']);
  });

  it('sends back no reasoning item left last by a turn cut off after it (Responses), and no null content without calls (Chat)', async () => {
    const router = createRouter(generated, Object.fromEntries(generated.TOOL_NAMES.map((name) => [name, () => null])) as unknown as Handlers);
    const user: NeutralMessage = { role: 'user', content: 'hi' };
    const reasoning = await router.handleResponse('openai-responses', { object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' }] } as never);
    const input = router.compile({ target: 'openai-responses', messages: [user, ...reasoning.messages, { role: 'user', content: 'next' }] }).input;
    expect(input.map((i) => ('type' in i ? i.type : i.role))).toEqual(['user', 'user']);
    const refusal = await router.handleResponse('openai', completion({ content: null, refusal: "I can't help with that." }) as never);
    const messages = router.compile({ target: 'openai', messages: [user, ...refusal.messages] }).messages;
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: '', refusal: "I can't help with that." });
  });
});
