/**
 * The target table: one adapter per target, a missing one (or a missing
 * member) is a compile error, and each adapter does what the shared code
 * relies on. The `@ts-expect-error` lines are checked by `tsc -p .` (part of
 * `npm test`); each has a twin that compiles, so the errors are about the
 * thing named and not about something else on the line.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { TARGETS, type Target } from '../../runtime/contract.js';
import type { TargetAdapter, TargetAdapterTable } from '../../runtime/targets/adapter.js';
import { anthropic } from '../../runtime/targets/anthropic.js';
import { compileForTarget } from '../../runtime/targets/compile.js';
import { gemini } from '../../runtime/targets/gemini.js';
import { adapterFor, renderTool, TARGET_ADAPTERS } from '../../runtime/targets/index.js';
import { openaiResponses } from '../../runtime/targets/openai-responses.js';
import { openai } from '../../runtime/targets/openai.js';
import type { AnthropicPayload, GeminiPayload, OpenAIChatPayload, ResponsesPayload } from '../../runtime/targets/types.js';
import { getForecast, readFile, toolHistory } from './fixtures.js';

// ─── Type level ──────────────────────────────────────────────────────────────

// The twin: the full table satisfies the table type.
const full = { anthropic, openai, 'openai-responses': openaiResponses, gemini } satisfies TargetAdapterTable;

// @ts-expect-error a table without gemini is not a TargetAdapterTable
const missing = { anthropic, openai, 'openai-responses': openaiResponses } satisfies TargetAdapterTable;

// @ts-expect-error an adapter under another target's key does not fit (its `target` and shapes differ)
const swapped = { anthropic: openai, openai: anthropic, 'openai-responses': openaiResponses, gemini } satisfies TargetAdapterTable;

// An adapter with a member left out.
const { buildPayload: geminiPayload, ...withoutPayload } = gemini;
// @ts-expect-error `buildPayload` is required
const incomplete: TargetAdapter<'gemini'> = withoutPayload;
const complete: TargetAdapter<'gemini'> = { ...withoutPayload, buildPayload: geminiPayload };

// A native mode brings its tool forms: `deferred` without `unloadedTool`, or `tool-search` without `loadedTool`, does not compile.
// @ts-expect-error a `deferred` target must say how a toolkit tool is sent before its load
const deferredBare: TargetAdapter<'anthropic'>['toolkitLoading'] = { native: 'deferred' };
const deferredFull: TargetAdapter<'anthropic'>['toolkitLoading'] = { native: 'deferred', unloadedTool: (tool) => ({ ...tool, defer_loading: true }) };
// @ts-expect-error a `tool-search` target must say how a load's result carries a tool
const searchBare: TargetAdapter<'openai-responses'>['toolkitLoading'] = { native: 'tool-search', loaderTool: () => ({ type: 'tool_search' }) };
const searchFull: TargetAdapter<'openai-responses'>['toolkitLoading'] = { native: 'tool-search', loaderTool: () => ({ type: 'tool_search' }), loadedTool: (tool) => tool };

describe('the target table', () => {
  it('is typed by target', () => {
    expectTypeOf(TARGET_ADAPTERS.gemini).toEqualTypeOf<TargetAdapter<'gemini'>>();
    expectTypeOf(adapterFor('anthropic')).toEqualTypeOf<TargetAdapter<'anthropic'>>();
    expectTypeOf<keyof typeof TARGET_ADAPTERS>().toEqualTypeOf<Target>();
    expectTypeOf<ReturnType<TargetAdapter<'openai'>['buildPayload']>>().toEqualTypeOf<OpenAIChatPayload>();
    expect([missing, swapped, incomplete, complete, full, deferredBare, deferredFull, searchBare, searchFull].length).toBe(9);
  });

  it('has exactly one adapter per exported target, under its own name, and is frozen', () => {
    expect(Object.keys(TARGET_ADAPTERS)).toEqual([...TARGETS]);
    for (const target of TARGETS) {
      expect(TARGET_ADAPTERS[target].target).toBe(target);
      expect(adapterFor(target)).toBe(TARGET_ADAPTERS[target]);
    }
    expect(Object.isFrozen(TARGET_ADAPTERS)).toBe(true);
  });

  it('fails loudly for a name that is not a target, inherited names included', () => {
    for (const name of ['cohere', 'neutral', '__proto__', 'toString', '']) {
      expect(() => adapterFor(name as Target)).toThrow(/unknown target .*expected one of 'anthropic', 'openai', 'openai-responses', 'gemini'/);
    }
    expect(() => renderTool('cohere' as Target, readFile, { openaiStrict: false })).toThrow(TypeError);
  });
});

describe('every adapter', () => {
  for (const target of TARGETS) {
    const adapter: TargetAdapter<Target> = TARGET_ADAPTERS[target];

    it(`${target}: names its own rendered tools, namespaces and loader`, () => {
      for (const kind of ['tool', 'namespace', 'loader'] as const) {
        const tool = { ...readFile, kind, name: `${kind}_x` };
        expect(adapter.toolName(renderTool(target, tool, { openaiStrict: true }))).toBe(`${kind}_x`);
      }
      expect(adapter.toolName(null)).toBeUndefined();
      expect(adapter.toolName({ name: 1, function: { name: 2 } })).toBeUndefined();
    });

    it(`${target}: renderTool(form, …) is the adapter's renderer, for every kind of tool`, () => {
      const options = { openaiStrict: true };
      for (const tool of [readFile, { ...readFile, kind: 'namespace' as const }, { ...getForecast, kind: 'loader' as const }]) {
        expect(renderTool(target, tool, options)).toEqual(adapter.render(tool, options));
      }
    });

    it(`${target}: compile sends the history's calls and results in the target's message field`, () => {
      const payload = compileForTarget({ target, messages: toolHistory, stable: [], loaded: [], directoryXml: '', announcements: [] });
      const sent = {
        anthropic: () => (payload as AnthropicPayload).messages,
        openai: () => (payload as OpenAIChatPayload).messages,
        'openai-responses': () => (payload as ResponsesPayload).input,
        gemini: () => (payload as GeminiPayload).contents,
      }[target]();
      expect(sent.length).toBeGreaterThan(2);
      for (const text of ['read_file', 'get_time', 'export {}', '2026-01-01T00:00:00Z']) expect(JSON.stringify(sent)).toContain(text);
    });

    it(`${target}: declares its placement and system rules with known values`, () => {
      expect(['system', 'user_tail']).toContain(adapter.announcements.auto);
      expect(['hoist', 'before-prefill']).toContain(adapter.announcements.withoutTail);
      expect(['all', 'leading']).toContain(adapter.systemMessages);
      // Every adapter says what `native` toolkit loading means there.
      expect(['deferred', 'tool-search', 'dispatcher']).toContain(adapter.toolkitLoading.native);
      // Reading responses back (fromProvider): the envelope is the adapter's to recognise; any object of it gives a list.
      expect(adapter.response.name).toMatch(/^an? .*`\w+`/);
      expect(adapter.response.is({})).toBe(false);
      expect(adapter.readResponse({})).toEqual(expect.any(Array));
    });
  }

  it('native toolkit loading: the forms the router sends are memoized, frozen and do what the mode means', () => {
    const tool = anthropic.render({ ...readFile, kind: 'tool' }, { openaiStrict: false });
    const loading = adapterFor('anthropic').toolkitLoading;
    expect(loading.native).toBe('deferred');
    if (loading.native !== 'deferred') return;
    const unloaded = loading.unloadedTool(tool);
    expect(unloaded).toEqual({ ...tool, defer_loading: true });
    expect(loading.unloadedTool(tool)).toBe(unloaded);
    expect(Object.isFrozen(unloaded)).toBe(true);
    expect(tool).not.toHaveProperty('defer_loading');

    const responses = adapterFor('openai-responses').toolkitLoading;
    expect(responses.native).toBe('tool-search');
    if (responses.native !== 'tool-search') return;
    const deferredFn = openaiResponses.render({ ...readFile, kind: 'tool', deferLoading: true }, { openaiStrict: false });
    expect(deferredFn.defer_loading).toBe(true);
    const loaded = responses.loadedTool(deferredFn);
    expect(loaded).toEqual(Object.fromEntries(Object.entries(deferredFn).filter(([k]) => k !== 'defer_loading')));
    expect(responses.loadedTool(deferredFn)).toBe(loaded);
    const loader = openaiResponses.render({ ...getForecast, kind: 'loader' }, { openaiStrict: false });
    expect(responses.loaderTool(loader)).toEqual({ type: 'tool_search', execution: 'client', description: loader.description, parameters: loader.parameters });
    expect(responses.loaderTool(loader)).toBe(responses.loaderTool(loader));
    // The dispatcher targets have no forms of their own.
    expect(Object.keys(adapterFor('openai').toolkitLoading)).toEqual(['native']);
    expect(Object.keys(adapterFor('gemini').toolkitLoading)).toEqual(['native']);
  });

  it('search tools are per-target constants (one identity, frozen) where the target has one', () => {
    expect(TARGETS.filter((t) => TARGET_ADAPTERS[t].searchTool !== undefined)).toEqual(['anthropic', 'openai-responses']);
    expect(anthropic.searchTool?.('regex')).toBe(anthropic.searchTool?.(true));
    expect(anthropic.searchTool?.('bm25')).not.toBe(anthropic.searchTool?.('regex'));
    expect(Object.isFrozen(openaiResponses.searchTool?.(true))).toBe(true);
  });
});
