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
