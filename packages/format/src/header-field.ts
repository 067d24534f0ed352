/**
 * What the build writes into packages and the route table as a response header, and what the worker
 * accepts back from them: a header the worker appends must never make `Headers` throw or split a line.
 */

/** An RFC 9110 token, lower case (how the build writes names). */
export function isHeaderName(name: unknown): name is string {
  return typeof name === 'string' && /^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name);
}

/** Printable ASCII and tabs: no CR, LF or NUL, nothing `Headers` would refuse. */
export function isHeaderValue(value: unknown): value is string {
  return typeof value === 'string' && /^[\t\x20-\x7e]*$/.test(value);
}

/**
 * Host-config headers a page's record never carries: they describe the bytes or the transfer, belong to
 * the connection (HTTP/2 refuses them outright: an h2 response with `TE` throws), or objpack sets them
 * itself (the worker's response and `objpack serve` have their own); `set-cookie` cannot be set by a
 * service worker's response at all. Includes every header the package encoder refuses (validate.ts).
 */
export const NOT_CARRIED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-range',
  'transfer-encoding',
  'accept-ranges',
  'cache-control',
  'expires',
  'age',
  'date',
  'etag',
  'last-modified',
  'vary',
  'link',
  'set-cookie',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'http2-settings',
  'host',
]);

/**
 * Whether a host-config header (name in lower case) is one a page carries: valid, and not one of the above or objpack's
 * own.
 */
export function isCarriedHeader(name: string, value: unknown): boolean {
  return isHeaderName(name) && isHeaderValue(value) && !NOT_CARRIED_HEADERS.has(name) && !name.startsWith('x-objpack-');
}
