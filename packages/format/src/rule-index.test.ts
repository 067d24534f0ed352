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
      // @netlify/headers-parser writes `-` as `\x2d`.
      [/^\/about\x2dus\/?$/iu, '/about-us'],
      [/^\/a\u002db$/, '/a-b'],
      [/^\/a\u{2d}b$/u, '/a-b'],
    ];
    for (const [re, want] of cases) expect(literalPath(re), re.source).toBe(want);
  });

  it('reads nothing from wildcards, alternatives, unanchored or stateful patterns', () => {
    for (const re of [
      /^\/a.*$/,
      /^\/a$|^\/b$/,
      /\/a$/,
      /^\/a/,
      /^\/a\d$/,
      /^\/a\\$/,
      /^\/a(?<!b)$/,
      /^\/[ab]$/,
      /^a$/,
      /^\/a$/m,
      /^\/a$/g,
      /^\/a$/y,
      /^\/a\$/,
      new RegExp('^/a\\x4$'),
      new RegExp('^/a\\u{2d}$'),
    ]) {
      expect(literalPath(re), re.source).toBeUndefined();
    }
  });
});

describe('RuleIndex', () => {
  const rules = [
    /^\/?(.*)\/?$/iu,
    /^\/about\.html\/?$/iu,
    /^\/docs\/[^/]+$/,
    /^\/About\.html$/,
    /^\/guide\/$/,
    /^\/secret$/iu,
  ].map((re) => ({ re }));
  const index = new RuleIndex(rules);

  it('gives every rule that may take a URL, patterns and literals alike, in rule order', () => {
    expect(index.patterns).toEqual([0, 2]);
    expect(index.candidates(['/about.html'])).toEqual([0, 1, 2, 3]);
    expect(index.candidates(['/nowhere'])).toEqual([0, 2]);
    expect(index.literals(['/guide', '/guide/', '/GUIDE//'])).toEqual([4]);
    expect(index.literals(['/about.html', '/ABOUT.HTML'])).toEqual([1, 3]);
  });

  it('never leaves out a rule that takes the URL (case folding included)', () => {
    const urls = [
      '/',
      '/about.html',
      '/ABOUT.HTML',
      '/about.html/',
      '/About.html',
      '/guide/',
      '/guide',
      '/docs/x',
      '/secret',
      '/SECRET/',
      '/\u017Fecret',
      '/x',
    ];
    for (const u of urls) {
      const taking = rules.flatMap((r, i) => (r.re.test(u) ? [i] : []));
      const candidates = index.candidates([u]);
      expect(
        taking.filter((i) => !candidates.includes(i)),
        u,
      ).toEqual([]);
    }
    // `ſ` is `s` to a case-insensitive unicode RegExp: the lookup finds the rule too.
    expect(rules[5]!.re.test('/\u017Fecret')).toBe(true);
    expect(index.literals(['/\u017Fecret'])).toEqual([5]);
  });

  it(
    'folds case as a case-insensitive RegExp does for every character with a case mapping, and slashes as ' +
      'minimatch does',
    () => {
      const cased: string[] = [];
      for (let c = 0x41; c <= 0x1ffff; c++) {
        const ch = String.fromCodePoint(c);
        if (ch.toLowerCase() !== ch || ch.toUpperCase() !== ch) cased.push(ch);
      }
      // Every character each one matches case-insensitively (one native scan per pattern), and whether the lookup finds
      // it.
      const text = cased.join(' ');
      const at = new Map<number, string>();
      let offset = 0;
      for (const ch of cased) {
        at.set(offset, ch);
        offset += ch.length + 1;
      }
      const misses: string[] = [];
      for (const ch of cased) {
        for (const flags of ['i', 'iu']) {
          const index = new RuleIndex([{ re: new RegExp(`^/a${ch}$`, flags) }]);
          for (const m of text.matchAll(new RegExp(ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), `g${flags}`))) {
            const other = at.get(m.index);
            if (other !== undefined && index.literals([`/a${other}`]).length === 0)
              misses.push(`${ch}~${other} /${flags}`);
          }
        }
      }
      expect(misses).toEqual([]);
      expect(new RuleIndex([{ re: /^\/docs\/a\.html$/ }]).literals(['//docs//a.html'])).toEqual([0]);
    },
  );
});
