/**
 * Library-owned tools keep the prompt cache, proved on the bytes each real
 * SDK client sends. A router with two library tools
 * (examples/memory-tools.ts) goes through scripted turns that block and
 * unblock tools (the library tools among them), load toolkits (through
 * `dispatch` in several call shapes, and `handleTool`), unload them
 * (restore), call the library tools and announce; every turn compiles for
 * each of the four targets, under each toolkit-loading strategy, and sends
 * the payload through the official client to a local server on 127.0.0.1
 * that records the request body. For every target and strategy:
 *
 * - the library tools are in the recorded `tools` at the same index on every
 *   turn, byte for byte the same, right after `load_toolkit` (and the
 *   dispatcher where it is sent);
 * - everything in the recorded `tools` up to the last library tool is the
 *   same bytes on every turn (loaded toolkit tools only ever come after);
 * - under `native` and `dispatcher` the whole cached prefix (tools as the
 *   provider caches them, tool choice, system text) never changes, so
 *   `cacheKey` is one value for the whole run;
 * - the recorded body is the payload (the SDK sends the frozen tools unchanged).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as gen from '../../generated/index.js';
import { memoryTools } from '../../examples/memory-tools.js';
import { createRouter, type NeutralMessage, type Target } from '../../runtime/index.js';
import { TOOLKIT_LOADING_STRATEGIES } from '../../runtime/toolkit-loading.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { cachedPrefixOracle } from './cache-oracle.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';
import { rng } from './rng.js';

const TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];
const TURNS = 24;
const LIBRARY: readonly string[] = ['remember', 'recall'];
const LIBRARY_NAMES = ['remember', 'recall'] as const;

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
const send = (target: Target, payload: object) => server.send(target, payload);

/** The recorded request's tools, as sent. */
function sentTools(target: Target, body: Record<string, unknown>): Array<Record<string, unknown>> {
  if (target === 'gemini') return ((body['tools'] as Array<{ functionDeclarations?: unknown[] }> | undefined)?.[0]?.functionDeclarations ?? []) as Array<Record<string, unknown>>;
  return (body['tools'] as Array<Record<string, unknown>> | undefined) ?? [];
}

function toolName(target: Target, tool: Record<string, unknown>): string {
  if (target === 'openai') return String((tool['function'] as { name?: string } | undefined)?.name ?? tool['type']);
  return String(tool['name'] ?? tool['type']);
}

/** The load_toolkit call in the call shapes the SDKs return. */
function loadCall(shape: number, toolkit: string, id: string): unknown {
  const args = { toolkit_name: toolkit };
  switch (shape % 4) {
    case 0: return { id, type: 'function', function: { name: 'load_toolkit', arguments: JSON.stringify(args) } };
    case 1: return { type: 'tool_use', id, name: 'load_toolkit', input: args };
    case 2: return { id, name: 'load_toolkit', args };
    default: return { type: 'function_call', call_id: id, name: 'load_toolkit', arguments: JSON.stringify(args) };
  }
}

