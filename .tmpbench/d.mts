import { parseArguments, DEFAULT_LIMITS } from '../runtime/call-shape.ts';
const raw = '{"path":"src/auth.ts","encoding":"utf8"}';
const N = 300000;
const time = (fn: () => unknown) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) fn(); return Number(process.hrtime.bigint() - t) / N; };
const fns: Record<string, () => unknown> = {
  parseOnly: () => JSON.parse(raw),
  trim: () => raw.trim() === '',
  parseArguments: () => parseArguments(raw, DEFAULT_LIMITS),
  parseOnly2: () => JSON.parse(raw),
};
for (let r = 0; r < 4; r++) for (const [k, f] of Object.entries(fns)) { const v = time(f); if (r === 3) console.log(k, v.toFixed(0)); }
