/**
 * `npx tsx bench/instructions.ts` — dispatch against the honest floor in
 * instructions per call (valgrind's callgrind), where the shared machine's
 * load cannot blur the comparison the way it blurs wall-clock ratios.
 *
 *   npx tsx bench/instructions.ts                     # 1,000 tools, all four cases
 *   npx tsx bench/instructions.ts --tools=10000       # another size (10, 100, 1000, 10000)
 *   npx tsx bench/instructions.ts --case=namespace-sync,flat-async
 *   npx tsx bench/instructions.ts --runtime=path/to/runtime/index.js   # count another runtime build (A/B), same generated folder
 *
 * Needs `valgrind` and the generated folders of an earlier `npm run bench`
 * (bench/.tmp/gen); the runtime and the folder are compiled to JS here the
 * way the bench does it. Per contender (toolroute's `router.dispatch`, and
 * the floor of item 1: `JSON.parse` + a plain `new Ajv().compile(schema)`
 * validator + the handler settled as dispatch settles it), a plain `node
 * --single-threaded` process (no background compile or GC threads finishing
 * inside the counted window) runs 20,000 uncounted warm-up calls, switches
 * counting on (`callgrind_control -i on`), and runs N counted calls; the
 * difference of N = 42,000 and N = 2,000, divided by 40,000, is the
 * instructions per steady-state call. V8's garbage collector is left out (its
 * functions, by name, from `callgrind_annotate`): whether a major collection
 * falls into a window moves a total by about a thousand per call, more than
 * the difference measured; the GC share is printed beside. Not part of
 * `npm test` or `npm run bench` (minutes per case under valgrind).
 */
import { countInstructions } from './callgrind.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { emitJs, jsPath, type RepoPaths } from './emit-js.js';
import { allSpecs, BENCH_DIR, TMP_DIR, type JsonObject } from './make-spec.js';
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
const fn = input.contender === 'floor' ? floor : () => router.dispatch(input.call);
const first = await fn();
if (input.contender !== 'floor' && !first.ok) throw new Error('dispatch rejected the measured call: ' + JSON.stringify(first));
for (let i = 0; i < ${WARMUP}; i++) await fn();
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
for (let i = 0; i < calls; i++) await fn();
`;

type Shape = 'namespace' | 'flat';
type Settle = 'sync' | 'async';

/** Instructions counted in one worker run of `calls` counted calls: all, and those of the collector. */
function counted(inputFile: string, workerFile: string, calls: number): { all: number; gc: number } {
  return countInstructions('instructions', workerFile, inputFile, calls, join(TMP_DIR, 'instructions'));
}

function main(): void {
  const argv = process.argv.slice(2);
  const tools = Number(argv.find((a) => a.startsWith('--tools='))?.slice('--tools='.length) ?? '1000');
  const caseFlag = argv.find((a) => a.startsWith('--case='))?.slice('--case='.length);
  const runtimeFlag = argv.find((a) => a.startsWith('--runtime='))?.slice('--runtime='.length);
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
  const ajv = createRequire(import.meta.url).resolve('ajv');
  console.log(`${id}: instructions per steady-state call (callgrind, ${HIGH.toLocaleString('en-US')} − ${LOW.toLocaleString('en-US')} counted calls after ${WARMUP.toLocaleString('en-US')} uncounted)`);
  for (const [shape, settle] of cases) {
    const picked = shape === 'namespace' ? namespaceCall(made, 'search') : flatCall(made, 'search');
    const tool = 'action' in picked ? picked.action : picked.tool;
    const schema = made.tools.find((t) => t.def.name === tool)?.def.parameters as JsonObject;
    const per: Record<string, number> = {};
    const gcShare: Record<string, number> = {};
    for (const contender of ['floor', 'toolroute'] as const) {
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
        }),
      );
      const high = counted(inputFile, workerFile, HIGH);
      const low = counted(inputFile, workerFile, LOW);
      per[contender] = (high.all - high.gc - (low.all - low.gc)) / (HIGH - LOW);
      gcShare[contender] = (high.gc - low.gc) / (HIGH - LOW);
    }
    const ratio = per['toolroute']! / per['floor']!;
    console.log(
      `  ${shape} call, ${settle} handler: toolroute ${Math.round(per['toolroute']!)}, floor ${Math.round(per['floor']!)}, ratio ${ratio.toFixed(3)}x` +
        ` (collector, left out: toolroute ${Math.round(gcShare['toolroute']!)}, floor ${Math.round(gcShare['floor']!)})`,
    );
  }
}

main();
