import type { SiteFile } from './types.js';

/** Pages are the HTML files of the site. */
export function isPage(file: SiteFile): boolean {
  return /\.html?$/i.test(file.rel);
}
