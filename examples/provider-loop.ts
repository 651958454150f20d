/**
 * The whole agent loop against a real provider SDK, once per target:
 *
 *   router.compile({ target, system, messages })  → spread into the SDK call
 *   router.handleResponse(target, response)       → the assistant turn (provider state kept), each tool call
 *                                                   dispatched (gate → validate → your handler, load_toolkit
 *                                                   included) and answered with a tool message
 *
 * The history stays provider-neutral, yet every provider gets back what it
 * needs to continue: Anthropic thinking blocks with their signatures, Gemini
 * thought signatures, Responses reasoning items and item ids.
 *
 * Run it: `ANTHROPIC_API_KEY=… npx tsx examples/provider-loop.ts anthropic`
 * (or `openai`, `openai-responses` with OPENAI_API_KEY, `gemini` with
 * GEMINI_API_KEY; the SDKs' base-URL variables are honoured).
 * test/conversation/example.test.ts runs these functions against local mock
 * providers through the same SDK clients.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { pathToFileURL } from 'node:url';
import * as generated from '../generated/index.js';
import { createRouter, type NeutralMessage, type RouterOptions } from '../runtime/index.js';

const SYSTEM = 'You are a careful assistant. Load a toolkit before using its tools.';

/** The router of the example spec, with toy handlers. */
export function exampleRouter(options?: RouterOptions) {
  return createRouter(generated, {
    read_file: ({ path }) => ({ path, content: '{"debug": false}' }),
    run_bash: ({ command }) => ({ command, exitCode: 0, stdout: '' }),
    get_time: ({ timezone }) => ({ timezone: timezone ?? 'UTC', now: new Date(0).toISOString() }),
    write_file: ({ path }) => ({ path, written: true }),
    delete_file: ({ path }) => ({ path, deleted: true }),
    tail_logs: ({ service }) => ({ service, lines: [] }),
    get_forecast: ({ city, days }) => ({ city, days: days ?? 3, sky: 'sunny' }),
    get_current_weather: ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
    run_query: ({ sql }) => ({ sql, rows: [] }),
    describe_table: ({ table }) => ({ table, columns: [] }),
  }, options);
}

type Router = ReturnType<typeof exampleRouter>;

/** Options shared by the loops. */
export interface LoopOptions {
  readonly model: string;
  /** Stop after this many model calls even if the model keeps calling tools. */
  readonly maxTurns?: number;
}

/**
 * Anthropic Messages with extended thinking: thinking blocks go back with
 * their signatures, before the tool_use blocks they led to.
 *
 * @example
 * const history = [{ role: 'user', content: 'Weather in Lisbon?' }];
 * await anthropicLoop(new Anthropic(), exampleRouter(), history, { model: 'claude-…' });
 */
export async function anthropicLoop(client: Anthropic, router: Router, history: NeutralMessage[], options: LoopOptions): Promise<number> {
  for (let turn = 1; turn <= (options.maxTurns ?? 10); turn++) {
    const payload = router.compile({ target: 'anthropic', system: SYSTEM, messages: history });
    const response = await client.messages.create({ model: options.model, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, ...payload });
    const step = await router.handleResponse('anthropic', response);
    history.push(...step.messages);
    if (step.done) return turn;
  }
  return options.maxTurns ?? 10;
}

/** OpenAI Chat Completions. */
export async function openaiChatLoop(client: OpenAI, router: Router, history: NeutralMessage[], options: LoopOptions): Promise<number> {
  for (let turn = 1; turn <= (options.maxTurns ?? 10); turn++) {
    const payload = router.compile({ target: 'openai', system: SYSTEM, messages: history });
    const response = await client.chat.completions.create({ model: options.model, ...payload });
    const step = await router.handleResponse('openai', response);
    history.push(...step.messages);
    if (step.done) return turn;
  }
  return options.maxTurns ?? 10;
}

/**
 * OpenAI Responses, stateless (`store: false`): the reasoning items travel in
 * the input, so ask for their encrypted content.
 */
export async function responsesLoop(client: OpenAI, router: Router, history: NeutralMessage[], options: LoopOptions): Promise<number> {
  for (let turn = 1; turn <= (options.maxTurns ?? 10); turn++) {
    const payload = router.compile({ target: 'openai-responses', system: SYSTEM, messages: history });
    const response = await client.responses.create({ model: options.model, store: false, include: ['reasoning.encrypted_content'], ...payload });
    const step = await router.handleResponse('openai-responses', response);
    history.push(...step.messages);
    if (step.done) return turn;
  }
  return options.maxTurns ?? 10;
}

/** Gemini: thought signatures go back on the parts they came on. */
export async function geminiLoop(ai: GoogleGenAI, router: Router, history: NeutralMessage[], options: LoopOptions): Promise<number> {
  for (let turn = 1; turn <= (options.maxTurns ?? 10); turn++) {
    const payload = router.compile({ target: 'gemini', system: SYSTEM, messages: history });
    const response = await ai.models.generateContent({ model: options.model, ...payload, config: { ...payload.config, thinkingConfig: { includeThoughts: true } } });
    const step = await router.handleResponse('gemini', response);
    history.push(...step.messages);
    if (step.done) return turn;
  }
  return options.maxTurns ?? 10;
}

// `npx tsx examples/provider-loop.ts <target>`: one real conversation (examples may print; the library never does).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = process.argv[2] ?? 'anthropic';
  const router = exampleRouter();
  const history: NeutralMessage[] = [{ role: 'user', content: 'What is the weather in Lisbon, and is config.json sane?' }];
  if (target === 'anthropic') await anthropicLoop(new Anthropic(), router, history, { model: process.env['MODEL'] ?? 'claude-sonnet-4-5' });
  else if (target === 'openai') await openaiChatLoop(new OpenAI(), router, history, { model: process.env['MODEL'] ?? 'gpt-4.1' });
  else if (target === 'openai-responses') await responsesLoop(new OpenAI(), router, history, { model: process.env['MODEL'] ?? 'gpt-5' });
  else if (target === 'gemini') await geminiLoop(new GoogleGenAI({ apiKey: process.env['GEMINI_API_KEY'] ?? '' }), router, history, { model: process.env['MODEL'] ?? 'gemini-2.5-flash' });
  else throw new Error(`unknown target ${target}: use anthropic, openai, openai-responses or gemini`);
  for (const m of history) {
    const calls = m.tool_calls?.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ');
    console.log(`${m.role.padEnd(9)}${m.is_error ? ' [error]' : ''} ${m.content ?? ''}${calls ? `  → ${calls}` : ''}`);
  }
}
