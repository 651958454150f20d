/**
 * What compile does with the conversation extensions, without a network:
 * state for another target (dropped, one warning per router), edits after
 * fromProvider (rebuilt in place), a history persisted as JSON (same bytes),
 * the error flag per target, and provider-native entries (read, or rejected
 * with a clear error; never dropped).
 */
import { describe, expect, it } from 'vitest';
import { exampleRouter } from '../../examples/provider-loop.js';
import type { Target } from '../../runtime/contract.js';
import { fromProvider, toolMessage, ToolrouteConfigError, type NeutralMessage } from '../../runtime/index.js';
import { anthropicResponse, geminiResponse, opaque, responsesResponse } from './script.js';

const TARGETS: readonly Target[] = ['anthropic', 'openai', 'openai-responses', 'gemini'];

function router(warnings: string[] = []) {
  const r = exampleRouter();
  return {
    compile: <T extends Target>(target: T, messages: readonly NeutralMessage[]) =>
      r.compile({ target, messages, options: { onWarning: (message: string, code: string) => warnings.push(`${code}: ${message}`) } }),
  };
}

const user: NeutralMessage = { role: 'user', content: 'Weather in Lisbon?' };

/** A two-turn Anthropic history: assistant (thinking + text + tool_use), tool result, assistant (redacted thinking…). */
function anthropicHistory(): NeutralMessage[] {
  const history: NeutralMessage[] = [user];
  for (const turn of [0, 2]) {
    const [reply] = fromProvider('anthropic', anthropicResponse(turn) as never);
    history.push(reply!);
    for (const call of reply!.tool_calls ?? []) history.push(toolMessage(call, turn === 2 ? { ok: false, reason: 'days: must be <= 14' } : { ok: true, result: 'loaded' }));
  }
  return history;
}

describe('state for another target', () => {
  it('is dropped with one warning per router; the text and tool calls are sent', () => {
    const warnings: string[] = [];
    const r = router(warnings);
    const history = anthropicHistory();
    for (const target of ['openai', 'openai-responses', 'gemini'] as const) {
      const json = JSON.stringify(r.compile(target, history));
      expect(json).not.toContain(opaque('sig', 0));
      expect(json).not.toContain(opaque('redacted', 2));
      expect(json).toContain('Loading the weather tools.');
      expect(json).toContain('toolu_0_0');
      expect(json).toContain('toolu_2_0');
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^provider-state-dropped: \[toolroute\] messages\[1\] carries anthropic provider state, which 'openai' cannot use \(and 1 more message like it\)/);
    // The same history on its own target: no warning, the state is sent.
    const own: string[] = [];
    expect(JSON.stringify(router(own).compile('anthropic', history))).toContain(JSON.stringify(opaque('sig', 0)));
    expect(own).toEqual([]);
  });

  it('a provider field toolroute did not write is dropped with the warning too', () => {
    const warnings: string[] = [];
    const bad = [user, { role: 'assistant', content: 'x', provider: { target: 'anthropic', content: 'not blocks' } }] as unknown as NeutralMessage[];
    const payload = router(warnings).compile('anthropic', bad);
    expect(payload.messages[1]).toEqual({ role: 'assistant', content: 'x' });
    expect(warnings[0]).toContain('a `provider` field toolroute cannot read');
  });
});

describe('a history changed after fromProvider', () => {
  it('a changed text is rebuilt, the thinking block before it is still sent as received', () => {
    const history = anthropicHistory();
    const edited = history.map((m, i) => (i === 1 ? { ...m, content: 'I will load weather tools.' } : m));
    const blocks = router().compile('anthropic', edited).messages[1]!.content as unknown as Record<string, unknown>[];
    expect(blocks.map((b) => b['type'])).toEqual(['thinking', 'text', 'tool_use']);
    expect(blocks[0]).toBe((history[1]!.provider as unknown as { content: unknown[] }).content[0]);
    expect(blocks[1]).toEqual({ type: 'text', text: 'I will load weather tools.' });
  });

  it('changed call arguments rebuild that call; the Gemini signature stays on its part', () => {
    const [reply] = fromProvider('gemini', geminiResponse(1) as never);
    const calls = reply!.tool_calls!.map((c, i) => (i === 0 ? { ...c, function: { ...c.function, arguments: '{"action":"read_file","args":{"path":"b.json"}}' } } : c));
    const history: NeutralMessage[] = [user, { ...reply!, tool_calls: calls }];
    const parts = router().compile('gemini', history).contents[1]!.parts as Record<string, unknown>[];
    expect(parts[0]).toEqual({ text: 'Read the config and get a forecast, in parallel.', thought: true });
    expect(parts[1]).toEqual({ functionCall: { id: 'call_1_0', name: 'file_ops', args: { action: 'read_file', args: { path: 'b.json' } } }, thoughtSignature: opaque('tsig', 1) });
    expect(parts[2]).toBe((reply!.provider as unknown as { parts: unknown[] }).parts[2]);
  });
});

