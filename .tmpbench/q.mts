import { Ajv } from 'ajv';
import * as gen from '../generated/index.ts';
import { createRouter } from '../runtime/index.ts';
import { parseArguments, DEFAULT_LIMITS } from '../runtime/call-shape.ts';
const handlers: Record<string, (a: unknown) => unknown> = {}; for (const t of gen.spec.tools) handlers[t.name] = (a) => a;
const router = createRouter(gen as never, handlers as never);
const schema = (gen.spec.rendered.neutral.tools as any[]).find((t) => t.name === 'read_file').parameters;
const plain = new Ajv().compile(schema);
const call = { id: 'c1', name: 'read_file', arguments: '{"path":"src/auth.ts","encoding":"utf8"}' };
const raw = call.arguments;
const fns: Record<string, () => unknown> = {
  parseValidate: () => plain(JSON.parse(raw)),
  parseArgsValidate: () => { const p = parseArguments(raw, DEFAULT_LIMITS); return p.ok && plain(p.value); },
  check: () => router.checkToolCall(call as never),
  syncPromise: () => Promise.resolve(plain(JSON.parse(raw))),
};
const N = 20000;
const time = (fn: () => unknown) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) fn(); return Number(process.hrtime.bigint() - t) / N; };
const best: Record<string, number> = {};
for (let r = 0; r < 100; r++) for (const [k, f] of Object.entries(fns)) best[k] = Math.min(best[k] ?? 1e9, time(f));
console.log(Object.entries(best).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '));
