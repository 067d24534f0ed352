import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `pnpm test:integrations`: the framework integrations inside real frameworks' builds, each framework
 * installed from npm with its fixture's committed lockfile. Kept out of `vitest run`: installs and
 * framework builds take minutes.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['packages/integrations/*/src/**/*.framework.test.ts'],
    exclude: ['**/node_modules/**', 'packages/integrations/*/fixtures/**'],
    // An install from an empty npm cache; a framework's production build on a loaded 2-core machine.
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
