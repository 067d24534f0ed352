import { describe, expect, test } from 'vitest';
import { localesToBuild, outputRoot } from './locales.js';

const argv = (...args: string[]) => [
  'node',
  '/site/node_modules/@docusaurus/core/bin/docusaurus.mjs',
  'build',
  ...args,
];

describe('the locales docusaurus build builds, in order', () => {
  test('every configured one without --locale, the default first', () => {
    expect(localesToBuild(argv(), ['fr', 'en', 'de'], 'en')).toEqual(['en', 'fr', 'de']);
  });
  test('those given with -l/--locale, variadic, repeated or inline', () => {
    expect(localesToBuild(argv('--locale', 'fr'), ['en', 'fr'], 'en')).toEqual(['fr']);
    expect(localesToBuild(argv('-l', 'fr', 'en', '--out-dir', 'x'), ['en', 'fr', 'de'], 'en')).toEqual(['en', 'fr']);
    expect(localesToBuild(argv('--locale=de', '--locale', 'fr'), ['en', 'fr', 'de'], 'en')).toEqual(['de', 'fr']);
  });
});

describe("a locale's output folder back to the whole output", () => {
  test.each([
    ['/site/build/fr', '/fr/', '/', '/site/build'],
    ['/site/build/fr/', '/fr/', '/', '/site/build'],
    ['/site/build/', '/', '/', '/site/build'],
    ['/site/build', '/', '/', '/site/build'],
    ['/site/build/fr', '/docs/fr/', '/docs/', '/site/build'],
    ['/site/build', '/docs/', '/docs/', '/site/build'],
    ['/site/build', '/elsewhere/', '/docs/', '/site/build'],
  ])('%s at %s (site at %s)', (outDir, localeBase, siteBase, root) => {
    expect(outputRoot(outDir, localeBase, siteBase)).toBe(root);
  });
});
