import { Ajv } from 'ajv';
import * as gen from '../generated/index.ts';
import { createRouter } from '../runtime/index.ts';
// @ts-ignore
import * as genOld from '/tmp/old/generated/index.ts';
// @ts-ignore
import { createRouter as createOld } from '/tmp/old/runtime/index.ts';
const settle = process.argv[2] ?? 'sync';
const mk = () => { const h: Record<string, (a: unknown) => unknown> = {}; for (const t of gen.spec.tools) h[t.name] = settle === 'sync' ? (a) => a : async (a) => a; return h; };
const handlers = mk();
const router = createRouter(gen as never, handlers as never);
const old = createOld(genOld as never, mk() as never);
const schema = (gen.spec.rendered.neutral.tools as any[]).find((t) => t.name === 'read_file').parameters;
const plain = new Ajv().compile(schema);
const h = handlers['read_file']!;
for (const c of [
  { label: 'flat', call: { id: 'c1', name: 'read_file', arguments: '{"path":"src/auth.ts","encoding":"utf8"}' }, ns: false },
  { label: 'namespace', call: { id: 'c1', name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"src/auth.ts","encoding":"utf8"}}' }, ns: true },
]) {
  const raw = c.call.arguments;
  const floor = settle === 'sync'
    ? () => { const p = JSON.parse(raw); const a = c.ns ? p.args : p; if (!plain(a)) return Promise.reject(new Error('x')); return Promise.resolve(h(a)); }
    : async () => { const p = JSON.parse(raw); const a = c.ns ? p.args : p; if (!plain(a)) throw new Error('x'); return await h(a); };
  const floor2 = async () => { const p = JSON.parse(raw); const a = c.ns ? p.args : p; if (!plain(a)) throw new Error('x'); return { ok: true, result: await h(a) }; };
  const fns = { floor, floor2, new: () => router.dispatch(c.call as never), old: () => old.dispatch(c.call as never) } as Record<string, () => Promise<unknown>>;
  const N = 5000;
  const time = async (fn: () => Promise<unknown>) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) await fn(); return Number(process.hrtime.bigint() - t) / N; };
  const best: Record<string, number> = { floor: 1e9, floor2: 1e9, new: 1e9, old: 1e9 };
  for (let i = 0; i < 60; i++) for (const k of Object.keys(fns)) best[k] = Math.min(best[k]!, await time(fns[k]!));
  console.log(settle, c.label, Object.entries(best).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '), ' new/floor', (best.new! / best.floor!).toFixed(2), ' old/floor', (best.old! / best.floor!).toFixed(2));
}
