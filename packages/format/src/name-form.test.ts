import { describe, expect, it } from 'vitest';
import { canonicalPath, nameFormPath } from './name-form.js';

describe('nameFormPath', () => {
  it("escapes '|' and '^' as Chromium does and leaves every other path as it is", () => {
    expect(nameFormPath(new URL('http://x/a|b^c.png').pathname)).toBe('/a%7Cb%5Ec.png');
    expect(nameFormPath('/a%7Cb%5Ec.png')).toBe('/a%7Cb%5Ec.png');
    expect(nameFormPath('/[slug].html')).toBe('/[slug].html');
    expect(nameFormPath("/a!$&'()*+,;=:@~_-.b/c%C3%A9%20d%22.css")).toBe("/a!$&'()*+,;=:@~_-.b/c%C3%A9%20d%22.css");
    // Other escapes as the page wrote them: the browser requests them so, and a preload must name that URL.
    expect(nameFormPath('/%5Bx%5D-1.js')).toBe('/%5Bx%5D-1.js');
    expect(nameFormPath('/caf%c3%a9.css')).toBe('/caf%c3%a9.css');
  });
});

describe('canonicalPath', () => {
  it('gives every spelling of a path one name: upper-case hex, escapes of what Chromium keeps literal decoded', () => {
    expect(canonicalPath('/caf%c3%a9.css')).toBe('/caf%C3%A9.css');
    expect(canonicalPath('/caf%C3%a9.css')).toBe('/caf%C3%A9.css');
    expect(canonicalPath('/%5Bslug%5D.html')).toBe('/[slug].html');
    expect(canonicalPath('/%5bslug%5d/')).toBe('/[slug]/');
    expect(canonicalPath('/a%2Db.css')).toBe('/a-b.css');
    expect(canonicalPath('/a%7Eb%7ec.css')).toBe('/a~b~c.css');
    expect(canonicalPath('/%41%7a%30%5F.js')).toBe('/Az0_.js');
    expect(canonicalPath('/%21%24%26%27%28%29%2A%2B%2C%3B%3D%3A%40')).toBe("/!$&'()*+,;=:@");
    expect(canonicalPath('/a%7cb%5e%7b%7d%60%3c%3e%22%20%7f%00.png')).toBe('/a%7Cb%5E%7B%7D%60%3C%3E%22%20%7F%00.png');
    // A page's key is what the worker looks a request for it up by, whichever spelling the link used.
    for (const p of ['/caf%c3%a9.css', '/caf%C3%A9.css', '/%5Bslug%5D.html', '/a%2Db.css'])
      expect(canonicalPath(canonicalPath(p))).toBe(canonicalPath(p));
  });

  it("never conflates an escaped '/' '\\' '?' '#' '%' with the character, nor decodes a malformed escape", () => {
    expect(canonicalPath('/a%2fb')).toBe('/a%2Fb');
    expect(canonicalPath('/a%2Fb')).not.toBe(canonicalPath('/a/b'));
    expect(canonicalPath('/a%5cb')).toBe('/a%5Cb');
    expect(canonicalPath('/a%3fb')).toBe('/a%3Fb');
    expect(canonicalPath('/a%23b')).toBe('/a%23b');
    expect(canonicalPath('/a%25b')).toBe('/a%25b');
    // `%252D` is an escaped `%` then `2D`, not `%2D`: decoded once, never twice.
    expect(canonicalPath('/a%252Db')).toBe('/a%252Db');
    expect(canonicalPath('/a%zz%c%')).toBe('/a%zz%c%');
    expect(canonicalPath('/a%c3b')).toBe('/a%C3b');
  });

  it("never makes a '.' or '..' segment out of escapes (a path that would climb)", () => {
    expect(canonicalPath('/a/%2e%2e/b')).toBe('/a/%2E%2E/b');
    expect(canonicalPath('/a/%2E%2E/b')).toBe('/a/%2E%2E/b');
    expect(canonicalPath('/a/.%2e/b')).toBe('/a/.%2E/b');
    expect(canonicalPath('/a/%2e./b')).toBe('/a/%2E./b');
    expect(canonicalPath('/a/%2e/b')).toBe('/a/%2E/b');
    expect(canonicalPath('/%2e%2e')).toBe('/%2E%2E');
    for (const p of ['/a/%2e%2e/b', '/a/.%2e/b', '/%2e%2E/', '/x/%2E'])
      expect(canonicalPath(p).split('/')).not.toContain('..');
    // Dots in a longer segment are only a name.
    expect(canonicalPath('/a/%2e%2e%2e/b%2E.css')).toBe('/a/.../b..css');
    expect(canonicalPath('/%2ehidden')).toBe('/.hidden');
  });
});
