// The straightforward (split-based) name check that validate.ts had before it was rewritten as one
// allocation-free pass for speed; validate.test.ts checks that both accept exactly the same names.

/** True when `name` is a valid object name (byte length not checked). */
export function referenceNameOk(name: string): boolean {
  if (!name.startsWith('/') || name.startsWith('//')) return false;
  // Printable ASCII only (README §1.2): no space, controls, DEL or raw non-ASCII; no fragment or backslash.
  if (!/^[\x21-\x7e]*$/.test(name) || /[#\\]/.test(name)) return false;
  const q = name.indexOf('?');
  const path = q < 0 ? name : name.slice(0, q);
  for (const seg of path.split('/')) {
    let decoded = seg;
    if (seg.includes('%')) {
      try {
        decoded = decodeURIComponent(seg);
      } catch {
        return false;
      }
    }
    if (decoded === '.' || decoded === '..') return false;
    if (decoded !== seg && /[/\\\0]/.test(decoded)) return false;
  }
  return true;
}
