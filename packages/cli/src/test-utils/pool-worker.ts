import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));

/**
 * Tests run from TypeScript sources, where no compiled pool worker exists: compiles it into a new scratch
 * directory (dependencies stay imports, resolved from the package's node_modules, as in the published
 * build). The caller removes `dir`.
 */
export async function compilePoolWorker(prefix: string): Promise<{ dir: string; workerUrl: URL }> {
  mkdirSync(CACHE, { recursive: true });
  const dir = mkdtempSync(path.join(CACHE, prefix));
  const outfile = path.join(dir, 'pool-worker.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../pool/pool-worker.ts', import.meta.url))],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  return { dir, workerUrl: pathToFileURL(outfile) };
}
