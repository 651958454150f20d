const raw = '{"path":"src/auth.ts","encoding":"utf8"}';
const limits = { maxArgumentsLength: 1048576, maxDepth: 64, maxNodes: 100000 };
function checkShape(root: object): unknown {
  const stack: unknown[] = [root]; const depths: number[] = [1]; let nodes = 0; let chars = 0;
  while (stack.length > 0) {
    const value = stack.pop(); const depth = depths.pop()!;
    if (++nodes > limits.maxNodes) return 1;
    switch (typeof value) {
      case 'string': chars += value.length; if (chars > limits.maxArgumentsLength) return 2; continue;
      case 'number': if (!Number.isFinite(value)) return 3; continue;
      case 'boolean': continue;
      case 'object': break;
      default: return 4;
    }
    if (value === null) continue;
    if (depth > limits.maxDepth) return 5;
    if (Array.isArray(value)) { for (const item of value) { stack.push(item); depths.push(depth + 1); } continue; }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return 6;
    for (const key of Object.keys(value)) { chars += key.length; stack.push((value as any)[key]); depths.push(depth + 1); }
  }
  return undefined;
}
function containersOnly(root: object): unknown {
  const stack: object[] = [root]; const depths: number[] = [1]; let nodes = 1; let chars = 0;
  while (stack.length > 0) {
    const c = stack.pop()!; const depth = depths.pop()!;
    if (depth > limits.maxDepth) return 5;
    const arr = Array.isArray(c);
    if (!arr) { const proto = Object.getPrototypeOf(c); if (proto !== Object.prototype && proto !== null) return 6; }
    const keys = arr ? undefined : Object.keys(c);
    const n = arr ? (c as unknown[]).length : keys!.length;
    for (let i = 0; i < n; i++) {
      let value: unknown;
      if (keys) { chars += keys[i]!.length; value = (c as any)[keys[i]!]; } else value = (c as unknown[])[i];
      if (++nodes > limits.maxNodes) return 1;
      if (typeof value === 'string') { chars += value.length; if (chars > limits.maxArgumentsLength) return 2; }
      else if (typeof value === 'number') { if (!Number.isFinite(value)) return 3; }
      else if (typeof value === 'object') { if (value !== null) { stack.push(value); depths.push(depth + 1); } }
      else if (typeof value !== 'boolean') return 4;
    }
  }
  return undefined;
}
const v = JSON.parse(raw);
const N = 1000000;
const time = (fn: () => unknown) => { const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) fn(); return Number(process.hrtime.bigint() - t) / N; };
for (let r = 0; r < 4; r++) { const a = time(() => checkShape(v)); const b = time(() => containersOnly(v)); const p = time(() => JSON.parse(raw)); if (r === 3) console.log('checkShape', a.toFixed(0), 'containersOnly', b.toFixed(0), 'parse', p.toFixed(0)); }
function rec(value: object, depth: number, st: { nodes: number; chars: number }): unknown {
  if (depth > limits.maxDepth) return 5;
  let keys: string[] | undefined;
  if (!Array.isArray(value)) { const proto = Object.getPrototypeOf(value); if (proto !== Object.prototype && proto !== null) return 6; keys = Object.keys(value); }
  const n = keys ? keys.length : (value as unknown[]).length;
  for (let i = 0; i < n; i++) {
    let v: unknown;
    if (keys) { st.chars += keys[i]!.length; v = (value as any)[keys[i]!]; } else v = (value as unknown[])[i];
    if (++st.nodes > limits.maxNodes) return 1;
    if (typeof v === 'string') { st.chars += v.length; if (st.chars > limits.maxArgumentsLength) return 2; }
    else if (typeof v === 'number') { if (!Number.isFinite(v)) return 3; }
    else if (typeof v === 'object') { if (v !== null) { const p = rec(v, depth + 1, st); if (p !== undefined) return p; } }
    else if (typeof v !== 'boolean') return 4;
  }
  return undefined;
}
const nsv = JSON.parse('{"action":"read_file","args":{"path":"src/auth.ts","encoding":"utf8"}}');
const best: Record<string, number> = {};
const M = 20000;
const t2 = (fn: () => unknown) => { const t = process.hrtime.bigint(); for (let i = 0; i < M; i++) fn(); return Number(process.hrtime.bigint() - t) / M; };
const fs2: Record<string, () => unknown> = { checkShape: () => checkShape(nsv), containersOnly: () => containersOnly(nsv), rec: () => rec(nsv, 1, { nodes: 1, chars: 0 }) };
for (let r = 0; r < 100; r++) for (const [k, f] of Object.entries(fs2)) best[k] = Math.min(best[k] ?? 1e9, t2(f));
console.log(best);
