import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildManifest, RouteTable } from '@objpack/format';
import { inspectPackage } from '../emit/inspect-package.js';

/**
 * Checks that a build output is usable: the manifest parses, every package it names exists and decodes
 * with verified digests, every shared ref of every page package exists, the route table names only
 * existing packages; the manifest and route table name the build id each page package's index carries.
 * (`buildIds: false` skips that: a build that failed midway may already have replaced page packages.)
 * Returns the manifest.
 */
export async function verifyOutput(outDir: string, options: { buildIds?: boolean } = {}): Promise<BuildManifest> {
  const checkIds = options.buildIds ?? true;
  const manifest = JSON.parse(await readFile(path.join(outDir, 'objpack-manifest.json'), 'utf8')) as BuildManifest;
  const embedded = new Map<string, string>();
  for (const [url, pkg] of Object.entries(manifest.packages)) {
    const r = await inspectPackage(path.join(outDir, pkg.file));
    if (r.objects.some((o) => !o.verified)) throw new Error(`${pkg.file}: unverified object`);
    for (const ref of r.sharedRefs) await access(path.join(outDir, decodeURIComponent(ref.slice(1))));
    embedded.set(url, r.buildId);
    if (checkIds && pkg.kind === 'page' && r.buildId !== (pkg.buildId ?? manifest.buildId)) throw new Error(`${pkg.file}: index names build ${r.buildId}, manifest ${pkg.buildId ?? manifest.buildId}`);
  }
  const routes = JSON.parse(await readFile(path.join(outDir, '_objpack/routes.json'), 'utf8')) as RouteTable;
  for (const p of routes.packages) await access(path.join(outDir, decodeURIComponent(p.slice(1))));
  for (const [url, [page]] of Object.entries(routes.pages)) {
    const file = routes.packages[page!]!;
    const expected = routes.packageBuilds?.[String(page)] ?? routes.buildId;
    if (checkIds && embedded.get(file) !== expected) throw new Error(`routes.json: ${url} expects build ${expected}, ${file} names ${embedded.get(file)}`);
  }
  return manifest;
}

/** Every file under `dir` (relative, '/'-separated). */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else out.push(child);
    }
  };
  await walk('');
  return out.sort();
}
