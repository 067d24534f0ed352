import { describe, expect, it } from 'vitest';
import { isHeaderName, isHeaderValue } from './header-field.js';

describe('header fields', () => {
  it('names are lower-case tokens; values printable ASCII or tab', () => {
    expect(isHeaderName('content-security-policy')).toBe(true);
    for (const bad of ['Content-Type', 'a b', 'a:b', '', 'é', 1]) expect(isHeaderName(bad), String(bad)).toBe(false);
    expect(isHeaderValue("default-src 'self'\tx")).toBe(true);
    for (const bad of ['a\r\nb', 'a\nb', 'nul\0', 'café', undefined]) expect(isHeaderValue(bad), String(bad)).toBe(false);
  });
});
