import { describe, expect, it } from 'vitest';
import { compileForTarget } from '../../runtime/targets/compile.js';
import { toGeminiContents } from '../../runtime/targets/gemini.js';
import { normalizeMessages, type NeutralMessage } from '../../runtime/targets/history.js';
import { fromProvider } from '../../runtime/index.js';
import { deepFreeze, TARGET_LIST, toolHistory } from './fixtures.js';

const base = { stable: [], loaded: [], directoryXml: '', announcements: [] } as const;
const history = deepFreeze([...toolHistory]);

describe('message conversion per target (tool calls and tool results included)', () => {
  it('anthropic: leading system → top level; tool_use with parsed input; results merged in one user turn', () => {
    expect(compileForTarget({ ...base, target: 'anthropic', system: 'Be brief.', messages: history })).toEqual({
      system: 'Be brief.\n\nLead system.',
      messages: [
        { role: 'user', content: 'Read a.ts and tell me the time.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
            // Arguments that are not a JSON object: Anthropic needs an object, so {} (the raw text would be a 400).
            { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'export {}' },
            { type: 'tool_result', tool_use_id: 'call_2', content: '{"now":"2026-01-01T00:00:00Z"}' },
          ],
        },
      ],
    });
  });

  it('openai chat: pass-through, system first, raw arguments kept', () => {
    expect(compileForTarget({ ...base, target: 'openai', system: 'Be brief.', messages: history })).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.\n\nLead system.' },
        { role: 'user', content: 'Read a.ts and tell me the time.' },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'export {}' },
        { role: 'tool', tool_call_id: 'call_2', content: '{"now":"2026-01-01T00:00:00Z"}' },
      ],
    });
  });

  it('openai-responses: system → instructions; function_call / function_call_output items', () => {
    expect(compileForTarget({ ...base, target: 'openai-responses', system: 'Be brief.', messages: history })).toEqual({
      instructions: 'Be brief.\n\nLead system.',
      input: [
        { role: 'user', content: 'Read a.ts and tell me the time.' },
        { role: 'assistant', content: 'Reading.' },
        { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{not json' },
        { type: 'function_call_output', call_id: 'call_1', output: 'export {}' },
        { type: 'function_call_output', call_id: 'call_2', output: '{"now":"2026-01-01T00:00:00Z"}' },
      ],
    });
  });

  it('gemini: model role, functionCall / functionResponse parts, response always an object', () => {
    expect(compileForTarget({ ...base, target: 'gemini', system: 'Be brief.', messages: history })).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Read a.ts and tell me the time.' }] },
        {
          role: 'model',
          parts: [
            { text: 'Reading.' },
            // A turn Gemini did not write: the documented stand-in signature on the step's first call (Gemini 3 refuses one without).
            { functionCall: { id: 'call_1', name: 'read_file', args: { path: 'a.ts' } }, thoughtSignature: 'skip_thought_signature_validator' },
            { functionCall: { id: 'call_2', name: 'get_time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_1', name: 'read_file', response: { result: 'export {}' } } },
            { functionResponse: { id: 'call_2', name: 'get_time', response: { now: '2026-01-01T00:00:00Z' } } },
          ],
        },
      ],
      config: { systemInstruction: 'Be brief.\n\nLead system.' },
    });
  });

  it('an assistant turn that only calls tools: content null on Chat, no empty text anywhere else', () => {
    const messages: NeutralMessage[] = [
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', function: { name: 'get_time', arguments: '' } }] },
    ];
    const chat = compileForTarget({ ...base, target: 'openai', messages });
    expect(chat.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_time', arguments: '' } }] });
    const anthropic = compileForTarget({ ...base, target: 'anthropic', messages });
    expect(anthropic.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'get_time', input: {} }] });
    expect(compileForTarget({ ...base, target: 'openai-responses', messages }).input[1]).toEqual({ type: 'function_call', call_id: 'c', name: 'get_time', arguments: '' });
    expect(compileForTarget({ ...base, target: 'gemini', messages }).contents[1]).toEqual({ role: 'model', parts: [{ functionCall: { id: 'c', name: 'get_time', args: {} }, thoughtSignature: 'skip_thought_signature_validator' }] });
  });

  it('a mid-history system message keeps its place on Chat and joins the system prompt elsewhere', () => {
    const messages: NeutralMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'system', content: 'Mid.' },
      { role: 'user', content: 'b' },
    ];
    expect(compileForTarget({ ...base, target: 'openai', messages }).messages.map((m) => m.role)).toEqual(['user', 'system', 'user']);
    expect(compileForTarget({ ...base, target: 'anthropic', messages }).system).toBe('Mid.');
    expect(compileForTarget({ ...base, target: 'openai-responses', messages }).instructions).toBe('Mid.');
    expect(compileForTarget({ ...base, target: 'gemini', messages }).config.systemInstruction).toBe('Mid.');
  });

  it('garbage in the history never throws and degrades to a valid shape', () => {
    const garbage = [
      null,
      42,
      { role: 'user', content: [{ type: 'text', text: 'part one' }, 'part two', { type: 'image_url' }] },
      { role: 'wizard', content: { nested: true } },
      { role: 'assistant', content: 7, tool_calls: [null, { id: 5, function: { name: 'x', arguments: { already: 'parsed' } } }, { function: {} }] },
      { role: 'tool', content: undefined },
      { role: 'developer', content: 'dev note' },
    ] as unknown as NeutralMessage[];
    for (const target of TARGET_LIST) {
      expect(() => compileForTarget({ ...base, target, messages: garbage })).not.toThrow();
    }
    const chat = compileForTarget({ ...base, target: 'openai', messages: garbage });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'part one\npart two' },
      { role: 'user', content: '{"nested":true}' },
      {
        role: 'assistant',
        content: '7',
        tool_calls: [
          { id: '5', type: 'function', function: { name: 'x', arguments: '{"already":"parsed"}' } },
          { id: '', type: 'function', function: { name: '', arguments: '' } },
        ],
      },
      // Results in the order of the calls: the call the history left unanswered gets an error result, so the request is valid.
      { role: 'tool', tool_call_id: '5', content: 'No result was recorded for this call.' },
      { role: 'tool', tool_call_id: '', content: '' },
      { role: 'system', content: 'dev note' },
    ]);
    const anthropic = compileForTarget({ ...base, target: 'anthropic', messages: garbage });
    expect(anthropic.messages[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: '7' },
        { type: 'tool_use', id: '5', name: 'x', input: { already: 'parsed' } },
        // An empty id is a 400 on Anthropic: it goes as a valid id derived from it.
        { type: 'tool_use', id: '_811c9dc5', name: '', input: {} },
      ],
    });
    expect(JSON.stringify(anthropic.messages[3])).toContain('"tool_use_id":"_811c9dc5"');
    // Anything but a list is the application's mistake: refused on every target, never sent as an empty history.
    for (const target of TARGET_LIST) {
      for (const notAList of ['not an array', null, undefined, 5, {}]) {
        expect(() => compileForTarget({ ...base, target, messages: notAList as unknown as NeutralMessage[] }), `${target} ${String(notAList)}`).toThrow(/compile: messages is a list of messages/);
      }
    }
  });

  it('history entries not read as written are named in one unread-messages warning: left out, or read as user', () => {
    const messages = [
      null, 42, ['user', 'hi'], { role: 'user', content: 'a' }, { content: 'no role' }, { role: 'function', content: 'f' }, { role: 7, content: 'n' },
      ...Array.from({ length: 3 }, () => ({ role: 'wizard', content: 'w' })),
    ] as unknown as NeutralMessage[];
    for (const target of TARGET_LIST) {
      const warnings: [string, string][] = [];
      const payload = compileForTarget({ ...base, target, messages, options: { onWarning: (m, code) => warnings.push([code, m]) } });
      expect(JSON.stringify(payload), target).not.toContain('"hi"');
      expect(warnings.filter(([code]) => code === 'unread-messages'), target).toEqual([[
        'unread-messages',
        "[toolroute] 9 history entries are not a message: messages[0] (null, left out), messages[1] (integer, left out), messages[2] (array, left out), " +
          'messages[4] (no role, read as user), messages[5] (role "function", read as user), … (4 more). ' +
          "A message is an object with role 'system', 'user', 'assistant' or 'tool'.",
      ]]);
      const clean: string[] = [];
      compileForTarget({ ...base, target, messages: toolHistory, options: { onWarning: (_m, code) => clean.push(code) } });
      expect(clean, target).not.toContain('unread-messages');
    }
  });

  it("anthropic: another provider's call ids outside Anthropic's pattern go as valid ids derived from them, calls and results alike", () => {
    const calls = (id: string, n: number): NeutralMessage[] => [
      { role: 'user', content: `turn ${n}` },
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: id, content: 'now' },
    ];
    // Kimi-style ids, reused every turn: the repeat is renamed too, and every id matches ^[a-zA-Z0-9_-]+$.
    const messages = [...calls('functions.get_time:0', 1), ...calls('functions.get_time:0', 2), ...calls('call_ok-1', 3)];
    const payload = compileForTarget({ ...base, target: 'anthropic', messages });
    const ids = JSON.stringify(payload.messages).match(/"(?:id|tool_use_id)":"[^"]*"/g) ?? [];
    expect(ids).toHaveLength(6);
    for (const id of ids) expect(id).toMatch(/^"(?:id|tool_use_id)":"[a-zA-Z0-9_-]+"$/);
    expect(new Set(ids.filter((id) => id.startsWith('"id"'))).size).toBe(3);
    expect(ids).toContain('"id":"call_ok-1"');
    expect(ids.filter((id) => id.includes('functions_get_time_0_'))).toHaveLength(4);
    expect(compileForTarget({ ...base, target: 'anthropic', messages })).toEqual(payload);
  });

  it('anthropic: a cache breakpoint on a turn ending in thinking goes on its last other block; a turn of thinking alone is refused', () => {
    const thinking = { type: 'thinking', thinking: 'hmm', signature: 'SIG' };
    const turn = (content: unknown[]) => [{ role: 'user', content: 'q' }, { role: 'assistant', content: content.length > 1 ? 'a' : null, provider: { target: 'anthropic', content } }, { role: 'user', content: 'more' }] as NeutralMessage[];
    const placed = compileForTarget({ ...base, target: 'anthropic', messages: turn([{ type: 'text', text: 'a' }, thinking, { type: 'redacted_thinking', data: 'x' }]), options: { cacheBreakpoints: [{ message: 1 }] } });
    expect(placed.messages[1]!.content).toEqual([{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }, thinking, { type: 'redacted_thinking', data: 'x' }]);
    expect(() => compileForTarget({ ...base, target: 'anthropic', messages: turn([thinking]), options: { cacheBreakpoints: [{ message: 1 }] } })).toThrow(/cache-breakpoint-target: .*thinking blocks take no breakpoint/);
  });

  it('anthropic: an empty assistant turn (Claude may end one with content: []) is left out, never sent empty', () => {
    const empty = fromProvider('anthropic', { role: 'assistant', stop_reason: 'end_turn', content: [] } as never);
    for (const turn of [...empty, { role: 'assistant', content: '' }, { role: 'assistant', content: null }] as NeutralMessage[]) {
      const payload = compileForTarget({ ...base, target: 'anthropic', messages: [{ role: 'user', content: 'a' }, turn, { role: 'user', content: 'b' }] });
      expect(payload.messages.filter((m: { role: string }) => m.role === 'assistant')).toEqual([]);
      expect(JSON.stringify(payload.messages)).not.toContain('"content":""');
    }
  });

  it('gemini: a turn with no text, calls or parts is left out, and no bare empty text part is sent', () => {
    const empty = fromProvider('gemini', { candidates: [{ content: { role: 'model' } }] } as never);
    for (const turn of [...empty, { role: 'assistant', content: '' }, { role: 'user', content: '' }] as NeutralMessage[]) {
      const payload = compileForTarget({ ...base, target: 'gemini', messages: [{ role: 'user', content: 'a' }, turn, { role: 'user', content: 'b' }] });
      expect(JSON.stringify(payload.contents)).not.toContain('{"text":""}');
      expect(payload.contents).toEqual([{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }] }]);
    }
  });

  it('gemini: a history that opens with a function call (cut from the front) gets a user turn before it, which Gemini requires', () => {
    const cut: NeutralMessage[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'noon' },
      { role: 'user', content: 'And now?' },
    ];
    const { contents } = compileForTarget({ ...base, target: 'gemini', messages: cut }) as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[0]!.parts).toEqual([{ text: expect.stringMatching(/^\(.+\)$/) }]);
    expect(contents[1]!.parts[0]).toHaveProperty('functionCall');
    // Opening with the user's words, or with the model's words and no call, is left as written.
    const opening = (messages: NeutralMessage[]) => (compileForTarget({ ...base, target: 'gemini', messages }) as { contents: { role: string; parts: unknown[] }[] }).contents[0];
    expect(opening([{ role: 'user', content: 'hi' }, ...cut])).toEqual({ role: 'user', parts: [{ text: 'hi' }] });
    expect(opening([{ role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'hi' }])).toEqual({ role: 'model', parts: [{ text: 'Hello.' }] });
  });

  it('a role named like an Object.prototype member is an unknown role: a user turn on every target', () => {
    for (const role of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const messages = [{ role: 'user', content: 'a' }, { role, content: 'INJECTED' }] as unknown as NeutralMessage[];
      for (const target of TARGET_LIST) {
        const asUser = compileForTarget({ ...base, target, messages: [{ role: 'user', content: 'a' }, { role: 'wizard', content: 'INJECTED' }] as unknown as NeutralMessage[] });
        expect(compileForTarget({ ...base, target, messages }), `${target} ${role}`).toEqual(asUser);
      }
    }
  });

  it('tool results: functionResponse name falls back to the message name, then the call id', () => {
    // Converted directly: compile leaves out a result that answers no call.
    const messages = normalizeMessages([
      { role: 'user', content: 'x' },
      { role: 'tool', tool_call_id: 'orphan', name: 'named_tool', content: '[1,2]' },
      { role: 'tool', tool_call_id: 'orphan2', content: '"str"' },
    ]);
    const parts = toGeminiContents(messages)[0]?.parts;
    expect(parts?.slice(1)).toEqual([
      { functionResponse: { id: 'orphan', name: 'named_tool', response: { result: [1, 2] } } },
      { functionResponse: { id: 'orphan2', name: 'orphan2', response: { result: 'str' } } },
    ]);
  });

  it('gemini tool results: JSON text after whitespace is parsed; text that only looks like JSON stays text', () => {
    const results = [' \n\t{"a":1}', '\r\n[true]', 'null', '-1.5', 'tru', 'nothing found', '\u00a0{"a":1}', '{"a":', 'f'];
    const calls = results.map((_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 't', arguments: '{}' } }));
    const messages: NeutralMessage[] = [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: calls }, ...results.map((content, i): NeutralMessage => ({ role: 'tool', tool_call_id: `c${i}`, name: 't', content }))];
    const responses = compileForTarget({ ...base, target: 'gemini', messages }).contents[2]?.parts?.map((p) => (p as { functionResponse: { response: unknown } }).functionResponse.response);
    expect(responses).toEqual([{ a: 1 }, { result: [true] }, { result: null }, { result: -1.5 }, { result: 'tru' }, { result: 'nothing found' }, { result: '\u00a0{"a":1}' }, { result: '{"a":' }, { result: 'f' }]);
  });

  it('JSON nested deeper than call arguments may be stays text in the history: every target gives a payload the SDKs can serialize', () => {
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const messages: NeutralMessage[] = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: deep } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: deep },
    ];
    for (const target of TARGET_LIST) {
      const payload = compileForTarget({ ...base, target, messages });
      expect(() => JSON.stringify(payload), target).not.toThrow();
    }
    const parts = compileForTarget({ ...base, target: 'gemini', messages }).contents.flatMap((c) => c.parts ?? []);
    expect(parts).toContainEqual({ functionResponse: { id: 'c1', name: 'read_file', response: { result: deep } } });
    // Within the limit, a result is still parsed.
    const shallow = compileForTarget({ ...base, target: 'gemini', messages: [messages[0]!, messages[1]!, { ...messages[2]!, content: '{"a":[[1]]}' }] }).contents.flatMap((c) => c.parts ?? []);
    expect(shallow).toContainEqual({ functionResponse: { id: 'c1', name: 'read_file', response: { a: [[1]] } } });
  });
});
