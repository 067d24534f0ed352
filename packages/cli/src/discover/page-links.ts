import type { Resolved } from './resolve-url.js';
import { pageUrlPath } from './site-origin.js';

/** The pages a page frames and links to, and the links that rely on the host's URL forms. */
export interface PageLinks {
  iframes: string[];
  links: string[];
  /** Linked without `.html` (`/about` reaching about.html). */
  cleanLinks: string[];
  /** Linked without the trailing slash (`/guide` reaching guide/index.html). */
  bareDirLinks: string[];
}

/** Records a local `<iframe>` or `<a>` target, resolved as a page; anything but an HTML page is ignored. */
export function addPageLink(
  links: PageLinks,
  kind: 'iframe' | 'anchor',
  r: Extract<Resolved, { kind: 'local' }>,
  basePath: string,
): void {
  if (!/\.html?$/i.test(r.file.rel)) return;
  const target = pageUrlPath(r.file.rel, basePath);
  const list = kind === 'iframe' ? links.iframes : links.links;
  if (!list.includes(target)) list.push(target);
  if (kind !== 'anchor') return;
  // `/about` reaching about.html: the site relies on its host's clean URLs (see build's cleanUrls).
  const linked = r.url.split('?')[0]!;
  const index = r.path.endsWith('/index.html');
  if (!index && !/\.html?$/i.test(linked) && !links.cleanLinks.includes(target)) links.cleanLinks.push(target);
  // `/guide` reaching guide/index.html: the host redirects it to `/guide/` or serves it there (bareDirUrls).
  const bare = index && !linked.endsWith('/') && !/\/index(?:\.html?)?$/i.test(linked);
  if (bare && !links.bareDirLinks.includes(target)) links.bareDirLinks.push(target);
}
