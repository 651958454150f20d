/**
 * `toAiSdk`'s tool outputs through the AI SDK's UI paths, as a chat app uses them: `streamText` →
 * `toUIMessageStream` / `toUIMessageStreamResponse`, the UI message kept in process (`readUIMessageStream`, which
 * deep-copies outputs with structuredClone), saved as JSON (`createUIMessageStream`'s `onStepFinish`) or rebuilt from
 * the JSON chunks the browser receives, and sent back on the next turn through `convertToModelMessages`, which calls
 * the tool's `toModelOutput` on that copy. A rejection's reason must reach the model verbatim on the next turn too,
 * and a result JSON cannot write as it is (a BigInt, a Map) must neither stop the UI stream nor arrive empty.
 */
import { convertToModelMessages, createUIMessageStream, readUIMessageStream, stepCountIs, streamText, type UIMessage, type UIMessageChunk } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../runtime/index.js';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { readToolOutput, toAiSdk, type AiSdkSettings } from '../../integrations/ai-sdk/index.js';
import { generated, recordingHandlers } from '../runtime/helpers.js';
import { call, USAGE } from './ai-sdk-model.js';

/** A streaming model that answers step `i` with `script[i]` ("nothing more" after it); `calls` records each request. */
function streamModel(script: LanguageModelV3Content[][]) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options);
      const content = script[calls.length - 1] ?? [{ type: 'text', text: 'nothing more' }];
      const chunks: LanguageModelV3StreamPart[] = [];
      for (const c of content) {
        if (c.type === 'tool-call') chunks.push(c);
        else if (c.type === 'text') chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: c.text }, { type: 'text-end', id: 't' });
      }
      const toolStep = content.some((c) => c.type === 'tool-call');
      chunks.push({ type: 'finish', finishReason: { unified: toolStep ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE });
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
  return { model, calls };
}

