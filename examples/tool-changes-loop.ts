/**
 * A tool set that changes during the conversation, on every target, in the provider's own words:
 *
 *   turn 1: the model loads the Weather toolkit
 *   turn 2: the application blocks `terminal` (the provider gate, `allowedTools`, withdraws it too)
 *   turn 3: the application registers `ping`, which the model then calls
 *
 * and `tools` (with the system text) stays byte-identical from the first request to the last, so the prompt cache
 * holds. What carries each change:
 *
 * | target | block | load | registration after the first turn |
 * | --- | --- | --- | --- |
 * | `anthropic` (a model with tool changes) | `tool_removal` | `tool_addition` of the deferred tools | `tool_addition` by value |
 * | `openai-responses` | `allowed_tools` | `tool_search_output` | `tool_search_output` |
 * | `openai` (Chat) | `allowed_tools` | the dispatcher tool | the dispatcher, announced |
 * | `gemini` | `toolConfig` `VALIDATED` | the dispatcher tool | the dispatcher, announced |
 *
 * Run it: `ANTHROPIC_API_KEY=… npx tsx examples/tool-changes-loop.ts anthropic` (or `openai`, `openai-responses`,
 * `gemini`). test/conversation/tool-changes-loop.test.ts runs it against a local mock of each API.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { pathToFileURL } from 'node:url';
import { anthropicToolChanges, fromProvider, toolMessage, type NeutralMessage, type Target, type TargetCompileOptions } from '../runtime/index.js';
import { exampleRouter } from './provider-loop.js';

const SYSTEM = 'You are a careful assistant. Load a toolkit before using its tools.';
/** The provider gate on, and on Responses namespaces and toolkits as native `namespace` tools (a toolkit's functions deferred). */
const OPTIONS: TargetCompileOptions = { allowedTools: true, namespaces: 'native' };

/** The clients a loop may use; pass the one for its target. */
export interface Clients { readonly anthropic?: Anthropic; readonly openai?: OpenAI; readonly gemini?: GoogleGenAI }

type Router = ReturnType<typeof exampleRouter>;

/** One model turn: compile, send through the target's SDK, read the reply back. */
async function ask(target: Target, clients: Clients, router: Router, messages: NeutralMessage[], model: string): Promise<NeutralMessage[]> {
  switch (target) {
    case 'anthropic': {
      const payload = router.compile({ target, system: SYSTEM, messages, options: OPTIONS });
      // Tool changes are a beta: the payload says so, and goes through client.beta.
      const beta = anthropicToolChanges(payload);
      const reply = beta ? await clients.anthropic!.beta.messages.create({ model, max_tokens: 1024, ...beta }) : await clients.anthropic!.messages.create({ model, max_tokens: 1024, ...payload });
      return fromProvider(target, reply as Anthropic.Message);
    }
    case 'openai':
      return fromProvider(target, await clients.openai!.chat.completions.create({ model, ...router.compile({ target, system: SYSTEM, messages, options: OPTIONS }) }));
    case 'openai-responses':
      return fromProvider(target, await clients.openai!.responses.create({ model, store: false, ...router.compile({ target, system: SYSTEM, messages, options: OPTIONS }) }));
    case 'gemini':
      return fromProvider(target, await clients.gemini!.models.generateContent({ model, ...router.compile({ target, system: SYSTEM, messages, options: OPTIONS }) }));
  }
}

/**
 * The loop: the application changes the tool set between turns; the model's calls are dispatched through the gate.
 * @example
 * const { turns, history } = await toolChangesLoop('anthropic', { anthropic: new Anthropic() }, { model: 'claude-opus-4-8' });
 */
export async function toolChangesLoop(target: Target, clients: Clients, options: { readonly model: string; readonly maxTurns?: number }): Promise<{ turns: number; history: NeutralMessage[] }> {
  // The model decides the strategy on Anthropic: tool changes where it accepts them.
  let router = exampleRouter({ model: options.model });
  const history: NeutralMessage[] = [{ role: 'user', content: 'Get the Lisbon forecast, then ping the build host.' }];
  for (let turn = 0; turn < (options.maxTurns ?? 8); turn++) {
    if (turn === 1) router.setBlockedTools(['terminal']);
    if (turn === 2) router = router.registerTools([{ name: 'ping', description: 'Ping a host', parameters: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] }, handler: ({ host }) => `pong from ${String(host)}` }]) as unknown as Router;
    const reply = await ask(target, clients, router, history, options.model);
    history.push(...reply);
    const calls = reply.flatMap((m) => m.tool_calls ?? []);
    if (calls.length === 0) return { turns: turn + 1, history };
    for (const call of calls) history.push(toolMessage(call, await router.dispatch(call)));
  }
  return { turns: options.maxTurns ?? 8, history };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = (process.argv[2] ?? 'anthropic') as Target;
  const clients: Clients = { anthropic: new Anthropic(), openai: new OpenAI(), gemini: new GoogleGenAI({ apiKey: process.env['GEMINI_API_KEY'] }) };
  const model = { anthropic: 'claude-opus-4-8', openai: 'gpt-5.2', 'openai-responses': 'gpt-5.2', gemini: 'gemini-3-pro' }[target];
  const { history } = await toolChangesLoop(target, clients, { model });
  console.log(history.at(-1)?.content);
}
