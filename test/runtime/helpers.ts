/**
 * Shared setup for the runtime tests: the router over the example spec's
 * generated folder, with handlers that record every call they receive.
 */
import * as generated from './example.js';
import { createRouter, type RouterOptions } from '../../runtime/index.js';
import type { Handlers, ToolName } from './example.js';

export { generated };

/** One handler invocation. */
export interface HandlerCall {
  readonly tool: ToolName;
  readonly args: unknown;
  readonly callId: string | undefined;
  readonly context: unknown;
}

/** Handlers for every example tool that log their calls and echo `{ tool, args }`. */
export function recordingHandlers(): { handlers: Handlers<unknown>; log: HandlerCall[] } {
  const log: HandlerCall[] = [];
  const make =
    (tool: ToolName) =>
    (args: unknown, ctx: { callId: string | undefined; context: unknown }) => {
      log.push({ tool, args, callId: ctx.callId, context: ctx.context });
      return { tool, args };
    };
  const handlers: Handlers<unknown> = {
    read_file: make('read_file'),
    run_bash: make('run_bash'),
    get_time: make('get_time'),
    write_file: make('write_file'),
    delete_file: make('delete_file'),
    tail_logs: make('tail_logs'),
    get_forecast: make('get_forecast'),
    get_current_weather: make('get_current_weather'),
    run_query: make('run_query'),
    describe_table: make('describe_table'),
  };
  return { handlers, log };
}

/** A fresh router over the example with recording handlers. */
export function exampleRouter(options?: RouterOptions) {
  const { handlers, log } = recordingHandlers();
  return { router: createRouter(generated, handlers, options), log };
}
