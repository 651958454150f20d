import { parseArguments, readCall, DEFAULT_LIMITS } from '../runtime/call-shape.ts';
const call = { id: 'c1', name: 'read_file', arguments: '{"path":"src/auth.ts","encoding":"utf8"}' };
const ns = '{"action":"read_file","args":{"path":"src/auth.ts","encoding":"utf8"}}';
const raw = call.arguments;
const fns: Record<string, () => unknown> = {
  parse: () => JSON.parse(raw),
  parseArguments: () => parseArguments(raw, DEFAULT_LIMITS),
  parseNs: () => JSON.parse(ns),
  parseArgumentsNs: () => parseArguments(ns, DEFAULT_LIMITS),
  readCall: () => readCall(call),
};
const N = 20000;
const time = (fn: () => unknown) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) fn(); return Number(process.hrtime.bigint() - t) / N; };
const best: Record<string, number> = {};
for (let r = 0; r < 100; r++) for (const [k, f] of Object.entries(fns)) best[k] = Math.min(best[k] ?? 1e9, time(f));
console.log(Object.entries(best).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '));
