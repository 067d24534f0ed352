import { realpath, stat } from 'node:fs/promises';
import { PACKAGE_DIR } from '@objpack/format';
import type { Site } from './context.js';
import { findStalePages } from './dynamic.js';
import { ServeError, ServeErrorCode, isServeError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { buildSiteIndex } from './site-index.js';
import { LISTING_PATH } from './delta-listing.js';
import { loadManifest, type SiteManifest } from './site-manifest.js';

/**
 * Cache-Control by what a path is: content-hashed shared packages never change; pages must revalidate.
 * `basePath` is the decoded base the site is served under (objpack's directory is there).
 */
export function cacheControlFor(basePath: string): (urlPath: string, contentType: string) => string {
  const shared = `${basePath}${PACKAGE_DIR}/shared/`;
  const pages = `${basePath}${PACKAGE_DIR}/pages/`;
  return (urlPath, contentType) => {
    if (urlPath.startsWith(shared)) return 'public, max-age=31536000, immutable';
    const revalidate = urlPath.startsWith(pages) || contentType.startsWith('text/html');
    if (revalidate || contentType.startsWith('application/json')) return 'no-cache';
    return 'public, max-age=0, must-revalidate';
  };
}

/** The real root directory, or SERVE_BAD_ROOT. */
export async function resolveRoot(root: string): Promise<string> {
  try {
    const real = await realpath(root);
    if (!(await stat(real)).isDirectory()) throw new Error('not a directory');
    return real;
  } catch (cause) {
    throw new ServeError(ServeErrorCode.BAD_ROOT, `site root ${root} is not a readable directory`, {
      path: root,
      cause,
    });
  }
}

/**
 * Reads the site: file index (reusing `previous`'s unchanged bodies), manifest (a bad one is reported and ignored),
 * stale pages.
 */
export async function loadSite(o: ResolvedOptions, rootReal: string, previous?: Site): Promise<Site> {
  // The manifest before the walk: a build switches generations by writing it last and leaves the files of
  // the generation it replaced, so the walk finds every file the manifest read names, even mid-build.
  let manifest: SiteManifest | null = null;
  try {
    manifest = await loadManifest(rootReal, o.base);
  } catch (error) {
    if (!isServeError(error)) throw error;
    o.onLog({ level: 'warn', code: error.code, message: error.message, path: error.path, error });
  }
  // The base asked for, else the one the build recorded; a manifest that is not read says nothing.
  const base = manifest?.base ?? o.base ?? '/';
  // checkBasePath spells it so that it always decodes.
  const basePath = decodeURIComponent(base);
  const index = await buildSiteIndex(rootReal, {
    base: basePath,
    memoryBytes: o.memoryBytes,
    maxMemoryFileBytes: o.maxMemoryFileBytes,
    cacheControl: cacheControlFor(basePath),
    onLog: o.onLog,
    ...(previous ? { previous: previous.index } : {}),
  });
  // The build says the site's host serves `/guide/index.html` at `/guide` too (vercel.json…): so does this server.
  if (manifest?.manifest.bareDirUrls === true) {
    for (const [p, route] of index.routes) {
      const target = 'redirect' in route && route.redirect === `${p}/` ? index.routes.get(route.redirect) : undefined;
      if (target && 'entry' in target) index.routes.set(p, target);
    }
  }
  // …and `/about.html` at `/about/` (Vercel's or Firebase's cleanUrls with trailingSlash: true), where no
  // directory page is: its rules redirect `/about` and `/about.html` there.
  if (manifest?.manifest.cleanSlashUrls === true) {
    for (const [p, entry] of index.files) {
      if (!p.endsWith('.html') || p.endsWith('/index.html')) continue;
      const slash = `${p.slice(0, -'.html'.length)}/`;
      if (!index.routes.has(slash)) index.routes.set(slash, { entry });
    }
  }
  const stale = manifest && o.dynamic ? await findStalePages(manifest, index.routes) : new Set<never>();
  if (stale.size > 0)
    o.onLog({
      level: 'info',
      message: `${stale.size} page package(s) changed since the build; serving them dynamically`,
    });
  return {
    rootReal,
    base,
    basePath,
    ownDir: `${basePath}${PACKAGE_DIR}/`,
    listingPath: `${basePath}${LISTING_PATH.slice(1)}`,
    index,
    manifest,
    stale,
    notFound: index.files.get(`${basePath}404.html`),
  };
}
