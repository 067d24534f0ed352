/**
 * A URL path in the form names take (README §1.2 "Names"): as Chromium requests it, which escapes `|` and
 * `^` in a path where the WHATWG parser (Node's `URL`, Firefox) keeps them, with one spelling for each
 * path. A page may write a URL with escapes that name the same file (`caf%c3%a9.css`, `%5Bslug%5D.html`,
 * `a%2Db.css`) and no browser's parser unifies them (Chromium 156 and Node keep every escape as written):
 * an escape of a character Chromium leaves literal in a path is decoded, every other escape gets upper-case
 * hex. `%2F` `%5C` (separators to a file server), `%25` `%3F` `%23` and anything not ASCII stay escaped, and
 * a `%2E` that would make a `.` or `..` segment too: decoding must not make a path climb (RFC 3986 §6.2.2).
 * The build names objects in this form and the worker and server look requests up in it, so every spelling
 * of a path finds the same name.
 */
export function nameFormPath(pathname: string): string {
  const p = pathname.includes('|') || pathname.includes('^') ? pathname.replace(/[|^]/g, (c) => (c === '|' ? '%7C' : '%5E')) : pathname;
  return p.includes('%') ? p.split('/').map(segmentForm).join('/') : p;
}

/** ASCII that Chromium's URL parser leaves literal in a path (RFC 3986 unreserved, sub-delims, `:` `@`, `[` `]`). */
const LITERAL = /^[\w\-.~!$&'()*+,;=:@[\]]$/;

function segmentForm(segment: string): string {
  if (!segment.includes('%')) return segment;
  const out = segment.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return LITERAL.test(c) ? c : `%${hex.toUpperCase()}`;
  });
  return out === '.' || out === '..' ? segment.replace(/%2e/g, '%2E') : out;
}
