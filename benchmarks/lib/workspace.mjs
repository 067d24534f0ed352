/**
 * Load the workspace packages under test from their TypeScript sources (bundled once per run with
 * esbuild), so `node benchmarks/run.mjs` measures the code in the tree, built or not.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const TMP = join(REPO, 'benchmarks/results/tmp');

/**
 * Bundle `packages/<name>/src/<entry>.ts` to an ESM file and return its path, or null when the package's
 * entry does not exist yet.
 * @param {'format' | 'serve'} name
 * @param {string} [entry]
 */
export async function bundleWorkspace(name, entry = 'index') {
  const src = join(REPO, 'packages', name, 'src', `${entry}.ts`);
  if (!existsSync(src)) return null;
  const out = join(TMP, 'bundles', `${name}-${entry}.mjs`);
  await mkdir(dirname(out), { recursive: true });
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [src],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    absWorkingDir: join(REPO, 'packages', name),
    // The format package from source too, so the server under test uses the codec in the tree.
    alias: {
      '@objpack/format/node': join(REPO, 'packages/format/src/node.ts'),
      '@objpack/format': join(REPO, 'packages/format/src/index.ts'),
    },
    // CommonJS dependencies inside an ESM bundle need a require().
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return out;
}

/** @type {Map<string, Promise<any>>} */
const loaded = new Map();

/**
 * Import a workspace package from source (cached per process).
 * @param {'format' | 'serve'} name
 * @returns {Promise<any>}
 */
export function loadWorkspace(name) {
  let p = loaded.get(name);
  if (!p) {
    p = bundleWorkspace(name).then((file) => {
      if (!file) throw new Error(`packages/${name}/src/index.ts does not exist yet`);
      return import(pathToFileURL(file).href);
    });
    loaded.set(name, p);
  }
  return p;
}
