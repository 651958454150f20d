/**
 * Library-owned tools keep the prompt cache, proved on the bytes each real
 * SDK client sends (issue 11, rule 11). A router with two library tools
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
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as gen from '../../generated/index.js';
import { memoryTools } from '../../examples/memory-tools.js';
import { createRouter, type NeutralMessage, type Target } from '../../runtime/index.js';
import { TOOLKIT_LOADING_STRATEGIES } from '../../runtime/toolkit-loading.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { cachedPrefixOracle } from './cache-oracle.js';

const TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];
const TURNS = 24;
const LIBRARY: readonly string[] = ['remember', 'recall'];
const LIBRARY_NAMES = ['remember', 'recall'] as const;

interface Recorded {
  readonly url: string;
  readonly body: Record<string, unknown>;
}
const recorded: Recorded[] = [];
let server: Server;
let base = '';

function answer(url: string): unknown {
  if (url.includes('/v1/messages')) {
    return { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
  }
  if (url.includes('/chat/completions')) return { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }] };
  if (url.includes('/responses')) return { id: 'r', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [] };
  return { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] } }] };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      recorded.push({ url, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(url)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Send a payload through the target's official client; the recorded request body. */
async function send(target: Target, payload: object): Promise<Record<string, unknown>> {
  const before = recorded.length;
  switch (target) {
    case 'anthropic':
      await new Anthropic({ apiKey: 'test', baseURL: base, maxRetries: 0 }).messages.create({ model: 'claude-test', max_tokens: 16, ...(payload as object) } as Anthropic.MessageCreateParamsNonStreaming);
      break;
    case 'openai':
      await new OpenAI({ apiKey: 'test', baseURL: `${base}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-test', ...(payload as object) } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      break;
    case 'openai-responses':
      await new OpenAI({ apiKey: 'test', baseURL: `${base}/v1`, maxRetries: 0 }).responses.create({ model: 'gpt-test', ...(payload as object) } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
      break;
    case 'gemini':
      await new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: base, retryOptions: { attempts: 1 } } }).models.generateContent({ model: 'gemini-test', ...(payload as { contents: [] }) });
      break;
  }
  expect(recorded.length).toBe(before + 1);
  return recorded.at(-1)!.body;
}

/** The recorded request's tools, as sent. */
function sentTools(target: Target, body: Record<string, unknown>): Array<Record<string, unknown>> {
  if (target === 'gemini') return ((body['tools'] as Array<{ functionDeclarations?: unknown[] }> | undefined)?.[0]?.functionDeclarations ?? []) as Array<Record<string, unknown>>;
  return (body['tools'] as Array<Record<string, unknown>> | undefined) ?? [];
}

function toolName(target: Target, tool: Record<string, unknown>): string {
  if (target === 'openai') return String((tool['function'] as { name?: string } | undefined)?.name ?? tool['type']);
  return String(tool['name'] ?? tool['type']);
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
