/**
 * `npx tsx bench/instructions.ts` — dispatch against the honest floor in
 * instructions per call (valgrind's callgrind), where the shared machine's
 * load cannot blur the comparison the way it blurs wall-clock ratios.
 *
 *   npx tsx bench/instructions.ts                     # 1,000 tools, all four cases
 *   npx tsx bench/instructions.ts --tools=10000       # another size (10, 100, 1000, 10000)
 *   npx tsx bench/instructions.ts --case=namespace-sync,flat-async
 *   npx tsx bench/instructions.ts --runtime=path/to/runtime/index.js   # count another runtime build (A/B), same generated folder
 *   npx tsx bench/instructions.ts --contenders=floor,toolroute        # leave the reference path out (default: all three)
 *   npx tsx bench/instructions.ts --sim                               # also simulate caches and branches (slower)
 *   npx tsx bench/instructions.ts --variants                          # first run item 1's agreement-check values through each validator
 *
 * Needs `valgrind` and the generated folders of an earlier `npm run bench`
 * (bench/.tmp/gen); the runtime and the folder are compiled to JS here the
 * way the bench does it. Per contender (toolroute's `router.dispatch`; the
 * floor of item 1: `JSON.parse` + a plain `new Ajv().compile(schema)`
 * validator + the handler settled as dispatch settles it; and item 1's
 * reference path: `checkToolCall` (+ `isNamespaceCall` + `resolveNamespace`
 * for a namespace call, `JSON.parse` for a flat one) + one `Map` read + its
 * `allErrors` ajv validator + the same settle, bench/reference.ts
 * transpiled by esbuild for the plain-JS worker), a plain `node
 * --single-threaded` process (no background compile or GC threads finishing
 * inside the counted window) runs 20,000 uncounted warm-up calls, switches
 * counting on (`callgrind_control -i on`), and runs N counted calls; the
 * difference of N = 42,000 and N = 2,000, divided by 40,000, is the
 * instructions per steady-state call. V8's garbage collector is left out (its
 * functions, by name, from `callgrind_annotate`): whether a major collection
 * falls into a window moves a total by about a thousand per call, more than
 * the difference measured; the GC share is printed beside.
 *
 * `--sim` runs each window again with callgrind's cache and branch
 * simulation (`--cache-sim=yes --branch-sim=yes`: 32 KiB 8-way L1
 * instruction and data caches, as on this machine's CPU) and prints L1
 * instruction-cache misses, L1 data-cache read misses and mispredicted
 * branches per call: what the instruction count cannot show, such as a hot
 * path whose code no longer fits in the instruction cache beside
 * `JSON.parse`'s (these include the collector's share, which is small). Not
 * part of `npm test` or `npm run bench` (minutes per case under valgrind).
 */
import { transformSync } from 'esbuild';
import { countInstructions } from './callgrind.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { emitJs, jsPath, type RepoPaths } from './emit-js.js';
import { allSpecs, BENCH_DIR, TMP_DIR, type JsonObject } from './make-spec.js';
import { variants } from './items/dispatch.js';
import { flatCall, namespaceCall } from './setup.js';

const WARMUP = 20_000;
const LOW = 2_000;
const HIGH = 42_000;

