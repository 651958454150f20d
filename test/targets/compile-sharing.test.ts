/**
 * A turn's compile shares the router's frozen, pre-rendered arrays instead of
 * copying them, and memoizes per-array facts (runtime/targets/compile.ts
 * `assembleTools`, `toolFacts`; runtime/cache-key.ts identity fast path).
 * These tests hold the sharing to account: nothing shared is ever mutated,
 * and memoized answers equal freshly computed ones.
 */
import { describe, expect, test } from 'vitest';
import { cacheKey } from '../../runtime/cache-key.js';
import { compileForTarget, ToolrouteConfigError, type TargetCompileInput } from '../../runtime/targets/compile.js';
import type { Target } from '../../runtime/contract.js';
import { renderTool } from '../../runtime/targets/index.js';
import { exampleRouter } from '../runtime/helpers.js';
import { deepFreeze, getForecast, getTime, readFile, rendered, TARGET_LIST } from './fixtures.js';

const messages = [{ role: 'user' as const, content: 'hi' }];

function input<T extends Target>(target: T, over: Partial<TargetCompileInput> = {}): TargetCompileInput & { target: T } {
  return { target, messages, stable: rendered(target, [readFile, getTime]), loaded: [], directoryXml: '', announcements: [], ...over } as TargetCompileInput & {
    target: T;
  };
}

describe('router.compile shares frozen arrays', () => {
  test('compile() is one frozen result until a registration changes the structure', () => {
    const { router } = exampleRouter();
    const a = router.compile();
    expect(router.compile()).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.tools)).toBe(true);
    const names = a.tools.map((t) => t.name);
    router.registerNamespaces([{ name: 'git', description: 'Git', tools: [{ name: 'git_status', description: 'Status' }] }]);
    const b = router.compile();
    expect(b).not.toBe(a);
    // Namespaces first (the new one last among them), then the flat tool in no namespace, then the loader.
    expect(names).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
    expect(b.tools.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'git', 'get_time', 'load_toolkit']);
    expect(a.tools.map((t) => t.name)).toEqual(names);
  });

  test.each(TARGET_LIST)('%s: a cache breakpoint on tools never leaks into the shared array or later compiles', (target) => {
    const { router } = exampleRouter();
    const before = JSON.stringify(router.compile({ target, messages }));
    const marked = router.compile({ target, messages, options: { cacheBreakpoints: ['tools'] } });
    if (target === 'anthropic') expect(JSON.stringify(marked)).toContain('cache_control');
    expect(JSON.stringify(router.compile({ target, messages }))).toBe(before);
    expect(before).not.toContain('cache_control');
  });

  test('loading a toolkit appends its tools; the shared prefix is unchanged', () => {
    // The `append` toolkit-loading strategy (native loading is the default).
    const { router } = exampleRouter({ toolkitLoading: 'append' });
    const first = router.compile({ target: 'anthropic', messages }) as { tools: { name: string }[] };
    const prefix = first.tools.map((t) => t.name);
    router.extractToolkit('Weather');
    const second = router.compile({ target: 'anthropic', messages }) as { tools: { name: string }[] };
    expect(second.tools.slice(0, prefix.length).map((t) => t.name)).toEqual(prefix);
    expect(second.tools.length).toBeGreaterThan(prefix.length);
    expect(first.tools.map((t) => t.name)).toEqual(prefix);
  });
});

describe('compileForTarget with frozen inputs', () => {
  test.each(TARGET_LIST)('%s: a frozen stable array is sent as is; a mutable one is copied', (target) => {
    const frozen = deepFreeze([...rendered(target, [readFile, getTime])]);
    const shared = compileForTarget(input(target, { stable: frozen })) as { tools?: unknown[]; config?: { tools?: { functionDeclarations: unknown[] }[] } };
    const sent = shared.tools ?? shared.config?.tools?.[0]?.functionDeclarations;
    expect(sent).toBe(frozen);
    const mutable = [...rendered(target, [readFile, getTime])];
    const copied = compileForTarget(input(target, { stable: mutable })) as typeof shared;
    const sentCopy = copied.tools ?? copied.config?.tools?.[0]?.functionDeclarations;
    expect(sentCopy).not.toBe(mutable);
    expect(sentCopy).toEqual(mutable);
  });

  test('Anthropic rules give the same answer on every compile of the same frozen array', () => {
    const deferredCached = deepFreeze([
      ...rendered('anthropic', [readFile]),
      { ...renderTool('anthropic', getForecast, { openaiStrict: false }), cache_control: { type: 'ephemeral' } },
    ]);
    const allDeferred = deepFreeze([...rendered('anthropic', [getForecast])]);
    for (let turn = 0; turn < 3; turn++) {
      expect(() => compileForTarget(input('anthropic', { stable: deferredCached, options: { toolSearch: true } }))).toThrow(/anthropic-deferred-cache-control: tool 'get_forecast'/);
      expect(() => compileForTarget(input('anthropic', { stable: allDeferred }))).toThrow(ToolrouteConfigError);
      expect(() => compileForTarget(input('anthropic', { stable: allDeferred, options: { toolSearch: true } }))).not.toThrow();
    }
    const warnings: string[] = [];
    for (let turn = 0; turn < 2; turn++) {
      compileForTarget(input('anthropic', { stable: deepFreeze([...rendered('anthropic', [readFile, getForecast])]), options: { onWarning: (_m, c) => warnings.push(c) } }));
    }
    expect(warnings).toEqual(['anthropic-deferred-without-search', 'anthropic-deferred-without-search']);
  });

  test('the cache key is the same for an equal system text in a fresh string, and differs for another one', () => {
    const stable = deepFreeze([...rendered('anthropic', [readFile, getTime])]);
    const system = (s: string) => compileForTarget(input('anthropic', { stable, system: `${s}`, directoryXml: '<available_toolkits/>' }));
    const a = cacheKey(system(['You', 'are', 'terse.'].join(' ')));
    expect(cacheKey(system(['You', 'are', 'terse.'].join(' ')))).toBe(a);
    expect(cacheKey(system('You are verbose.'))).not.toBe(a);
    expect(cacheKey(system(['You', 'are', 'terse.'].join(' ')))).toBe(a);
  });
});
