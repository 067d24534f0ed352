/**
 * A minimal objpack-manifest.json for a generated site whose closures the generator already knows, so
 * objpack serve's closure features (prefetch, closure-aware closing) work without running the build.
 * Only the fields the server reads are filled; packages are the benchmark's own prebuilt files.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * @param {string} root
 * @param {{ url: string, closure: string[], packagePath?: string }[]} pages
 */
export async function writeBenchManifest(root, pages) {
  /** @type {Record<string, any>} */
  const mPages = {};
  /** @type {Record<string, any>} */
  const packages = {};
  for (const p of pages) {
    const pkg = p.packagePath ?? `/_objpack/pages${p.url}.objp`;
    mPages[p.url] = {
      file: p.url.slice(1),
      package: pkg,
      shared: [],
      closure: [p.url, ...p.closure],
      critical: [],
      preconnect: [],
    };
    packages[pkg] = { kind: 'page', file: pkg.slice(1), bytes: 0, digest: '', objects: [p.url, ...p.closure] };
  }
  await writeFile(
    join(root, 'objpack-manifest.json'),
    JSON.stringify({ version: 1, buildId: 'benchmark', pages: mPages, packages, objects: {} }),
  );
}
