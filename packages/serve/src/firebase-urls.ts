import type { FirebaseUrls } from '@objpack/format';
import type { FileEntry, Route } from './site-index.js';

/**
 * How Firebase Hosting answers `path` (decoded URL path) from its files with `cleanUrls`/`trailingSlash`
 * set, as superstatic's files middleware does: the file itself, its directory's index.html, or with
 * `cleanUrls` the path's `.html` file, each either served or redirected (301) to the URL the settings
 * prefer; undefined where no file answers (rewrites and the 404 page come next). Unlike this server's own
 * aliases, `/about` is not about.html without `cleanUrls`, nor is `/about/` without `trailingSlash`. Only
 * `.html` files have clean URLs: `/data.json` is served as it is whatever the settings.
 */
export function firebaseRoute(
  files: ReadonlyMap<string, FileEntry>,
  path: string,
  urls: FirebaseUrls,
): Route | undefined {
  const cleanUrls = urls.cleanUrls === true;
  const { trailingSlash } = urls;
  const exact = files.get(path);
  if (exact)
    return cleanUrls && path.endsWith('.html') ? { redirect: cleanOf(path, trailingSlash === true) } : { entry: exact };
  const slash = path.endsWith('/');
  const index = files.get(`${slash ? path : `${path}/`}index.html`);
  if (index) {
    // Without a setting a directory is redirected to its slash, unless cleanUrls serves it bare.
    if (!slash && (trailingSlash === true || (trailingSlash === undefined && !cleanUrls)))
      return { redirect: `${path}/` };
    if (slash && trailingSlash === false && path !== '/') return { redirect: path.slice(0, -1) };
    return { entry: index };
  }
  // With a slash and no trailingSlash setting superstatic looks for the path itself, which is no file.
  if (!cleanUrls || (slash && trailingSlash === undefined)) return undefined;
  const html = `${slash ? path.slice(0, -1) : path}.html`;
  const file = files.get(html);
  if (!file) return undefined;
  if (slash && trailingSlash === false) return { redirect: path.slice(0, -1) };
  if (!slash && trailingSlash === true) return { redirect: cleanOf(html, true) };
  // `/guide/index` names guide/index.html by its clean URL, whose own clean URL is `/guide`.
  if (html.endsWith('/index.html')) return { redirect: cleanOf(html, false) };
  return { entry: file };
}

/**
 * An `.html` file's clean URL: without the extension, a final `/index` dropped, a slash added with
 * `trailingSlash: true`. Never empty: `/index.html` goes to `/` (superstatic writes `"" + search` there, a
 * relative Location that with a query names `/index.html` again; the host's own `/` is meant).
 */
function cleanOf(html: string, slash: boolean): string {
  let p = html.slice(0, -'.html'.length);
  if (p.endsWith('/index')) p = p.slice(0, -'/index'.length);
  if (slash && !p.endsWith('/')) p += '/';
  return p === '' ? '/' : p;
}
