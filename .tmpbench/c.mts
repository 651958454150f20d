import { Ajv } from 'ajv';
import * as gen from '../generated/index.ts';
import { createRouter } from '../runtime/index.ts';
import { parseArguments, DEFAULT_LIMITS } from '../runtime/call-shape.ts';
const handlers: Record<string, (a: unknown) => unknown> = {};
for (const t of gen.spec.tools) handlers[t.name] = (a) => a;
const router = createRouter(gen as never, handlers as never);
const schema = (gen.spec.rendered.neutral.tools as any[]).find((t) => t.name === 'read_file').parameters;
const plain = new Ajv().compile(schema);
const call = { id: 'c1', name: 'read_file', arguments: '{"path":"src/auth.ts","encoding":"utf8"}' };
const raw = call.arguments;
const N = 200000;
const time = (fn: () => unknown) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) fn(); return Number(process.hrtime.bigint() - t) / N; };
const fns: Record<string, () => unknown> = {
  parseValidate: () => plain(JSON.parse(raw)),
  parseArguments: () => parseArguments(raw, DEFAULT_LIMITS),
  parseOnly: () => JSON.parse(raw),
  check: () => router.checkToolCall(call as never),
};
for (let r = 0; r < 3; r++) for (const [k, f] of Object.entries(fns)) { const v = time(f); if (r === 2) console.log(k, v.toFixed(0)); }
