import { describe, expect, it } from 'vitest';
import { refreshTo } from './refresh.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('refreshTo', () => {
  it('names the page without its fragment (a bare refresh on /a#x is a same-document jump)', () => {
    expect(text(refreshTo(new URL('https://x.test/guide/?q=1#part')))).toBe(
      '<!doctype html><meta http-equiv="refresh" content="0; url=/guide/?q=1">',
    );
  });

  it('escapes what would end or change the attribute', () => {
    const html = text(refreshTo(new URL('https://x.test/a?x=1&y="2"<b>')));
    expect(html).toContain('url=/a?x=1&#38;y=%222%22%3Cb%3E"');
    expect(html.match(/"/g)).toHaveLength(4);
  });
});
