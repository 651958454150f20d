/**
 * A hundred turns at the router level: the real router built from
 * generated/ (examples/tools.spec.yaml) goes through 100 turns that block and
 * unblock tools (setBlockedTools / applyPolicy), announce and retract on every
 * channel, load toolkits (dispatch of load_toolkit in every call shape, and
 * handleTool), unload them (restore), and add deferred tools
 * (registerTools({ deferLoading: true })); every turn compiles for all four
 * targets, with the `append` toolkit-loading strategy (loaded tools appended
 * to `tools`; test/targets/cache-reuse-200.test.ts runs the native ones). For
 * each target:
 *
 * - router.cacheKey(payload) changes exactly when the bytes the provider caches
 *   before the conversation change (appended tools are sent before the system
 *   prompt, and Chat/Gemini send deferred tools in full);
 * - the payload's tools are exactly: search tool, the stable tools, then the
 *   deferred ones chosen, then loaded toolkits' tools in load order — loaded
 *   tools only ever after the stable tools, never inserted among them;
 * - deferred tools enter the key only where the provider keeps them in its
 *   prefix (not Anthropic), and carry defer_loading exactly on Anthropic and
 *   OpenAI Responses;
 * - compile is deterministic: compiling twice gives the same bytes, and a fresh
 *   router brought to the same state (same registrations + restore(snapshot))
 *   gives the same bytes too.
 */
import { describe, expect, test } from 'vitest';
import * as gen from '../../generated/index.js';
import { stablePrefixOf } from '../../runtime/cache-key.js';
import { createRouter, type Target, type ToolRouter } from '../../runtime/index.js';
import type { NeutralMessage } from '../../runtime/targets/history.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { cachedPrefixOracle } from './cache-oracle.js';
import { rng } from './rng.js';

const TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];
const SYSTEM = 'You are a careful assistant.';
const TURNS = 100;
const CHANNELS = ['auto', 'system', 'user_tail'] as const;

interface ToolView {
  readonly name: string;
  readonly deferred: boolean;
  readonly raw: Record<string, unknown>;
}

/** The payload's tools in order, whatever the target's shape. */
function toolsOf(target: Target, payload: unknown): ToolView[] {
  const p = payload as { tools?: unknown[]; config?: { tools?: Array<{ functionDeclarations?: unknown[] }> } };
  const list = (target === 'gemini' ? p.config?.tools?.[0]?.functionDeclarations : p.tools) ?? [];
  return list.map((t) => {
    const raw = t as Record<string, unknown> & { function?: { name?: string } };
    const name = target === 'openai' ? raw.function?.name : (raw['name'] as string | undefined) ?? (raw['type'] as string);
    return { name: String(name), deferred: raw['defer_loading'] === true, raw };
  });
}

const SEARCH_NAME: Partial<Record<Target, string>> = { anthropic: 'tool_search_tool_regex', 'openai-responses': 'tool_search' };

/** Every call shape an SDK returns for load_toolkit. */
function loadCall(shape: number, toolkit: string, id: string): unknown {
  const args = { toolkit_name: toolkit };
  switch (shape % 5) {
    case 0:
      return { id, type: 'function', function: { name: 'load_toolkit', arguments: JSON.stringify(args) } }; // OpenAI Chat
    case 1:
      return { type: 'tool_use', id, name: 'load_toolkit', input: args }; // Anthropic
    case 2:
      return { id, name: 'load_toolkit', args }; // Gemini
    case 3:
      return { type: 'function_call', call_id: id, name: 'load_toolkit', arguments: JSON.stringify(args) }; // Responses
    default:
      return { name: 'load_toolkit', arguments: args }; // generic, arguments as an object
  }
}

/** A router over generated/; typed as open to run-time names, since the turns register tools. */
function newRouter(): ToolRouter<gen.Registry, unknown, string> {
  return createRouter(gen, recordingHandlers().handlers, { toolkitLoading: 'append' }) as ToolRouter<gen.Registry, unknown, never> as never;
}

/** Tool names in a serialized stable prefix. */
function prefixToolNames(serialized: string): string[] {
  const { tools } = JSON.parse(serialized) as { tools: Array<{ name?: string; type?: string; function?: { name: string } }> };
  return tools.map((t) => t.function?.name ?? t.name ?? String(t.type));
}

