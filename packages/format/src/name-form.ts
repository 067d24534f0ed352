/**
 * A URL path in the form names take (README §1.2 "Names"): as Chromium requests it, which escapes `|` and
 * `^` in a path where the WHATWG parser (Node's `URL`, Firefox) keeps them. The build names objects in this
 * form and the worker looks requests up in it, so both spellings of such a path find the same name.
 */
export function nameFormPath(pathname: string): string {
  return pathname.includes('|') || pathname.includes('^') ? pathname.replace(/[|^]/g, (c) => (c === '|' ? '%7C' : '%5E')) : pathname;
}
