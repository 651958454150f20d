/**
 * Conversation fidelity over many turns, per target, through the official SDK
 * clients against a local mock of each provider API (real HTTP on
 * 127.0.0.1): fromProvider → dispatch → toolMessage → compile, nine turns.
 * The recorded request bodies prove that each provider's state came back
 * byte for byte in the position the provider requires, and that failed calls
 * are flagged the way each provider reads a failure.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../runtime/contract.js';
import { runLoop, type LoopRun } from './loop.js';
import { offersClientToolSearch, opaque, SCRIPT } from './script.js';

type Json = Record<string, unknown>;
const TURNS = SCRIPT.length;

/** The exact bytes a value had in the server's response text (JSON.stringify is how the server wrote it). */
const bytes = (value: unknown): string => JSON.stringify(value);

function expectCommon(run: LoopRun): void {
  expect(run.requests).toHaveLength(TURNS);
  // The router answered every scripted call, and exactly the scripted failures failed.
  expect(run.results.map((r) => r.map((x) => x.ok))).toEqual(SCRIPT.map((t) => t.calls.map((c) => !c.fails)));
  for (const r of run.results.flat()) if (!r.ok) expect(r.reason).toMatch(/\S/);
}

/** Failure reasons in call order, per turn. */
const reasonsOf = (run: LoopRun, turn: number): (string | undefined)[] => run.results[turn]!.map((r) => r.reason);

describe('anthropic: thinking blocks and signatures come back before tool_use; failures carry is_error', () => {
  let run: LoopRun;
  beforeAll(async () => {
    run = await runLoop('anthropic');
  });

  it('runs nine turns through @anthropic-ai/sdk over HTTP', () => {
    expectCommon(run);
    expect(run.requests.every((r) => r.path === '/v1/messages')).toBe(true);
  });

  it('every earlier assistant turn is sent back as the exact content the API returned, in place', () => {
    for (let t = 1; t < TURNS; t++) {
      const request = run.requests[t]!;
      const messages = request.body['messages'] as Json[];
      const assistants = messages.filter((m) => m['role'] === 'assistant');
      expect(assistants).toHaveLength(t);
      for (let k = 0; k < t; k++) {
        const content = (run.sent[k] as { content: Json[] }).content;
        expect(assistants[k]!['content']).toEqual(content);
        // Byte for byte: the blocks appear in the request text exactly as the server wrote them.
        expect(request.text).toContain(`{"role":"assistant","content":${bytes(content)}}`);
        // The thinking (or redacted_thinking) block leads, before any tool_use.
        const types = (assistants[k]!['content'] as Json[]).map((b) => b['type']);
        expect(types[0]).toBe(SCRIPT[k]!.redacted ? 'redacted_thinking' : 'thinking');
        const firstToolUse = types.indexOf('tool_use');
        if (SCRIPT[k]!.calls.length > 0) expect(firstToolUse).toBeGreaterThan(0);
      }
      // The signatures of every earlier turn, and nothing rewritten around them.
      for (let k = 0; k < t; k++) expect(request.text).toContain(bytes(opaque(SCRIPT[k]!.redacted ? 'redacted' : 'sig', k)));
    }
  });

  it('tool results follow their tool_use turn in one user message, in call order, failures with is_error: true', () => {
    const last = run.requests[TURNS - 1]!.body['messages'] as Json[];
    for (let k = 0; k < TURNS - 1; k++) {
      const at = last.findIndex((m) => m['role'] === 'assistant' && bytes(m['content']) === bytes((run.sent[k] as Json)['content']));
      expect(at).toBeGreaterThan(0);
      const next = last[at + 1]!;
      expect(next['role']).toBe('user');
      const results = next['content'] as Json[];
      const calls = SCRIPT[k]!.calls;
      expect(results.map((b) => b['type'])).toEqual(calls.map(() => 'tool_result'));
      expect(results.map((b) => b['tool_use_id'])).toEqual(calls.map((_, i) => `toolu_${k}_${i}`));
      expect(results.map((b) => b['is_error'])).toEqual(calls.map((c) => (c.fails ? true : undefined)));
      reasonsOf(run, k).forEach((reason, i) => {
        if (reason !== undefined) expect(results[i]!['content']).toBe(reason);
      });
    }
  });
});

