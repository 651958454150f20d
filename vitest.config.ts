import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import `toolroute/…` (the example does) from the sources, as the repo's tsc does, never a stale dist/.
  ssr: { resolve: { conditions: ['toolroute-source', ...defaultServerConditions] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Type-level tests are checked by `tsc -p .` (part of `npm test`); here they also run as
    // ordinary tests so their runtime halves (expectTypeOf is a no-op at run time) execute.
    setupFiles: ['test/setup/fail-on-console.ts'],
    // Guards against hangs, not timings: generous, because a shared 2-core machine under load
    // runs the 1,000-tool codegen and the 100,000-call property test several times slower.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
