import { describe, expect, it } from 'vitest';
import { literalPath, RuleIndex } from './rule-index.js';

describe('literalPath', () => {
  it('reads the one path a pattern names, behind anchors, guards and groups', () => {
    const cases: Array<[RegExp, string | undefined]> = [
      [/^\/old$/, '/old'],
      [/^\/about\.html\/?$/iu, '/about.html'],
      [/^\/guide\/$/, '/guide/'],
      [/^(?!(?:^\/keep$))(?:^\/a\.html$)/i, '/a.html'],
      [/(?:^\/a(?:\/)?$)/, '/a'],
      [/^\/caf%C3%A9$/, '/caf%C3%A9'],
      [/^\/café$/u, '/café'],
      [/^\/$/, '/'],
    ];
    for (const [re, want] of cases) expect(literalPath(re), re.source).toBe(want);
  });

  it('reads nothing from wildcards, alternatives, unanchored or stateful patterns', () => {
    for (const re of [/^\/a.*$/, /^\/a$|^\/b$/, /\/a$/, /^\/a/, /^\/a\d$/, /^\/a\\$/, /^\/a(?<!b)$/, /^\/[ab]$/, /^a$/, /^\/a$/m, /^\/a$/g, /^\/a$/y, /^\/a\$/]) {
      expect(literalPath(re), re.source).toBeUndefined();
    }
  });
});

describe('RuleIndex', () => {
  const rules = [/^\/?(.*)\/?$/iu, /^\/about\.html\/?$/iu, /^\/docs\/[^/]+$/, /^\/About\.html$/, /^\/guide\/$/, /^\/secret$/iu].map((re) => ({ re }));
  const index = new RuleIndex(rules);

  it('gives every rule that may take a URL, patterns and literals alike, in rule order', () => {
    expect(index.patterns).toEqual([0, 2]);
    expect(index.candidates(['/about.html'])).toEqual([0, 1, 2, 3]);
    expect(index.candidates(['/nowhere'])).toEqual([0, 2]);
    expect(index.literals(['/guide', '/guide/', '/GUIDE//'])).toEqual([4]);
    expect(index.literals(['/about.html', '/ABOUT.HTML'])).toEqual([1, 3]);
  });

  it('never leaves out a rule that takes the URL (case folding included)', () => {
    const urls = ['/', '/about.html', '/ABOUT.HTML', '/about.html/', '/About.html', '/guide/', '/guide', '/docs/x', '/secret', '/SECRET/', '/\u017Fecret', '/x'];
    for (const u of urls) {
      const taking = rules.flatMap((r, i) => (r.re.test(u) ? [i] : []));
      const candidates = index.candidates([u]);
      expect(taking.filter((i) => !candidates.includes(i)), u).toEqual([]);
    }
    // `ſ` is `s` to a case-insensitive unicode RegExp: the lookup finds the rule too.
    expect(rules[5]!.re.test('/\u017Fecret')).toBe(true);
    expect(index.literals(['/\u017Fecret'])).toEqual([5]);
  });
});
