import type { Diagnostic } from '../discover/types.js';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import { isHeadersPattern } from './header-patterns.js';
import { HEADERS_BEGIN, netlifyHeaders, userPart, type HeaderRule } from './header-rules.js';

/**
 * Cloudflare Pages' `_headers` limits (developers.cloudflare.com/pages/platform/limits/#headers): 100 rules
 * a project, 2,000 characters a line, spacing, name and value included. Its parser (workers-sdk
 * `parseHeaders`) ignores a longer line and stops at the 100th rule; since 2026 a deploy of more rules is
 * refused outright ("Maximum number of _headers rules limit of 100 exceeded", code 100324).
 */
export const CLOUDFLARE_MAX_RULES = 100;
export const CLOUDFLARE_MAX_LINE = 2000;

/** How netlifyHeaders writes a header line, before its value. */
const LINK_PREFIX = '  Link: ';

// A rule starts at a line that begins with `/` or `scheme://` (workers-sdk LINE_IS_PROBABLY_A_PATH).
const RULE_LINE = /^(?:\S+:\/\/|\/)/;

/** The 1-based numbers of the lines of `text` that start a rule on Cloudflare Pages, and of those too long for it. */
export function cloudflareLines(text: string): { rules: number[]; long: number[] } {
  const rules: number[] = [];
  const long: number[] = [];
  text.split('\n').forEach((raw, i) => {
    const untrimmed = raw.replace(/\r$/, '');
    const line = untrimmed.trim();
    if (line === '' || line.startsWith('#')) return;
    // The whole line counts, indentation included; Cloudflare skips it before asking whether it starts a rule.
    if (untrimmed.length > CLOUDFLARE_MAX_LINE) long.push(i + 1);
    else if (RULE_LINE.test(line)) rules.push(i + 1);
  });
  return { rules, long };
}

/** The lines of a written `_headers` that are the user's (before objpack's block), as cloudflareLines gives them. */
export function userLines(written: string): { rules: number[]; long: number[] } {
  const at = written.indexOf(HEADERS_BEGIN);
  return cloudflareLines(at < 0 ? written : written.slice(0, at));
}

/**
 * The URL path Cloudflare Pages serves a page at: it redirects `/about.html` to `/about` and
 * `/guide/index.html` to `/guide/` ("Route matching", developers.cloudflare.com/pages/configuration/serving-pages/),
 * and matches header rules against the URL it serves.
 */
export function cloudflarePath(url: string): string {
  if (url.endsWith('/index.html')) return url.slice(0, -'index.html'.length);
  return url.endsWith('.html') && url.length > '/.html'.length ? url.slice(0, -'.html'.length) : url;
}

/**
 * A `Link` value as several values, each short enough for one Cloudflare line. Both hosts join a header
 * written twice in one rule with a comma (workers-sdk parseHeaders, @netlify/headers-parser), so the
 * response carries the same value. An entry too long for a line on its own is `dropped`.
 */
export function splitLinkValue(
  value: string,
  max = CLOUDFLARE_MAX_LINE - LINK_PREFIX.length,
): { values: string[]; dropped: number } {
  // Entries never hold ', <' (their targets are escaped, see link-header.ts), so this splits them exactly.
  const entries = value.split(', <').map((e, i) => (i === 0 ? e : `<${e}`));
  const values: string[] = [];
  let current = '';
  let dropped = 0;
  for (const e of entries) {
    if (e.length > max) dropped++;
    else if (current && current.length + 2 + e.length <= max) current = `${current}, ${e}`;
    else {
      if (current) values.push(current);
      current = e;
    }
  }
  if (current) values.push(current);
  return { values, dropped };
}

const depth = (p: string) => p.split('/').filter(Boolean).length;
const entries = (r: HeaderRule) => r.headers.reduce((n, [k, v]) => n + (k === 'Link' ? v.split(', <').length : 0), 0);

export interface CloudflareHeaders {
  text: string;
  /** Pages whose Link header lost entries that no Cloudflare line can hold. */
  truncated: Array<{ page: string; dropped: number }>;
  /** Pages with a Link rule in `text`, of the `pages` given (those with preloads). */
  pageRules: number;
  /** Pages left without a Link rule, for want of room among the 100 (`cut` of them) or for their path. */
  pagesLeft: number;
  /** Pages left without a Link rule for want of room among the 100. */
  cut: number;
  /** Pages left without a Link rule because Cloudflare reads their path as a pattern (header-patterns.ts). */
  patterns: string[];
  /** objpack's own pattern rules left out, the user's rules taking their room. */
  ownLeft: number;
  /** The user's own rules, as Cloudflare counts them. */
  userRules: number;
}

/**
 * `_headers` within Cloudflare's limits, the user's rules first and untouched (`existing`, as netlifyHeaders
 * keeps them). objpack's pattern rules (`own`) come next, then as many page rules as the 100 leave room
 * for: the site's shallowest pages first (the home page, then top-level pages: the doors first visits come
 * in by, before the worker announces preloads itself), among equals those with more preloads. Each rule
 * names the URL Cloudflare serves the page at, and its `Link` is spread over lines of at most 2,000 characters.
 */
