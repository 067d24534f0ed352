import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, PACKAGE_DIR, ROUTES_FILE, type BuildManifest, type RouteTable } from '@objpack/format';

/**
 * The file URL of a page package: its fixed slot (`/_objpack/pages/guide/index.html.objp`, plan
 * `packageUrl`) with the build id its index carries (`…/guide/index.html.<build id>.objp`). A build
 * never writes over a file another build's route table names, so the previous generation stays whole
 * until the route table and manifest switch to the new one; a package an incremental build keeps keeps
 * its name with its build id.
 */
export function generationUrl(slotUrl: string, buildId: string): string {
  return `${slotUrl.slice(0, -'.objp'.length)}.${buildId}.objp`;
}

/**
 * Site-relative file of a package URL: from objpack's directory on, so under any base path (`/repo/_objpack/…`
 * is `_objpack/…`; a base never holds that directory's name, checkBasePath).
 */
export const packageFile = (url: string): string => decodeURIComponent(url.slice(url.indexOf(`/${PACKAGE_DIR}/`) + 1));

/** The build id a manifest text starts with (`JSON.stringify(manifest, null, 2)`), read from its first bytes. */
function manifestBuildId(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(256);
    const n = readSync(fd, head, 0, head.length, 0);
    return /^\{\s*"version": \d+,\s*"buildId": "([^"]*)"/.exec(head.subarray(0, n).toString('utf8'))?.[1];
  } finally {
    closeSync(fd);
  }
}

const readJson = <T>(file: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
};

/**
 * Package files (site-relative) the generation now published names: those of the route table workers
 * fetch, and of the manifest `objpack serve` reads when it is of another build (a build killed between
 * writing the two). A cleanup keeps them: a worker holding that table goes on fetching its packages
 * through and after the switch to the next generation.
 */
export function publishedPackages(outDir: string): Set<string> {
  const files = new Set<string>();
  const routes = readJson<RouteTable>(path.join(outDir, ROUTES_FILE));
  for (const url of routes?.packages ?? []) files.add(packageFile(url));
  const manifestFile = path.join(outDir, MANIFEST_FILE);
  if (routes && manifestBuildId(manifestFile) === routes.buildId) return files;
  const manifest = readJson<BuildManifest>(manifestFile);
  for (const p of Object.values(manifest?.packages ?? {})) files.add(p.file);
  return files;
}

/** A page package file without its build id: `_objpack/pages/guide/index.html.<id>.objp` → `…/index.html.objp`. */
export const slotOf = (file: string): string => file.replace(/\.[0-9a-f]{16}\.objp$/, '.objp');

/**
 * The file a page package's slot path stands for now (`dist/_objpack/pages/index.html.objp` → the package
 * of that page the manifest beside `_objpack/` names), so `objpack inspect` takes the name a page's package
 * always has; undefined when the path is no slot or the manifest names none.
 */
export function currentFileOfSlot(file: string): string | undefined {
  const m = /^(.*?)_objpack[/\\]pages[/\\](.+\.objp)$/.exec(file);
  if (!m) return undefined;
  const root = m[1] || '.';
  const slot = `_objpack/pages/${m[2]!.split(path.sep).join('/')}`;
  const manifest = readJson<BuildManifest>(path.join(root, MANIFEST_FILE));
  const hit = Object.values(manifest?.packages ?? {}).find((p) => p.kind === 'page' && slotOf(p.file) === slot);
  return hit && path.join(root, hit.file);
}
