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
export function firebaseCaptures(
  p2r: PathToRegexp,
  glob: string,
  destination: string,
): { routes: CaptureRoute[]; fails: boolean; re: RegExp } {
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
      if (typeof t === 'string') variant.push(t);
      else if (!absent.has(t)) variant.push(fillable({ ...t, optional: false }, dest, () => (fails = true)));
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
 * A Firebase `regex` redirect's destination for one combination of its optional `:segments`, and the groups that
 * combination needs.
 */
export interface RegexCapture {
  to: string;
  groups: Record<string, boolean>;
}

/**
 * A Firebase `regex` redirect's destination as superstatic fills it: compile() gets the match's groups by
 * number (`:1`) and by name (`:name`); a group that took no part (an optional group that did not match) has
 * no value, and compile() drops an optional segment without one with its prefix but throws for a required
 * one or for an empty value, when the rule answers nothing and the next is tried. One template per
 * combination of the names only optional segments use (present before absent, at most 2^MAX_OPTIONAL; past
 * that, one where they are put in as they are), each with the groups it needs (HostRouteOptions.groups).
 */
export function regexCaptures(p2r: PathToRegexp, destination: string): RegexCapture[] {
  const dest = p2r.parse(destination);
  const ref = (name: string) => (/^\d+$/.test(name) ? `$${name}` : `\${${name}}`);
  const keys = dest.filter((t): t is Key => typeof t !== 'string');
  // compile() looks a value up by name: a name used twice is present in both places or absent from both,
  // and one that a required segment uses is never absent.
  const required = new Set(keys.filter((t) => !t.optional).map((t) => String(t.name)));
  const optional = [...new Set(keys.filter((t) => t.optional).map((t) => String(t.name)))].filter(
    (n) => !required.has(n),
  );
  const many = optional.length > MAX_OPTIONAL;
  const out: RegexCapture[] = [];
  for (let mask = 0; mask < (many ? 1 : 1 << optional.length); mask++) {
    const absent = new Set(optional.filter((_, i) => (mask >> (optional.length - 1 - i)) & 1));
    let to = '';
    const groups: Record<string, boolean> = {};
    for (const t of dest) {
      if (typeof t === 'string') to += literal(t);
      else if (absent.has(String(t.name))) {
        if (t.partial) to += literal(t.prefix);
        groups[String(t.name)] = false;
      } else {
        to += `${literal(t.prefix)}${ref(String(t.name))}`;
        if (!(many && !required.has(String(t.name)))) groups[String(t.name)] = true;
      }
    }
    out.push({ to, groups });
  }
  return out;
}

/** A destination segment's values: one segment, not empty (path-to-regexp 1.x's default pattern). */
const SEGMENT = '[^\\/]+?';

/**
 * Source segment `t` narrowed to the values compile() can put into the destination's segments of its name.
 * superstatic hands compile() a value with a `/` as an array of its segments, which a segment without
 * `*`/`+` refuses (`Expected "rest" to not repeat`), and compile() refuses an empty segment: `/a/:rest*` →
 * `/b/:rest` redirects `/a/x` but not `/a/x/y`, which goes to later rules (not to this rule's glob). `narrowed`
 * is called when some value the source takes is left out. A segment with a pattern of its own is left as it is.
 */
function fillable(t: Key, dest: Token[], narrowed: () => void): Key {
  const refs = dest.filter((d): d is Key => typeof d !== 'string' && String(d.name) === String(t.name));
  if (refs.length === 0 || (!t.repeat && !t.asterisk)) return t;
  const one = refs.some((d) => !d.repeat);
  if (!one && !t.asterisk) return t;
  narrowed();
  // A `*` (`.*`, greedy) takes a trailing slash the pattern's optional final `/` would otherwise take
  // (`/s/a/` gives `a/`, segments `a` and ''), and compile() refuses the empty one: no value ends before `/$`.
  const end = t.asterisk ? '(?!\\/$)' : '';
  return one
    ? { ...t, repeat: false, asterisk: false, pattern: `${SEGMENT}${end}` }
    : { ...t, asterisk: false, pattern: `${SEGMENT}(?:\\/${SEGMENT})*${end}` };
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

/**
 * Why a rule may redirect otherwise on Firebase Hosting than in objpack serve, when `pattern` has a segment
 * that takes several path segments (`:rest*`, `:rest+`, `*`) and `destination` names it without `*`/`+`:
 * superstatic redirects no such value (see fillable), while Firebase Hosting's API reference shows
 * `/:capture*` → `https://example.com/foo/:capture` passing the rest of the path on.
 */
export function splitCapture(p2r: PathToRegexp, pattern: string, destination: string): string | undefined {
  const dest = p2r.parse(destination);
  for (const t of p2r.parse(pattern.startsWith('/') ? pattern : `/${pattern}`)) {
    if (typeof t === 'string' || (!t.repeat && !t.asterisk)) continue;
    const name = String(t.name);
    if (!dest.some((d) => typeof d !== 'string' && String(d.name) === name && !d.repeat)) continue;
    return (
      `\`${pattern}\` → \`${destination}\`: superstatic (the Firebase emulator, which objpack serve follows) ` +
      `redirects no value of :${name} with several segments, as path-to-regexp's compile() refuses one for ` +
      `:${name} without \`*\`, while Firebase Hosting's API reference shows such a capture passed on whole; write ` +
      `:${name}* in the destination so that both redirect it`
    );
  }
  return undefined;
}