describe('100 turns through the real router (append strategy): the cache key tells the truth', () => {
  test('block / unblock, announce / retract, load / unload toolkits, add deferred tools', async () => {
    const random = rng(20260401);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let router = newRouter();
    const blockable = [...gen.TOOL_NAMES, ...gen.NAMESPACE_NAMES, ...gen.TOOLKIT_NAMES, 'load_toolkit'] as const;
    const deferredNames: string[] = [];
    const history: NeutralMessage[] = [{ role: 'user', content: 'Start.' }];
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);

    // Two request families per target: the default tool set (the namespaces, then the flat
    // tools in no namespace: get_time and every deferred tool registered so far), and an
    // explicit, narrower one (one namespace and the same flat tools).
    const families = {
      default: () => undefined,
      explicit: () => ['file_ops', 'get_time', ...deferredNames],
    } as const;
    type Family = keyof typeof families;
    const reference = new Map<string, { key: string; oracle: string; prefix: string[] }>();
    const keyChanges = { same: 0, changed: 0 };
    const seen = { loads: 0, unloads: 0, deferred: 0, blocks: 0, announces: 0, retracts: 0 };

    for (let turn = 0; turn < TURNS; turn++) {
      const op = Math.floor(random() * 9);
      if (op === 0) {
        router.setBlockedTools(blockable.filter(() => random() < 0.3));
        seen.blocks++;
      } else if (op === 1) {
        if (random() < 0.5) router.applyPolicy(pick(gen.POLICY_NAMES));
        else router.setBlockedTools([]);
        seen.blocks++;
      } else if (op === 2) {
        router.announce(`a${turn % 4}`, `Fact stated on turn ${turn} <&>`, { channel: pick(CHANNELS) });
        seen.announces++;
      } else if (op === 3) {
        if (router.retractAnnouncement(`a${Math.floor(random() * 4)}`)) seen.retracts++;
        router.syncToolAnnouncements(gen.TOOL_NAMES.filter(() => random() < 0.5));
      } else if (op === 4) {
        const toolkit = pick(gen.TOOLKIT_NAMES);
        const r = await router.dispatch(loadCall(turn, random() < 0.5 ? toolkit : toolkit.toLowerCase(), `load_${turn}`));
        if (r.ok) seen.loads++;
        else expect(r.code).toBe('blocked'); // the only way a well-formed load fails
      } else if (op === 5) {
        const toolkit = pick(gen.TOOLKIT_NAMES);
        const text = router.handleTool({ name: 'load_toolkit', arguments: JSON.stringify({ toolkit_name: toolkit }) });
        expect(text).toMatch(/^(Toolkit "\w+" (loaded|is already loaded)\.|Error: Tool(kit)? "\w+" is currently blocked\.)/);
        if (!text.startsWith('Error')) seen.loads++;
      } else if (op === 6) {
        const name = `deferred_${deferredNames.length}`;
        router = router.registerTools([{ name, description: `Deferred tool ${name}`, deferLoading: true, parameters: { q: { type: 'string' } }, handler: () => name }]);
        deferredNames.push(name);
        seen.deferred++;
      } else if (op === 7 && router.getLoadedToolkits().length > 0) {
        // Unload every toolkit: restore a snapshot that has none (announcements and blocklist kept).
        const snap = router.snapshot();
        router.restore({ ...snap, loaded: [] });
        expect(router.getLoadedToolkits()).toEqual([]);
        seen.unloads++;
      } else {
        history.push(
          { role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"a"}}' } }] },
          { role: 'tool', tool_call_id: `c${turn}`, content: `result ${turn}` },
        );
      }
      if (random() < 0.5) history.push({ role: 'assistant', content: `Reply ${turn}.` }, { role: 'user', content: `Next ${turn}.` });

      const loadedNames = router.getLoadedToolkits().flatMap((kit) => {
        const k = gen.spec.toolkits.findIndex((t) => t.name === kit);
        return gen.spec.toolkits[k]!.tools.map((t) => gen.spec.tools[t]!.name);
      });

      for (const target of TARGETS) {
        for (const family of Object.keys(families) as Family[]) {
          const tools = families[family]();
          const request = {
            target,
            system: SYSTEM,
            messages: history,
            options: { toolSearch: target === 'anthropic' || target === 'openai-responses', onWarning },
            ...(tools === undefined ? {} : { tools }),
          };
          const payload = router.compile(request);
          const json = JSON.stringify(payload);
          // Deterministic: the same state gives the same bytes.
          expect(JSON.stringify(router.compile(request))).toBe(json);

          const key = router.cacheKey(payload);
          const prefix = stablePrefixOf(payload);
          expect(key).toMatch(/^[0-9a-f]{64}$/);
          expect(prefix?.key).toBe(key);
          const views = toolsOf(target, payload);
          const names = views.map((v) => v.name);
          const id = `${target}/${family}`;
          const oracle = cachedPrefixOracle(target, payload);
          const search = SEARCH_NAME[target] === undefined ? [] : [SEARCH_NAME[target]!];
          const stableNames = family === 'default' ? ['file_ops', 'terminal', 'get_time', 'load_toolkit'] : ['file_ops', 'get_time', 'load_toolkit'];
          const ref = reference.get(id) ?? { key: key!, oracle, prefix: [...search, ...stableNames] };

          // The key changes exactly when the cached bytes change (both ways).
          expect(key === ref.key, `${id} turn ${turn}`).toBe(oracle === ref.oracle);
          keyChanges[key === ref.key ? 'same' : 'changed']++;
          reference.set(id, { key: key!, oracle, prefix: ref.prefix });
          expect(names.slice(0, ref.prefix.length)).toEqual(ref.prefix);

          // Exactly: search tool, stable tools + loader, deferred ones chosen, loaded toolkits' tools in load order.
          // Both families carry the registered deferred tools: they are flat tools in no namespace.
          const deferred = deferredNames;
          expect(names).toEqual([...search, ...stableNames, ...deferred, ...loadedNames]);
          for (const loaded of loadedNames) expect(names.indexOf(loaded)).toBeGreaterThanOrEqual(ref.prefix.length);

          // The key holds the tools as the provider caches them: Anthropic strips the deferred ones, the others keep every tool sent.
          const flagged = views.filter((v) => v.deferred).map((v) => v.name);
          const inKey = target === 'anthropic' ? names.filter((n) => !flagged.includes(n)) : names;
          expect(prefixToolNames(prefix!.serialized)).toEqual(inKey);
          const specDeferred = loadedNames.filter((n) => n === 'get_forecast');
          if (target === 'anthropic' || target === 'openai-responses') expect(flagged).toEqual([...deferred, ...specDeferred]);
          else expect(json).not.toMatch(/defer_loading|deferLoading/);

          // The directory is in the system text (part of the prefix); announcements never are.
          expect(prefix!.serialized).toContain('<available_toolkits>');
          expect(prefix!.serialized).not.toContain('<announcements>');
          const announced = router.getAnnouncements().length > 0;
          expect(json.includes('<announcements>')).toBe(announced);
        }
      }
      // Never written into the caller's history.
      expect(JSON.stringify(history)).not.toContain('<announcements>');
    }

    // The turns really exercised every kind of change.
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(2);
    expect(warnings).toEqual([]);
    // Both directions were exercised: loads change the key, the rest does not.
    expect(keyChanges.same).toBeGreaterThan(100);
    expect(keyChanges.changed).toBeGreaterThan(5);
    // One key per target and family, distinct across targets.
    expect(new Set([...reference.values()].map((r) => r.key)).size).toBe(TARGETS.length * 2);

    // Identical state in a fresh router (same registrations, restored snapshot) → identical bytes.
    let fresh = newRouter();
    for (const name of deferredNames) {
      fresh = fresh.registerTools([{ name, description: `Deferred tool ${name}`, deferLoading: true, parameters: { q: { type: 'string' } }, handler: () => name }]);
    }
    fresh.restore(JSON.parse(JSON.stringify(router.snapshot())));
    for (const target of TARGETS) {
      for (const tools of [undefined, families.explicit()]) {
        const request = { target, system: SYSTEM, messages: history, ...(tools === undefined ? {} : { tools }) };
        expect(JSON.stringify(fresh.compile(request))).toBe(JSON.stringify(router.compile(request)));
      }
    }
  });

  test('the key can fail: a different system prompt or tool choice changes it', () => {
    const router = newRouter();
    const messages: NeutralMessage[] = [{ role: 'user', content: 'hi' }];
    for (const target of TARGETS) {
      const key = router.cacheKey(router.compile({ target, system: SYSTEM, messages }));
      expect(router.cacheKey(router.compile({ target, system: `${SYSTEM} More.`, messages }))).not.toBe(key);
      expect(router.cacheKey(router.compile({ target, system: SYSTEM, messages, tools: ['file_ops'] }))).not.toBe(key);
      // The default set, written out: the namespaces, then the flat tool in no namespace.
      expect(router.cacheKey(router.compile({ target, system: SYSTEM, messages, tools: ['file_ops', 'terminal', 'get_time'] }))).toBe(key);
      expect(router.cacheKey(router.compile({ target, system: SYSTEM, messages, tools: ['file_ops', 'terminal'] }))).not.toBe(key);
    }
  });
});
