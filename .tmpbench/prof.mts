import * as gen from '../generated/index.ts';
import { createRouter } from '../runtime/index.ts';
const handlers: Record<string, (a: unknown) => unknown> = {}; for (const t of gen.spec.tools) handlers[t.name] = (a) => a;
const router = createRouter(gen as never, handlers as never);
const call = { id: 'c1', name: process.argv[2] === 'ns' ? 'file_ops' : 'read_file', arguments: process.argv[2] === 'ns' ? '{"action":"read_file","args":{"path":"src/auth.ts","encoding":"utf8"}}' : '{"path":"src/auth.ts","encoding":"utf8"}' };
for (let i = 0; i < 400000; i++) await router.dispatch(call as never);
