/**
 * fromProvider, toolMessage and the replay rule, without a network: what each
 * target's response reads as, what is kept, and what a changed history rebuilds.
 */
import { describe, expect, it } from 'vitest';
import { classifyAnthropicBlock } from '../../runtime/targets/anthropic.js';
import { replayItems, type ReplayCodec } from '../../runtime/targets/replay.js';
import type { ProviderItem } from '../../runtime/index.js';
import { fromProvider, TARGETS, toolMessage, ToolrouteConfigError, type AnthropicResponse, type Target, type GeminiResponse, type OpenAIChatResponse, type ResponsesResponse } from '../../runtime/index.js';
import { anthropicResponse, geminiResponse, openaiChatResponse, opaque, responsesResponse } from './script.js';

const anthropic = (turn: number) => anthropicResponse(turn) as unknown as AnthropicResponse;
const chat = (turn: number) => openaiChatResponse(turn) as unknown as OpenAIChatResponse;
const responses = (turn: number) => responsesResponse(turn) as unknown as ResponsesResponse;
const gemini = (turn: number) => geminiResponse(turn) as unknown as GeminiResponse;

describe('fromProvider', () => {
  it('gives [] for a response with no output, on every target', () => {
    expect(fromProvider('anthropic', { role: 'assistant', content: [], stop_reason: 'end_turn' } as never)).toEqual([]);
    expect(fromProvider('gemini', { candidates: [{ content: { role: 'model' }, finishReason: 'SAFETY' }] } as never)).toEqual([]);
    expect(fromProvider('gemini', { candidates: [{ content: { role: 'model', parts: [] } }] } as never)).toEqual([]);
    expect(fromProvider('openai-responses', { output: [] } as never)).toEqual([]);
    expect(fromProvider('openai', { choices: [] } as never)).toEqual([]);
  });

  it('anthropic: text, tool calls with input as JSON, every block kept as the same objects', () => {
    const response = anthropic(0);
    const [m, ...rest] = fromProvider('anthropic', response);
    expect(rest).toEqual([]);
    expect(m).toMatchObject({
      role: 'assistant',
      content: 'Loading the weather tools.',
      tool_calls: [{ id: 'toolu_0_0', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } }],
    });
    expect(m!.provider).toEqual({ target: 'anthropic', content: response.content });
    const kept = (m!.provider as { content: readonly unknown[] }).content;
    kept.forEach((block, i) => expect(block).toBe(response.content[i]));
    // A turn that only calls tools has content null (the OpenAI-like neutral shape).
    expect(fromProvider('anthropic', anthropic(1))[0]!.content).toBeNull();
    // No calls: no tool_calls key, the text as content.
    const final = fromProvider('anthropic', anthropic(8))[0]!;
    expect('tool_calls' in final).toBe(false);
    expect(final.content).toMatch(/^Lisbon/);
  });

  it('openai: a ChatCompletion or its message; custom tool calls and refusal stay in the state only', () => {
    const completion = chat(1);
    const fromCompletion = fromProvider('openai', completion);
    const fromMessage = fromProvider('openai', completion.choices[0]!.message);
    expect(fromCompletion).toEqual(fromMessage);
    expect(fromCompletion[0]!.tool_calls!.map((c) => c.id)).toEqual(['call_1_0', 'call_1_1']);
    const odd = {
      role: 'assistant',
      content: null,
      refusal: 'I cannot help with that.',
      tool_calls: [
        { id: 'c1', type: 'custom', custom: { name: 'grammar_tool', input: 'x' } },
        { id: 'c2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    } as const;
    const [m] = fromProvider('openai', odd);
    expect(m!.tool_calls).toEqual([{ id: 'c2', type: 'function', function: { name: 'get_time', arguments: '{}' } }]);
    expect(m!.provider).toEqual({ target: 'openai', message: odd });
  });

  it('openai-responses: output_text joined, function_call by call_id, every item kept (reasoning, ids)', () => {
    const response = responses(0);
    const [m] = fromProvider('openai-responses', response);
    expect(m!.content).toBe('Loading the weather tools.');
    expect(m!.tool_calls).toEqual([{ id: 'call_0_0', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } }]);
    const output = (m!.provider as { output: readonly Record<string, unknown>[] }).output;
    expect(output.map((i) => i['id'])).toEqual(['rs_0', 'msg_0', 'fc_0_0']);
    expect(output[0]!['encrypted_content']).toBe(opaque('enc', 0));
    expect(fromProvider('openai-responses', { object: 'response', output: [] })).toEqual([]);
  });

  it('openai-responses: a client-executed tool_search_call is a load_toolkit call; a server one stays state', () => {
    const output = [
      { id: 'ts_1', type: 'tool_search_call', call_id: 'call_ts', arguments: { toolkit_name: 'Weather' }, execution: 'client', status: 'completed' },
      { id: 'ts_2', type: 'tool_search_call', call_id: null, arguments: { query: 'weather' }, execution: 'server', status: 'completed' },
    ];
    const [m] = fromProvider('openai-responses', { object: 'response', output });
    expect(m!.tool_calls).toEqual([{ id: 'call_ts', type: 'function', function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } }]);
    expect(m!.provider).toEqual({ target: 'openai-responses', output });
  });

  it('gemini: thought text is not content; calls without an id get a stable neutral id', () => {
    const [m] = fromProvider('gemini', gemini(0));
    expect(m!.content).toBe('Loading the weather tools.');
    const id = m!.tool_calls![0]!.id;
    expect(id).toMatch(/^gemini_call_0_[0-9a-f]{8}$/);
    expect(fromProvider('gemini', gemini(0))[0]!.tool_calls![0]!.id).toBe(id);
    // Another response (other parts) gives other ids: results pair with the right call across turns.
    const two = fromProvider('gemini', gemini(2))[0]!.tool_calls![0]!.id;
    expect(two).not.toBe(id);
    // The same call in two turns (two responses) gets two ids: another target replaying the history refuses a repeated one.
    const same = (responseId: string) => fromProvider('gemini', { responseId, candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: {} } }] } }] })[0]!.tool_calls![0]!.id;
    expect(same('r1')).not.toBe(same('r2'));
    expect(same('r1')).toBe(same('r1'));
    // Ids Gemini sent are kept.
    expect(fromProvider('gemini', gemini(1))[0]!.tool_calls!.map((c) => c.id)).toEqual(['call_1_0', 'call_1_1']);
    expect(fromProvider('gemini', { candidates: [] })).toEqual([]);
    // A blocked prompt: no candidates, only the feedback.
    expect(fromProvider('gemini', { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: {} } as never)).toEqual([]);
  });

  it("never throws on a response's content, however malformed", () => {
    const malformed: Record<Target, unknown[]> = {
      anthropic: [{ content: [null, 1, 'x', { type: 'tool_use', input: 10n }, { type: 'tool_use', name: 5, id: {} }] }, { content: [] }],
      openai: [{ choices: [null] }, { choices: [{ message: 5 }] }, { choices: [{ message: { tool_calls: [null, { function: 'x' }] } }] }, { role: 'assistant', content: 5, tool_calls: 'x' }],
      'openai-responses': [{ output: [1, null, { type: 'function_call', arguments: 5 }] }, { output: [{ type: 'message', content: 'x' }] }],
      gemini: [{ candidates: [{ content: { parts: [null, { functionCall: 5 }] } }] }, { candidates: [null, 1] }, { promptFeedback: {} }],
    };
    for (const [target, values] of Object.entries(malformed) as [Target, unknown[]][]) {
      for (const value of values) expect(() => fromProvider(target, value as never), `${target} ${String(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))}`).not.toThrow();
    }
    // A BigInt input (no provider's JSON carries one) still reads, as its number: not an object, so dispatch rejects it.
    const [m] = fromProvider('anthropic', { role: 'assistant', stop_reason: null, content: [{ type: 'tool_use', id: 'a', name: 'n', input: 10n }] });
    expect(m!.tool_calls![0]!.function.arguments).toBe('10');
  });
});

