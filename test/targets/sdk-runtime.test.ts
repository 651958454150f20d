/**
 * Runtime check with the real SDKs (no network): each client is given a fake
 * `fetch`, the compiled payload is spread into its call, and the wire body the
 * SDK would send is inspected. Proves the SDKs accept the payloads, that the
 * frozen pre-rendered tools survive the SDK (no mutation, no throw), and for
 * Gemini that `parametersJsonSchema` reaches the wire untouched (the SDK
 * rewrites `parameters` in place; we never send it).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { compileForTarget } from '../../runtime/targets/compile.js';
import type { Target } from '../../runtime/contract.js';
import { ann, getForecast, getTime, readFile, rendered, toolHistory } from './fixtures.js';

interface Captured {
  url: string;
  body: Record<string, unknown>;
}

function fakeFetch(response: unknown, captured: Captured[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    captured.push({ url, body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown> });
    return new Response(JSON.stringify(response), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

function compile<T extends Target>(target: T) {
  return compileForTarget({
    target,
    system: 'Be brief.',
    messages: toolHistory,
    stable: rendered(target, [readFile, getTime, getForecast], true),
    loaded: [],
    directoryXml: '',
    announcements: [ann('tools:added', 'Tools newly available: grep'), ann('tail', 'Quota: 3 calls left', 'user_tail')],
    options: target === 'anthropic' || target === 'openai-responses' ? { toolSearch: true } : {},
  });
}

describe('official SDKs accept the compiled payloads', () => {
  it('anthropic: client.messages.create sends the payload as is', async () => {
    const captured: Captured[] = [];
    const client = new Anthropic({
      apiKey: 'test',
      maxRetries: 0,
      fetch: fakeFetch(
        { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
        captured,
      ),
    });
    const payload = compile('anthropic');
    const before = JSON.stringify(payload);
    await client.messages.create({ model: 'claude-test', max_tokens: 16, ...payload });
    expect(captured[0]?.url).toMatch(/\/v1\/messages$/);
    expect(captured[0]?.body).toEqual({ model: 'claude-test', max_tokens: 16, ...JSON.parse(before) });
    expect(JSON.stringify(payload)).toBe(before);
  });

  it('openai chat: client.chat.completions.create sends the payload as is', async () => {
    const captured: Captured[] = [];
    const client = new OpenAI({
      apiKey: 'test',
      maxRetries: 0,
      fetch: fakeFetch({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }] }, captured),
    });
    const payload = compile('openai');
    const before = JSON.stringify(payload);
    await client.chat.completions.create({ model: 'gpt-test', ...payload });
    expect(captured[0]?.body).toEqual({ model: 'gpt-test', ...JSON.parse(before) });
    expect(JSON.stringify(payload)).toBe(before);
  });

  it('openai responses: client.responses.create sends the payload as is', async () => {
    const captured: Captured[] = [];
    const client = new OpenAI({
      apiKey: 'test',
      maxRetries: 0,
      fetch: fakeFetch({ id: 'r', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [] }, captured),
    });
    const payload = compile('openai-responses');
    const before = JSON.stringify(payload);
    await client.responses.create({ model: 'gpt-test', ...payload });
    expect(captured[0]?.body).toEqual({ model: 'gpt-test', ...JSON.parse(before) });
    expect(JSON.stringify(payload)).toBe(before);
  });

  it('gemini: generateContent keeps parametersJsonSchema untouched and mutates nothing', async () => {
    const captured: Captured[] = [];
    const ai = new GoogleGenAI({
      apiKey: 'test',
      httpOptions: { fetch: fakeFetch({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] } }] }, captured), retryOptions: { attempts: 1 } },
    });
    const payload = compile('gemini');
    const before = JSON.stringify(payload);
    await ai.models.generateContent({ model: 'gemini-test', ...payload });
    const body = captured[0]?.body ?? {};
    expect(body['contents']).toEqual(JSON.parse(before).contents);
    expect(body['systemInstruction']).toEqual({ parts: [{ text: 'Be brief.\n\nLead system.' }], role: 'user' });
    const declarations = (body['tools'] as Array<{ functionDeclarations: unknown[] }>)[0]?.functionDeclarations;
    expect(declarations).toEqual(payload.config.tools?.[0]?.functionDeclarations);
    expect(JSON.stringify(payload)).toBe(before);
  });
});