describe('openai chat: assistant turns and tool calls come back unchanged; failures are the reason text', () => {
  let run: LoopRun;
  beforeAll(async () => {
    run = await runLoop('openai');
  });

  it('runs nine turns through openai chat.completions over HTTP', () => {
    expectCommon(run);
    expect(run.requests.every((r) => r.path === '/v1/chat/completions')).toBe(true);
  });

  it('every earlier assistant message is sent back with its content and tool_calls exactly as returned', () => {
    for (let t = 1; t < TURNS; t++) {
      const request = run.requests[t]!;
      const assistants = (request.body['messages'] as Json[]).filter((m) => m['role'] === 'assistant');
      expect(assistants).toHaveLength(t);
      for (let k = 0; k < t; k++) {
        const message = ((run.sent[k] as { choices: Json[] }).choices[0]!['message']) as Json;
        expect(assistants[k]!['content']).toBe(message['content']);
        if (message['tool_calls'] !== undefined) {
          expect(assistants[k]!['tool_calls']).toEqual(message['tool_calls']);
          expect(request.text).toContain(`"tool_calls":${bytes(message['tool_calls'])}`);
        }
      }
    }
  });

  it('tool messages answer each call in order; a failure is its reason (Chat has no error flag)', () => {
    const messages = run.requests[TURNS - 1]!.body['messages'] as Json[];
    const tools = messages.filter((m) => m['role'] === 'tool');
    const expected = SCRIPT.slice(0, TURNS - 1).flatMap((t, k) => t.calls.map((_, i) => ({ id: `call_${k}_${i}`, reason: reasonsOf(run, k)[i] })));
    expect(tools.map((m) => m['tool_call_id'])).toEqual(expected.map((e) => e.id));
    tools.forEach((m, i) => {
      expect(Object.keys(m).sort()).toEqual(['content', 'role', 'tool_call_id']);
      if (expected[i]!.reason !== undefined) expect(m['content']).toBe(expected[i]!.reason);
    });
  });
});

describe('openai responses: reasoning items (encrypted_content) and item ids come back in order', () => {
  let run: LoopRun;
  beforeAll(async () => {
    run = await runLoop('openai-responses');
  });

  it('runs nine turns through openai responses over HTTP, stateless (store: false)', () => {
    expectCommon(run);
    expect(run.requests.every((r) => r.path === '/v1/responses' && r.body['store'] === false)).toBe(true);
  });

  it("every earlier turn's output items are in the input as received, contiguous, followed by the call outputs", () => {
    // With toolkit loading over a client tool search, a load is answered by a tool_search_output item.
    const toolSearch = offersClientToolSearch(run.requests[0]!.body);
    const outputType = (name: string): string => (toolSearch && name === 'load_toolkit' ? 'tool_search_output' : 'function_call_output');
    for (let t = 1; t < TURNS; t++) {
      const request = run.requests[t]!;
      const input = request.body['input'] as Json[];
      for (let k = 0; k < t; k++) {
        const output = (run.sent[k] as { output: Json[] }).output;
        // Byte for byte and contiguous: the items joined exactly as the server wrote them.
        expect(request.text).toContain(bytes(output).slice(1, -1));
        const at = input.findIndex((item) => item['id'] === `rs_${k}`);
        expect(input.slice(at, at + output.length)).toEqual(output);
        const outputs = input.slice(at + output.length, at + output.length + SCRIPT[k]!.calls.length);
        expect(outputs.map((o) => [o['type'], o['call_id']])).toEqual(SCRIPT[k]!.calls.map((c, i) => [outputType(c.name), `call_${k}_${i}`]));
        reasonsOf(run, k).forEach((reason, i) => {
          if (reason !== undefined) expect(outputs[i]!['output']).toBe(reason);
        });
      }
      // Each reasoning item precedes the function calls it led to.
      for (let k = 0; k < t; k++) {
        const rs = input.findIndex((item) => item['id'] === `rs_${k}`);
        const fc = input.findIndex((item) => item['id'] === `fc_${k}_0` || item['id'] === `ts_${k}_0`);
        if (SCRIPT[k]!.calls.length > 0) expect(fc).toBeGreaterThan(rs);
        expect(input[rs]!['encrypted_content']).toBe(opaque('enc', k));
      }
    }
  });
});

/** The Gemini API version the installed `@google/genai` calls by default: `v1` from its 3.x line, `v1beta` before. */
const GEMINI_API = Number((JSON.parse(readFileSync(new URL('../../node_modules/@google/genai/package.json', import.meta.url), 'utf8')) as { version: string }).version.split('.')[0]) >= 3 ? 'v1' : 'v1beta';

