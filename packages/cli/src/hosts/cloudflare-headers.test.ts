import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  CLOUDFLARE_MAX_LINE,
  CLOUDFLARE_MAX_RULES,
  cloudflareHeaders,
  cloudflareLines,
  cloudflareProblems,
  splitLinkValue,
} from './cloudflare-headers.js';
import { netlifyHeaders, type HeaderRule } from './header-rules.js';
import { linkRulesText } from '../report/summary.js';

const own: HeaderRule[] = ['/_objpack/shared/*', '/_objpack/pages/*', '/_objpack/routes.json', '/objpack-sw.js'].map(
  (p) => ({ path: p, headers: [['Cache-Control', 'x']] }),
);
const link = (n: number, tag = 'a') =>
  Array.from({ length: n }, (_, i) => `</assets/${tag}-${'x'.repeat(60)}-${i}.css>; rel=preload; as=style`).join(', ');
/** 150 pages: the home page, 20 top-level ones, the rest two deep; /b/ has more preloads than its neighbours. */
const pages: HeaderRule[] = [
  ...Array.from({ length: 129 }, (_, i) => ({
    path: `/blog/post-${i}.html`,
    headers: [['Link', link(3)]] as Array<[string, string]>,
  })),
  ...Array.from({ length: 20 }, (_, i) => ({
    path: `/${String.fromCharCode(97 + i)}/`,
    headers: [['Link', link(i === 1 ? 5 : 2)]] as Array<[string, string]>,
  })),
  { path: '/', headers: [['Link', link(120)]] },
];
const user = '# mine\n/*\n  X-Frame-Options: DENY\n/admin/*\n  X-Robots-Tag: noindex\n';

