import { describe, expect, it } from 'vitest';
import { encodePackageSync } from './encoder.js';
import { isCarriedHeader, isHeaderName, isHeaderValue, NOT_CARRIED_HEADERS } from './header-field.js';
import { FORBIDDEN_HEADERS } from './validate.js';

describe('header fields', () => {
  it('names are lower-case tokens; values printable ASCII or tab', () => {
    expect(isHeaderName('content-security-policy')).toBe(true);
    for (const bad of ['Content-Type', 'a b', 'a:b', '', 'é', 1]) expect(isHeaderName(bad), String(bad)).toBe(false);
    expect(isHeaderValue("default-src 'self'\tx")).toBe(true);
    for (const bad of ['a\r\nb', 'a\nb', 'nul\0', 'café', undefined])
      expect(isHeaderValue(bad), String(bad)).toBe(false);
  });

  it('a carried header is one every consumer accepts: the encoder, HTTP/2, a service worker', () => {
    // Whatever the encoder refuses, the build must already have left out (else a `_headers` line fails the build).
    for (const name of FORBIDDEN_HEADERS) expect(NOT_CARRIED_HEADERS.has(name), name).toBe(true);
    // Connection-specific headers make an HTTP/2 response throw (RFC 9113 §8.2.2).
    for (const name of [
      'connection',
      'keep-alive',
      'proxy-connection',
      'transfer-encoding',
      'upgrade',
      'te',
      'http2-settings',
      'host',
    ]) {
      expect(isCarriedHeader(name, 'x'), name).toBe(false);
    }
    expect(isCarriedHeader('x-objpack-build', 'forged')).toBe(false);
    expect(isCarriedHeader('content-security-policy', "default-src 'self'")).toBe(true);
    expect(isCarriedHeader('content-security-policy', 'a\r\nset-cookie: x')).toBe(false);
    // And what is carried encodes.
    const headers: Array<[string, string]> = [
      ['content-security-policy', "default-src 'self'"],
      ['cross-origin-opener-policy', 'same-origin'],
    ];
    expect(headers.every(([n, v]) => isCarriedHeader(n, v))).toBe(true);
    expect(() =>
      encodePackageSync({
        buildId: 'b',
        objects: [{ name: '/', contentType: 'text/html', headers, body: new Uint8Array(1) }],
      }),
    ).not.toThrow();
  });
});
