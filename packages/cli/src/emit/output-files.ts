/** Files the build writes at the top of the output besides the format's manifest and route table. */
export const PUSH_MANIFEST_FILE = 'push-manifest.json';
/**
 * The report's name at the top of the output: never crawled; an objpack report found there while this
 * build writes its report elsewhere is one an earlier build left, and is removed so it is not published.
 */
export const REPORT_FILE = 'objpack-report.html';
export const NGINX_FILE = 'objpack-nginx.conf';
/**
 * The entries objpack added to `vercel.json` / `firebase.json` (by file name), so the next build removes
 * exactly those and reading the site's own rules skips them: JSON has no comments to mark a block with.
 */
export const HOST_ENTRIES_FILE = '_objpack/.host-entries.json';
/**
 * `--out`: the site files the last build copied there (site-relative, JSON), so the next one removes those
 * the site no longer has; the directory's other files are the user's and stay.
 */
export const COPIED_FILE = '_objpack/.copied.json';
