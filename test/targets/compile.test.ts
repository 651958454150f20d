import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnnouncementStore } from '../../runtime/announcements.js';
import { cacheKey, canonicalJson, stablePrefixOf } from '../../runtime/cache-key.js';
import { compileForTarget, ToolrouteConfigError, type TargetCompileInput, type TargetWarningCode } from '../../runtime/targets/compile.js';
import type { Target } from '../../runtime/contract.js';
import type { NeutralMessage } from '../../runtime/targets/history.js';
import { renderTool, type NeutralTool } from '../../runtime/targets/index.js';
import { cachedPrefixOracle } from './cache-oracle.js';
import { ann, getForecast, getTime, readFile, rendered, runQuery, TARGET_LIST, toolHistory } from './fixtures.js';

function input<T extends Target>(target: T, over: Partial<TargetCompileInput> = {}): TargetCompileInput & { target: T } {
  return {
    target,
    system: 'Sys.',
    messages: toolHistory,
    stable: rendered(target, [readFile, getTime]),
    loaded: [],
    directoryXml: '<available_toolkits>\n  <toolkit name="Weather" tools="get_forecast">Forecasts</toolkit>\n</available_toolkits>',
    announcements: [],
    ...over,
  } as TargetCompileInput & { target: T };
}

/** The names of a payload's tools, per target's shape. */
function toolNames(payload: unknown): string[] {
  const p = payload as { tools?: unknown[]; config?: { tools?: Array<{ functionDeclarations: unknown[] }> } };
  const tools = p.tools ?? p.config?.tools?.[0]?.functionDeclarations ?? [];
  return tools.map((t) => {
    const r = t as { name?: string; type?: string; function?: { name: string } };
    return r.function?.name ?? r.name ?? r.type ?? '?';
  });
}

describe('payload shape', () => {
  it('directory XML goes into the system text after the caller’s system', () => {
    const payload = compileForTarget(input('anthropic'));
    expect(payload.system).toBe(`Sys.\n\nLead system.\n\n${input('anthropic').directoryXml}`);
  });

  it('omits empty keys: no system, no tools', () => {
    const empty = { system: '', messages: [{ role: 'user', content: 'hi' }] as NeutralMessage[], stable: [], directoryXml: '' };
    expect(compileForTarget(input('anthropic', empty))).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(compileForTarget(input('openai', empty))).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(compileForTarget(input('openai-responses', empty))).toEqual({ input: [{ role: 'user', content: 'hi' }] });
    expect(compileForTarget(input('gemini', empty))).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], config: {} });
  });

  it('tools: search tool, stable prefix, deferred, then loaded — appended, never inserted', () => {
    for (const target of TARGET_LIST) {
      const payload = compileForTarget(
        input(target, {
          stable: rendered(target, [readFile, getTime]),
          deferred: rendered(target, [getForecast]),
          loaded: rendered(target, [runQuery]),
          ...(target === 'anthropic' || target === 'openai-responses' ? { options: { toolSearch: true } } : {}),
        }),
      );
      const search = target === 'anthropic' ? ['tool_search_tool_regex'] : target === 'openai-responses' ? ['tool_search'] : [];
      expect(toolNames(payload)).toEqual([...search, 'read_file', 'get_time', 'get_forecast', 'run_query']);
    }
  });

  it('toolSearch: regex / bm25 on Anthropic, tool_search on Responses, a warning elsewhere', () => {
    const bm25 = compileForTarget(input('anthropic', { options: { toolSearch: 'bm25' } }));
    expect(bm25.tools?.[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    for (const target of ['openai', 'gemini'] as const) {
      const codes: TargetWarningCode[] = [];
      const payload = compileForTarget(input(target, { options: { toolSearch: true, onWarning: (_m, c) => codes.push(c) } }));
      expect(toolNames(payload)).toEqual(['read_file', 'get_time']);
      expect(codes).toEqual(['tool-search-unsupported']);
    }
  });

  it('a loaded tool already in the request is not sent twice', () => {
    const codes: TargetWarningCode[] = [];
    const payload = compileForTarget(input('openai', { loaded: rendered('openai', [getTime, runQuery]), options: { onWarning: (_m, c) => codes.push(c) } }));
    expect(toolNames(payload)).toEqual(['read_file', 'get_time', 'run_query']);
    expect(codes).toEqual(['duplicate-tool-name']);
  });

  it('is deterministic: identical input, identical bytes', () => {
    for (const target of TARGET_LIST) {
      const make = () => JSON.stringify(compileForTarget(input(target, { announcements: [ann('a', 'A'), ann('b', 'B', 'system')] })));
      expect(make()).toBe(make());
    }
  });
});

