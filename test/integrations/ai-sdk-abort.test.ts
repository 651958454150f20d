/**
 * Cancellation through `toAiSdk`: the AI SDK's `abortSignal` reaches `dispatch`, so aborting a run aborts the running
 * handler's `ctx.signal` and the call settles as `aborted`.
 */
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../runtime/index.js';
import { toAiSdk } from '../../integrations/ai-sdk/index.js';
import { generated, recordingHandlers } from '../runtime/helpers.js';
import { call, modelOf } from './ai-sdk-model.js';

describe('toAiSdk cancellation', () => {
  /** A router whose `run_bash` waits until its `ctx.signal` aborts; `aborted` collects the reasons. */
  function waitingRouter() {
    const aborted: unknown[] = [];
    let started = 0;
    const { handlers } = recordingHandlers();
    const router = createRouter(generated, {
      ...handlers,
      run_bash: (_args: unknown, ctx: { signal: AbortSignal }) =>
        new Promise<string>((resolve) => {
          started++;
          ctx.signal.addEventListener('abort', () => {
            aborted.push(ctx.signal.reason);
            resolve('stopped');
          });
        }),
    });
    return { router, aborted, started: () => started };
  }

  it("aborting the run aborts the running handler's signal, and generateText settles", async () => {
    const { router, aborted, started } = waitingRouter();
    const { model } = modelOf([[call('a1', 'terminal', { action: 'run_bash', args: { command: 'sleep 60' } })], [{ type: 'text', text: 'done' }]]);
    const stop = new AbortController();
    const run = generateText({ model, ...toAiSdk(router), prompt: 'Run it.', stopWhen: stepCountIs(3), abortSignal: stop.signal }).then(
      () => 'resolved',
      (error: unknown) => `rejected: ${(error as Error).message}`,
    );
    await expect.poll(started).toBe(1);
    stop.abort(new Error('the user stopped the run'));
    const hung = new Promise((resolve) => setTimeout(() => resolve('still running after 3 s'), 3000));
    expect(await Promise.race([run, hung])).toBe('rejected: the user stopped the run');
    expect(aborted).toEqual([stop.signal.reason]);
  });

  it("an aborted call's output is the router's `aborted` rejection, which reads as a cancellation", async () => {
    const { router, aborted } = waitingRouter();
    const tools = toAiSdk(router).tools;
    // `execute` as the AI SDK calls it; its declared input type differs between AI SDK 6 and 7.
    type Execute = (input: unknown, options: { toolCallId: string; messages: []; abortSignal?: AbortSignal }) => Promise<unknown>;
    const execute = (name: string) => tools[name]!.execute as unknown as Execute;
    const stop = new AbortController();
    const output = execute('terminal')({ action: 'run_bash', args: { command: 'sleep 60' } }, { toolCallId: 'a2', messages: [], abortSignal: stop.signal });
    stop.abort();
    const hung = new Promise((resolve) => setTimeout(() => resolve('still running after 3 s'), 3000));
    expect(await Promise.race([output, hung])).toEqual({ toolroute: 'rejected', code: 'aborted', reason: 'The call to "run_bash" was cancelled by the application before it finished.' });
    expect(aborted).toHaveLength(1);
    // Without a signal (a direct call, an SDK that passes none) the call runs as before.
    const plain = await execute('get_time')({}, { toolCallId: 'a3', messages: [] });
    expect(plain).toEqual({ tool: 'get_time', args: {} });
  });
});
