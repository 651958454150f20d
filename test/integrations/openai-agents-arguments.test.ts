/**
 * Argument text the SDK cannot parse, under its Runner: blank text (which
 * models send for tools without parameters) reaches the router as no
 * arguments, as `router.dispatch` reads it, and the handler runs once with the
 * run's context; blank text the router refuses gets its reason. Calls from a
 * session's history are never run again. The scripted model runs on
 * 127.0.0.1 through the SDK's OpenAI provider; the assertions read the
 * request bodies the SDK sent.
 */
import { Agent, MemorySession, Runner, setTracingDisabled, type Session } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { toOpenAiAgents } from '../../integrations/openai-agents/index.js';
import { exampleRouter, generated } from '../runtime/helpers.js';
import { call, startScriptedOpenAi, text, type TurnItem } from './openai-agents-model.js';

setTracingDisabled(true);

type Item = Record<string, unknown>;
type Router = ReturnType<typeof exampleRouter>['router'];
/** What the SDK answers, without invoking the tool, for argument text that is not JSON. */
const SDK_PARSE_ERROR = 'An error occurred while parsing tool arguments. Please try again with valid JSON.';

/** Every function call output the model read, by call id, per request (Responses bodies or Chat messages). */
function outputsPerRequest(bodies: readonly Item[]) {
  return bodies.map((body) => {
    const items = (body['input'] ?? body['messages']) as Item[];
    return new Map(items.flatMap((i) => (i['type'] === 'function_call_output' ? [[i['call_id'], i['output']] as const] : i['role'] === 'tool' ? [[i['tool_call_id'], i['content']] as const] : [])));
  });
}

async function runScript(api: 'responses' | 'chat', router: Router, script: readonly (readonly TurnItem[])[], session?: Session) {
  const model = await startScriptedOpenAi(api, script);
  try {
    const settings = toOpenAiAgents(router, { api, generated });
    const agent = new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent });
    const runner = new Runner({ modelProvider: model.provider, tracingDisabled: true });
    await runner.run(agent, 'What time is it?', { ...settings.run, context: { user: 'ana' }, maxTurns: 6, ...(session === undefined ? {} : { session }) });
    return outputsPerRequest(model.requests.map((r) => r.body));
  } finally {
    await model.close();
  }
}

describe('blank argument text', () => {
  it('on Responses: the call runs once, with no arguments and the run context; blank text the router refuses gets its reason', async () => {
    const { router, log } = exampleRouter();
    const requests = await runScript('responses', router, [
      [call('b1', 'get_time', ''), call('b2', 'write_file', ' ', 'file_ops')],
      [call('c3', 'get_time', {})],
      [text('Noon.')],
    ]);
    // Each later request carries b1 again: the handler ran for it once.
    expect(log.map((c) => [c.tool, c.args, c.context])).toEqual([
      ['get_time', {}, { user: 'ana' }],
      ['get_time', {}, { user: 'ana' }],
    ]);
    expect(log.map((c) => c.callId)).toEqual(['b1', 'c3']);
    for (const out of requests.slice(1)) expect(out.get('b1')).toBe('{"tool":"get_time","args":{}}');
    const refused = (await exampleRouter().router.dispatch({ name: 'write_file', namespace: 'file_ops', arguments: ' ' })) as { reason?: string };
    expect(refused.reason).toContain('/path: missing');
    expect(requests[1]!.get('b2')).toBe(refused.reason);
  });

  it('on Chat Completions: the same', async () => {
    const { router, log } = exampleRouter();
    const requests = await runScript('chat', router, [[call('b1', 'get_time', '')], [text('Noon.')]]);
    expect(log.map((c) => [c.tool, c.args])).toEqual([['get_time', {}]]);
    expect(requests[1]!.get('b1')).toBe('{"tool":"get_time","args":{}}');
  });

  it("a session's stored call is not run again: the same router shows its result, a new one the SDK's message", async () => {
    const session = new MemorySession();
    const { router, log } = exampleRouter();
    await runScript('responses', router, [[call('b1', 'get_time', '')], [text('Noon.')]], session);
    expect(log).toHaveLength(1);
    // A later run on the same router, with new settings: the stored call keeps the result the model read.
    const again = await runScript('responses', router, [[text('Still noon.')]], session);
    expect(again[0]!.get('b1')).toBe('{"tool":"get_time","args":{}}');
    expect(log).toHaveLength(1);
    // A router that never ran it (a new process): it is not run now, and the SDK's own message stays.
    const fresh = exampleRouter();
    const elsewhere = await runScript('responses', fresh.router, [[text('Noon again.')]], session);
    expect(elsewhere[0]!.get('b1')).toBe(SDK_PARSE_ERROR);
    expect(fresh.log).toHaveLength(0);
  });
});