it('a history persisted as JSON compiles to the same bytes on every target', () => {
  const histories: Record<Target, NeutralMessage[]> = {
    anthropic: anthropicHistory(),
    openai: [user],
    // The response to the request a router sends (its client tool search loads toolkits).
    'openai-responses': [user, ...fromProvider('openai-responses', responsesResponse(0, router().compile('openai-responses', [user]) as never) as never)],
    gemini: [user, ...fromProvider('gemini', geminiResponse(0) as never)],
  };
  for (const target of TARGETS) {
    const history = histories[target];
    const stored = JSON.parse(JSON.stringify(history)) as NeutralMessage[];
    expect(JSON.stringify(router().compile(target, stored))).toBe(JSON.stringify(router().compile(target, history)));
  }
});

describe('the error flag per target', () => {
  const history: NeutralMessage[] = [
    user,
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } }, { id: 'c2', type: 'function', function: { name: 'file_ops', arguments: '{}' } }] },
    toolMessage({ id: 'c1', name: 'get_time' }, { ok: true, result: { error: null, now: 'noon' } }),
    toolMessage({ id: 'c2', name: 'file_ops' }, { ok: false, reason: 'Tool "file_ops" needs an action.' }),
  ];

  it('anthropic: is_error on the failed tool_result only', () => {
    const results = router().compile('anthropic', history).messages[2]!.content as unknown as Record<string, unknown>[];
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: '{"error":null,"now":"noon"}' },
      { type: 'tool_result', tool_use_id: 'c2', content: 'Tool "file_ops" needs an action.', is_error: true },
    ]);
  });

  it("gemini: { error } for the failure; a success that has its own 'error' key is wrapped as { output }", () => {
    const parts = router().compile('gemini', history).contents[2]!.parts;
    expect(parts).toEqual([
      { functionResponse: { id: 'c1', name: 'get_time', response: { output: { error: null, now: 'noon' } } } },
      { functionResponse: { id: 'c2', name: 'file_ops', response: { error: 'Tool "file_ops" needs an action.' } } },
    ]);
  });

  it('openai and responses: the reason as the text, no flag on the wire', () => {
    const chat = router().compile('openai', history).messages.at(-1);
    expect(chat).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'Tool "file_ops" needs an action.' });
    const input = router().compile('openai-responses', history).input.at(-1);
    expect(input).toEqual({ type: 'function_call_output', call_id: 'c2', output: 'Tool "file_ops" needs an action.' });
  });
});

