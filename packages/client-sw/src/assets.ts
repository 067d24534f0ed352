import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute paths of the bundled browser files that `objpack build` copies into a site. */
export interface WorkerAssets {
  /** → `/objpack-sw.js`: the service worker. */
  workerFile: string;
  /** → `/objpack-register.js`: the registration and prefetch snippet every page loads with `defer`. */
  registerFile: string;
  /** → `/objpack-sw.js` under `--unregister`: the kill-switch worker. */
  unregisterWorkerFile: string;
}

/** Where the bundled files are; throws if the package was not built (`pnpm --filter @objpack/client-sw build`). */
export function workerAssets(): WorkerAssets {
  // Built, this file is dist/assets.js next to the bundles; run from src/ (tests), the bundles are in ../dist.
  const dir = import.meta.url.includes('/src/') ? '../dist/' : './';
  const at = (name: string) => fileURLToPath(new URL(`${dir}${name}`, import.meta.url));
  const assets = {
    workerFile: at('objpack-sw.js'),
    registerFile: at('objpack-register.js'),
    unregisterWorkerFile: at('objpack-sw-unregister.js'),
  };
  for (const file of Object.values(assets)) {
    if (!existsSync(file)) throw new Error(`@objpack/client-sw is not built: ${file} is missing`);
  }
  return assets;
}
