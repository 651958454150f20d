/**
 * A stdio server for mcp-stdio-close.test.ts: the example router, whose `run_bash` runs until its `ctx.signal` aborts
 * (holding a timer, as a handler waiting on a socket or a child process would), served on the SDK line in
 * TOOLROUTE_MCP_SDK. Writes `aborted` to stderr when the call's signal aborts.
 */
import * as gen from '../../generated/index.js';
import { serveMcpStdio, type McpSdkLine } from '../../integrations/mcp/index.js';
import { createRouter } from '../../runtime/index.js';
import { recordingHandlers } from '../runtime/helpers.js';

const { handlers } = recordingHandlers();
const router = createRouter(gen, {
  ...handlers,
  run_bash: (_args: unknown, ctx: { signal: AbortSignal }) =>
    new Promise<string>((resolve) => {
      const timer = setInterval(() => undefined, 1000);
      ctx.signal.addEventListener('abort', () => {
        clearInterval(timer);
        process.stderr.write('aborted\n');
        resolve('stopped');
      });
    }),
});
await serveMcpStdio(router, { sdk: process.env['TOOLROUTE_MCP_SDK'] as McpSdkLine });
