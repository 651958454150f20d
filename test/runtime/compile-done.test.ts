/**
 * `compile:done`, the reference library's hook for delta detection: it fires after every compile with the payload and
 * the names of the tools the model can call now, and what `syncToolAnnouncements` announces there lands in the next
 * compile.
 */
import { describe, expect, test } from 'vitest';
import type { NeutralMessage } from '../../runtime/index.js';
import { exampleRouter } from './helpers.js';

describe('compile:done and the sync channel', () => {
  test('compile:done fires after each compile with the payload and its tool names; announcements made there land in the next compile', () => {
    const { router } = exampleRouter();
    const seen: { target: string; toolNames: readonly string[] }[] = [];
    const off = router.on('compile:done', ({ target, payload, toolNames }) => {
      seen.push({ target, toolNames });
      expect(payload).toBeTypeOf('object');
      router.syncToolAnnouncements(toolNames, { channel: 'user_tail' });
    });
    const first = router.compile({ target: 'openai', system: 'S', messages: [{ role: 'user', content: 'hi' }] });
    expect(JSON.stringify(first.messages)).not.toContain('<announcements>');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.target).toBe('openai');
    expect(seen[0]!.toolNames).toEqual((first.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : '')));
    expect(router.getAnnouncements()).toEqual([{ id: 'tools:added', content: `Tools newly available: ${seen[0]!.toolNames.join(', ')}`, channel: 'user_tail' }]);
    // The next compile carries what the listener announced, on the channel it chose.
    const second = router.compile({ target: 'anthropic', system: 'S', messages: [{ role: 'user', content: 'hi' }] });
    expect(JSON.stringify(second.messages.at(-1))).toContain('Tools newly available');
    router.compile();
    expect(seen.map((s) => s.target)).toEqual(['openai', 'anthropic', 'neutral']);
    // Every target names the tools it sent, wherever its payload keeps them (Gemini: config.tools[].functionDeclarations).
    const gemini = router.compile({ target: 'gemini', system: 'S', messages: [{ role: 'user', content: 'hi' }] });
    const declared = (gemini.config?.tools ?? []).flatMap((t) => ('functionDeclarations' in t ? (t.functionDeclarations ?? []).map((d) => d.name) : []));
    expect(declared.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ target: 'gemini', toolNames: declared });
    // Responses' tool_search has no name: it is left out of the names, never listed as ''.
    const responses = router.compile({ target: 'openai-responses', messages: [{ role: 'user', content: 'hi' }], options: { toolSearch: true } });
    expect((responses.tools ?? []).some((t) => t.type === 'tool_search')).toBe(true);
    expect(seen.at(-1)!.toolNames).toEqual((responses.tools ?? []).flatMap((t) => ('name' in t && typeof t.name === 'string' ? [t.name] : [])));
    expect(seen.at(-1)!.toolNames).not.toContain('');
    off();
    router.compile();
    expect(seen).toHaveLength(5);
    expect(() => router.on('compile:start' as never, (() => {}) as never)).toThrow(/unknown event "compile:start"/);
  });

  test("toolNames are the tools the model can call now: a toolkit's tools Anthropic is sent deferred join when it loads, so delta detection announces the load", async () => {
    const { router } = exampleRouter();
    const seen: (readonly string[])[] = [];
    router.on('compile:done', ({ toolNames }) => {
      seen.push(toolNames);
      router.syncToolAnnouncements(toolNames);
    });
    const messages: NeutralMessage[] = [{ role: 'user', content: 'Weather in Lisbon?' }];
    const first = router.compile({ target: 'anthropic', messages });
    // Native loading sends every toolkit tool from the first turn, deferred; none of them can be called yet.
    const deferred = first.tools!.flatMap((t) => ('defer_loading' in t && t.defer_loading === true ? [t.name] : []));
    expect(deferred).toEqual(expect.arrayContaining(['get_forecast', 'get_current_weather']));
    expect(router.checkToolCall({ name: 'get_forecast' })).toMatchObject({ allowed: false, code: 'not_loaded' });
    expect(seen[0]).not.toContain('get_forecast');
    expect(seen[0]).toEqual(first.tools!.flatMap((t) => ('name' in t && !deferred.includes(t.name) ? [t.name] : [])));
    router.compile({ target: 'anthropic', messages });
    // The model loads Weather: its tools become callable, and the next compile announces them.
    const load = { id: 'L1', type: 'function' as const, function: { name: 'load_toolkit', arguments: '{"toolkit_name":"Weather"}' } };
    messages.push({ role: 'assistant', content: null, tool_calls: [load] }, { role: 'tool', tool_call_id: 'L1', content: String(await router.handleTool({ name: 'load_toolkit', arguments: load.function.arguments })) });
    router.compile({ target: 'anthropic', messages });
    expect(seen.at(-1)).toEqual([...seen[0]!, 'get_forecast', 'get_current_weather'].sort((a, b) => first.tools!.findIndex((t) => 'name' in t && t.name === a) - first.tools!.findIndex((t) => 'name' in t && t.name === b)));
    expect(JSON.stringify(router.compile({ target: 'anthropic', messages }).messages)).toContain('Tools newly available: get_forecast, get_current_weather');
  });
});
