import path from 'node:path';
import { literalPath } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { cleanUrlOf } from '../discover/site-origin.js';
import { firebaseRedirects, netlifyFrom, vercelRedirects } from '../test-utils/host-rules.js';
import { makeSite } from '../test-utils/site.js';
import { applyRedirects } from './apply-redirects.js';
import type { RedirectRule } from './host.js';

describe('applyRedirects', () => {
  const rule = (src: string, flags = 'i'): RedirectRule => {
    const re = new RegExp(src, flags);
    return { file: 'x', for: src, re, test: (u) => re.test(u) };
  };

  it('names pages by the URL the site links them with, keeps only rules that take a URL the worker answers', () => {
    const rules = [
      rule('^/guide/index\\.html$'),
      rule('^/about$'),
      rule('^/nowhere$'),
      rule('^/caf\u00e9\\.html$', 'u'),
    ];
    const clean = applyRedirects(['/', '/guide/', '/about.html', '/caf%C3%A9.html'], rules, { cleanUrls: true });
    expect(clean.redirected.map((p) => [p.url, p.rule.for])).toEqual([['/about', '^/about$']]);
    expect(clean.rules.map((r) => r.for)).toEqual(['^/guide/index\\.html$', '^/about$', '^/caf\u00e9\\.html$']);
    const plain = applyRedirects(['/', '/guide/', '/about.html', '/caf%C3%A9.html'], rules, { cleanUrls: false });
    expect(plain.redirected.map((p) => p.url)).toEqual(['/caf%C3%A9.html']);
    expect(plain.rules.map((r) => r.for)).toEqual(['^/guide/index\\.html$', '^/caf\u00e9\\.html$']);
  });

  it(
    'with bare directory URLs a directory page is named by /guide: redirected only when a rule takes that, and ' +
      'rules taking it stay',
    async () => {
      const { rules } = await vercelRedirects(
        { trailingSlash: false, redirects: [{ source: '/moved', destination: '/' }] },
        'vercel.json',
      );
      const urls = ['/', '/guide/', '/moved/', '/about.html'];
      const bare = applyRedirects(urls, rules, { cleanUrls: false, bareDirUrls: true });
      expect(bare.redirected.map((p) => [p.url, p.rule.for])).toEqual([['/moved', '^/moved$']]);
      expect(bare.rules.map((r) => r.for).sort()).toEqual(['^/(.*)/$', '^/moved$']);
      // Without it the directory page is taken at /guide/ (the host sends that to /guide).
      expect(applyRedirects(urls, rules, { cleanUrls: false }).redirected.map((p) => p.url)).toEqual([
        '/guide/',
        '/moved/',
      ]);
    },
  );

  it('a clean-only rule (Netlify, unforced) takes a page at its clean URL only; a rule for another host none', () => {
    const unforced = { ...rule('^/about/?$'), cleanOnly: true };
    expect(applyRedirects(['/about.html'], [unforced], { cleanUrls: true }).redirected.map((p) => p.url)).toEqual([
      '/about',
    ]);
    expect(applyRedirects(['/about.html'], [unforced], { cleanUrls: false })).toEqual({ redirected: [], rules: [] });
    expect(applyRedirects(['/about/'], [{ ...rule('^/about/?$'), cleanOnly: true }], { cleanUrls: true })).toEqual({
      redirected: [],
      rules: [],
    });
    const domain = { ...rule('^/about\\.html$'), host: 'old.example' };
    expect(applyRedirects(['/about.html'], [domain], { cleanUrls: false }, 'new.example').rules).toEqual([]);
    expect(applyRedirects(['/about.html'], [domain], { cleanUrls: false }, 'OLD.example').rules).toEqual([domain]);
    expect(applyRedirects(['/about.html'], [domain], { cleanUrls: false }).rules).toEqual([domain]);
  });

  it(
    'past 4M page × pattern-rule tests every pattern rule is kept rather than checked; rules naming one path ' +
      'are always looked up',
    () => {
      const urls = Array.from({ length: 40_001 }, (_, i) => `/p${i}.html`);
      const patterns = Array.from({ length: 100 }, (_, i) => rule(`^/none${i}/.*$`));
      expect(applyRedirects(urls, patterns, { cleanUrls: false }).rules).toHaveLength(100);
      expect(applyRedirects(urls.slice(0, 100), patterns, { cleanUrls: false }).rules).toHaveLength(0);
      // 50,000 redirects of old URLs: only those naming a page's URL stay, however many pages.
      const old = Array.from({ length: 50_000 }, (_, i) => rule(`^/old${i}\\.html\\/?$`));
      const r = applyRedirects([...urls, '/old7.html', '/OLD42.html'], [...old, rule('^/p1\\.html$')], {
        cleanUrls: false,
      });
      expect(r.rules.map((x) => x.for)).toEqual(['^/old7\\.html\\/?$', '^/old42\\.html\\/?$', '^/p1\\.html$']);
      expect(r.redirected.map((x) => x.url)).toEqual(['/p1.html', '/old7.html', '/OLD42.html']);
    },
  );

  it("finds one-path rules by their path exactly as testing every rule would, in the host's rule order", () => {
    const urls = [
      '/',
      '/a',
      '/a/',
      '/a.html',
      '/guide/',
      '/guide/index.html',
      '/about.html',
      '/caf%C3%A9.html',
      '/Blog/X',
      '/blog/x/',
      '/x/y.html',
    ];
    const rules: RedirectRule[] = [
      ...['/a', '/guide/', '/about', '/blog/x', '/caf\u00e9.html', '/nowhere', '/x/*', '/:p.html', '/blog/*'].map(
        (from) => ({
          file: '_redirects',
          for: from,
          ...netlifyFrom(from),
          test: (u: string) => netlifyFrom(from).re.test(u),
        }),
      ),
      { ...rule('^/a$'), cleanOnly: true },
      rule('^(?!(?:^/skip$))(?:^/a\\.html$)'),
      rule('^/guide/index\\.html$', ''),
    ];
    // The reference: every rule tested against every form of every URL, as before the lookup.
    const reference = (list: RedirectRule[], clean: boolean) => {
      const forms = (u: string) => [...new Set([u, decodeURIComponent(u)])];
      const redirected: Array<[string, string]> = [];
      const used = new Set<RedirectRule>();
      for (const url of urls) {
        const bare = clean ? cleanUrlOf(url) : undefined;
        const seen = forms(bare ?? url);
        const first = list.find((r) => (bare !== undefined || !r.cleanOnly) && seen.some((u) => r.test(u)));
        if (first) redirected.push([bare ?? url, first.for]);
        const files = [...forms(url), ...(url.endsWith('/') ? forms(`${url}index.html`) : [])];
        for (const r of list)
          if ((!r.cleanOnly && files.some((u) => r.test(u))) || (bare !== undefined && seen.some((u) => r.test(u))))
            used.add(r);
      }
      return { redirected, rules: list.filter((r) => used.has(r)).map((r) => r.for) };
    };
    for (const clean of [false, true]) {
      for (const list of [rules, [...rules].reverse()]) {
        const got = applyRedirects(urls, list, { cleanUrls: clean });
        expect({
          redirected: got.redirected.map((x) => [x.url, x.rule.for]),
          rules: got.rules.map((r) => r.for),
        }).toEqual(reference(list, clean));
      }
    }
  });

  it('reads the one path of a rule from its pattern, whatever host wrote it, and nothing from a wildcard', async () => {
    expect(
      ['/old', '/old/', '/Old.html', 'https://a.example/x', '/blog/*', '/:p', '/a*b'].map((f) =>
        literalPath(netlifyFrom(f).re),
      ),
    ).toEqual(['/old', '/old', '/Old.html', '/x', undefined, undefined, undefined]);
    const vercel = await vercelRedirects(
      {
        redirects: [
          { source: '/old', destination: '/new' },
          { source: '/blog/:slug', destination: '/b' },
        ],
      },
      'vercel.json',
    );
    expect(vercel.rules.map((r) => literalPath(r.re))).toEqual(['/old', undefined]);
    const root = await makeSite({});
    const firebase = await firebaseRedirects(
      {
        redirects: [
          { source: '/old.html', destination: '/n' },
          { source: '/docs/**', destination: '/d' },
          { source: '/p/:id', destination: '/q/:id' },
        ],
      },
      path.join(root, 'firebase.json'),
    );
    expect(firebase.rules.map((r) => literalPath(r.re))).toEqual(['/old.html', undefined, undefined]);
    expect(
      ['^/a$|^/b$', '^/a\\\\$', '^/a(?<!b)$', '^/a', '/a$', '^/a\\d$'].map((src) => literalPath(new RegExp(src))),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
