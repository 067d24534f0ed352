import { parse } from 'parse5';
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { describe, expect, test } from 'vitest';
import { htmlContentType } from '../discover/html-charset.js';
import { finalHtml, injectRegister, REGISTER_TAG, registerTag } from './inject.js';

describe('injectRegister', () => {
  test('goes at the end of <head>, ignoring a </head> inside comments and scripts', () => {
    const html =
      '<!doctype html><html><head><!-- </head> ' +
      '--><script>"</head>"</script><title>x</title></head><body></body></html>';
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
  test("a rebuild brings an earlier version's tag up to date, in place; the site's own tag stays", () => {
    const earlier = '<html><head><title>t</title><script src="/objpack-register.js" defer></script></head></html>';
    const old = '<script src="/objpack-register.js" defer></script>';
    expect(injectRegister(earlier)).toBe(earlier.replace(old, REGISTER_TAG));
    expect(injectRegister(injectRegister(earlier)!)).toBeUndefined();
    const base = '<head><script src="/a$&amp;b/objpack-register.js" defer></script></head>';
    expect(injectRegister(base, '/a$&b/')).toBe(`<head>${registerTag('/a$&b/')}</head>`);
    const own = '<head><script src="/objpack-register.js" async></script></head>';
    expect(injectRegister(own)).toBeUndefined();
  });
  test('a <template> in the head is inert content, never the place; foreign content opens the body', () => {
    const head =
      '<!doctype html><html><head><template><div>x</div><p>y</p></template><meta name=a></head><body></body></html>';
    expect(injectRegister(head)).toBe(head.replace('</head>', `${REGISTER_TAG}</head>`));
    expect(injectRegister('<title>x</title><svg><a href="#"><title>t</title></a></svg>')).toBe(
      `<title>x</title>${REGISTER_TAG}<svg><a href="#"><title>t</title></a></svg>`,
    );
    expect(injectRegister('<meta charset=utf-8><my-app></my-app>')).toBe(
      `<meta charset=utf-8>${REGISTER_TAG}<my-app></my-app>`,
    );
    // A self-closing <script/> still opens a script's text, as in the tree builder.
    const selfClosed = '<head><script src=a.js /> </head> "</script></head><body>';
    expect(injectRegister(selfClosed)).toBe(selfClosed.replace('</head><body>', `${REGISTER_TAG}</head><body>`));
  });

  test(
    'wherever it goes, the browser parses one running script element in the head or body (parse5 tree builder ' +
      'as oracle)',
    () => {
      const pages = [
        '<!doctype html><html><head><title>a</title></head><body><p>x</p></body></html>',
        '<head><template><div>x</div></template><template><template><p></p></template></template></head><p>b',
        '<title>x</title><svg><a><title>t</title></a><foreignObject><div>z</div></foreignObject></svg>',
        '<math><mi>x</mi></math>',
        '<noscript></head><div></noscript><style>p{}/*</head>*/</style>' +
          '<script>document.write("</head>")</script></head>',
        '<!-- </head> --><head><title></head></title><textarea></head></textarea><p>',
        'text before any tag <b>bold</b>',
        '<html><frameset><frame src=a.html></frameset></html>',
        '<plaintext></head><body>',
        '<head><base href=/x/><link rel=stylesheet href=a.css><basefont><bgsound><noframes></head></noframes></head>',
        '<body><template><head></head></template></body>',
        '',
        // Foreign content inside a template: its <style>/<script> is not raw text, so `</template>` there ends the
        // template.
        '<head><template><svg><style></template><div></div><template></style><p>',
        '<head><template><svg><script></template><p>x</p></svg></template></head><body>y</body>',
        // Pages that end inside a comment, a tag, a raw text element or a template.
        '<!doctype html><title>x</title><!-- unclosed',
        '<!doctype html><title>x</title><meta content="abc',
        '<!doctype html><title>unclosed',
        '<!doctype html><script>unclosed',
        '<html><head><template><p>unclosed</head><body><p>x</p></body></html>',
        '<!doctype html><head><template><plaintext></template></head><body>',
      ];
      const scripts = (node: T.ParentNode, inside: string[], out: Array<{ path: string[]; ns: string }>) => {
        for (const child of node.childNodes) {
          if (!('tagName' in child)) continue;
          const path = [...inside, child.tagName];
          if (
            child.tagName === 'script' &&
            child.attrs.some((a) => a.name === 'src' && a.value === '/objpack-register.js')
          )
            out.push({ path, ns: child.namespaceURI });
          scripts(child, path, out);
          if (child.tagName === 'template') scripts((child as T.Template).content, [...path, '#content'], out);
        }
        return out;
      };
      for (const page of pages) {
        const found = scripts(parse(injectRegister(page)!), [], []);
        expect(found, page).toHaveLength(1);
        expect(found[0]!.ns, page).toBe('http://www.w3.org/1999/xhtml');
        expect(found[0]!.path.slice(0, 2), page).toSatisfy(
          (p: string[]) => p[0] === 'html' && (p[1] === 'head' || p[1] === 'body'),
        );
        expect(found[0]!.path, page).not.toContain('#content');
      }
    },
  );

  test('malformed HTML still gets exactly one tag', () => {
    const out = injectRegister('<html><head><title>x</head><body><div><p>unclosed')!;
    expect(out.split(REGISTER_TAG)).toHaveLength(2);
  });
});

describe('finalHtml: pages in other encodings keep their bytes and their encoding', () => {
  const win1252 = Buffer.concat([
    Buffer.from('<!doctype html><html><head><meta charset="windows-1252"><title>Caf'),
    Buffer.from([0xe9]),
    Buffer.from('</title></head><body>na'),
    Buffer.from([0xef]),
    Buffer.from('ve</body></html>'),
  ]);

  test('a windows-1252 page gets the tag with every other byte unchanged, served as plain text/html', () => {
    const f = finalHtml(win1252, true);
    expect(f.changed).toBe(true);
    const at = win1252.indexOf('</head>');
    expect(
      f.body.equals(Buffer.concat([win1252.subarray(0, at), Buffer.from(REGISTER_TAG), win1252.subarray(at)])),
    ).toBe(true);
    expect(f.contentType).toBe('text/html');
  });

  test('UTF-8 pages, declared or not, are labelled UTF-8; a UTF-8 page declaring another charset is not', () => {
    expect(finalHtml(Buffer.from('<p>café</p>'), true).contentType).toBe('text/html; charset=utf-8');
    expect(finalHtml(Buffer.from('<meta charset=UTF-8><p>café</p>'), false).contentType).toBe(
      'text/html; charset=utf-8',
    );
    expect(
      finalHtml(
        Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>plain</p>'),
        false,
      ).contentType,
    ).toBe('text/html');
  });

  test('a non-UTF-8 page with no declaration is not labelled (the browser guesses as it would without objpack)', () => {
    expect(htmlContentType(Buffer.from([0x3c, 0x70, 0x3e, 0xe9]))).toBe('text/html');
  });

  test('UTF-16 pages are left as they are', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html><head></head></html>', 'utf16le')]);
    const f = finalHtml(utf16, true);
    expect(f.changed).toBe(false);
    expect(f.body.equals(utf16)).toBe(true);
    expect(f.contentType).toBe('text/html');
  });
});
