/**
 * examples/provider-loop.ts, run as written against local mock providers
 * through the official SDK clients: each loop runs the scripted nine turns to
 * the final answer, and its last request carries every turn's provider state.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropicLoop, exampleRouter, geminiLoop, openaiChatLoop, responsesLoop } from '../../examples/provider-loop.js';
import type { Target } from '../../runtime/contract.js';
import type { NeutralMessage } from '../../runtime/index.js';
import { startMockProvider } from './mock-provider.js';
import { opaque, RESPONSE_OF, SCRIPT } from './script.js';

async function run(target: Target) {
  const server = await startMockProvider((body, i) => RESPONSE_OF[target](i, body));
  const history: NeutralMessage[] = [{ role: 'user', content: 'What is the weather in Lisbon?' }];
  const router = exampleRouter();
  try {
    let turns: number;
    if (target === 'anthropic') turns = await anthropicLoop(new Anthropic({ apiKey: 't', baseURL: server.url, maxRetries: 0 }), router, history, { model: 'm' });
    else if (target === 'gemini') turns = await geminiLoop(new GoogleGenAI({ apiKey: 't', httpOptions: { baseUrl: server.url } }), router, history, { model: 'm' });
    else {
      const client = new OpenAI({ apiKey: 't', baseURL: `${server.url}/v1`, maxRetries: 0 });
      turns = await (target === 'openai' ? openaiChatLoop : responsesLoop)(client, router, history, { model: 'm' });
    }
    return { turns, history, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('examples/provider-loop.ts', () => {
  it.each<[Target, string]>([
    ['anthropic', 'sig'],
    ['openai-responses', 'enc'],
    ['gemini', 'tsig'],
  ])('%s: nine turns to the final answer, every turn state in the last request', async (target, kind) => {
    const { turns, history, requests } = await run(target);
    expect(turns).toBe(SCRIPT.length);
    expect(history.at(-1)?.content).toBe(SCRIPT.at(-1)!.text);
    const last = requests.at(-1)!.text;
    SCRIPT.slice(0, -1).forEach((t, k) => {
      if (!(target === 'anthropic' && t.redacted)) expect(last).toContain(JSON.stringify(opaque(kind, k)));
    });
    // The calls the example's router rejects (no blocklist, no failing handler there) came back flagged.
    const flagged = history.filter((m) => m.role === 'tool' && m.is_error === true).map((m) => m.name);
    expect(flagged).toEqual(['get_forecast', 'web_search']);
  });

  it('openai: nine turns to the final answer', async () => {
    const { turns, history } = await run('openai');
    expect(turns).toBe(SCRIPT.length);
    expect(history.filter((m) => m.role === 'tool')).toHaveLength(SCRIPT.flatMap((t) => t.calls).length);
  });
});