/** The `_headers` rules as Netlify's own parser reads them. */
async function netlifyParse(text: string): Promise<Array<{ for: string; values: Record<string, string> }>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-cf-'));
  try {
    await writeFile(path.join(dir, '_headers'), text);
    const { parseAllHeaders } = await import('@netlify/headers-parser');
    const parsed = await parseAllHeaders({
      headersFiles: [path.join(dir, '_headers')],
      configHeaders: [],
      minimal: true,
    });
    expect(parsed.errors).toEqual([]);
    return parsed.headers as Array<{ for: string; values: Record<string, string> }>;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('_headers for Cloudflare Pages (--target cloudflare)', () => {
  test(
    "100 rules at most: the user's first and untouched, objpack's own, then the shallowest pages (more " +
      'preloads first among equals)',
    () => {
      const made = cloudflareHeaders(own, pages, user);
      const { rules, long } = cloudflareLines(made.text);
      expect(rules).toHaveLength(CLOUDFLARE_MAX_RULES);
      expect(long).toEqual([]);
      expect(made.text.startsWith(user)).toBe(true);
      const paths = made.text.split('\n').filter((l) => l.startsWith('/'));
      expect(paths.slice(0, 6)).toEqual(['/*', '/admin/*', ...own.map((r) => r.path)]);
      const chosen = paths.slice(6);
      // Room for 94 pages: /, the 20 top-level ones, and 73 of the blog's (by name: they tie on depth and preloads).
      expect(chosen).toContain('/');
      expect(chosen.filter((p) => /^\/[a-t]\/$/.test(p))).toHaveLength(20);
      expect(chosen.filter((p) => p.startsWith('/blog/'))).toHaveLength(73);
      expect(made).toMatchObject({ pagesLeft: 56, ownLeft: 0, userRules: 2, truncated: [] });
      // Cloudflare redirects /blog/post-0.html to /blog/post-0 and applies the rules written for that URL.
      expect(chosen).toContain('/blog/post-0');
      expect(chosen.some((p) => p.endsWith('.html'))).toBe(false);
    },
  );

  test(
    "a long Link is spread over `Link:` lines of at most 2,000 characters, which Netlify's parser joins back " +
      'into the same value',
    async () => {
      const made = cloudflareHeaders(own, pages, user);
      const lines = made.text.split('\n');
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(CLOUDFLARE_MAX_LINE);
      const home = lines.indexOf('/');
      expect(lines.slice(home + 1).findIndex((l) => !l.startsWith('  Link: '))).toBeGreaterThan(3);
      const parsed = await netlifyParse(made.text);
      expect(parsed.find((r) => r.for === '/')?.values.Link).toBe(link(120));
      expect(parsed.find((r) => r.for === '/*')?.values).toEqual({ 'X-Frame-Options': 'DENY' });
    },
  );

  test('an entry no line can hold is dropped and counted; the others keep their order', () => {
    const huge = `</${'h'.repeat(CLOUDFLARE_MAX_LINE)}.css>; rel=preload; as=style`;
    const value = [link(1, 'p'), huge, link(1, 'q')].join(', ');
    expect(splitLinkValue(value)).toEqual({ values: [`${link(1, 'p')}, ${link(1, 'q')}`], dropped: 1 });
    const made = cloudflareHeaders([], [{ path: '/x.html', headers: [['Link', value]] }]);
    expect(made.truncated).toEqual([{ page: '/x.html', dropped: 1 }]);
  });

  test(
    'a page whose path Cloudflare would read as a pattern (`*`, `:name`) gets no rule: it would give its ' +
      'preloads to other URLs',
    () => {
      // Cloudflare's rules engine (pages-shared generateRulesMatcher) turns `*` into `(?<splat>.*)` and `:Contents`
      // into `(?<Contents>[^/]+)`: /wiki/Help:Contents would match /wiki/Help_desk, and there is no escape.
      const wiki = ['/wiki/Help:Contents.html', '/wiki/Help_desk.html', '/x*y.html', '/10:30.html'].map((p) => ({
        path: p,
        headers: [['Link', link(1)]] as Array<[string, string]>,
      }));
      const made = cloudflareHeaders(own, wiki);
      const paths = made.text
        .split('\n')
        .filter((l) => l.startsWith('/'))
        .slice(own.length);
      // A colon before a digit is no placeholder.
      expect(paths).toEqual(['/wiki/Help_desk', '/10:30']);
      // Left for their paths, not for want of room: the summary and the report claim no cut by the 100-rule limit.
      expect(made).toMatchObject({ pageRules: 2, pagesLeft: 2, cut: 0 });
      expect(linkRulesText({ pages: made.pageRules, of: wiki.length, cut: made.cut })).toBe('2 of 4 pages');
    },
  );

  test(
    "the user's rules leave objpack's no room: its own rules are cut, no page gets one, and the warning names " +
      "the user's rule that takes the room",
    () => {
      const many = Array.from({ length: 98 }, (_, i) => `/u${i}\n  X-A: 1\n`).join('');
      const made = cloudflareHeaders(own, pages, many);
      expect(cloudflareLines(made.text).rules).toHaveLength(CLOUDFLARE_MAX_RULES);
      expect(made).toMatchObject({ ownLeft: 2, pagesLeft: pages.length, userRules: 98 });
      // The 97th user rule is the first that objpack's 4 would have needed; it is on line 193.
      expect(cloudflareProblems(made.text, made, own.length)).toEqual([
        { message: expect.stringContaining("2 of objpack's 4 rules"), line: 193 },
      ]);
      // The order the README gives: the worker's rule goes first, then the route table's, then page packages'.
      const kept = (n: number) =>
        cloudflareHeaders(own, [], Array.from({ length: n }, (_, i) => `/u${i}\n  X-A: 1\n`).join(''))
          .text.split('\n')
          .filter((l) => l.startsWith('/_objpack') || l.startsWith('/objpack'));
      expect([97, 98, 99].map(kept)).toEqual(
        [own.slice(0, 3), own.slice(0, 2), own.slice(0, 1)].map((o) => o.map((r) => r.path)),
      );
    },
  );
});

describe("the default _headers on Cloudflare Pages' limits", () => {
  test(
    'over 100 rules or a Link line over 2,000 characters: one warning telling to pass --target cloudflare; ' +
      'within them, none',
    () => {
      const text = netlifyHeaders([...own, ...pages], user);
      const problems = cloudflareProblems(text);
      expect(problems).toHaveLength(1);
      expect(problems[0]!.line).toBeUndefined();
      expect(problems[0]!.message).toMatch(
        /156 rules \(154 of them objpack's\).*1 Link line longer.*--target cloudflare/,
      );
      expect(cloudflareProblems(netlifyHeaders([...own, ...pages.slice(0, 50)], user))).toEqual([]);
    },
  );

  test("the user's own lines past the limits are named by line: --target cloudflare cannot help with those", () => {
    const many =
      `/long\n  X-A: ` +
      `${'v'.repeat(CLOUDFLARE_MAX_LINE)}\n${Array.from({ length: 101 }, (_, i) => `/u${i}\n  X-A: 1\n`).join('')}`;
    const problems = cloudflareProblems(netlifyHeaders(own, many));
    expect(problems).toEqual([
      // /long and /u0…/u100; the 101st, /u99, starts line 3 + 2 × 99.
      { message: expect.stringContaining('102 rules of your own'), line: 201 },
      { message: expect.stringContaining('longer than 2000 characters'), line: 2 },
    ]);
  });
});