describe('provider-native history entries', () => {
  it('an Anthropic tool_use turn and its tool_result array are read, not dropped (the issue: content "" and the tool_use gone)', () => {
    const response = anthropicResponse(1);
    const native = [
      user,
      { role: 'assistant', content: response['content'] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1_0', content: '{"path":"config.json"}' },
          { type: 'tool_result', tool_use_id: 'toolu_1_1', content: [{ type: 'text', text: 'bad city' }], is_error: true },
          { type: 'text', text: 'Go on.' },
        ],
      },
    ] as unknown as NeutralMessage[];
    const viaHelpers: NeutralMessage[] = [
      user,
      ...fromProvider('anthropic', response as never),
      { role: 'tool', tool_call_id: 'toolu_1_0', content: '{"path":"config.json"}' },
      { role: 'tool', tool_call_id: 'toolu_1_1', content: 'bad city', is_error: true },
      { role: 'user', content: 'Go on.' },
    ];
    for (const target of TARGETS) {
      expect(JSON.stringify(router().compile(target, native))).toBe(JSON.stringify(router().compile(target, viaHelpers)));
    }
    const sent = router().compile('anthropic', native).messages;
    expect(sent[1]!.content).toEqual(response['content']);
    expect(sent[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1_0', content: '{"path":"config.json"}' },
      { type: 'tool_result', tool_use_id: 'toolu_1_1', content: 'bad city', is_error: true },
      { type: 'text', text: 'Go on.' },
    ]);
  });

  it('Gemini contents and Responses items are read as fromProvider would', () => {
    const g = geminiResponse(0) as { candidates: { content: unknown }[] };
    const geminiNative = [
      user,
      g.candidates[0]!.content,
      { role: 'user', parts: [{ functionResponse: { name: 'load_toolkit', response: { error: 'no such toolkit' } } }] },
    ] as unknown as NeutralMessage[];
    const [reply] = fromProvider('gemini', g as never);
    const gPayload = router().compile('gemini', geminiNative);
    expect(gPayload.contents[1]!.parts).toEqual((g.candidates[0]!.content as { parts: unknown[] }).parts);
    expect(gPayload.contents[2]!.parts).toEqual([{ functionResponse: { name: 'load_toolkit', response: { error: 'no such toolkit' } } }]);
    expect(reply!.tool_calls).toHaveLength(1);

    const output = (responsesResponse(1) as { output: unknown[] }).output;
    const outputs = [
      { type: 'function_call_output', call_id: 'call_1_0', output: '{"path":"config.json"}' },
      { type: 'function_call_output', call_id: 'call_1_1', output: 'sunny' },
    ];
    const responsesNative = [user, ...output, ...outputs] as unknown as NeutralMessage[];
    const input = router().compile('openai-responses', responsesNative).input;
    expect(input).toEqual([{ role: 'user', content: 'Weather in Lisbon?' }, ...output, ...outputs]);
    // On another target the same items are the assistant turn's calls and their results.
    const chat = router().compile('openai', responsesNative).messages;
    expect(chat.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
  });

  it('media and non-text tool results are rejected with a clear error naming the entry and the part', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }, /messages\[1\] holds a provider-native Anthropic 'image' block/],
      [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }, /OpenAI Chat 'image_url' part/],
      [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }, /OpenAI Responses 'input_image' part/],
      [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] }, /Gemini 'inlineData' part/],
      [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', source: {} }] }] }, /'tool_result' block with non-text content/],
    ];
    for (const [entry, message] of cases) {
      for (const target of TARGETS) {
        let error: unknown;
        try {
          router().compile(target, [user, entry as NeutralMessage]);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ToolrouteConfigError);
        expect((error as ToolrouteConfigError).rule).toBe('native-history-entry');
        expect((error as Error).message).toMatch(message);
        expect((error as Error).message).toContain('Fix:');
      }
    }
  });

  it('malformed parts are not native entries: they degrade to their text parts', () => {
    const payload = router().compile('openai', [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url' }] } as unknown as NeutralMessage]);
    expect(payload.messages.at(-1)).toEqual({ role: 'user', content: 'a' });
  });
});

describe('whitespace from another provider', () => {
  const call = { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } } as const;
  it('text that is only whitespace beside calls is left out, and a turn of nothing but whitespace too, on Anthropic (a 400 there)', () => {
    const history: NeutralMessage[] = [
      user,
      { role: 'assistant', content: '\n\n', tool_calls: [call] },
      toolMessage(call, { ok: true, result: 'noon' }),
      { role: 'assistant', content: ' \n' },
      { role: 'user', content: 'And tomorrow?' },
    ];
    const anthropic = router().compile('anthropic', history).messages;
    expect(anthropic).toEqual([
      { role: 'user', content: 'Weather in Lisbon?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_time', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'noon' }, { type: 'text', text: 'And tomorrow?' }] },
    ]);
    // Text with anything in it is sent as it is.
    const worded = router().compile('anthropic', [user, { role: 'assistant', content: 'Checking.\n', tool_calls: [call] }, toolMessage(call, { ok: true, result: 'noon' })]).messages;
    expect(worded[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Checking.\n' }, { type: 'tool_use', id: 'call_1', name: 'get_time', input: {} }] });
  });
});

describe('Gemini results answered out of order', () => {
  it('are sent in the order of the calls they answer (Gemini pairs responses without ids by position)', () => {
    const [reply] = fromProvider('gemini', {
      responseId: 'r1',
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: { timezone: 'UTC' } } }, { functionCall: { name: 'get_time', args: { timezone: 'CET' } } }] } }],
    } as never);
    const [utc, cet] = reply!.tool_calls!;
    // The second call finished first, and the application appended its result first; then the user wrote.
    const history: NeutralMessage[] = [user, reply!, toolMessage(cet!, { ok: true, result: 'cet' }), toolMessage(utc!, { ok: true, result: 'utc' }), { role: 'user', content: 'Thanks' }];
    const contents = router().compile('gemini', history).contents;
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'get_time', response: { result: 'utc' } } }, { functionResponse: { name: 'get_time', response: { result: 'cet' } } }, { text: 'Thanks' }],
    });
  });
});

