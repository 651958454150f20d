/**
 * examples/tool-changes-loop.ts, run as written through the official SDK clients against a local mock of each API:
 * the model loads Weather, calls a loaded tool and the blocked `terminal`, then the tool registered mid-conversation.
 * The recorded requests show each change in the provider's own words while `tools` and the system text never change.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { toolChangesLoop, type Clients } from '../../examples/tool-changes-loop.js';
import type { Target } from '../../runtime/contract.js';
import { startMockProvider, type RecordedRequest } from './mock-provider.js';

interface Call { readonly name: string; readonly args: Record<string, unknown>; readonly namespace?: string }
const dispatched = (tool: string, args: Record<string, unknown>): Call => ({ name: 'call_toolkit_tool', args: { tool, args } });

/** The model's calls per turn in each target's vocabulary (the last turn answers in text). */
function script(target: Target): Call[][] {
  const byName = target === 'anthropic' || target === 'openai-responses';
  // Responses with native namespaces: the toolkit is a namespace, so its tool is called as a member.
  const forecast = byName ? { name: 'get_forecast', args: { city: 'Lisbon' }, ...(target === 'openai-responses' ? { namespace: 'Weather' } : {}) } : dispatched('get_forecast', { city: 'Lisbon' });
  const terminal = target === 'openai-responses' ? { name: 'run_bash', namespace: 'terminal', args: { command: 'ls' } } : { name: 'terminal', args: { action: 'run_bash', args: { command: 'ls' } } };
  const ping = byName ? { name: 'ping', args: { host: 'build' } } : dispatched('ping', { host: 'build' });
  return [[{ name: 'load_toolkit', args: { toolkit_name: 'Weather' } }], [forecast, terminal], [ping], []];
}

function response(target: Target, turn: number, calls: Call[]): unknown {
  const id = (i: number) => `call_${turn}_${i}`;
  const text = calls.length === 0 ? 'Sunny in Lisbon; the build host answered.' : '';
  switch (target) {
    case 'anthropic':
      return {
        id: `msg_${turn}`, type: 'message', role: 'assistant', model: 'm', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
        content: calls.length === 0 ? [{ type: 'text', text }] : calls.map((c, i) => ({ type: 'tool_use', id: id(i), name: c.name, input: c.args })),
        stop_reason: calls.length === 0 ? 'end_turn' : 'tool_use',
      };
    case 'openai':
      return {
        id: 'c', object: 'chat.completion', created: 0, model: 'm',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text || null, ...(calls.length > 0 ? { tool_calls: calls.map((c, i) => ({ id: id(i), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}) } }],
      };
    case 'openai-responses':
      return {
        id: 'r', object: 'response', created_at: 0, model: 'm', status: 'completed',
        output: calls.length === 0
          ? [{ type: 'message', id: 'msg', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }]
          : calls.map((c, i) =>
              c.name === 'load_toolkit'
                ? { type: 'tool_search_call', id: `ts_${i}`, call_id: id(i), execution: 'client', arguments: c.args, status: 'completed' }
                : { type: 'function_call', id: `fc_${turn}_${i}`, call_id: id(i), name: c.name, ...(c.namespace ? { namespace: c.namespace } : {}), arguments: JSON.stringify(c.args), status: 'completed' },
            ),
      };
    case 'gemini':
      return { candidates: [{ content: { role: 'model', parts: calls.length === 0 ? [{ text }] : calls.map((c, i) => ({ functionCall: { id: id(i), name: c.name, args: c.args } })) } }] };
  }
}

async function run(target: Target): Promise<{ turns: number; history: Awaited<ReturnType<typeof toolChangesLoop>>['history']; requests: RecordedRequest[] }> {
  const turns = script(target);
  const server = await startMockProvider((_body, i) => response(target, i, turns[i] ?? []));
  try {
    const clients: Clients = {
      anthropic: new Anthropic({ apiKey: 't', baseURL: server.url, maxRetries: 0 }),
      openai: new OpenAI({ apiKey: 't', baseURL: `${server.url}/v1`, maxRetries: 0 }),
      gemini: new GoogleGenAI({ apiKey: 't', httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } } }),
    };
    const result = await toolChangesLoop(target, clients, { model: target === 'anthropic' ? 'claude-opus-4-8' : 'm' });
    return { ...result, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** What the provider caches before the conversation: the tools and the system text, as the SDK sent them. */
function prefix(target: Target, body: Record<string, any>): string {
  if (target === 'gemini') return JSON.stringify([body['tools'], body['systemInstruction']]);
  if (target === 'openai') return JSON.stringify([body['tools'], body['messages'][0]]);
  return JSON.stringify([body['tools'], body['system'] ?? body['instructions']]);
}

describe('examples/tool-changes-loop.ts', () => {
  it.each<Target>(['anthropic', 'openai', 'openai-responses', 'gemini'])('%s: block, load and registration mid-conversation; tools and system never change', async (target) => {
    const { turns, history, requests } = await run(target);
    expect(turns).toBe(4);
    expect(new Set(requests.map((r) => prefix(target, r.body))).size).toBe(1);
    const results = history.filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.is_error === true, m.content?.slice(0, 40)])).toEqual([
      [false, expect.stringContaining('Toolkit "Weather" loaded.')],
      [false, expect.stringContaining('sunny')],
      [true, 'Tool "terminal" is currently blocked.'],
      [false, 'pong from build'],
    ]);
    const [, afterBlock, afterRegistration] = requests.map((r) => JSON.stringify(r.body));
    switch (target) {
      case 'anthropic':
        expect(afterBlock).toContain('{"type":"tool_removal","tool":{"type":"tool_reference","name":"terminal"}}');
        expect(afterBlock).toContain('{"type":"tool_addition","tool":{"type":"tool_reference","name":"get_forecast"}}');
        expect(afterRegistration).toContain('{"type":"tool_addition","tool":{"type":"tool_definition","definition":{"name":"ping"');
        expect(requests[2]!.headers['anthropic-beta']).toBe('mid-conversation-tool-changes-2026-07-01,inline-tools-2026-09-15');
        break;
      case 'openai-responses':
        expect(afterBlock).not.toContain('"name":"terminal"}]');
        expect(afterBlock).toContain('"type":"namespace","name":"terminal"');
        expect(afterBlock).toContain('"type":"tool_search_output","call_id":"call_0_0","execution":"client","status":"completed","tools":[{"type":"namespace","name":"Weather"');
        expect(afterBlock).toContain('{"type":"namespace","name":"Weather"}');
        expect(afterRegistration).toContain('"type":"tool_search_output","call_id":"toolroute_registered"');
        break;
      case 'openai':
        expect(JSON.stringify(requests[1]!.body['tool_choice'])).not.toContain('terminal');
        expect(afterRegistration).toContain('Tools registered during this conversation');
        break;
      case 'gemini':
        expect(requests[1]!.body['toolConfig']).toMatchObject({ functionCallingConfig: { mode: 'VALIDATED' } });
        expect(JSON.stringify(requests[1]!.body['toolConfig'])).not.toContain('terminal');
        expect(afterRegistration).toContain('Tools registered during this conversation');
        break;
    }
  });
});
