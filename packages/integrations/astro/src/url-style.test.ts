import { describe, expect, test } from 'vitest';
import { urlStyle } from './url-style.js';

describe("Astro's URL settings as objpack's", () => {
  test.each([
    ['directory', 'never', { bareDirUrls: true }],
    ['directory', 'always', { bareDirUrls: false }],
    ['directory', 'ignore', {}],
    ['file', 'never', { cleanUrls: true }],
    ['file', 'ignore', {}],
    ['preserve', 'never', {}],
  ] as const)('build.format %s, trailingSlash %s', (format, trailingSlash, expected) => {
    expect(urlStyle({ build: { format }, trailingSlash })).toEqual(expected);
  });
});
