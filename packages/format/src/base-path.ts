import { canonicalPath } from './name-form.js';

/**
 * The URL path a site's root is served at: `/` for a site at the root of its origin, `/repo/` for a GitHub
 * Pages project site. A build records it in the manifest (`BuildManifest.base`); every URL it writes lies
 * under it, and a server reads it from there.
 */
export type BasePathCheck = { ok: true; base: string } | { ok: false; reason: string };

/**
 * Checks a base path and gives its one spelling: leading and trailing slash, percent-encoded as a browser
 * sends it (`/my docs` → `/my%20docs/`, `/caf%c3%a9` → `/caf%C3%A9/`, as page URLs are spelt), so that
 * the build, the server and the worker compare it as a plain string prefix. Refused, with the reason: no
 * leading slash (`repo/`, a URL: the origin is another option), a host (`//x`), a query or fragment, `.`
 * or `..` segments, empty segments, backslashes, control characters, escapes that are not UTF-8 or that
 * decode to a separator (`%2F`).
 */
export function checkBasePath(input: unknown): BasePathCheck {
  if (typeof input !== 'string' || input === '')
    return { ok: false, reason: 'it is empty; give a URL path such as /repo/' };
  if (!input.startsWith('/')) {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(input);
    return {
      ok: false,
      reason: url
        ? 'it is a URL, not a path: give its path (/repo/), the origin goes in --origin'
        : 'it does not start with /: give a URL path such as /repo/',
    };
  }
  if (input.startsWith('//')) return { ok: false, reason: 'it starts with //, which names a host, not a path' };
  if (/[?#]/.test(input)) return { ok: false, reason: 'it has a query or fragment: give the path alone' };
  // Chromium reads `\` as `/`, and control characters are stripped or refused: neither names one path.
  if (input.includes('\\') || [...input].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return { ok: false, reason: 'it holds a backslash or a control character' };
  const segments = input.slice(1).replace(/\/$/, '').split('/');
  if (segments.length === 1 && segments[0] === '') return { ok: true, base: '/' };
  const decoded: string[] = [];
  for (const s of segments) {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return { ok: false, reason: `its segment "${s}" has an escape that is not UTF-8` };
    }
    if (d === '') return { ok: false, reason: 'it has an empty segment (//)' };
    if (d === '.' || d === '..') return { ok: false, reason: `it has a "${s}" segment` };
    if (/[/\\]/.test(d)) return { ok: false, reason: `its segment "${s}" decodes to a path separator` };
    // objpack's own directory lies under the base: a base never holds its name (emit/generation.ts packageFile).
    if (d === '_objpack')
      return { ok: false, reason: "it has a _objpack segment, the name of objpack's own directory" };
    decoded.push(d);
  }
  const encoded = `/${decoded.map(encodeURIComponent).join('/')}/`;
  return { ok: true, base: new URL(canonicalPath(encoded), 'http://base.invalid').pathname };
}

/** `path` (a URL path from the site root, `/a.css`) as served under `base` (`/repo/a.css`). */
export const underBase = (base: string, path: string): string => (base === '/' ? path : base + path.replace(/^\//, ''));
