/**
 * The example router as the tools of an OpenAI Agents SDK agent, run by the
 * SDK's own `Runner`, with a scripted model (the SDK's `Model` interface) so
 * it runs without a network or a key. With a real model only the `model`
 * line changes:
 *
 *   const agent = new Agent({ name: 'assistant', model: 'gpt-5', ...toolroute.agent });
 *
 * The scripted model writes a file through the `file_ops` namespace (a
 * `toolNamespace` group on the Responses API), sends invalid arguments, calls
 * a toolkit tool before loading it, loads the toolkit through the client tool
 * search (whose executor is `load_toolkit`) and calls the loaded tool; each
 * mistake comes back with toolroute's reason as the tool's output. It prints
 * what the model read after each turn. Run it: `npx tsx examples/openai-agents.ts`.
 * test/integrations/openai-agents-chat.test.ts runs `runOpenAiAgent()` and checks what it returns.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, Runner, Usage, type AgentInputItem, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { toOpenAiAgents } from 'toolroute/openai-agents';
import * as generated from '../generated/index.js';
import { createDemoRouter } from './mcp-server.js';

const fn = (callId: string, name: string, args: unknown, namespace?: string): AgentOutputItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
  ...(namespace === undefined ? {} : { namespace }),
});

/** What the scripted model answers on each turn. */
const SCRIPT: AgentOutputItem[][] = [
  [fn('1', 'write_file', { path: 'plan.md', content: 'check the weather' }, 'file_ops'), fn('2', 'write_file', { path: 'plan.md' }, 'file_ops')],
  [fn('3', 'get_forecast', { city: 'Lisbon' })],
  [{ type: 'tool_search_call', id: 'ts_4', callId: '4', execution: 'client', arguments: { toolkit_name: 'Weather' }, status: 'completed' }],
  [fn('5', 'get_forecast', { city: 'Lisbon', days: 2 })],
  [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Lisbon: sunny for the next two days.' }] }],
];

/** A model that answers from the script and keeps every request it was sent. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    return { usage: new Usage(), output: SCRIPT[this.requests.length - 1] ?? [] };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the example runs without streaming');
  }
}

export interface AgentTurn {
  /** Tool names the model was offered on this turn (a namespace's members as `namespace.name`, the loader as `tool_search`). */
  readonly tools: readonly string[];
  /** What the model read for the previous turn's calls: each output text, a tool search's loaded tools. */
  readonly results: readonly { readonly id: string; readonly value: string }[];
}

/** The results the model read in a request for the calls of its previous turn. */
function resultsOf(input: string | AgentInputItem[], previous: readonly AgentOutputItem[]): AgentTurn['results'] {
  if (typeof input === 'string') return [];
  const ids = new Set(previous.map((item) => ('callId' in item ? item.callId : undefined)));
  const out: { id: string; value: string }[] = [];
  for (const item of input) {
    if (item.type === 'function_call_result' && ids.has(item.callId)) {
      const output = item.output as { type?: string; text?: string } | string;
      out.push({ id: item.callId, value: typeof output === 'string' ? output : output.type === 'text' ? String(output.text) : JSON.stringify(output) });
    } else if (item.type === 'tool_search_output') {
      // Where the SDK keeps a client tool search's call id.
      const id = String(item.callId ?? item.call_id ?? item.providerData?.['call_id']);
      if (ids.has(id)) out.push({ id, value: `loaded: ${item.tools.map((t) => String(t['name'])).join(', ')}` });
    }
  }
  return out;
}

/**
 * Runs the scripted agent and returns the final text, what the model was
 * offered and read on each turn, and whether the offered tools were the same
 * on every turn (what the prompt cache needs).
 */
export async function runOpenAiAgent(): Promise<{ text: string; turns: AgentTurn[]; toolsIdentical: boolean }> {
  const router = createDemoRouter();
  const model = new ScriptedModel();
  const toolroute = toOpenAiAgents(router, { generated, instructions: 'You are a helpful assistant with file and weather tools.' });
  const agent = new Agent({ name: 'assistant', model, ...toolroute.agent });
  const result = await new Runner({ tracingDisabled: true }).run(agent, 'Plan a walk in Lisbon.', { ...toolroute.run, maxTurns: 8 });
  const turns = model.requests.map(
    (r, i): AgentTurn => ({
      tools: r.tools.map((t) => (t.type === 'function' && t.namespace !== undefined ? `${t.namespace}.${t.name}` : t.name)),
      results: resultsOf(r.input, SCRIPT[i - 1] ?? []),
    }),
  );
  const first = JSON.stringify(model.requests[0]?.tools);
  return { text: String(result.finalOutput), turns, toolsIdentical: model.requests.every((r) => JSON.stringify(r.tools) === first) };
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  const { text, turns, toolsIdentical } = await runOpenAiAgent();
  turns.forEach((turn, i) => {
    console.log(`turn ${i + 1}: ${turn.tools.length} tools offered`);
    for (const r of turn.results) console.log(`  result ${r.id}: ${r.value.replace(/\n/g, '\n    ')}`);
  });
  console.log(`tools identical on every turn: ${toolsIdentical}`);
  console.log(text);
}
