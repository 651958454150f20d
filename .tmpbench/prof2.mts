import * as gen from '../generated/index.ts';
import { createRouter } from '../runtime/index.ts';
const handlers: Record<string, (a: unknown) => unknown> = {}; for (const t of gen.spec.tools) handlers[t.name] = (a) => a;
const router = createRouter(gen as never, handlers as never);
const call = { id: 'c1', name: 'read_file', arguments: '{"path":"src/auth.ts","encoding":"utf8"}' };
for (let i = 0; i < 3000000; i++) router.checkToolCall(call as never);
