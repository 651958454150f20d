/**
 * "The first turn" per target: a flat tool registered after a target's first compile reaches the model without
 * changing `tools` (where the strategy has a way). The boundary survives `snapshot()` / `restore()` into a new router
 * (the same history compiles to the same cached prefix, measured in each provider's cache order), and only a compile
 * fixes it: asking `allowedToolNames` first does not.
 */
import { describe, expect, it } from 'vitest';
import { cacheReuse, TARGETS, type NeutralMessage, type RouterOptions } from '../../runtime/index.js';
import { exampleRouter } from '../runtime/helpers.js';

const ping = [{ name: 'ping', description: 'Ping a host', parameters: { type: 'object', properties: { host: { type: 'string' } } }, handler: () => 'pong' }];
const optionsFor = (target: string): RouterOptions => (target === 'anthropic' ? { toolkitLoading: 'tool-changes', model: 'claude-opus-4-8' } : {});
const toolNames = (payload: unknown): string[] => JSON.stringify(payload).match(/"name":"[^"]+"/g) ?? [];

describe('the first turn of each target', () => {
  it.each(TARGETS)('%s: a snapshot keeps it, so a restored router compiles the same history to the same cached prefix', (target) => {
    const history: NeutralMessage[] = [{ role: 'user', content: 'hi' }];
    const { router: first } = exampleRouter(optionsFor(target));
    first.compile({ target, system: 'S', messages: history });
    first.registerTools(ping);
    history.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'ping it' });
    const before = first.compile({ target, system: 'S', messages: history });
    const saved = JSON.parse(JSON.stringify(first.snapshot())) as unknown;
    expect(saved).toMatchObject({ firstTurn: { [target]: [] } });

    // The process restarts: a new router, the run-time tool registered again, the state restored.
    const { router: second } = exampleRouter(optionsFor(target));
    second.registerTools(ping);
    second.restore(saved);
    const after = second.compile({ target, system: 'S', messages: history });
    expect(cacheReuse(target, before, after).full, JSON.stringify(cacheReuse(target, before, after).firstMismatch)).toBe(true);
    expect(toolNames(after)).toEqual(toolNames(before));
  });

  it.each(TARGETS)('%s: a compile that throws does not end the first turn', (target) => {
    const { router } = exampleRouter(optionsFor(target));
    expect(() => router.compile({ target, messages: [{ role: 'user', content: 'hi' }], tools: ['get_tme'] as never })).toThrow(/"get_tme" in `tools` is not a tool/);
    expect(router.snapshot().firstTurn).toEqual({});
    router.registerTools(ping);
    const payload = router.compile({ target, messages: [{ role: 'user', content: 'hi' }] });
    const sent = target === 'gemini' ? JSON.stringify((payload as { config: unknown }).config) : JSON.stringify((payload as { tools: unknown }).tools);
    expect(sent).toContain('"ping"');
    expect(router.snapshot().firstTurn).toEqual({ [target]: ['ping'] });
  });

  it('allowedToolNames before the first compile does not end the first turn', () => {
    const { router } = exampleRouter();
    router.allowedToolNames({ target: 'openai' });
    router.registerTools(ping);
    const payload = router.compile({ target: 'openai', messages: [{ role: 'user', content: 'hi' }] });
    expect((payload.tools ?? []).map((t) => ('function' in t ? t.function.name : ''))).toContain('ping');
    expect(router.snapshot().firstTurn).toEqual({ openai: ['ping'] });
  });

  it('a snapshot whose firstTurn is not targets to tool names is refused, changing nothing', () => {
    const { router } = exampleRouter();
    const good = router.snapshot();
    for (const firstTurn of [[], { mars: [] }, { openai: 'ping' }, { openai: [1] }]) {
      expect(() => router.restore({ ...good, firstTurn }), JSON.stringify(firstTurn)).toThrow(/`firstTurn` must map targets/);
    }
    // Absent (a snapshot from before any compile, or from the reference library) is no first turn yet.
    const { firstTurn: _, ...without } = good;
    expect(() => router.restore(without)).not.toThrow();
  });
});
