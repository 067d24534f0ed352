import { checkBasePath } from '@objpack/format';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import type { HtmlRef } from './html-ref.js';
import type { Diagnostic, SiteGraph } from './types.js';

/** References that name no URL of their own (inline text, candidate lists) or no object (hints). */
const NOT_A_URL = new Set<HtmlRef['k']>(['style', 'style-attr', 'module-inline', 'importmap', 'srcset', 'preconnect']);
/** Share of a page's references, the base cut off, that must name a file of the site. */
const RESOLVING = 0.9;

/**
 * The base path a site was built for, when its pages say so unambiguously: every page has root-absolute
 * same-origin references (`/repo/assets/app.css`), all of them under one prefix whose first segment is no
 * file or directory at the site's root, and with that prefix cut off they name the site's files (at least
 * 90 %: a site may have a broken link). That is what VitePress, Astro, Docusaurus or Hugo write for a
 * `base` of `/repo/`. `graph` is discovery's at the root (its `extracts` hold the pages' references as
 * written); the prefix is the shortest that resolves (`/a/b/` when `/a/` alone does not). Undefined when any
 * page is silent or disagrees: then the site is taken to be served at `/`.
 */
export function detectBase(graph: SiteGraph): string | undefined {
  if (!graph.extracts || graph.pages.length === 0) return undefined;
  const refs: string[][] = [];
  // A site served at `/` is told apart within a page or two: its references share no directory but `/`, or
  // their first segment is a directory of the site.
  let common: string | undefined;
  for (const page of graph.pages) {
    const own = rootAbsolute(graph.extracts.get(page.file)?.refs ?? []);
    if (own.length === 0) return undefined;
    const first = common === undefined;
    common = commonDirectory(common === undefined ? own : [common, ...own]);
    if (common === '/' || (first && isSiteDirectory(graph, common.split('/')[1]!))) return undefined;
    refs.push(own);
  }
  if (common === undefined) return undefined;
  const segments = common.split('/').slice(1, -1);
  for (let n = 1; n <= segments.length; n++) {
    const base = `/${segments.slice(0, n).join('/')}/`;
    const resolves = (own: string[]) =>
      own.filter((r) => names(graph, `/${r.slice(base.length)}`)).length >= RESOLVING * own.length;
    if (!refs.every(resolves)) continue;
    // Spelt as a base option is (the references were decoded).
    const checked = checkBasePath(base);
    return checked.ok ? checked.base : undefined;
  }
  return undefined;
}

/** The page's root-absolute references (`/x`, not `//host/x`), decoded, without query or fragment. */
function rootAbsolute(refs: readonly HtmlRef[]): string[] {
  const out: string[] = [];
  for (const r of refs) {
    // A `<base href>` decides how the page's references resolve: such a page says nothing of the site's base.
    if (r.base !== undefined) return [];
    if (NOT_A_URL.has(r.k)) continue;
    const v = r.v.trim();
    if (!v.startsWith('/') || v.startsWith('//')) continue;
    const path = v.split(/[?#]/)[0]!;
    try {
      out.push(decodeURIComponent(path));
    } catch {
      out.push(path);
    }
  }
  return out;
}

/** Whether `/name` is a file or directory at the site's root. */
function isSiteDirectory(graph: SiteGraph, name: string): boolean {
  if (graph.files.has(`/${name}`)) return true;
  for (const p of graph.files.keys()) if (p.startsWith(`/${name}/`)) return true;
  return false;
}

/** The longest directory (`/repo/`, `/`) every path lies in. */
function commonDirectory(paths: readonly string[]): string {
  let dir = paths[0]!.slice(0, paths[0]!.lastIndexOf('/') + 1);
  for (const p of paths) while (!p.startsWith(dir)) dir = dir.slice(0, dir.lastIndexOf('/', dir.length - 2) + 1);
  return dir;
}

/** Whether a path names a file of the site as a static host serves it (`/guide/`, `/about` for about.html). */
function names(graph: SiteGraph, path: string): boolean {
  const f = graph.files;
  return f.has(path) || f.has(`${path}index.html`) || f.has(`${path}.html`) || f.has(`${path}/index.html`);
}

/** The one line a build prints when it found the base in the pages, with how to say otherwise. */
export function baseDetected(base: string): Diagnostic {
  return warn(WarningCode.BASE_DETECTED, { base });
}
