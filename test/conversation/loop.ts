/**
 * The agent loop of the conversation tests, run against a mock provider
 * through the official SDK client of one target:
 *
 *   router.compile({ target, system, messages }) → SDK call (HTTP to 127.0.0.1)
 *   fromProvider(target, response)               → assistant message into the history
 *   router.dispatch(call)                        → result
 *   toolMessage(call, result)                    → tool message into the history
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import * as generated from '../../generated/index.js';
import type { Target } from '../../runtime/contract.js';
import { createRouter, fromProvider, toolMessage, type NeutralMessage } from '../../runtime/index.js';
import { startMockProvider, type RecordedRequest } from './mock-provider.js';
import { BLOCK_TURN, RESPONSE_OF, SCRIPT } from './script.js';

export const SYSTEM = 'You are a careful assistant.';

export interface LoopRun {
  readonly requests: readonly RecordedRequest[];
  /** The responses the server sent, parsed back (what the provider "said"). */
  readonly sent: readonly Record<string, unknown>[];
  readonly history: readonly NeutralMessage[];
  /** Per turn, the dispatch results in call order. */
  readonly results: readonly (readonly { ok: boolean; reason?: string }[])[];
  readonly warnings: readonly string[];
}

function makeRouter() {
  return createRouter(
    generated,
    {
      read_file: ({ path }) => ({ path, content: '{"debug": false}' }),
      run_bash: ({ command }) => ({ command, exitCode: 0 }),
      get_time: ({ timezone }) => ({ timezone: timezone ?? 'UTC', now: '2026-11-29T12:00:00Z' }),
      write_file: ({ path }) => ({ path, written: true }),
      delete_file: ({ path }) => ({ path, deleted: true }),
      tail_logs: () => {
        throw new Error('log service unreachable');
      },
      get_forecast: ({ city, days }) => ({ city, days: days ?? 3, sky: 'sunny' }),
      get_current_weather: ({ city }) => ({ city, sky: 'cloudy', celsius: 17 }),
      run_query: ({ sql }) => ({ sql, rows: [[42]] }),
      describe_table: ({ table }) => ({ table, columns: [] }),
    },
    { propagateHandlerErrors: false },
  );
}

function targetOfPath(path: string): Target {
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path.startsWith('/v1/chat/completions')) return 'openai';
  if (path.startsWith('/v1/responses')) return 'openai-responses';
  return 'gemini';
}

/**
 * Run the whole script for one target (or switch to another at `switchAt.turn`) through its SDK and a mock server.
 *
 * @example
 * const run = await runLoop('anthropic');
 * run.requests.length; // → SCRIPT.length
 */
export async function runLoop(target: Target, switchAt?: { readonly turn: number; readonly to: Target }): Promise<LoopRun> {
  // One server mimics every API (each SDK calls its own path); request i is turn i.
  const server = await startMockProvider((body, i, path) => RESPONSE_OF[targetOfPath(path)](i, body));
  const router = makeRouter();
  const history: NeutralMessage[] = [{ role: 'user', content: 'Is config.json sane, and what is the weather in Lisbon?' }];
  const results: { ok: boolean; reason?: string }[][] = [];
  const warnings: string[] = [];
  const options = { onWarning: (message: string) => warnings.push(message) };
  try {
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const openai = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } } });

    for (let turn = 0; turn < SCRIPT.length; turn++) {
      if (turn === BLOCK_TURN) router.setBlockedTools(['delete_file']);
      let reply: NeutralMessage[];
      switch (switchAt !== undefined && turn >= switchAt.turn ? switchAt.to : target) {
        case 'anthropic': {
          const payload = router.compile({ target: 'anthropic', system: SYSTEM, messages: history, options });
          const response = await anthropic.messages.create({ model: 'claude-test', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, ...payload });
          reply = fromProvider('anthropic', response);
          break;
        }
        case 'openai': {
          const payload = router.compile({ target: 'openai', system: SYSTEM, messages: history, options });
          const response = await openai.chat.completions.create({ model: 'gpt-test', ...payload });
          reply = fromProvider('openai', response);
          break;
        }
        case 'openai-responses': {
          const payload = router.compile({ target: 'openai-responses', system: SYSTEM, messages: history, options });
          // Stateless use: nothing stored server-side, so the reasoning must travel in the input.
          const response = await openai.responses.create({ model: 'gpt-test', store: false, include: ['reasoning.encrypted_content'], ...payload });
          reply = fromProvider('openai-responses', response);
          break;
        }
        case 'gemini': {
          const payload = router.compile({ target: 'gemini', system: SYSTEM, messages: history, options });
          const response = await ai.models.generateContent({
            model: 'gemini-test',
            ...payload,
            config: { ...payload.config, thinkingConfig: { includeThoughts: true } },
          });
          reply = fromProvider('gemini', response);
          break;
        }
      }
      history.push(...reply);
      const turnResults: { ok: boolean; reason?: string }[] = [];
      for (const message of reply) {
        for (const call of message.tool_calls ?? []) {
          const result = await router.dispatch(call);
          turnResults.push(result.ok ? { ok: true } : { ok: false, reason: result.reason });
          history.push(toolMessage(call, result));
        }
      }
      results.push(turnResults);
    }
  } finally {
    await server.close();
  }
  return { requests: server.requests, sent: server.sent.map((s) => JSON.parse(s) as Record<string, unknown>), history, results, warnings };
}
