/**
 * The main thread's side of the validators worker (./validators-worker.ts):
 * start it before the spec is even loaded, and hand its result to the
 * validators emitter, which uses it only when it is provably what the
 * emitter would have built itself.
 *
 * Why a thread: ajv's code generation is most of a large spec's codegen
 * (about half at 1,000 distinct schemas) and depends on nothing the rest of
 * the pipeline computes, so on a machine with a free core it runs beside
 * validation, normalization and the other emitters. The worker
 * repeats the cheap part (expanding the schemas; parsing a JSON spec) to
 * start as soon as the spec is loaded. Small specs, TS specs, and any failure
 * (no worker threads, a worker that cannot load its module, a spec that
 * changed on disk in between) fall back to building the module in process:
 * the bytes are the same either way. Run from the TypeScript sources (tsx,
 * tests) `auto` stays in process too: a worker thread does not inherit their
 * loader; test/generator/validators-worker.test.ts runs the compiled build.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { contentKey } from '../validate/parameters.js';
import type { DistinctSchema } from './context.js';

/** What the worker is asked to build. */
export interface ValidatorsJob {
  readonly specFile: string;
  readonly cwd: string;
  readonly runtimeImport: string;
  /** From the file name; a YAML spec's value is posted to the worker (`ValidatorsWorker.provide`). */
  readonly format?: 'yaml' | 'json';
}

/** What it sends back: the module body (everything after the header line) and what it was built from. */
export interface ValidatorsResult {
  /** `schemaKeys` of the distinct schemas it compiled, in order. */
  readonly keys: readonly (string | null)[];
  readonly applyDefaults: boolean;
  readonly runtimeImport: string;
  readonly body: string;
}

/**
 * When the validators module is built on a worker: `never` (the default), `auto` when
 * `workerPays`, `always`. Off by default: on a quiet 2-core machine (load 1) a paired
 * run was slower with the worker (1,000 distinct schemas 4.3-5.3 s against 3.4-4.0 s
 * in process; 1,000 tools 2.1-2.2 s against 1.6-2.1 s), since the worker repeats the
 * spec's parsing and expansion and both threads contend for memory bandwidth and GC.
 */
export type ValidatorsWorkerMode = 'auto' | 'always' | 'never';

/**
 * Spec files smaller than this build their validators in process: a worker
 * costs a thread and a second copy of the generator's modules (tens of
 * milliseconds of CPU), more than ajv takes for a small spec.
 */
export const WORKER_MIN_BYTES = 64 * 1024;

/**
 * Spec files larger than this build in process too: such specs (tens of
 * thousands of tools) repeat a limited set of schemas, so ajv is a small part
 * of their codegen (3 % at 30,000 tools), while the worker's own copy of the
 * spec costs seconds and hundreds of megabytes.
 */
export const WORKER_MAX_BYTES = 8 * 1024 * 1024;

/** A started worker: its result (null when it cannot help), how to give it a YAML spec's value, and a way to stop it. */
export interface ValidatorsWorker {
  readonly result: Promise<ValidatorsResult | null>;
  /** Posts the loaded spec's value (a YAML spec; a JSON one the worker reads itself). */
  provide(value: unknown): void;
  stop(): void;
}

/**
 * Starts the validators worker for a YAML or JSON spec file when `mode`
 * says so; undefined when not started. Never throws: a worker that cannot
 * start is no worker.
 *
 * @example
 * const worker = startValidatorsWorker({ specFile: 'tools.spec.yaml', cwd: process.cwd(), runtimeImport: 'toolroute/runtime' });
 * // … load, validate, emit with `validators: worker?.result` … then worker?.stop();
 */
export function startValidatorsWorker(job: Omit<ValidatorsJob, 'format'>, mode: ValidatorsWorkerMode = 'never'): ValidatorsWorker | undefined {
  const extension = /\.(ya?ml|json)$/i.exec(job.specFile)?.[1]?.toLowerCase();
  if (mode === 'never' || extension === undefined) return undefined;
  const format = extension === 'json' ? 'json' : 'yaml';
  // Run from the sources (tsx, vitest), a worker thread would not get their TypeScript loader.
  const fromSources = import.meta.url.endsWith('.ts');
  try {
    if (mode === 'auto' && !workerPays(statSync(path.resolve(job.cwd, job.specFile)).size, fromSources)) return undefined;
    const file = new URL(`./validators-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
    // A larger young generation: the worker allocates ajv's code tree and text in bulk, and fewer
    // scavenges of a bigger nursery cost less than many of a small one.
    const worker = new Worker(file, { workerData: { ...job, format } satisfies ValidatorsJob, resourceLimits: { maxYoungGenerationSizeMb: 48 }, stdout: true, stderr: true });
    worker.unref();
    const result = new Promise<ValidatorsResult | null>((resolve) => {
      worker.once('message', (m: ValidatorsResult | null) => resolve(m));
      worker.on('error', () => resolve(null));
      worker.once('exit', () => resolve(null));
    });
    return {
      result,
      provide(value) {
        if (format !== 'yaml') return;
        try {
          worker.postMessage(value);
        } catch {
          // Not cloneable: the worker waits in vain and is stopped; the module is built in process.
        }
      },
      stop: () => void worker.terminate().catch(() => undefined),
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether `auto` starts the worker: a spec from `WORKER_MIN_BYTES` to `WORKER_MAX_BYTES`,
 * the compiled generator, and a core to spare (the 1-minute load average
 * below the cores this process may use). On a machine whose cores are all
 * busy, a second thread only adds its own start-up and the repeated
 * expansion to the same total: it stays in process.
 *
 * @example
 * workerPays(1_000_000, false); // → true on an idle machine with 2 or more cores
 */
export function workerPays(specBytes: number, fromSources: boolean, load = os.loadavg()[0] ?? 0, cores = os.availableParallelism()): boolean {
  return specBytes >= WORKER_MIN_BYTES && specBytes <= WORKER_MAX_BYTES && !fromSources && cores >= 2 && load < cores;
}

/**
 * The exact identity of each distinct schema (`contentKey`: JSON text, key
 * order included, with -0, NaN and infinities kept apart; null for anything
 * that is not plain data). ajv's output depends on the schema's value and key
 * order alone, so equal keys mean equal code.
 *
 * @example
 * schemaKeys([{ schema: { type: 'object' }, tools: [0] }]); // → ['{"type":"object"}']
 */
export function schemaKeys(schemas: readonly Pick<DistinctSchema, 'schema'>[]): (string | null)[] {
  return schemas.map((s) => contentKey(s.schema) ?? null);
}

/**
 * Whether a worker's result is the module the emitter would build for these
 * schemas and options.
 *
 * @example
 * usable(result, ctx.schemas, { applyDefaults: false, runtimeImport: 'toolroute/runtime' }); // → true or false
 */
export function usable(result: ValidatorsResult | null, schemas: readonly Pick<DistinctSchema, 'schema'>[], options: { applyDefaults: boolean; runtimeImport: string }): result is ValidatorsResult {
  if (result === null || result.applyDefaults !== options.applyDefaults || result.runtimeImport !== options.runtimeImport) return false;
  const keys = schemaKeys(schemas);
  return keys.length === result.keys.length && keys.every((k, i) => k !== null && k === result.keys[i]);
}