/** The output of the tool-result part answering `id` in a prompt. */
function resultIn(prompt: LanguageModelV3CallOptions['prompt'], id: string): unknown {
  for (const m of prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result' && p.toolCallId === id) return p.output;
  return undefined;
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/**
 * One chat turn through the UI stream: the assistant's UI message as the server keeps it in process, as
 * `onStepFinish` saved it (JSON), and as the browser rebuilds it from the JSON chunks it received.
 */
async function chatTurn(settings: AiSdkSettings, script: LanguageModelV3Content[][]) {
  const { model, calls } = streamModel(script);
  const run = streamText({ model, ...settings, prompt: 'Go.', stopWhen: stepCountIs(4) });
  let saved = '';
  const ui = createUIMessageStream({ execute: ({ writer }) => writer.merge(run.toUIMessageStream()), onStepFinish: ({ responseMessage }) => { saved = JSON.stringify(responseMessage); } });
  const [toBrowser, inProcess] = ui.tee();
  const wire: string[] = [];
  let kept: UIMessage | undefined;
  await Promise.all([
    (async () => { for await (const chunk of toBrowser as unknown as AsyncIterable<UIMessageChunk>) wire.push(JSON.stringify(chunk)); })(),
    (async () => { for await (const m of readUIMessageStream({ stream: inProcess })) kept = m; })(),
  ]);
  let rebuilt: UIMessage | undefined;
  const replay = new ReadableStream<UIMessageChunk>({ start(c) { for (const w of wire) c.enqueue(JSON.parse(w) as UIMessageChunk); c.close(); } });
  for await (const m of readUIMessageStream({ stream: replay })) rebuilt = m;
  return { calls, copies: { 'in process': kept!, 'saved by onStepFinish': JSON.parse(saved) as UIMessage, 'rebuilt by the browser': rebuilt! } };
}

/** What the model reads for call `id` on the next turn, the history being `[user, assistant, user]`. */
async function nextTurnReads(settings: AiSdkSettings, assistant: UIMessage, id: string): Promise<unknown> {
  const { model, calls } = streamModel([[{ type: 'text', text: 'Because.' }]]);
  const history = [user('u1', 'Go.'), assistant, user('u2', 'Why?')];
  await streamText({ model, ...settings, messages: await convertToModelMessages(history, { tools: settings.tools }), stopWhen: stepCountIs(2) }).consumeStream();
  return resultIn(calls[0]!.prompt, id);
}

/** The `output` of the UI part of tool call `id`. */
const partOutput = (m: UIMessage, id: string): unknown => (m.parts.find((p) => 'toolCallId' in p && p.toolCallId === id) as { output?: unknown } | undefined)?.output;

describe('toAiSdk through the UI message stream and the next chat turn', () => {
  it("a rejection's reason reaches the model verbatim on the next turn, from every copy of the UI message; an error result on Anthropic", async () => {
    const reason = 'Tool "delete_file" is currently blocked.';
    for (const target of [undefined, 'anthropic'] as const) {
      const router = createDemoRouter();
      router.setBlockedTools(['delete_file']);
      const settings = toAiSdk(router, target === undefined ? {} : { target });
      const expected = { type: target === 'anthropic' ? 'error-text' : 'text', value: reason };
      const { calls, copies } = await chatTurn(settings, [[call('c1', 'file_ops', { action: 'delete_file', args: { path: 'a' } })], [{ type: 'text', text: 'It is blocked.' }]]);
      expect(resultIn(calls[1]!.prompt, 'c1'), `target ${target}: in the run`).toEqual(expected);
      for (const [copy, message] of Object.entries(copies)) {
        const output = partOutput(message, 'c1');
        expect(output, `target ${target}, ${copy}`).toEqual({ toolroute: 'rejected', code: 'blocked', reason });
        expect(readToolOutput(output)).toEqual({ ok: false, code: 'blocked', reason });
        expect(await nextTurnReads(settings, message, 'c1'), `target ${target}, ${copy}: next turn`).toEqual(expected);
      }
    }
  });

  it('a BigInt, a Map or a Set result goes through the UI stream as JSON, as the model reads it, and the stream finishes', async () => {
    const results: Record<string, unknown> = {
      bigint: { rows: [{ id: 9007199254740993n, n: 7n }] },
      map: new Map([['Lisbon', 'sunny']]),
      set: new Set(['a', 'b']),
    };
    const expected: Record<string, unknown> = { bigint: { rows: [{ id: '9007199254740993', n: 7 }] }, map: { Lisbon: 'sunny' }, set: ['a', 'b'] };
    for (const [kind, value] of Object.entries(results)) {
      const router = createRouter(generated, { ...recordingHandlers().handlers, get_time: () => value });
      const settings = toAiSdk(router, { tools: ['get_time'] });
      const { model, calls } = streamModel([[call('g1', 'get_time', {})], [{ type: 'text', text: 'done' }]]);
      const body = await streamText({ model, ...settings, prompt: 'x', stopWhen: stepCountIs(3) }).toUIMessageStreamResponse().text();
      const chunks = body.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)) as { type: string; output?: unknown });
      expect(chunks.find((c) => c.type === 'tool-output-available')?.output, kind).toEqual(expected[kind]);
      expect(chunks.at(-1)?.type, kind).toBe('finish');
      expect(resultIn(calls[1]!.prompt, 'g1'), kind).toEqual({ type: 'json', value: expected[kind] });
      // And from the UI message on the next turn.
      const { copies } = await chatTurn(settings, [[call('g2', 'get_time', {})], [{ type: 'text', text: 'done' }]]);
      for (const [copy, message] of Object.entries(copies)) expect(await nextTurnReads(settings, message, 'g2'), `${kind}, ${copy}`).toEqual({ type: 'json', value: expected[kind] });
    }
  });

  it("a handler's own result is never read as a rejection, whatever its keys", async () => {
    const own = [{ code: 'blocked', reason: 'out of stock' }, { toolroute: 'rejected', code: 'blocked', reason: 'out of stock' }, { toolroute: 'result', value: 1 }];
    for (const value of own) {
      const router = createRouter(generated, { ...recordingHandlers().handlers, get_time: () => value });
      const settings = toAiSdk(router, { tools: ['get_time'], target: 'anthropic' });
      const { calls, copies } = await chatTurn(settings, [[call('h1', 'get_time', {})], [{ type: 'text', text: 'done' }]]);
      expect(resultIn(calls[1]!.prompt, 'h1'), JSON.stringify(value)).toEqual({ type: 'json', value });
      for (const [copy, message] of Object.entries(copies)) {
        expect(readToolOutput(partOutput(message, 'h1')), `${JSON.stringify(value)}, ${copy}`).toEqual({ ok: true, result: value });
        expect(await nextTurnReads(settings, message, 'h1'), `${JSON.stringify(value)}, ${copy}: next turn`).toEqual({ type: 'json', value });
      }
    }
  });
});
