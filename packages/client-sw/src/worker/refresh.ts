/**
 * A one-line document that loads `url` again: a meta refresh, not a script, so it works under any
 * Content-Security-Policy the page's headers carry. The target is named without its fragment: a bare
 * refresh (or one to `/a#x` from `/a#x`) is a same-document jump to the fragment, and the page would
 * stay blank. The fragment is lost on this (failure-only) path; the page itself is not.
 */
export function refreshTo(url: URL): Uint8Array {
  const target = (url.pathname + url.search).replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return new TextEncoder().encode(`<!doctype html><meta http-equiv="refresh" content="0; url=${target}">`);
}
