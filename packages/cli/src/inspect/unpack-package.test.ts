import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../errors.js';
import { safeTarget } from './unpack-package.js';

describe('safeTarget', () => {
  test('maps names inside the directory', () => {
    expect(safeTarget('/out', '/a/b.css?v=3')).toBe('/out/a/b.css');
    expect(safeTarget('/out', '/guide/')).toBe('/out/guide/index.html');
    expect(safeTarget('/out', '/caf%C3%A9.png')).toBe('/out/café.png');
  });
  test.each([
    '/../etc/passwd',
    '/a/../../b',
    '/%2e%2e/x',
    '/a%2Fb',
    '/a%5Cb',
    '//x',
    '/C:/win',
    'rel',
    '/a/%00',
    '/%zz',
  ])('refuses %s', (name) => {
    expect(() => safeTarget('/out', name)).toThrow(expect.objectContaining({ code: ErrorCode.UNSAFE_PATH }));
  });
});
