/**
 * The one path a rule's pattern names, when it names one (`^/old$`, `^/a\.html\/?$`, a guard or a
 * lookahead before it): what it matches is that path, maybe with a trailing slash, maybe in any case, so
 * a lookup by pathKey finds every URL it can take (the rule's own test still decides). Sites with
 * thousands of redirects or header rules (a migration's old URLs, a CSP per page) are mostly such rules;
 * undefined for anything with a wildcard, an alternative or no anchor.
 */
export function literalPath(re: RegExp): string | undefined {
  // With `m`, `^`/`$` also match at line breaks; `g`/`y` make test() depend on the previous call.
  if (re.multiline || re.global || re.sticky) return undefined;
  let s = re.source;
  let anchored = false;
  for (;;) {
    if (s.startsWith('^')) [s, anchored] = [s.slice(1), true];
    else if (/^\(\?[=!]/.test(s) && groupEnd(s) > 0) s = s.slice(groupEnd(s) + 1);
    else if (s.startsWith('(?:') && groupEnd(s) === s.length - 1) s = s.slice(3, -1);
    else break;
  }
  if (!anchored || !s.endsWith('$') || s.endsWith('\\$')) return undefined;
  s = s.slice(0, -1);
  const tail = ['\\/?', '/?', '(?:\\/)?', '(?:/)?'].find((t) => s.endsWith(t));
  if (tail) s = s.slice(0, -tail.length);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      const next = s[++i];
      // `\x2d` and `\u002d` name a character (Netlify's parser writes `-` so); other letter escapes are classes.
      const hex =
        next === 'x'
          ? /^[0-9A-Fa-f]{2}/.exec(s.slice(i + 1))
          : next === 'u'
            ? (re.unicode ? /^\{[0-9A-Fa-f]{1,6}\}|^[0-9A-Fa-f]{4}/ : /^[0-9A-Fa-f]{4}/).exec(s.slice(i + 1))
            : null;
      if (hex) {
        out += String.fromCodePoint(parseInt(hex[0].replace(/[{}]/g, ''), 16));
        i += hex[0].length;
      } else if (next === undefined || /[A-Za-z0-9]/.test(next)) {
        return undefined;
      } else {
        out += next;
      }
    } else if ('.*+?()[]{}|^$'.includes(c)) {
      return undefined;
    } else {
      out += c;
    }
  }
  return out.startsWith('/') ? out : undefined;
}

/** Index of the `)` closing the group that opens `s` (-1 when it does not close). */
function groupEnd(s: string): number {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * A path with runs of slashes as one and no trailing slash (minimatch takes `//a` for `/a`), in one case
 * (lower, upper, lower: a case-insensitive RegExp also takes `ſ` for `s`, and with `u` `ẞ` for `ß`): the
 * same key for every URL a literal rule can take.
 */
const pathKey = (p: string): string =>
  p.replace(/\/+/g, '/').replace(/\/$/, '').toLowerCase().toUpperCase().toLowerCase() || '/';

/**
 * Host rules in their order, split into those naming one path (found by a map lookup) and the patterns
 * (tested one by one), so matching a page costs the patterns plus a lookup, not every rule.
 */
export class RuleIndex {
  /** Positions of the rules that are patterns, in order. */
  readonly patterns: number[] = [];
  private readonly byPath = new Map<string, number[]>();

  constructor(rules: ReadonlyArray<{ re: RegExp }>) {
    rules.forEach((r, i) => {
      const literal = literalPath(r.re);
      if (literal === undefined) return void this.patterns.push(i);
      const key = pathKey(literal);
      const list = this.byPath.get(key);
      if (list) list.push(i);
      else this.byPath.set(key, [i]);
    });
  }

  /** Positions of the one-path rules that may take one of `urls`, in order. */
  literals(urls: readonly string[]): number[] {
    const out: number[] = [];
    for (const u of urls) out.push(...(this.byPath.get(pathKey(u)) ?? []));
    return out.length > 1 ? [...new Set(out)].sort((a, b) => a - b) : out;
  }

  /** Positions of every rule that may take one of `urls`: those literals and all patterns, in order. */
  candidates(urls: readonly string[]): number[] {
    const literals = this.literals(urls);
    if (literals.length === 0) return this.patterns;
    return [...literals, ...this.patterns].sort((a, b) => a - b);
  }
}