describe('library tools keep their place and their bytes in every request the SDKs send', () => {
  test.each(TOOLKIT_LOADING_STRATEGIES.flatMap((strategy) => TARGETS.map((target) => [target, strategy] as const)))(
    '%s, toolkitLoading %s',
    async (target, strategy) => {
      const random = rng(20261201);
      const store = new Map<string, string>();
      const router = createRouter(gen, recordingHandlers().handlers, { toolkitLoading: strategy, libraryTools: memoryTools(store) });
      const blockable = [...gen.TOOL_NAMES, ...gen.NAMESPACE_NAMES, ...gen.TOOLKIT_NAMES, 'load_toolkit', ...LIBRARY_NAMES] as const;
      const history: NeutralMessage[] = [{ role: 'user', content: 'Start.' }];
      let reference: { index: number; library: string; through: string; oracle: string; key: string } | undefined;
      const seen = { blocked: 0, libraryBlocked: 0, loads: 0, unloads: 0, libraryCalls: 0, loadedSent: 0 };

      for (let turn = 0; turn < TURNS; turn++) {
        const op = turn === 0 ? -1 : Math.floor(random() * 6);
        if (op === 0) {
          const names = blockable.filter(() => random() < 0.3);
          router.setBlockedTools(turn % 3 === 0 ? [...names, 'recall' as const] : names);
          seen.blocked++;
          if (router.getBlockedTools().some((n) => LIBRARY.includes(n))) seen.libraryBlocked++;
        } else if (op === 1) {
          const toolkit = gen.TOOLKIT_NAMES[turn % gen.TOOLKIT_NAMES.length]!;
          const r = turn % 2 === 0 ? await router.dispatch(loadCall(turn, toolkit, `load_${turn}`)) : { ok: !router.handleTool({ name: 'load_toolkit', arguments: { toolkit_name: toolkit } }).startsWith('Error') };
          if (r.ok) seen.loads++;
        } else if (op === 2 && router.getLoadedToolkits().length > 0) {
          router.restore({ ...router.snapshot(), loaded: [] });
          seen.unloads++;
        } else if (op === 3) {
          const id = `m${turn}`;
          const call = { id, type: 'function' as const, function: { name: 'remember', arguments: JSON.stringify({ key: `k${turn}`, value: 'v' }) } };
          history.push({ role: 'assistant', content: null, tool_calls: [call] });
          history.push({ role: 'tool', tool_call_id: id, content: await router.handleTool(call) });
          seen.libraryCalls++;
        } else if (op === 4) {
          router.announce(`a${turn % 3}`, `State on turn ${turn}.`);
        } else {
          router.setBlockedTools([]);
        }
        history.push({ role: 'user', content: `Turn ${turn}.` });

        const payload = router.compile({ target, system: 'Be brief.', messages: history });
        const body = await send(target, payload);
        // The SDK sent the payload's tools unchanged.
        expect(JSON.stringify(sentTools(target, body))).toBe(JSON.stringify(sentTools(target, target === 'gemini' ? (payload as { config: Record<string, unknown> }).config : (payload as unknown as Record<string, unknown>))));

        const tools = sentTools(target, body);
        const names = tools.map((t) => toolName(target, t));
        const index = names.indexOf('remember');
        expect(names.slice(index, index + 2), `${target} turn ${turn}`).toEqual(LIBRARY);
        // Right after the library's own tools: load_toolkit (a tool_search on native Responses), and the dispatcher when sent.
        const before = names.slice(0, index);
        expect(['load_toolkit', 'tool_search', 'call_toolkit_tool']).toContain(before.at(-1));
        const library = JSON.stringify(tools.slice(index, index + 2));
        const through = JSON.stringify(tools.slice(0, index + 2));
        const oracle = cachedPrefixOracle(target, payload);
        const key = router.cacheKey(payload)!;
        reference ??= { index, library, through, oracle, key };
        expect(index, `${target} turn ${turn}`).toBe(reference.index);
        expect(library).toBe(reference.library);
        expect(through).toBe(reference.through);
        if (names.length > index + 2) seen.loadedSent++;
        if (strategy !== 'append') {
          // Nothing the provider caches before the conversation changed: the key says the same.
          expect(oracle, `${target} turn ${turn}`).toBe(reference.oracle);
          expect(key).toBe(reference.key);
        } else {
          expect(key === reference.key).toBe(oracle === reference.oracle);
        }
      }
      // The run did what it claims: blocks (library tools too), loads, unloads, library calls.
      expect(seen.blocked).toBeGreaterThan(2);
      expect(seen.libraryBlocked).toBeGreaterThan(0);
      expect(seen.loads).toBeGreaterThan(1);
      expect(seen.libraryCalls).toBeGreaterThan(1);
      if (strategy === 'append' || (strategy === 'native' && target === 'anthropic')) expect(seen.loadedSent).toBeGreaterThan(0);
      expect(store.size).toBe(seen.libraryCalls - history.filter((m) => m.role === 'tool' && String(m.content).startsWith('Error')).length);
    },
  );

  test('an Anthropic tools breakpoint lands on the last library tool, and the frozen tools are not mutated', async () => {
    const router = createRouter(gen, recordingHandlers().handlers, { libraryTools: memoryTools(new Map()) });
    const payload = router.compile({ target: 'anthropic', system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], options: { cacheBreakpoints: ['tools'] } });
    const body = await send('anthropic', payload);
    const stable = sentTools('anthropic', body).filter((t) => t['defer_loading'] !== true);
    expect(stable.at(-1)).toMatchObject({ name: 'recall', cache_control: { type: 'ephemeral' } });
    // The router's own rendering of the tool carries no breakpoint: the next compile without one is unchanged.
    const plain = router.compile({ target: 'anthropic', system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
    expect(JSON.stringify(plain.tools)).not.toContain('cache_control');
  });
});
