import { Ajv } from 'ajv';
import * as gen from '../generated/index.ts';
import { createRouter } from '../runtime/index.ts';
const settle = process.argv[2] ?? 'sync';
const handlers: Record<string, (a: unknown) => unknown> = {};
for (const t of gen.spec.tools) handlers[t.name] = settle === 'sync' ? (a) => a : async (a) => a;
const router = createRouter(gen as never, handlers as never);
const schema = (gen.spec.rendered.neutral.tools as any[]).find((t) => t.name === 'read_file').parameters;
const plain = new Ajv().compile(schema);
const cases = [
  { label: 'flat', call: { id: 'c1', name: 'read_file', arguments: '{"path":"src/auth.ts","encoding":"utf8"}' }, ns: false },
  { label: 'namespace', call: { id: 'c1', name: 'file_ops', arguments: '{"action":"read_file","args":{"path":"src/auth.ts","encoding":"utf8"}}' }, ns: true },
];
const h = handlers['read_file']!;
for (const c of cases) {
  const raw = c.call.arguments;
  const floor = settle === 'sync'
    ? () => { const p = JSON.parse(raw); const a = c.ns ? p.args : p; if (!plain(a)) return Promise.reject(new Error('x')); return Promise.resolve(h(a)); }
    : async () => { const p = JSON.parse(raw); const a = c.ns ? p.args : p; if (!plain(a)) throw new Error('x'); return await h(a); };
  const tr = () => router.dispatch(c.call as never);
  const r0 = await tr(); if (!r0.ok) throw new Error(JSON.stringify(r0));
  const N = 20000;
  const time = async (fn: () => Promise<unknown>) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) await fn(); return Number(process.hrtime.bigint() - t) / N; };
  for (let i = 0; i < 5; i++) { await time(floor); await time(tr); }
  const fs: number[] = [], ts: number[] = [];
  for (let i = 0; i < 15; i++) { fs.push(await time(floor)); ts.push(await time(tr)); }
  const med = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1]!;
  console.log(settle, c.label, 'floor', med(fs).toFixed(0), 'ns  toolroute', med(ts).toFixed(0), 'ns  ratio', (med(ts) / med(fs)).toFixed(2));
}