describe('cache key', () => {
  it('is a sha256 of the canonical cached prefix, memoized on the tools array', () => {
    const stable = rendered('anthropic', [readFile]);
    const a = compileForTarget(input('anthropic', { stable }));
    const b = compileForTarget(input('anthropic', { stable }));
    expect(cacheKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(stablePrefixOf(a)).toBe(stablePrefixOf(b));
    expect(stablePrefixOf(a)?.serialized).toBe(canonicalJson({ v: 2, target: 'anthropic', tools: stable, system: a.system }));
    expect(cacheKey({ ...a })).toBeUndefined();
  });

  it('changes when the stable prefix changes (the key can fail)', () => {
    for (const target of TARGET_LIST) {
      const key = cacheKey(compileForTarget(input(target)));
      expect(cacheKey(compileForTarget(input(target, { system: 'Other.' })))).not.toBe(key);
      expect(cacheKey(compileForTarget(input(target, { stable: rendered(target, [readFile]) })))).not.toBe(key);
      expect(cacheKey(compileForTarget(input(target, { directoryXml: '' })))).not.toBe(key);
    }
    expect(cacheKey(compileForTarget(input('anthropic', { options: { toolSearch: true } })))).not.toBe(cacheKey(compileForTarget(input('anthropic'))));
  });

  // The key follows the bytes the provider caches: loaded tools, and deferred tools Chat and Gemini send in full, count.
  it('follows the cached bytes: tools as sent (Anthropic drops deferred ones), system as sent; never announcements at the tail or messages', () => {
    for (const target of TARGET_LIST) {
      const stable = rendered(target, [readFile, getTime]);
      const base = compileForTarget(input(target, { stable }));
      const key = cacheKey(base);
      const variants: Array<{ over: Partial<TargetCompileInput>; changes: boolean }> = [
        // Deferred tools: kept out of the prefix by Anthropic only; Responses shows their name and description, Chat and Gemini send them in full.
        { over: { deferred: rendered(target, [getForecast]) }, changes: target !== 'anthropic' },
        // Loaded tools appended to `tools` (the `append` strategy) are in the prefix everywhere (run_query is not deferred).
        { over: { loaded: rendered(target, [runQuery, getForecast]) }, changes: true },
        { over: { announcements: [ann('a', 'A'), ann('s', 'S', 'system'), ann('t', 'T', 'user_tail')] }, changes: false },
        // No tail: on Anthropic the system-channel block is hoisted into `system`, which is in the prefix.
        { over: { messages: [toolHistory[0]!], announcements: [ann('s', 'S', 'system')] }, changes: target === 'anthropic' },
        // Another conversation (its leading system message is system text, so it stays the same).
        { over: { messages: [toolHistory[0]!, { role: 'user', content: 'another conversation' }] }, changes: false },
      ];
      for (const { over, changes } of variants) {
        const payload = compileForTarget(input(target, { stable, ...over }));
        expect(cacheKey(payload) !== key, `${target} ${JSON.stringify(Object.keys(over))}`).toBe(changes);
        expect(cachedPrefixOracle(target, payload) !== cachedPrefixOracle(target, base)).toBe(changes);
      }
    }
    // Anthropic: a deferred tool left in `stable` is recognized by defer_loading and left out; on Responses it counts.
    const withDeferred = (target: 'anthropic' | 'openai-responses') => compileForTarget(input(target, { stable: rendered(target, [readFile, getForecast, getTime]) }));
    expect(cacheKey(withDeferred('anthropic'))).toBe(cacheKey(compileForTarget(input('anthropic'))));
    expect(cacheKey(withDeferred('openai-responses'))).not.toBe(cacheKey(compileForTarget(input('openai-responses'))));
    // A breakpoint marker is not content.
    expect(cacheKey(compileForTarget(input('anthropic', { options: { cacheBreakpoints: ['tools'] } })))).toBe(cacheKey(compileForTarget(input('anthropic'))));
  });

  it('100 turns of blocking, announcing, retracting, loading toolkits and adding deferred tools: the key changes exactly when the cached bytes do', () => {
    for (const target of TARGET_LIST) {
      const stable = rendered(target, [readFile, getTime]);
      const store = new AnnouncementStore();
      const toolkits = [getForecast, runQuery].map((t) => renderTool(target, t, { openaiStrict: false }));
      const deferredPool: NeutralTool[] = Array.from({ length: 20 }, (_, i) => ({ ...getForecast, name: `deferred_${i}` }));
      let loaded: unknown[] = [];
      let deferred: unknown[] = [];
      const blocked = new Set<string>();
      const messages: NeutralMessage[] = [{ role: 'user', content: 'start' }];
      let previous: { key: string | undefined; oracle: string } | undefined;
      const seen = { same: 0, changed: 0 };
      const ops = fc.sample(fc.integer({ min: 0, max: 5 }), { numRuns: 100, seed: 42 });
      ops.forEach((op, turn) => {
        if (op === 0) blocked.has('read_file') ? blocked.delete('read_file') : blocked.add('read_file'); // gate only: tools never change
        if (op === 1) store.announce(`a${turn % 3}`, `turn ${turn}`, { channel: (['auto', 'system', 'user_tail'] as const)[turn % 3] });
        if (op === 2) store.retract(`a${turn % 3}`);
        if (op === 3 && loaded.length < toolkits.length) loaded = [...loaded, toolkits[loaded.length]];
        if (op === 4) deferred = [...deferred, renderTool(target, deferredPool[deferred.length % 20]!, { openaiStrict: false })];
        if (op === 5) messages.push({ role: 'assistant', content: `reply ${turn}` }, { role: 'user', content: `next ${turn}` });
        const payload = compileForTarget(input(target, { stable, messages, loaded, deferred, announcements: store.list(), ...(target === 'anthropic' ? { options: { toolSearch: true } } : {}) }));
        const now = { key: cacheKey(payload), oracle: cachedPrefixOracle(target, payload) };
        if (previous !== undefined) {
          expect(now.key === previous.key, `${target} turn ${turn}`).toBe(now.oracle === previous.oracle);
          seen[now.key === previous.key ? 'same' : 'changed']++;
        }
        previous = now;
        // The stable tools lead, unchanged; everything loaded comes after them.
        const names = toolNames(payload).filter((n) => !n.startsWith('tool_search'));
        expect(names.slice(0, 2)).toEqual(['read_file', 'get_time']);
      });
      // Both directions were exercised.
      expect(seen.same).toBeGreaterThan(10);
      expect(seen.changed).toBeGreaterThan(0);
      expect(previous?.key).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('Anthropic rules that would be a 400', () => {
  const deferredOnly = () => rendered('anthropic', [getForecast]);

  it('at least one non-deferred tool', () => {
    expect(() => compileForTarget(input('anthropic', { stable: deferredOnly() }))).toThrow(ToolrouteConfigError);
    expect(() => compileForTarget(input('anthropic', { stable: deferredOnly() }))).toThrow(/anthropic-all-tools-deferred: .*at least one non-deferred tool\. Fix: pass options\.toolSearch/);
    // The search tool is a non-deferred tool: this is the documented tool-search setup.
    expect(() => compileForTarget(input('anthropic', { stable: deferredOnly(), options: { toolSearch: true } }))).not.toThrow();
    // Other targets have no such rule.
    expect(() => compileForTarget(input('openai-responses', { stable: rendered('openai-responses', [getForecast]) }))).not.toThrow();
  });

  it('a search tool is never deferred', () => {
    const stable = [{ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex', defer_loading: true }, ...rendered('anthropic', [readFile])];
    expect(() => compileForTarget(input('anthropic', { stable }))).toThrow(/anthropic-search-tool-deferred: the tool-search tool 'tool_search_tool_regex' has defer_loading: true.*Fix: remove defer_loading/);
  });

  it('no cache_control on a deferred tool', () => {
    const stable = [...rendered('anthropic', [readFile]), { ...renderTool('anthropic', getForecast, { openaiStrict: false }), cache_control: { type: 'ephemeral' } }];
    expect(() => compileForTarget(input('anthropic', { stable, options: { toolSearch: true } }))).toThrow(/anthropic-deferred-cache-control: tool 'get_forecast'.*Fix: remove cache_control/);
  });

  it('at most 4 cache breakpoints, counting those already on tools', () => {
    const messages: NeutralMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: 'd' },
      { role: 'user', content: 'e' },
    ];
    const four = compileForTarget(input('anthropic', { messages, options: { cacheBreakpoints: ['tools', 'system', { message: 0 }, { message: 2 }] } }));
    expect(four.tools?.[1]).toMatchObject({ name: 'get_time', cache_control: { type: 'ephemeral' } });
    expect(four.system).toEqual([{ type: 'text', text: expect.any(String), cache_control: { type: 'ephemeral' } }]);
    expect(four.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] });
    expect(() => compileForTarget(input('anthropic', { messages, options: { cacheBreakpoints: ['tools', 'system', { message: 0 }, { message: 2 }, { message: 4 }] } }))).toThrow(
      /anthropic-too-many-breakpoints: the request carries 5 cache_control breakpoints; Anthropic allows at most 4/,
    );
    const preMarked = [{ ...renderTool('anthropic', readFile, { openaiStrict: false }), cache_control: { type: 'ephemeral' } }];
    expect(() => compileForTarget(input('anthropic', { stable: preMarked, messages, options: { cacheBreakpoints: ['system', { message: 0 }, { message: 2 }, { message: 4 }] } }))).toThrow(ToolrouteConfigError);
  });

  it('the tools breakpoint skips deferred tools; bad breakpoints are named', () => {
    const payload = compileForTarget(input('anthropic', { stable: rendered('anthropic', [readFile, getForecast]), options: { toolSearch: true, cacheBreakpoints: ['tools'] } }));
    expect(payload.tools?.map((t) => 'cache_control' in t)).toEqual([false, true, false]);
    expect(() => compileForTarget(input('anthropic', { options: { cacheBreakpoints: [{ message: 99 }] } }))).toThrow(/cache-breakpoint-target: .*\{"message":99\} names nothing/);
    expect(() => compileForTarget(input('anthropic', { options: { cacheBreakpoints: [{ message: 0 }] } }))).toThrow(/messages\[0\], which the request does not carry: a leading system message joins/);
    // A result answering no call is left out of the request: a breakpoint on it is named the same way, never called a system message.
    const orphan = [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'gone', content: 'noon' }, { role: 'user', content: 'and now?' }] as const;
    expect(() => compileForTarget(input('anthropic', { messages: orphan, options: { cacheBreakpoints: [{ message: 1 }] } }))).toThrow(/messages\[1\], which the request does not carry: .*a tool result answering no call/);
    expect(() => compileForTarget(input('anthropic', { system: '', messages: [], directoryXml: '', options: { cacheBreakpoints: ['system'] } }))).toThrow(/no system text/);
    // Other targets cache automatically: breakpoints are ignored there.
    expect(JSON.stringify(compileForTarget(input('openai', { options: { cacheBreakpoints: ['tools'] } })))).not.toContain('cache_control');
  });

  it('warns when deferred tools have no search tool to find them', () => {
    const codes: TargetWarningCode[] = [];
    compileForTarget(input('anthropic', { deferred: rendered('anthropic', [getForecast]), options: { onWarning: (_m, c) => codes.push(c) } }));
    expect(codes).toEqual(['anthropic-deferred-without-search']);
    // Responses too: a deferred function, or a namespace's, is hidden until a tool_search finds it.
    const heard: TargetWarningCode[] = [];
    compileForTarget(input('openai-responses', { stable: rendered('openai-responses', [readFile, getForecast]), options: { onWarning: (_m, c) => heard.push(c) } }));
    expect(heard).toEqual(['responses-deferred-without-search']);
    compileForTarget(input('openai-responses', { stable: rendered('openai-responses', [readFile, getForecast]), options: { toolSearch: true, onWarning: (_m, c) => heard.push(c) } }));
    compileForTarget(input('openai-responses', { stable: rendered('openai-responses', [readFile]), options: { onWarning: (_m, c) => heard.push(c) } }));
    expect(heard).toEqual(['responses-deferred-without-search']);
  });
});

describe('cacheAudit', () => {
  const messages: NeutralMessage[] = [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: 'b' },
    { role: 'user', content: 'c' },
  ];
  const audit = (over: Partial<TargetCompileInput>, breakpoints: Array<'system' | { message: number }>): string[] => {
    const warnings: string[] = [];
    compileForTarget(input('anthropic', { messages, ...over, options: { cacheAudit: true, cacheBreakpoints: breakpoints, onWarning: (m, c) => c === 'cache-audit' && warnings.push(m) } }));
    return warnings;
  };

  it('flags an <announcements> block at the last breakpoint', () => {
    expect(audit({ announcements: [ann('t', 'T', 'user_tail')] }, [{ message: 2 }])).toEqual([
      expect.stringMatching(/messages\[2\] carries the final cache_control breakpoint and an <announcements> block/),
    ]);
  });

  it('flags a hoisted block before a later breakpoint', () => {
    const warnings: string[] = [];
    compileForTarget(input('anthropic', {
      messages: [{ role: 'assistant', content: 'prefill' }],
      announcements: [ann('s', 'S', 'system')],
      options: { cacheAudit: true, cacheBreakpoints: [{ message: 0 }], onWarning: (m, c) => c === 'cache-audit' && warnings.push(m) },
    }));
    expect(warnings).toEqual([expect.stringMatching(/system\[1\] sits inside the cached prefix/)]);
  });

  it('is quiet when the breakpoint precedes the announcements', () => {
    expect(audit({ announcements: [ann('t', 'T', 'user_tail'), ann('s', 'S', 'system')] }, [{ message: 0 }, 'system'])).toEqual([]);
  });
});
