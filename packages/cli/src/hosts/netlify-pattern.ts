/** A `_redirects` `from` compiled once, for the build's redirect rules and `objpack serve`'s routes alike. */
export interface NetlifyPattern {
  /** The pattern with its placeholders as named groups: `:name` is `${name}`, `*` is `${splat}`. */
  re: RegExp;
  /** The same pattern without groups, for the worker's route table (`redirects`), which never fills placeholders. */
  plain: RegExp;
  /** The host of a domain-level `from` (`https://a.example/*`). */
  host?: string;
  /** The placeholders `re` captures. */
  names: Set<string>;
}

const ABSOLUTE_FROM = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)/i;

/**
 * A `_redirects` `from` path as a RegExp, wide enough for both hosts that read the file: `:name` is one
 * segment or the rest of one (Cloudflare Pages also takes `/post-:id.html`), `*` anything (Netlify only
 * at the end, Cloudflare anywhere), a final `/*` also the bare path (`/blog`); a trailing slash is optional
 * and case is ignored (Netlify normalizes both). A domain-level `from` gives its host and its path.
 */
export function compileNetlify(from: string): NetlifyPattern {
  let p = from;
  let host: string | undefined;
  const abs = ABSOLUTE_FROM.exec(p);
  if (abs) {
    host = abs[1]!.toLowerCase();
    p = p.slice(abs[0].length) || '/';
  }
  const names = new Set<string>();
  // Each placeholder is rendered twice: as a named group (the first of its name) and without one.
  const group = (name: string, body: string): [string, string] => {
    if (names.has(name)) return [`(?:${body})`, body];
    names.add(name);
    return [`(?<${name}>${body})`, body];
  };
  const splat = p.endsWith('/*');
  if (splat) p = p.slice(0, -2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  let captured = '';
  let bare = '';
  for (const t of p.split(/(:[A-Za-z_]\w*|\*|[.+?^${}()|[\]\\/])/)) {
    const [c, b] =
      t === '*'
        ? group('splat', '.*')
        : /^:[A-Za-z_]/.test(t)
          ? group(t.slice(1), '[^/]+')
          : t.length === 1 && /[.+?^${}()|[\]\\/]/.test(t)
            ? [`\\${t}`, `\\${t}`]
            : [t, t];
    captured += c;
    bare += b;
  }
  const [tail, plainTail] = splat ? group('splat', '.*') : ['', ''];
  const end = (s: string) => (splat ? `(?:\\/${s})?` : '\\/?');
  const re = new RegExp(`^${captured}${end(tail)}$`, 'i');
  const plain = new RegExp(`^${bare}${splat ? `(?:\\/${plainTail})?` : '\\/?'}$`, 'i');
  return host === undefined ? { re, plain, names } : { re, plain, host, names };
}

/** The `from`'s path without its scheme and host, where a domain-level rule names them. */
export const fromPath = (from: string): string => from.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