describe('gemini: thought parts and thoughtSignature come back on the part they came on; failures as { error }', () => {
  let run: LoopRun;
  beforeAll(async () => {
    run = await runLoop('gemini');
  });

  it('runs nine turns through @google/genai over HTTP', () => {
    expectCommon(run);
    expect(run.requests.every((r) => r.path === `/${GEMINI_API}/models/gemini-test:generateContent`)).toBe(true);
  });

  it("every earlier model turn is sent back with the candidate's parts, signatures on the first functionCall part", () => {
    for (let t = 1; t < TURNS; t++) {
      const request = run.requests[t]!;
      const models = (request.body['contents'] as Json[]).filter((c) => c['role'] === 'model');
      expect(models).toHaveLength(t);
      for (let k = 0; k < t; k++) {
        const parts = ((run.sent[k] as { candidates: Json[] }).candidates[0]!['content'] as { parts: Json[] }).parts;
        // The SDK re-encodes each part in its own key order, so compare values; the opaque strings byte for byte.
        expect(models[k]!['parts']).toEqual(parts);
        expect(request.text).toContain(`"thoughtSignature":${bytes(opaque('tsig', k))}`);
        const sent = models[k]!['parts'] as Json[];
        const signed = sent.findIndex((p) => p['thoughtSignature'] !== undefined);
        const firstCall = sent.findIndex((p) => p['functionCall'] !== undefined);
        expect(signed).toBe(SCRIPT[k]!.calls.length > 0 ? firstCall : sent.length - 1);
        expect(sent[0]).toEqual({ text: SCRIPT[k]!.thinking, thought: true });
      }
      // Neutral ids made up for calls Gemini sent without one never reach the wire.
      expect(request.text).not.toContain('gemini_call_');
    }
  });

  it('function responses answer each call in order: { error } on failure, ids only where Gemini sent them', () => {
    const contents = run.requests[TURNS - 1]!.body['contents'] as Json[];
    const models = contents.map((c, i) => [c, i] as const).filter(([c]) => c['role'] === 'model');
    for (let k = 0; k < TURNS - 1; k++) {
      const [, at] = models[k]!;
      const responses = (contents[at + 1]!['parts'] as Json[]).map((p) => p['functionResponse'] as Json);
      const calls = SCRIPT[k]!.calls;
      expect(responses.map((r) => r['name'])).toEqual(calls.map((c) => c.name));
      expect(responses.map((r) => r['id'])).toEqual(calls.map((_, i) => (k % 2 === 1 ? `call_${k}_${i}` : undefined)));
      reasonsOf(run, k).forEach((reason, i) => {
        const response = responses[i]!['response'] as Json;
        if (reason !== undefined) expect(response).toEqual({ error: reason });
        else expect(response['error']).toBeUndefined();
      });
    }
  });
});

describe('a conversation that changes provider mid-way keeps working', () => {
  it.each<[Target, Target]>([
    ['anthropic', 'gemini'],
    ['gemini', 'openai-responses'],
    ['openai-responses', 'anthropic'],
  ])('%s for four turns, then %s: the rest runs, earlier state is left out with one warning', async (from, to) => {
    const run = await runLoop(from, { turn: 4, to });
    expectCommon(run);
    const later = run.requests.slice(4);
    // Nothing of the first provider's reasoning state reaches the second provider...
    const kind = { anthropic: 'sig', gemini: 'tsig', 'openai-responses': 'enc', openai: '' }[from];
    for (const request of later) for (let k = 0; k < 4; k++) expect(request.text).not.toContain(JSON.stringify(opaque(kind, k)));
    // ...but its turns do, as text and tool calls with their results, and the second provider's own state comes back.
    const last = later.at(-1)!.text;
    expect(last).toContain('Loading the weather tools.');
    const firstCall = run.history[1]!.tool_calls![0]!.id;
    expect(last).toContain(JSON.stringify(firstCall));
    const own = { anthropic: 'sig', gemini: 'tsig', 'openai-responses': 'enc', openai: '' }[to];
    for (let k = 4; k < TURNS - 1; k++) if (!(to === 'anthropic' && SCRIPT[k]!.redacted)) expect(last).toContain(JSON.stringify(opaque(own, k)));
    const dropped = run.warnings.filter((w) => w.includes('provider state'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toContain(`carries ${from} provider state, which '${to}' cannot use`);
  });
});

describe('no warnings on a single-target conversation', () => {
  it.each<Target>(['anthropic', 'openai', 'openai-responses', 'gemini'])('%s', async (target) => {
    const run = await runLoop(target);
    expect(run.warnings.filter((w) => w.includes('provider state'))).toEqual([]);
  });
});
