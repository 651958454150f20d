import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const TESTS = (readdirSync('test', { recursive: true }) as string[]).map((f) => `test/${f.split('\\').join('/')}`).filter((f) => f.endsWith('.test.ts'));
// vi.mock replaces a module for the file that asks, which works only if no earlier file in the
// same process has loaded it: these files get a fresh process each.
const MOCKING = TESTS.filter((f) => /\bvi\.mock\(/.test(readFileSync(f, 'utf8')));

export default defineConfig({
  // Tests import `toolroute/…` (the example does) from the sources, as the repo's tsc does, never a stale dist/.
  // Vitest also hands these conditions to Node in its workers, so they are Node's own: without Vite's
  // `module`, a bundler convention Node does not know, which picks builds Node cannot load (the ESM
  // build of @opentelemetry/api 1.9, in a folder without "type": "module").
  ssr: { resolve: { conditions: ['toolroute-source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    // Type-level tests are checked by `tsc -p .` (part of `npm test`); here they also run as
    // ordinary tests so their runtime halves (expectTypeOf is a no-op at run time) execute.
    setupFiles: ['test/setup/fail-on-console.ts'],
    // Guards against hangs, not timings: generous, because a shared 2-core machine under load
    // runs the 1,000-tool codegen and the 100,000-call property test several times slower.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // One worker per core. Vitest's default leaves one core to itself, which on a 2-core machine
    // runs the files one at a time; many of them mostly wait on child processes (tsc, npm, servers).
    maxWorkers: availableParallelism(),
    projects: [
      // A worker runs file after file in one process, loading each shared module (runtime, generator,
      // the SDKs) once rather than once per file: that loading cost about as much CPU as the tests.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false } },
      ...(MOCKING.length > 0 ? [{ extends: true, test: { name: 'isolated', include: MOCKING, isolate: true } }] : []),
    ],
  },
});
