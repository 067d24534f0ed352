/**
 * Where the value at `keys` (object keys and array indexes, `['hosting', 1, 'redirects']`) is written in a
 * JSON text: its first offset and the one after it; undefined when the text has no such value. The text must
 * be JSON (JSON.parse accepted it): this only walks it, skipping strings, so a key or bracket written inside
 * a string is never taken for one.
 */
export function jsonSpan(text: string, keys: ReadonlyArray<string | number>): { start: number; end: number } | undefined {
  let at = skipSpace(text, 0);
  for (const key of keys) {
    const open = text[at];
    if (open !== (typeof key === 'number' ? '[' : '{')) return undefined;
    at = skipSpace(text, at + 1);
    let index = 0;
    for (;;) {
      if (text[at] === ']' || text[at] === '}') return undefined;
      let name: string | undefined;
      if (open === '{') {
        const nameEnd = valueEnd(text, at);
        name = JSON.parse(text.slice(at, nameEnd)) as string;
        at = skipSpace(text, skipSpace(text, nameEnd) + 1);
      }
      if (open === '{' ? name === key : index === key) break;
      at = skipSpace(text, valueEnd(text, at));
      if (text[at] !== ',') return undefined;
      at = skipSpace(text, at + 1);
      index++;
    }
  }
  return { start: at, end: valueEnd(text, at) };
}

const skipSpace = (text: string, at: number): number => {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  return at;
};

/** The offset after the value (string, object, array, number, literal) that starts at `at`. */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 0) return i + 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === ',' || ' \t\r\n'.includes(c))) return i;
  }
  return text.length;
}
