/**
 * `validators.gen.ts` built on a worker thread, beside the rest of codegen.
 *
 * ajv's code generation is most of a large spec's codegen time and needs only
 * the distinct argument schemas. This worker takes the spec's value (a JSON
 * file it parses itself; a YAML one as the main thread parsed it, posted
 * right after loading), expands every tool's `parameters` as normalize does,
 * skipping the checks (the main thread validates the spec; if it is invalid,
 * nothing here is used), and builds the module body with the same
 * `validatorsModule` the in-process emitter calls. The main thread uses
 * the result only when the schemas it compiled are exactly the main thread's
 * own (`contentKey`, key order and all) with the same options; otherwise it
 * builds the module itself. See `startValidatorsWorker` in ./validators-job.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { normalizedParameters } from '../normalize.js';
import type { JsonSchema } from '../ir.js';
import { contentKey, expandedSchema } from '../validate/parameters.js';
import { toolEntries } from '../validate/references.js';
import { isRecord } from '../validate/context.js';
import { distinctSchemas } from './context.js';
import { validatorsModule } from './validators.js';
import { schemaKeys, type ValidatorsJob, type ValidatorsResult } from './validators-job.js';

/** The spec's value: a JSON file read and parsed here (cheap), a YAML one as the main thread parsed it (posted). */
function specValue(job: ValidatorsJob): Promise<unknown> {
  if (job.format === 'json') {
    const text = readFileSync(path.resolve(job.cwd, job.specFile), 'utf8');
    return Promise.resolve(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  }
  return new Promise((resolve) => parentPort?.once('message', resolve));
}

async function run(job: ValidatorsJob): Promise<ValidatorsResult | null> {
  const root = await specValue(job);
  if (!isRecord(root)) return null;
  // Per distinct `parameters` content, as the front end caches its expansions (tools repeat schemas).
  const done = new Map<string, JsonSchema | null>();
  const parameters: JsonSchema[] = [];
  for (const e of toolEntries(root)) {
    if (!e.definition) continue;
    const written = e.definition.parameters;
    if (written !== undefined && !isRecord(written)) return null;
    let expanded: JsonSchema | undefined;
    if (written !== undefined) {
      const key = contentKey(written);
      let known = key === undefined ? undefined : done.get(key);
      if (known === undefined) {
        known = expandedSchema(written);
        if (key !== undefined) done.set(key, known);
      }
      if (known === null) return null;
      expanded = known;
    }
    parameters.push(normalizedParameters(expanded));
  }
  const options = isRecord(root['options']) ? root['options'] : {};
  const applyDefaults = options['applyDefaults'] === true;
  const { schemas } = distinctSchemas(parameters);
  const body = validatorsModule({ schemas: schemas.map((s) => s.schema), applyDefaults, runtimeImport: job.runtimeImport });
  return { keys: schemaKeys(schemas), applyDefaults, runtimeImport: job.runtimeImport, body };
}

run(workerData as ValidatorsJob).then(
  (result) => parentPort?.postMessage(result),
  // Anything that goes wrong here is the main thread's to find again (it then builds the module itself).
  () => parentPort?.postMessage(null),
);
