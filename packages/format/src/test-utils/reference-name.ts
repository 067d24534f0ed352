// The straightforward (split-based) name check that validate.ts had before it was rewritten as one
// allocation-free pass for speed; validate.test.ts checks that both accept exactly the same names.

/** True when `name` is a valid object name (byte length not checked). */
export function referenceNameOk(name: string): boolean {
  if (!name.startsWith('/') || name.startsWith('//')) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f) || c === 0x5c || c === 0x23) return false;
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = name.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    }
  }
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
