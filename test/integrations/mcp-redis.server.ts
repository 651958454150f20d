/**
 * One server process of the two-process test (mcp-redis.test.ts): the example
 * router, a router per session, sessions in the Redis at REDIS_URL. Prints its
 * URL on stdout once listening.
 */
import { createClient } from 'redis';
import { createDemoRouter } from '../../examples/mcp-server.js';
import { redisSessionStore, serveMcpHttp, type McpSdkLine } from '../../integrations/mcp/index.js';

const redis = await createClient({ url: process.env['REDIS_URL'] }).connect();
const served = await serveMcpHttp(() => createDemoRouter(), {
  sdk: process.env['TOOLROUTE_MCP_SDK'] as McpSdkLine,
  store: redisSessionStore(redis),
  // Requests arrive through the test's load balancer, with its Host.
  allowedHosts: [process.env['BALANCER_HOST']!],
});
process.stdout.write(`${served.url.href}\n`);
