import { describe, expect, test } from 'vitest';
import { injectRegister, REGISTER_TAG } from './inject.js';

describe('injectRegister', () => {
  test('goes at the end of <head>, ignoring a </head> inside comments and scripts', () => {
    const html = '<!doctype html><html><head><!-- </head> --><script>"</head>"</script><title>x</title></head><body></body></html>';
    const out = injectRegister(html)!;
    expect(out).toBe(html.replace('</head><body>', `${REGISTER_TAG}</head><body>`));
  });
  test('implicit head: before the first body content', () => {
    expect(injectRegister('<title>x</title><p>hi</p>')).toBe(`<title>x</title>${REGISTER_TAG}<p>hi</p>`);
  });
  test('a fragment with no markup gets the tag at the end', () => {
    expect(injectRegister('hello')).toBe(`hello${REGISTER_TAG}`);
  });
  test('never twice: a page that already loads the script is left alone', () => {
    const once = injectRegister('<html><head></head><body></body></html>')!;
    expect(injectRegister(once)).toBeUndefined();
    expect(injectRegister('<html><body><script src="/objpack-register.js"></script></body></html>')).toBeUndefined();
  });
  test('malformed HTML still gets exactly one tag', () => {
    const out = injectRegister('<html><head><title>x</head><body><div><p>unclosed')!;
    expect(out.split(REGISTER_TAG)).toHaveLength(2);
  });
});