describe('Responses: a toolkit load in the history in the form of the other loading mode', () => {
  const load = (form: 'search' | 'function') => ({
    object: 'response', status: 'completed',
    output: [form === 'search'
      ? { id: 'ts_1', type: 'tool_search_call', call_id: 'c1', arguments: { toolkit_name: 'Weather' }, execution: 'client', status: 'completed' }
      : { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}', status: 'completed' }],
  });
  // `native` loading: a client tool search without options.toolSearch, the dispatcher with it.
  it('a client tool search, then a compile with toolSearch set, is refused naming the fix; the same mode compiles', async () => {
    const r = exampleRouter();
    const history: NeutralMessage[] = [user];
    r.compile({ target: 'openai-responses', messages: history });
    history.push(...(await r.handleResponse('openai-responses', load('search') as never)).messages);
    expect(r.getLoadedToolkits()).toEqual(['Weather']);
    expect(() => r.compile({ target: 'openai-responses', messages: history, options: { toolSearch: true } })).toThrow(ToolrouteConfigError);
    expect(() => r.compile({ target: 'openai-responses', messages: history, options: { toolSearch: true } })).toThrow(/a client tool_search_call .* this compile loads through the dispatcher/);
    expect(() => r.compile({ target: 'openai-responses', messages: history })).not.toThrow();
  });

  // The model's own `load_toolkit` function call: made under options.toolSearch, or named from a rejection's text
  // (`Call load_toolkit with …`) although the request offers the loader as a client tool search.
  it.each([
    ['under options.toolSearch, then a compile without it', { toolSearch: true }],
    ['named from a rejection, though the request offers a tool search', {}],
  ] as const)("a load_toolkit function call the model made (%s) stays as it was, and a search pair after its output brings the toolkit's tools", async (_case, before) => {
    const r = exampleRouter();
    const history: NeutralMessage[] = [user];
    r.compile({ target: 'openai-responses', messages: history, options: before });
    history.push(...(await r.handleResponse('openai-responses', load('function') as never)).messages);
    expect(r.getLoadedToolkits()).toEqual(['Weather']);
    const input = r.compile({ target: 'openai-responses', messages: history }).input as Record<string, unknown>[];
    expect(input.slice(1, 3)).toMatchObject([{ type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'load_toolkit' }, { type: 'function_call_output', call_id: 'c1', output: expect.stringMatching(/^Toolkit "Weather" loaded\./) }]);
    expect(input.slice(3)).toEqual([
      { type: 'tool_search_call', call_id: 'toolroute_load_c1', arguments: { toolkit_name: 'Weather' }, execution: 'client', status: 'completed' },
      { type: 'tool_search_output', call_id: 'toolroute_load_c1', execution: 'client', status: 'completed', tools: [expect.objectContaining({ type: 'function', name: 'get_forecast' }), expect.objectContaining({ type: 'function', name: 'get_current_weather' })] },
    ]);
    expect(r.checkToolCall({ name: 'get_forecast' }).allowed).toBe(true);
  });
});

describe('Responses: a deferred function beside the client toolkit loader', () => {
  it('is reported as one no tool search can find (the loader finds toolkits only), and found with the hosted search', () => {
    const r = exampleRouter().registerTools([{ name: 'search_web', description: 'Search the web', deferLoading: true, parameters: { type: 'object', properties: {} }, handler: () => 'ok', validate: Object.assign(() => true, { errors: null }) }]);
    const heard = (options: object) => {
      const codes: string[] = [];
      const payload = r.compile({ target: 'openai-responses', messages: [user], options: { ...options, onWarning: (_m: string, code: string) => codes.push(code) } });
      return { codes, search: (payload.tools as { type: string; execution?: string }[]).filter((t) => t.type === 'tool_search') };
    };
    // The default (`native`) strategy: the loader is the request's only tool_search, a client one.
    expect(heard({})).toEqual({ codes: ['responses-deferred-without-search'], search: [expect.objectContaining({ execution: 'client' })] });
    // The hosted search can find it (toolkits then load through the dispatcher).
    expect(heard({ toolSearch: true })).toEqual({ codes: [], search: [{ type: 'tool_search' }] });
  });
});
