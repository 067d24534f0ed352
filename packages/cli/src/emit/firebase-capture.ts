import type pathToRegexp from 'path-to-regexp';

type PathToRegexp = typeof pathToRegexp;
type Token = pathToRegexp.Token;
type Key = pathToRegexp.Key;

/** A Firebase redirect's capture pattern and destination template for one combination of optional segments. */
export interface CaptureRoute {
  re: RegExp;
  to: string;
}

/** More optional segments than this and the rule gets one route, as if each were present (2^4 routes at most). */
const MAX_OPTIONAL = 4;

/** A template's literal `$` (HostRoute: `$$`). */
const literal = (s: string) => s.replace(/\$/g, '$$$$');

/**
 * A Firebase redirect whose destination names `:segments`, as superstatic applies it (middleware/redirects.js):
 * the source compiled by path-to-regexp 1.x captures them and `pathToRegexp.compile(destination)` fills them
 * in. compile() drops an optional segment that has no value together with its prefix, so `/old/:rest*` →
 * `/new/:rest*` takes `/old/` (and `/old`) to `/new`, not `/new/`; a required one without a value throws,
 * and superstatic then leaves the URL to its later rules (not to this rule's glob). A HostRoute template
 * cannot say "this `/` only when `$1` matched", so each combination of the source's optional segments gets
 * its own route: a pattern that takes the URLs where exactly those segments matched, and the destination
 * compiled for them. `fails`: some combination answers nothing (the glob route must then leave its URLs).
 * Values are put in as captured; compile()'s check of a value against a pattern in the destination is not
 * repeated.
 */
export function firebaseCaptures(p2r: PathToRegexp, glob: string, destination: string): { routes: CaptureRoute[]; fails: boolean; re: RegExp } {
  const tokens = p2r.parse(glob);
  const dest = p2r.parse(destination);
  const optional = tokens.filter((t): t is Key => typeof t !== 'string' && t.optional);
  const re = p2r.tokensToRegExp(tokens, []);
  if (optional.length > MAX_OPTIONAL) {
    const keys = tokens.filter((t): t is Key => typeof t !== 'string');
    return { routes: [{ re, to: template(dest, keys) ?? '' }], fails: false, re };
  }
  const routes: CaptureRoute[] = [];
  let fails = false;
  // Present before absent, the first segment first: the order in which the pattern's greedy `(…)?` groups
  // try them, so the first route that matches is the combination the whole pattern would have matched.
  for (let mask = 0; mask < 1 << optional.length; mask++) {
    const absent = new Set(optional.filter((_, i) => (mask >> (optional.length - 1 - i)) & 1));
    const variant: Token[] = [];
    for (const t of tokens) {
      if (typeof t === 'string' || !t.optional) variant.push(t);
      else if (!absent.has(t)) variant.push({ ...t, optional: false });
      else if (t.partial) variant.push(t.prefix);
    }
    const keys: Key[] = [];
    const vre = p2r.tokensToRegExp(variant, keys);
    const to = template(dest, keys);
    if (to === undefined) fails = true;
    else routes.push({ re: vre, to });
  }
  return { routes, fails, re };
}

/**
 * The destination as compile() writes it when the pattern's groups `keys` have values (in order: `$1` is
 * the first) and no other segment has one; undefined when compile() would throw.
 */
function template(dest: Token[], keys: Key[]): string | undefined {
  let out = '';
  for (const t of dest) {
    if (typeof t === 'string') {
      out += literal(t);
      continue;
    }
    const name = String(t.name);
    const at = keys.findIndex((k) => String(k.name) === name);
    if (at === -1) {
      if (!t.optional) return undefined;
      if (t.partial) out += literal(t.prefix);
      continue;
    }
    out += `${literal(t.prefix)}$${at + 1}`;
  }
  return out;
}
