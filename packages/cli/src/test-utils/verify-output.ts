import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildManifest, RouteTable } from '@objpack/format';
import { inspectPackage } from '../inspect/inspect-package.js';

/**
 * Checks that a build output is usable: the manifest parses, every package it names exists and decodes
 * with verified digests, every shared ref of every page package exists; so for the route table, each on
 * its own (a build killed between writing the two leaves them of different builds, each whole). The
 * manifest and the route table name the build id each page package's index carries: every page moves
 * from one generation to the next at once. Returns the manifest.
 */
export async function verifyOutput(outDir: string): Promise<BuildManifest> {
  const manifest = JSON.parse(await readFile(path.join(outDir, 'objpack-manifest.json'), 'utf8')) as BuildManifest;
  // Package URLs lie under the base the manifest records; their files under the root.
  const base = manifest.base ?? '/';
  const fileOf = (url: string) => {
    if (!url.startsWith(base)) throw new Error(`${url} is not under the base ${base}`);
    return path.join(outDir, decodeURIComponent(url.slice(base.length)));
  };
  const embedded = new Map<string, string>();
  const check = async (url: string) => {
    let id = embedded.get(url);
    if (id !== undefined) return id;
    const file = fileOf(url).slice(outDir.length + 1);
    const r = await inspectPackage(path.join(outDir, file));
    if (r.objects.some((o) => !o.verified)) throw new Error(`${file}: unverified object`);
    for (const ref of r.sharedRefs) await access(fileOf(ref));
    embedded.set(url, (id = r.buildId));
    return id;
  };
  for (const [url, pkg] of Object.entries(manifest.packages)) {
    const id = await check(url);
    if (pkg.kind === 'page' && id !== (pkg.buildId ?? manifest.buildId))
      throw new Error(`${pkg.file}: index names build ${id}, manifest ${pkg.buildId ?? manifest.buildId}`);
  }
  const routes = JSON.parse(await readFile(path.join(outDir, '_objpack/routes.json'), 'utf8')) as RouteTable;
  for (const p of routes.packages) await check(p);
  for (const [url, [page]] of Object.entries(routes.pages)) {
    const file = routes.packages[page!]!;
    const expected = routes.packageBuilds?.[String(page)] ?? routes.buildId;
    if (embedded.get(file) !== expected)
      throw new Error(`routes.json: ${url} expects build ${expected}, ${file} names ${embedded.get(file)}`);
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
