import { describe, expect, it } from 'vitest';
import { preloadLink } from './site-manifest.js';

describe('preloadLink', () => {
  it('announces kinds with the request mode the page uses', () => {
    expect(preloadLink('/a.css', 'style')).toBe('</a.css>; rel=preload; as=style');
    expect(preloadLink('/f.woff2', 'font')).toBe('</f.woff2>; rel=preload; as=font; crossorigin');
    expect(preloadLink('/a.js', 'script', 'anonymous')).toBe('</a.js>; rel=preload; as=script; crossorigin');
    expect(preloadLink('/a.css', 'style', 'use-credentials')).toBe(
      '</a.css>; rel=preload; as=style; crossorigin=use-credentials',
    );
    expect(preloadLink('/a.css', 'style', 'bogus')).toBe('</a.css>; rel=preload; as=style');
  });

  it('percent-encodes non-ASCII and control characters instead of dropping or passing them', () => {
    expect(preloadLink('/café.css', 'style')).toBe('</caf%C3%A9.css>; rel=preload; as=style');
    const l = preloadLink('/a\r\nSet-Cookie: x.css', 'style');
    expect(l).not.toMatch(/[\r\n]/);
  });

  it('refuses other origins, unknown kinds and media', () => {
    expect(preloadLink('//evil.example/a.css', 'style')).toBeNull();
    expect(preloadLink('a.css', 'style')).toBeNull();
    expect(preloadLink('/a.css', 'style; rel=x')).toBeNull();
    expect(preloadLink('/v.mp4', 'video')).toBeNull();
    expect(preloadLink('/\ud800.css', 'style')).toBeNull();
  });
});