export function cloudflareHeaders(
  own: readonly HeaderRule[],
  pages: readonly HeaderRule[],
  existing = '',
): CloudflareHeaders {
  const userRules = cloudflareLines(userPart(existing)).rules.length;
  const room = Math.max(0, CLOUDFLARE_MAX_RULES - userRules);
  const ownKept = own.slice(0, room);
  const seen = new Set(ownKept.map((r) => r.path));
  const candidates: Array<{ rule: HeaderRule; path: string; n: number }> = [];
  const patterns: string[] = [];
  for (const rule of pages) {
    const at = cloudflarePath(rule.path);
    // A path Cloudflare reads as a pattern would give this page's preloads to other URLs (/wiki/Help:Contents
    // to /wiki/Help_desk).
    if (isHeadersPattern(at, ['cloudflare'])) {
      patterns.push(rule.path);
      continue;
    }
    // A path line Cloudflare skips would hand its headers to the rule before it.
    if (at.length > CLOUDFLARE_MAX_LINE || seen.has(at)) continue;
    seen.add(at);
    candidates.push({ rule, path: at, n: entries(rule) });
  }
  const ranked = [...candidates].sort(
    (a, b) => depth(a.path) - depth(b.path) || b.n - a.n || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const chosen = new Set(ranked.slice(0, room - ownKept.length));
  const truncated: CloudflareHeaders['truncated'] = [];
  const rules: HeaderRule[] = [...ownKept];
  for (const c of candidates) {
    if (!chosen.has(c)) continue;
    const headers: Array<[string, string]> = [];
    for (const [k, v] of c.rule.headers) {
      if (k !== 'Link') headers.push([k, v]);
      else {
        const { values, dropped } = splitLinkValue(v);
        if (dropped) truncated.push({ page: c.rule.path, dropped });
        for (const value of values) headers.push([k, value]);
      }
    }
    if (headers.length > 0) rules.push({ path: c.path, headers });
  }
  const pageRules = rules.length - ownKept.length;
  const cut = candidates.length - chosen.size;
  return {
    text: netlifyHeaders(rules, existing),
    truncated,
    pageRules,
    pagesLeft: pages.length - pageRules,
    cut,
    patterns,
    ownLeft: own.length - ownKept.length,
    userRules,
  };
}

/** A problem of a written `_headers` on Cloudflare Pages; `line` when it is one of the user's lines. */
export interface CloudflareProblem {
  message: string;
  line?: number;
}

const LIMITS =
  'Cloudflare Pages accepts 100 rules (a deploy with more is refused; older tooling drops every rule after the 100th)';

/**
 * What of a written `_headers` breaks Cloudflare's limits. `made` is the result of cloudflareHeaders when
 * the file was written for `--target cloudflare`; without it, the default `_headers`, objpack's own rules
 * are checked too and the way out is that target.
 */
/** The warning for one problem of `_headers` with Cloudflare Pages' limits. */
export const cloudflareWarning = ({ message, ...where }: CloudflareProblem): Diagnostic =>
  warn(WarningCode.CLOUDFLARE_HEADERS_LIMIT, { problem: message }, { file: '_headers', ...where });

export function cloudflareProblems(
  written: string,
  made?: Pick<CloudflareHeaders, 'ownLeft'>,
  ownRules = 0,
): CloudflareProblem[] {
  const problems: CloudflareProblem[] = [];
  const user = userLines(written);
  const all = cloudflareLines(written);
  const n = user.rules.length;
  const merge = 'merge your rules (one `/*` or `/dir/*` rule serves many paths)';
  if (n > CLOUDFLARE_MAX_RULES) {
    problems.push({
      message: `_headers has ${n} rules of your own and ${LIMITS}: ${merge}`,
      line: user.rules[CLOUDFLARE_MAX_RULES],
    });
  } else if (made && made.ownLeft > 0) {
    const kept = ownRules - made.ownLeft;
    problems.push({
      message:
        `_headers has ${n} rules of your own, which leaves room in Cloudflare Pages' 100 for ${kept} of ` +
        `objpack's ${ownRules} rules for its packages, route table and worker, and for no page's Link preloads: ` +
        `${merge}`,
      line: user.rules[CLOUDFLARE_MAX_RULES - ownRules],
    });
  }
  if (user.long.length > 0) {
    const more = user.long.length > 1 ? ` (and ${user.long.length - 1} more)` : '';
    problems.push({
      message:
        `_headers has a line longer than ${CLOUDFLARE_MAX_LINE} characters${more}, which Cloudflare Pages ` + `ignores`,
      line: user.long[0],
    });
  }
  if (made || n > CLOUDFLARE_MAX_RULES) return problems;
  const ours = all.rules.length - n;
  const long = all.long.length - user.long.length;
  const over = [
    ...(all.rules.length > CLOUDFLARE_MAX_RULES
      ? [`${all.rules.length} rules (${ours} of them objpack's) where ${LIMITS}`]
      : []),
    ...(long > 0
      ? [
          `${long} Link line${long === 1 ? '' : 's'} longer than the ${CLOUDFLARE_MAX_LINE} characters Cloudflare ` +
            `Pages reads (it ignores them)`,
        ]
      : []),
  ];
  if (over.length > 0) {
    problems.push({
      message:
        `_headers has ${over.join(', and ')}: if the site is on Cloudflare Pages, pass \`--target ` +
        `cloudflare\` for a _headers within its limits (objpack's rules for its packages, and Link rules for as ` +
        `many pages as fit); if it is on Netlify, \`--target netlify\` says so`,
    });
  }
  return problems;
}
