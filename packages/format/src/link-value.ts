import type { PreloadCors, PreloadHint } from './manifest.js';

/** Hosts and proxies commonly cap one header at 8 KB: a `Link` value stays at or under this many bytes. */
export const MAX_LINK_HEADER_BYTES = 8000;

/**
 * `Link` attributes per kind of request, with the request mode the page's own request has, or the browser
 * fetches twice (https://html.spec.whatwg.org/#link-type-preload, "match preload"): fonts and `fetch()` are
 * always CORS requests, module scripts need `modulepreload`. Documents, media and tracks are never
 * announced: a preload of the page itself is meaningless, and media is large and often not played.
 */
const LINK = new Map<PreloadHint, string>([
  ['style', 'rel=preload; as=style'],
  ['script', 'rel=preload; as=script'],
  // High: Chromium holds low-priority image requests back until the body is being parsed; the worker
  // answers them from the package, so the request should be waiting there when the bytes arrive.
  ['image', 'rel=preload; as=image; fetchpriority=high'],
  ['font', 'rel=preload; as=font'],
  ['fetch', 'rel=preload; as=fetch'],
  ['module', 'rel=modulepreload'],
  // Low, as Chromium fetches a script that a script inserts: announced early, it must not take the first
  // round trips of a cold connection from the stylesheets and the HTML the first paint waits for.
  ['chunk', 'rel=preload; as=script; fetchpriority=low'],
]);
/** Kinds whose request is CORS whatever the markup says (`crossorigin` is implied, anonymous). */
const ALWAYS_CORS = new Set<PreloadHint>(['font', 'fetch']);

/**
 * A URL path a `Link` header can carry as it is: same-origin (`/`, not `//` nor `/\`, which a URL parser
 * reads as `//`), printable ASCII. Anything else (non-ASCII, NUL, spaces) would make `Headers.append` throw
 * or announce another URL than the page's.
 */
const SAFE_PATH = /^\/(?![/\\])[\x21-\x7e]*$/;

// `<`, `>` and `"` would end the target or a quoted value; the rest stays as the page requests it.
const escapeTarget = (url: string) => url.replace(/[<>"]/g, (c) => encodeURIComponent(c));

/** Whether `hint` is a kind objpack announces with a `Link` preload. */
export function isAnnounced(hint: unknown): hint is PreloadHint {
  return typeof hint === 'string' && LINK.has(hint as PreloadHint);
}

/**
 * One `Link` entry (`</a.css>; rel=preload; as=style; crossorigin`), or undefined for a kind that is never
 * announced or a URL that is not a plain same-origin path. `cors` is the element's `crossorigin` state.
 */
export function preloadLinkEntry(url: string, hint: PreloadHint, cors?: PreloadCors): string | undefined {
  const rel = LINK.get(hint);
  if (rel === undefined || typeof url !== 'string' || !SAFE_PATH.test(url)) return undefined;
  const mode =
    cors === 'use-credentials'
      ? '; crossorigin=use-credentials'
      : cors === 'anonymous' || ALWAYS_CORS.has(hint)
        ? '; crossorigin'
        : '';
  return `<${escapeTarget(url)}>; ${rel}${mode}`;
}

/**
 * Joins `Link` entries into one header value, cut at a whole entry so that it stays at or under `max`
 * bytes (entries are ASCII). `used` counts the entries kept, in order.
 */
export function joinLinkValue(
  entries: readonly string[],
  max = MAX_LINK_HEADER_BYTES,
): { value: string; used: number } {
  let value = '';
  let used = 0;
  for (const e of entries) {
    const next = value ? `${value}, ${e}` : e;
    if (next.length > max) break;
    value = next;
    used++;
  }
  return { value, used };
}

/**
 * The `Link` value announcing `hints` (`[url, hint, cors?]`, as in the route table): entries that cannot
 * be announced are skipped (`skipped`), the rest cut at a whole entry to fit `max` (`dropped`).
 */
export function preloadLinkValue(
  hints: ReadonlyArray<readonly [string, PreloadHint, PreloadCors?]>,
  max = MAX_LINK_HEADER_BYTES,
): { value: string; dropped: number; skipped: number } {
  const entries: string[] = [];
  for (const [url, hint, cors] of hints) {
    const e = preloadLinkEntry(url, hint, cors);
    if (e !== undefined) entries.push(e);
  }
  const { value, used } = joinLinkValue(entries, max);
  return { value, dropped: entries.length - used, skipped: hints.length - entries.length };
}