/** The process valgrind runs: plain JS, so nothing but the measured calls runs in the counted window. */
const WORKER = `
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const calls = Number(process.argv[3]);
const { createRouter } = await import(pathToFileURL(input.runtimeIndex).href);
const gen = await import(pathToFileURL(input.genIndex).href);
const { Ajv } = await import(pathToFileURL(input.ajv).href);
const handlers = {};
for (const t of gen.spec.tools) handlers[t.name] = input.settle === 'sync' ? (a) => a : async (a) => a;
const router = createRouter(gen, handlers);
router.setBlockedTools(input.blocked);
const plain = new Ajv().compile(input.schema);
const handler = handlers[input.tool];
const raw = input.call.arguments;
const args = input.shape === 'namespace' ? (p) => p.args : (p) => p;
const floor = input.settle === 'sync'
  ? () => { const a = args(JSON.parse(raw)); if (!plain(a)) return Promise.reject(new Error('invalid')); return Promise.resolve(handler(a)); }
  : async () => { const a = args(JSON.parse(raw)); if (!plain(a)) throw new Error('invalid'); return await handler(a); };
// The reference path of item 1 (bench/items/dispatch.ts): one table from tool name to handler and validator.
let reference;
if (input.contender === 'reference') {
  const { makeReference } = await import(pathToFileURL(input.referenceModule).href);
  const ref = makeReference(input.spec);
  const chef = ref.chef;
  const pruner = chef.getPruner();
  pruner.setBlockedTools(input.blocked);
  const route = new Map(Object.keys(handlers).map((name) => [name, { fn: handlers[name], validate: name === input.tool ? ref.validator(name) : null }]));
  const call = input.call;
  const resolveRef = input.shape === 'namespace'
    ? () => {
        const gate = chef.checkToolCall(call);
        if (!gate.allowed) throw new Error(gate.reason);
        if (!pruner.isNamespaceCall(call)) throw new Error('not a namespace call');
        const { toolName, args } = pruner.resolveNamespace(call);
        const r = route.get(toolName);
        if (!r || !r.validate(args)) throw new Error('invalid');
        return { fn: r.fn, args };
      }
    : () => {
        const gate = chef.checkToolCall(call);
        if (!gate.allowed) throw new Error(gate.reason);
        const r = route.get(call.name);
        const args = JSON.parse(raw);
        if (!r || !r.validate(args)) throw new Error('invalid');
        return { fn: r.fn, args };
      };
  reference = input.settle === 'sync'
    ? () => { const r = resolveRef(); return Promise.resolve(r.fn(r.args)); }
    : async () => { const r = resolveRef(); return await r.fn(r.args); };
  reference.validate = route.get(input.tool).validate;
}
const fn = input.contender === 'floor' ? floor : input.contender === 'reference' ? reference : () => router.dispatch(input.call);
// --variants: first the argument values item 1's agreement check runs through each side's validator
// (bench/items/dispatch.ts \`variants\`), so the validators' feedback is as mixed as in \`npm run bench\`.
if (input.variants) {
  const wrap = input.shape === 'namespace'
    ? (v) => ({ name: input.call.name, arguments: JSON.stringify({ action: input.tool, args: v }) })
    : (v) => ({ name: input.call.name, arguments: JSON.stringify(v) });
  for (const v of input.variants) {
    if (input.contender === 'toolroute') await router.dispatch(wrap(v));
    else if (input.contender === 'floor') plain(v);
    else reference.validate(v);
  }
}
const first = await fn();
if (input.contender === 'toolroute' && !first.ok) throw new Error('dispatch rejected the measured call: ' + JSON.stringify(first));
for (let i = 0; i < ${WARMUP}; i++) await fn();
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
for (let i = 0; i < calls; i++) await fn();
`;

type Shape = 'namespace' | 'flat';
type Settle = 'sync' | 'async';

type Contender = 'floor' | 'toolroute' | 'reference';

/** Instructions counted in one worker run of `calls` counted calls: all, and those of the collector. */
function counted(inputFile: string, workerFile: string, calls: number): { all: number; gc: number } {
  return countInstructions('instructions', workerFile, inputFile, calls, join(TMP_DIR, 'instructions'));
}

/** Events callgrind's simulation adds: L1 instruction misses, L1 data read misses, mispredicted conditional and indirect branches. */
const SIM_EVENTS = ['I1mr', 'D1mr', 'Bcm', 'Bim'] as const;

/** One worker run under callgrind with cache and branch simulation: the simulated events' totals. */
function simulated(inputFile: string, workerFile: string, calls: number): Record<(typeof SIM_EVENTS)[number], number> {
  const out = join(TMP_DIR, 'instructions', `sim.${process.pid}.out`);
  const r = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', '--cache-sim=yes', '--branch-sim=yes', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', workerFile, inputFile, String(calls)],
    { encoding: 'utf8' },
  );
  if (r.error || r.status !== 0) throw new Error(`instructions: the simulated worker failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stderr.slice(-2000)}`);
  const text = readFileSync(out, 'utf8');
  const events = /^events: (.*)$/m.exec(text)?.[1]?.split(' ');
  const summary = /^summary: (.*)$/m.exec(text)?.[1]?.split(' ').map(Number);
  if (!events || !summary) throw new Error(`instructions: no events or summary in ${out}`);
  const at = (name: string) => {
    const i = events.indexOf(name);
    if (i < 0) throw new Error(`instructions: callgrind recorded no ${name}`);
    return summary[i]!;
  };
  return { I1mr: at('I1mr'), D1mr: at('D1mr'), Bcm: at('Bcm'), Bim: at('Bim') };
}