describe('fromProvider given what is not the target\'s response', () => {
  const of = (target: Target, value: unknown): ToolrouteConfigError => {
    try {
      fromProvider(target, value as never);
    } catch (error) {
      expect(error).toBeInstanceOf(ToolrouteConfigError);
      expect((error as ToolrouteConfigError).rule).toBe('response-shape');
      return error as ToolrouteConfigError;
    }
    throw new Error(`fromProvider('${target}', ${String(value)}) did not throw`);
  };

  it("names the target whose response it is: a response is never read as an empty turn of another", () => {
    const byTarget: Record<Target, unknown> = { anthropic: anthropic(0), openai: chat(0), 'openai-responses': responses(0), gemini: gemini(0) };
    for (const target of TARGETS) {
      for (const [other, response] of Object.entries(byTarget)) {
        if (other === target) continue;
        expect(of(target, response).message).toContain(`pass target '${other}'`);
      }
    }
    // A Chat Completions message alone is a Chat response; an Anthropic message (its content a list) is not.
    expect(of('openai', { role: 'assistant', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' }).message).toContain("pass target 'anthropic'");
  });

  it('says what it is: a Promise not awaited, null, a string, an object without the fields', () => {
    expect(of('anthropic', Promise.resolve(anthropic(0))).message).toContain('a Promise: await the SDK call first');
    expect(of('gemini', { then: () => undefined }).message).toContain('a Promise');
    expect(of('openai', null).message).toMatch(/^\[toolroute\] response-shape: a response for target 'openai' is a Chat Completions `ChatCompletion`.*; this is null\.$/);
    expect(of('openai-responses', undefined).message).toContain('this is a undefined');
    expect(of('gemini', 'x').message).toContain('this is a string');
    expect(of('anthropic', []).message).toContain('this is an array');
    expect(of('gemini', {}).message).toContain('this is an empty object');
    expect(of('anthropic', { type: 'message', content: 'x' }).message).toContain('this is an object with keys "type", "content".');
    // An assistant message whose content is not a list reads as Chat's.
    expect(of('anthropic', { role: 'assistant', content: null }).message).toContain("pass target 'openai'");
    expect(of('openai', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }).message).toContain('"e", … (2 more)');
  });
});

describe('toolMessage', () => {
  const call = { id: 'call_1', type: 'function', function: { name: 'file_ops', arguments: '{}' } } as const;

  it('success: a string as is, anything else as JSON, undefined as empty', () => {
    expect(toolMessage(call, { ok: true, result: 'plain text' })).toEqual({ role: 'tool', tool_call_id: 'call_1', name: 'file_ops', content: 'plain text' });
    expect(toolMessage(call, { ok: true, result: { a: [1, null] } }).content).toBe('{"a":[1,null]}');
    expect(toolMessage(call, { ok: true, result: undefined }).content).toBe('');
    expect('is_error' in toolMessage(call, { ok: true, result: 1 })).toBe(false);
  });

  it('an Error in a result keeps its name, message, cause and own fields (JSON alone writes {}), and never its stack', () => {
    const error = Object.assign(new TypeError('disk full', { cause: new Error('quota') }), { code: 'E_QUOTA' });
    expect(JSON.parse(String(toolMessage(call, { ok: true, result: { saved: false, error } }).content))).toEqual({
      saved: false,
      error: { code: 'E_QUOTA', name: 'TypeError', message: 'disk full', cause: { name: 'Error', message: 'quota' } },
    });
    const looped = new Error('loop');
    looped.cause = looped;
    expect(toolMessage(call, { ok: true, result: looped }).content).toBe('(a value JSON cannot encode)');
  });

  it('rejection: the reason, flagged', () => {
    expect(toolMessage({ id: 'x', name: 'n' }, { ok: false, reason: 'Tool "n" is currently blocked.' })).toEqual({
      role: 'tool',
      tool_call_id: 'x',
      name: 'n',
      content: 'Tool "n" is currently blocked.',
      is_error: true,
    });
  });

  it('a result JSON cannot encode never throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(toolMessage(call, { ok: true, result: cyclic }).content).toBe('(a value JSON cannot encode)');
    expect(toolMessage(call, { ok: true, result: 10n }).content).toBe('10');
    // A function's source never reaches the model; a null-prototype cyclic value has no String() and still never throws.
    expect(toolMessage(call, { ok: true, result: function secret() { return 'hunter2'; } }).content).toBe('(a value JSON cannot encode)');
    const bare = Object.create(null) as Record<string, unknown>;
    bare['self'] = bare;
    expect(toolMessage(call, { ok: true, result: bare }).content).toBe('(a value JSON cannot encode)');
  });
});

describe('replayItems: kept output comes back as is, changes are rebuilt in place', () => {
  const codec: ReplayCodec<ProviderItem> = {
    classify: classifyAnthropicBlock,
    text: (text) => ({ type: 'text', text, rebuilt: true }),
    call: (c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) as unknown, rebuilt: true }),
  };
  const kept = (anthropicResponse(5)['content'] as ProviderItem[]).slice();
  const [m] = fromProvider('anthropic', anthropic(5));
  const calls = m!.tool_calls!.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));

  it('unchanged: the very objects, in order', () => {
    const out = replayItems(kept, '', calls, codec);
    expect(out).toHaveLength(kept.length);
    out.forEach((item, i) => expect(item).toBe(kept[i]));
  });

  it('changed arguments: that call rebuilt in its place, everything else kept', () => {
    const changed = calls.map((c, i) => (i === 1 ? { ...c, arguments: '{"timezone":"UTC"}' } : c));
    const out = replayItems(kept, '', changed, codec);
    expect(out[0]).toBe(kept[0]);
    expect(out[1]).toBe(kept[1]);
    expect(out[2]).toEqual({ type: 'tool_use', id: 'toolu_5_1', name: 'get_time', input: { timezone: 'UTC' }, rebuilt: true });
    expect(out[3]).toBe(kept[3]);
  });

  it('text added where there was none goes before the first call; a removed call is gone; an added one appended', () => {
    const out = replayItems(kept, 'Now three calls.', [calls[0]!, { id: 'new', name: 'get_time', arguments: '{}' }], codec);
    expect(out.map((b) => [b['type'], b['id'] ?? b['text']])).toEqual([
      ['thinking', undefined],
      ['text', 'Now three calls.'],
      ['tool_use', 'toolu_5_0'],
      ['tool_use', 'new'],
    ]);
    expect(out[0]).toBe(kept[0]);
  });

  it('changed text replaces the text items at the first one', () => {
    const withText = (anthropicResponse(0)['content'] as ProviderItem[]).slice();
    const [first] = fromProvider('anthropic', anthropic(0));
    const c = first!.tool_calls!.map((x) => ({ id: x.id, name: x.function.name, arguments: x.function.arguments }));
    const out = replayItems(withText, 'Edited.', c, codec);
    expect(out).toEqual([withText[0], { type: 'text', text: 'Edited.', rebuilt: true }, withText[2]]);
  });
});
