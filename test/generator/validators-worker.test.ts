/**
 * The validators worker (generator/emit/validators-job.ts): the module it
 * builds on a thread is byte for byte the in-process one, the emitter uses a
 * prebuilt module only when it was built from exactly its schemas and
 * options, and `auto` starts a thread only where it can pay.
 *
 * The thread itself runs from the compiled build (a worker does not inherit
 * the test runner's TypeScript transform): the package is built with the
 * project's tsc into a temp folder, and plain node runs `generate` there with
 * the worker forced on and off.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEmitContext } from '../../generator/emit/context.js';
import { emitValidators } from '../../generator/emit/validators.js';
import { schemaKeys, usable, workerPays, WORKER_MAX_BYTES, WORKER_MIN_BYTES, type ValidatorsResult } from '../../generator/emit/validators-job.js';
import { buildIR } from './ir-builder.js';
import { node, removeDir, stagePackage, tempDir, write } from '../cli/stage.js';

const options = { specDisplay: 'spec.yaml', outDisplay: 'out', runtimeImport: 'toolroute/runtime', version: '0.0.0' };

describe('a prebuilt validators module', () => {
  const ir = buildIR({
    tools: [
      { name: 'a', parameters: { type: 'object', properties: { p: { type: 'string' }, q: { type: 'integer' } } } },
      { name: 'b', parameters: { type: 'object', properties: { q: { type: 'integer' }, p: { type: 'string' } } } },
    ],
  });
  const ctx = buildEmitContext(ir, options);
  const own = async () => (await emitValidators(ctx))[0]!.content;
  const withBuilt = async (result: ValidatorsResult | null) => (await emitValidators(buildEmitContext(ir, { ...options, validators: Promise.resolve(result) })))[0]!.content;
  const right: ValidatorsResult = { keys: schemaKeys(ctx.schemas), applyDefaults: false, runtimeImport: 'toolroute/runtime', body: 'prebuilt\n' };

  it('is used when built from exactly these schemas and options, after the header', async () => {
    expect(await withBuilt(right)).toBe(`${ctx.header}\nprebuilt\n`);
  });
  it('is ignored (the module is built here) for other schemas, other key order, other options or none', async () => {
    const mine = await own();
    expect(mine).toContain('// @ts-nocheck');
    // The two tools have one canonical schema (one validator) with properties in another order: the key order counts.
    const reordered = [JSON.stringify({ type: 'object', properties: { q: { type: 'integer' }, p: { type: 'string' } } })];
    expect(right.keys).not.toEqual(reordered);
    for (const wrong of [
      null,
      { ...right, keys: reordered },
      { ...right, keys: [...right.keys, right.keys[0]!] },
      { ...right, keys: [] },
      { ...right, applyDefaults: true },
      { ...right, runtimeImport: '../runtime/index.js' },
    ]) {
      expect(await withBuilt(wrong)).toBe(mine);
    }
    expect(usable(right, ctx.schemas, { applyDefaults: false, runtimeImport: 'toolroute/runtime' })).toBe(true);
  });
  it('`auto` starts a thread for a large (not huge) spec on a compiled build with a core to spare, and not otherwise', () => {
    expect(workerPays(WORKER_MIN_BYTES, false, 0.5, 2)).toBe(true);
    expect(workerPays(WORKER_MIN_BYTES - 1, false, 0.5, 2)).toBe(false);
    expect(workerPays(WORKER_MAX_BYTES, false, 0.5, 2)).toBe(true);
    expect(workerPays(WORKER_MAX_BYTES + 1, false, 0.5, 2)).toBe(false);
    expect(workerPays(WORKER_MIN_BYTES, true, 0.5, 2)).toBe(false);
    expect(workerPays(WORKER_MIN_BYTES, false, 2.5, 2)).toBe(false);
    expect(workerPays(WORKER_MIN_BYTES, false, 0, 1)).toBe(false);
  });
});

/** A spec of `count` tools over a few dozen distinct schemas, with the shapes that change ajv's code. */
function bigSpec(count: number, applyDefaults: boolean): string {
  const lines = ['version: 1', 'options:', `  applyDefaults: ${applyDefaults}`, 'tools:'];
  for (let i = 0; i < count; i++) {
    const k = i % 37;
    lines.push(
      `  - name: tool_${i}`,
      `    description: Tool number ${i}, which does thing ${k}`,
      '    parameters:',
      '      type: object',
      '      properties:',
      `        path: { type: string, minLength: ${k % 5}, description: "Where to look (${k})" }`,
      `        count: { type: integer, minimum: 0, maximum: ${100 + k}, default: ${k % 3} }`,
      k % 4 === 0 ? '        toString: { type: string }' : `        mode: { type: string, enum: [a${k}, b${k}] }`,
      k % 6 === 0 ? '        tags: { type: array, items: { type: string, pattern: "^[a-z]+$" }, maxItems: 4 }' : '        flag: { type: boolean }',
      k % 9 === 0 ? '        extra: { anyOf: [{ type: string }, { type: "null" }] }' : '        other: { type: number }',
      `      required: [path${k % 2 === 0 ? ', count' : ''}]`,
      k % 3 === 0 ? '      additionalProperties: false' : '      additionalProperties: true',
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('the validators worker (compiled build)', () => {
  it('writes exactly the bytes of the in-process build, for YAML and JSON specs, with the thread actually used', () => {
    const app = tempDir('validators-worker-');
    try {
      const pkg = stagePackage(app);
      const cases = [
        { file: 'big.spec.yaml', text: bigSpec(400, false) },
        { file: 'defaults.spec.yaml', text: bigSpec(300, true) },
      ];
      // The same spec as JSON: the worker reads and parses it itself.
      const yamlDriver = path.join(pkg, 'dist', 'generator', 'load.js');
      cases.push({ file: 'big.spec.json', text: '' });
      for (const c of cases) if (c.text !== '') write(path.join(app, c.file), c.text);
      const driver = path.join(app, 'driver.mjs');
      write(
        driver,
        `import { generate } from ${JSON.stringify(path.join(pkg, 'dist', 'generator', 'index.js'))};
import { loadSpec } from ${JSON.stringify(yamlDriver)};
import { normalizeSpec } from ${JSON.stringify(path.join(pkg, 'dist', 'generator', 'normalize.js'))};
import { buildEmitContext } from ${JSON.stringify(path.join(pkg, 'dist', 'generator', 'emit', 'context.js'))};
import { startValidatorsWorker, usable } from ${JSON.stringify(path.join(pkg, 'dist', 'generator', 'emit', 'validators-job.js'))};
import { writeFileSync } from 'node:fs';
const yaml = await loadSpec('big.spec.yaml');
writeFileSync('big.spec.json', JSON.stringify(yaml.spec.value, null, 1));
const out = {};
for (const file of ${JSON.stringify(cases.map((c) => c.file))}) {
  const loaded = await loadSpec(file);
  const worker = startValidatorsWorker({ specFile: file, cwd: process.cwd(), runtimeImport: 'toolroute/runtime' }, 'always');
  worker.provide(loaded.spec.value);
  const ctx = buildEmitContext(normalizeSpec(loaded.spec), { specDisplay: file, outDisplay: '.', runtimeImport: 'toolroute/runtime', version: '0' });
  const used = usable(await worker.result, ctx.schemas, { applyDefaults: ctx.ir.options.applyDefaults, runtimeImport: 'toolroute/runtime' });
  worker.stop();
  const threaded = await generate(file, { out: 'out-thread-' + file, validatorsWorker: 'always' });
  const inProcess = await generate(file, { out: 'out-here-' + file, validatorsWorker: 'never' });
  // The default is 'never': no thread unless the caller opts in (it measured slower where tried).
  const byDefault = startValidatorsWorker({ specFile: file, cwd: process.cwd(), runtimeImport: 'toolroute/runtime' });
  byDefault?.stop();
  out[file] = { used, ok: threaded.ok && inProcess.ok, schemas: ctx.schemas.length, defaultStarted: byDefault !== undefined };
}
console.log(JSON.stringify(out));
`,
      );
      const r = node([driver], app, 300_000);
      expect(r.stderr).toBe('');
      const report = JSON.parse(r.stdout) as Record<string, { used: boolean; ok: boolean; schemas: number; defaultStarted: boolean }>;
      for (const c of cases) {
        expect(report[c.file], c.file).toEqual({ used: true, ok: true, schemas: expect.any(Number) as number, defaultStarted: false });
        expect(report[c.file]!.schemas).toBeGreaterThan(30);
        const a = path.join(app, `out-thread-${c.file}`);
        const b = path.join(app, `out-here-${c.file}`);
        expect(readdirSync(a).sort()).toEqual(readdirSync(b).sort());
        for (const f of readdirSync(a)) expect(readFileSync(path.join(a, f), 'utf8'), `${c.file} ${f}`).toBe(readFileSync(path.join(b, f), 'utf8'));
      }
    } finally {
      removeDir(app);
    }
  }, 300_000);
});