function main(): void {
  const argv = process.argv.slice(2);
  const tools = Number(argv.find((a) => a.startsWith('--tools='))?.slice('--tools='.length) ?? '1000');
  const caseFlag = argv.find((a) => a.startsWith('--case='))?.slice('--case='.length);
  const runtimeFlag = argv.find((a) => a.startsWith('--runtime='))?.slice('--runtime='.length);
  const sim = argv.includes('--sim');
  const withVariants = argv.includes('--variants');
  const contenders = (argv.find((a) => a.startsWith('--contenders='))?.slice('--contenders='.length) ?? 'floor,toolroute,reference').split(',') as Contender[];
  for (const c of contenders) if (c !== 'floor' && c !== 'toolroute' && c !== 'reference') throw new Error(`instructions: unknown contender ${c}`);
  if (!contenders.includes('floor')) throw new Error('instructions: the floor is every ratio\'s baseline; keep it in --contenders');
  const cases: [Shape, Settle][] = (caseFlag ?? 'namespace-sync,namespace-async,flat-sync,flat-async').split(',').map((c) => {
    const [shape, settle] = c.split('-');
    if ((shape !== 'namespace' && shape !== 'flat') || (settle !== 'sync' && settle !== 'async')) throw new Error(`instructions: unknown case ${c}`);
    return [shape, settle];
  });
  const id = `mixed-${tools}`;
  const made = allSpecs(false).find((m) => m.id === id);
  if (!made) throw new Error(`instructions: no bench spec ${id} (sizes: 10, 100, 1000, 10000)`);
  const genDir = join(TMP_DIR, 'gen', id);
  if (!existsSync(join(genDir, 'index.ts'))) throw new Error(`instructions: ${genDir} is missing; run \`npm run bench\` once first`);
  const paths: RepoPaths = { root: resolve(BENCH_DIR, '..'), tmp: TMP_DIR };
  const jsDir = emitJs(paths, [genDir]);
  const dir = join(TMP_DIR, 'instructions');
  mkdirSync(dir, { recursive: true });
  const workerFile = join(dir, 'worker.mjs');
  writeFileSync(workerFile, WORKER);
  // The reference setup as plain JS beside the worker (its imports resolve from the repository's node_modules).
  const referenceModule = join(dir, 'reference.mjs');
  writeFileSync(referenceModule, transformSync(readFileSync(join(BENCH_DIR, 'reference.ts'), 'utf8'), { loader: 'ts', format: 'esm' }).code);
  const ajv = createRequire(import.meta.url).resolve('ajv');
  console.log(`${id}: instructions per steady-state call (callgrind, ${HIGH.toLocaleString('en-US')} − ${LOW.toLocaleString('en-US')} counted calls after ${WARMUP.toLocaleString('en-US')} uncounted)`);
  for (const [shape, settle] of cases) {
    const picked = shape === 'namespace' ? namespaceCall(made, 'search') : flatCall(made, 'search');
    const tool = 'action' in picked ? picked.action : picked.tool;
    const schema = made.tools.find((t) => t.def.name === tool)?.def.parameters as JsonObject;
    const per: Record<string, number> = {};
    const gcShare: Record<string, number> = {};
    const simPer: Record<string, Record<string, number>> = {};
    for (const contender of contenders) {
      const inputFile = join(dir, `${id}-${shape}-${settle}-${contender}.json`);
      writeFileSync(
        inputFile,
        JSON.stringify({
          contender,
          shape,
          settle,
          tool,
          schema,
          call: picked.call,
          blocked: made.spec.policies?.['prod'] ?? [],
          runtimeIndex: runtimeFlag !== undefined ? resolve(runtimeFlag) : join(jsDir, 'runtime', 'index.js'),
          genIndex: join(jsPath(paths, jsDir, genDir), 'index.js'),
          ajv,
          referenceModule,
          spec: contender === 'reference' ? made.spec : null,
          variants: withVariants ? variants(picked.args) : null,
        }),
      );
      const high = counted(inputFile, workerFile, HIGH);
      const low = counted(inputFile, workerFile, LOW);
      per[contender] = (high.all - high.gc - (low.all - low.gc)) / (HIGH - LOW);
      gcShare[contender] = (high.gc - low.gc) / (HIGH - LOW);
      if (sim) {
        const a = simulated(inputFile, workerFile, HIGH);
        const b = simulated(inputFile, workerFile, LOW);
        simPer[contender] = Object.fromEntries(SIM_EVENTS.map((e) => [e, (a[e] - b[e]) / (HIGH - LOW)]));
      }
    }
    const floor = per['floor']!;
    const parts = contenders.map((c) => `${c} ${Math.round(per[c]!)}${c === 'floor' ? '' : ` (${(per[c]! / floor).toFixed(3)}x)`}`);
    console.log(`  ${shape} call, ${settle} handler: ${parts.join(', ')}; collector, left out: ${contenders.map((c) => `${c} ${Math.round(gcShare[c]!)}`).join(', ')}`);
    if (sim) {
      for (const c of contenders) {
        const e = simPer[c]!;
        console.log(`    ${c}: L1 instruction misses ${e['I1mr']!.toFixed(1)}, L1 data read misses ${e['D1mr']!.toFixed(1)}, mispredicted branches ${(e['Bcm']! + e['Bim']!).toFixed(1)} per call`);
      }
    }
  }
}

main();
