/**
 * A URL path in the form names take (README §1.2 "Names"): as Chromium requests it, which escapes `|` and
 * `^` in a path where the WHATWG parser (Node's `URL`, Firefox) keeps them. Every other escape stays as the
 * page wrote it, because that is what the browser requests and what a preload of it must name: Chromium
 * (156) and Node keep `%5B` and `%c3%a9` as written, so a `Link` announcing `/[x].js` is not used by a
 * page asking for `/%5Bx%5D.js` (Next.js writes its chunk URLs so). The build names objects in this form
 * and the worker looks object requests up in it.
 */
export function nameFormPath(pathname: string): string {
  return pathname.includes('|') || pathname.includes('^')
    ? pathname.replace(/[|^]/g, (c) => (c === '|' ? '%7C' : '%5E'))
    : pathname;
}

/**
 * One spelling for every spelling of a path ({@link nameFormPath}, then: upper-case hex; an escape of an ASCII
 * character Chromium leaves literal in a path decoded). For what is keyed by the file rather than by a
 * reference, pages: the route table keys a page by its file name (`/[slug].html`, `/caf%C3%A9/`), and a
 * link may spell it `/%5Bslug%5D.html` or `/caf%c3%a9/`, which no parser unifies. `%2F` `%5C` (separators
 * to a file server), `%25` `%3F` `%23` and anything not ASCII stay escaped, and a `%2E` that would make a
 * `.` or `..` segment too: decoding must not make a path climb (RFC 3986 §6.2.2).
 */
export function canonicalPath(pathname: string): string {
  const p = nameFormPath(pathname);
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
