import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources, so `vitest` works without a prior build.
    alias: [
      { find: /^@objpack\/format$/, replacement: src('format') },
      {
        find: /^@objpack\/format\/node$/,
        replacement: fileURLToPath(new URL('./packages/format/src/node.ts', import.meta.url)),
      },
      { find: /^@objpack\/serve$/, replacement: src('serve') },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/integrations/*/src/**/*.test.ts',
      'benchmarks/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    // Benchmarks unpack other commits' sources there (page-complete.mjs --baseline).
    // Real frameworks' builds run in `pnpm test:integrations` (vitest.integrations.config.ts).
    exclude: [
      '**/node_modules/**',
      'benchmarks/results/tmp/**',
      '**/*.framework.test.ts',
      'packages/integrations/*/fixtures/**',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./scripts/vitest-tmpdir.ts'],
  },
});
