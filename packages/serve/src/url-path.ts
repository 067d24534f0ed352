import { canonicalPath } from '@objpack/format';

/** Outcome of turning a request target into a site path. */
export type RequestPath = { ok: true; path: string; query: string } | { ok: false; status: 400 };

/**
 * Decodes a request target exactly once and refuses anything that could name a file outside the site:
 * `..`/`.` segments (also after decoding: `%2e%2e`), backslashes (`..%5c`), NUL, invalid or overlong UTF-8
 * (`%c0%ae`, which decodeURIComponent rejects). Double encoding (`%252e`) decodes to a literal `%2e` name,
 * which the index simply does not hold. The server only ever serves paths found in its start-up index, so
 * this is a second wall, not the only one.
 */
export function parseRequestPath(target: string | undefined): RequestPath {
  if (!target) return { ok: false, status: 400 };
  let raw = target;
  if (raw[0] !== '/') {
    // Absolute-form (proxy style) targets: keep only the path.
    if (!/^https?:\/\//i.test(raw)) return { ok: false, status: 400 };
    const slash = raw.indexOf('/', raw.indexOf('//') + 2);
    raw = slash === -1 ? '/' : raw.slice(slash);
  }
  const q = raw.indexOf('?');
  const query = q === -1 ? '' : raw.slice(q + 1);
  let encoded = q === -1 ? raw : raw.slice(0, q);
  const hash = encoded.indexOf('#');
  if (hash !== -1) encoded = encoded.slice(0, hash);
  let path: string;
  try {
    path = encoded.includes('%') ? decodeURIComponent(encoded) : encoded;
  } catch {
    return { ok: false, status: 400 };
  }
  if (path.includes('\0') || path.includes('\\')) return { ok: false, status: 400 };
  // Fast path: no dot right after a slash means no `.`/`..` segment.
  if (path.includes('/.')) {
    for (const seg of path.split('/')) if (seg === '.' || seg === '..') return { ok: false, status: 400 };
  }
  return { ok: true, path, query };
}

/**
 * Percent-encodes a site path for a header value (Link, Location): no CR, LF, space, `<`, `>` survive. `[` `]`
 * stay, as Chromium keeps them in a path and the build's route table names pages (`/[lang]/`): a redirect to
 * `/%5Blang%5D/` would load a page the service worker does not know by that URL.
 */
export function encodePathForHeader(path: string): string {
  return encodeURI(path).replace(/[<>"'`;,#]|%5[BD]/g, (c) =>
    c.length > 1 ? (c === '%5B' ? '[' : ']') : `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * The site path a manifest name (`/caf%C3%A9.css?v=3`) is served from: names are URL paths as the browser
 * requests them, percent-encoded (format README §1.2 "Names"), and the index is keyed by decoded path. A
 * name is taken as a request for it would be (parseRequestPath); one no request could name gives ''.
 */
export function namePath(name: string): string {
  const p = stripQuery(name);
  if (!p.includes('%')) return p;
  const r = parseRequestPath(p);
  return r.ok ? r.path : '';
}

/**
 * A manifest name (already percent-encoded) for a header value (Link, Content-Location): its escapes kept
 * (encodePathForHeader would encode their `%` again, announcing `/caf%25C3%25A9.css`), what is not printable
 * ASCII encoded, and the characters encodePathForHeader escapes. Throws URIError on a lone surrogate.
 */
export function nameForHeader(name: string): string {
  return name.replace(/%(?![0-9A-Fa-f]{2})|[<>"'`;,#]|[^\x21-\x7e]/gu, (c) =>
    c < '\x80' ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c),
  );
}

/**
 * The name a decoded site path has (`/café.css` → `/caf%C3%A9.css`, `/[slug].html` stays): the form the build
 * keys pages by and a browser's request for the path takes, whatever escapes it was written with.
 */
export function pathName(path: string): string {
  try {
    return canonicalPath(path.split('/').map(encodeURIComponent).join('/'));
  } catch {
    return path; // a lone surrogate: no request names it
  }
}

/** A manifest name (`/app.css?v=3`) without its query: the key of the manifest's `objects`. */
export function stripQuery(p: string): string {
  const q = p.indexOf('?');
  return q === -1 ? p : p.slice(0, q);
}
