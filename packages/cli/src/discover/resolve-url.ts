/**
 * Resolves a reference the way a browser does (WHATWG URL parser), then maps the URL to a site file.
 * The browser clamps `..` at the root; we report such references instead, because a reference that climbs
 * out of the site meant a file the site does not contain.
 */
import { nameFormPath } from '@objpack/format';
import type { SiteOrigin } from './site-origin.js';
import type { SiteFile } from './types.js';

export type Resolved =
  | { kind: 'local'; url: string; path: string; file: SiteFile }
  | { kind: 'missing'; url: string; path: string }
  | { kind: 'cross'; host: string }
  /** data:, blob:, javascript:, mailto:, fragment-only or empty references: nothing to fetch. */
  | { kind: 'skip' }
  | { kind: 'escape' }
  | { kind: 'dotfile'; url: string }
  | { kind: 'invalid'; reason: string };

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const DOT_DOT = new Set(['..', '.%2e', '%2e.', '%2e%2e']);

export class UrlResolver {
  /**
   * Pages of a site share most references ('/css/site.css'); resolving each distinct one once saves time and memory.
   */
  private readonly memo = new Map<string, Resolved>();
  /** Memo key prefixes per base URL object (pages reuse theirs for every reference). */
  private readonly prefixes = new WeakMap<URL, { rooted: string; relative: string }>();

  constructor(
    readonly files: ReadonlyMap<string, SiteFile>,
    readonly site: SiteOrigin,
  ) {}

  /** The absolute URL of a URL path on this site. */
  absolute(urlPath: string): URL {
    return new URL(urlPath, this.site.origin);
  }

  /** The base URL for references in a document at `docUrl`, given its `<base href>` (if any). */
  baseFor(docUrl: URL, baseHref: string | undefined): URL {
    if (baseHref === undefined) return docUrl;
    try {
      return new URL(baseHref, docUrl);
    } catch {
      return docUrl;
    }
  }

  /**
   * Resolves `raw` against `base`. `page` mode (links, iframes) also accepts the clean URLs static hosts
   * serve: '/about' → 'about.html' or 'about/index.html'.
   */
  resolve(raw: string, base: URL, page = false): Resolved {
    // Root-relative references do not depend on the base path; others depend on the base's directory.
    let prefix = this.prefixes.get(base);
    if (!prefix) {
      const dir = base.pathname.slice(0, base.pathname.lastIndexOf('/') + 1);
      prefix = { rooted: `${base.origin}\n`, relative: `${base.origin}${dir}\n` };
      this.prefixes.set(base, prefix);
    }
    const rootRelative = raw.charCodeAt(0) === 0x2f && raw.charCodeAt(1) !== 0x2f && !raw.includes('..');
    const key = (page ? 'p' : 'o') + (rootRelative ? prefix.rooted : prefix.relative) + raw;
    let r = this.memo.get(key);
    if (!r) {
      r = this.resolveUncached(raw, base, page);
      if (this.memo.size > 200_000) this.memo.clear(); // bound memory on huge sites
      this.memo.set(key, r);
    }
    return r;
  }

  private resolveUncached(raw: string, base: URL, page: boolean): Resolved {
    const ref = raw.trim();
    if (ref === '' || ref.startsWith('#')) return { kind: 'skip' };
    let url: URL;
    try {
      url = new URL(ref, base);
    } catch {
      return { kind: 'invalid', reason: 'not a valid URL' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'skip' };
    if (url.origin !== this.site.origin) return { kind: 'cross', host: url.host };
    if (climbsAboveRoot(ref, base, this.site.basePath)) return { kind: 'escape' };
    const path = decodePath(url.pathname);
    if (path === undefined) return { kind: 'invalid', reason: 'bad percent-encoding in the path' };
    if (path === null) return { kind: 'escape' };
    const requested = nameFormPath(url.pathname) + url.search;
    if (path.split('/').some((s) => s.startsWith('.') && s !== '')) return { kind: 'dotfile', url: requested };
    const file = this.lookup(path, page);
    if (file) return { kind: 'local', url: requested, path: file.path, file };
    return { kind: 'missing', url: requested, path };
  }

  private lookup(path: string, page: boolean): SiteFile | undefined {
    const exact = this.files.get(path);
    if (exact) return exact;
    if (path.endsWith('/')) return this.files.get(`${path}index.html`);
    if (!page) return undefined;
    return this.files.get(`${path}.html`) ?? this.files.get(`${path}/index.html`);
  }
}

/**
 * Decodes a URL path segment by segment. `undefined`: malformed escapes; `null`: a segment decodes to a
 * separator or NUL (`%2F`, `%5C`, `%00`), which a file server could turn into a path outside the root.
 */
export function decodePath(pathname: string): string | undefined | null {
  if (!pathname.includes('%')) return pathname;
  const out: string[] = [];
  for (const seg of pathname.split('/')) {
    let d: string;
    try {
      d = decodeURIComponent(seg);
    } catch {
      return undefined;
    }
    if (d.includes('/') || d.includes('\\') || d.includes('\0') || d === '..' || d === '.') return null;
    out.push(d);
  }
  return out.join('/');
}

/** True when the path part of `ref` walks above the site's base path from `base`. */
export function climbsAboveRoot(ref: string, base: URL, basePath: string): boolean {
  if (SCHEME.test(ref) || ref.startsWith('//') || ref.startsWith('\\\\')) return false;
  const p = ref.replace(/\\/g, '/').split(/[?#]/, 1)[0] ?? '';
  if (!p.includes('..') && !p.toLowerCase().includes('%2e')) return false;
  const stack = p.startsWith('/') ? [] : base.pathname.split('/').slice(1, -1);
  const floor = basePath.split('/').length - 2;
  if (stack.length < floor) return false; // the referrer itself is outside the base path
  for (const seg of p.split('/')) {
    const s = seg.toLowerCase();
    if (s === '' || s === '.' || s === '%2e') continue;
    if (DOT_DOT.has(s)) {
      if (stack.length <= floor) return true;
      stack.pop();
    } else stack.push(seg);
  }
  return false;
}
