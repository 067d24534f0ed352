import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeSite } from '../test-utils/site.js';
import { readHosts as loadSiteHeaders } from './read-hosts.js';

describe('loadSiteHeaders: clean URLs, and config files read as their hosts read them', () => {
  test(
    'with clean URLs a page also gets the rules written ' + 'for its extensionless path, as the host serves it',
    async () => {
      const root = await makeSite({
        _headers: "/about\n  Content-Security-Policy: default-src 'none'\n/docs/*\n  X-Docs: 1\n",
      });
      expect((await loadSiteHeaders(root)).forPage('/about.html')).toEqual([]);
      const clean = await loadSiteHeaders(root, { cleanUrls: true });
      expect(clean.forPage('/about.html')).toEqual([['content-security-policy', "default-src 'none'"]]);
      expect(clean.forPage('/docs/a.html')).toEqual([['x-docs', '1']]);
      expect(clean.forPage('/about/index.html')).toEqual([]);
      // On by itself from a vercel.json that says so.
      await writeFile(path.join(root, 'vercel.json'), '{"cleanUrls":true}');
      expect((await loadSiteHeaders(root)).forPage('/about.html')).toEqual([
        ['content-security-policy', "default-src 'none'"],
      ]);
      expect((await loadSiteHeaders(root, { cleanUrls: false })).forPage('/about.html')).toEqual([]);
    },
  );

  test(
    'with clean URLs and trailingSlash: true a page gets ' + 'the rules of /about/, where the host serves it',
    async () => {
      const root = await makeSite({
        'vercel.json': JSON.stringify({
          cleanUrls: true,
          trailingSlash: true,
          headers: [{ source: '/about/', headers: [{ key: 'Content-Security-Policy', value: "default-src 'none'" }] }],
        }),
      });
      const h = await loadSiteHeaders(root);
      expect([h.cleanSlashUrls, h.cleanUrls]).toEqual([true, false]);
      expect(h.forPage('/about.html')).toEqual([['content-security-policy', "default-src 'none'"]]);
      expect((await loadSiteHeaders(root, { cleanUrls: false })).forPage('/about.html')).toEqual([]);
    },
  );

  test('a malformed file is a warning, not a failed build', async () => {
    const root = await makeSite({ _headers: '/*\n  : no name\n  X-Ok: yes\n' });
    const h = await loadSiteHeaders(root);
    expect(h.diagnostics.map((d) => d.code)).toContain('OBJPACK_W_HOST_HEADERS');
    await writeFile(path.join(root, '_headers'), '/*\n  X-Ok: yes\n');
    expect((await loadSiteHeaders(root)).forPage('/')).toEqual([['x-ok', 'yes']]);
  });

  test(
    'a firebase.json with comments is read as firebase-tools ' +
      'reads it (cjson); a trailing comma is not, with its line',
    async () => {
      const text = [
        '// the site',
        '{',
        '  "hosting": { /* the built site */',
        '    "public": ".",',
        '    "headers": [{ "source": "/about.html", "headers": [{ "key": "X-Frame-Options", "value": "DENY" }] ' +
          '}], // pages',
        '    "redirects": [{ "source": "/old", "destination": "/new", "type": 301 }]',
        '  }',
        '}',
      ].join('\n');
      const h = await loadSiteHeaders(await makeSite({ 'firebase.json': text }));
      expect([h.forPage('/about.html'), h.redirects.map((r) => [r.for, r.line]), h.diagnostics]).toEqual([
        [['x-frame-options', 'DENY']],
        [['/old', 6]],
        [],
      ]);
      const bad = await loadSiteHeaders(await makeSite({ 'firebase.json': '{\n  "hosting": { "public": "." },\n}' }));
      expect([bad.rules, bad.diagnostics.map((d) => d.message)]).toEqual([
        [],
        ['host headers not read: PropertyNameExpected at line 3'],
      ]);
    },
  );

  test(
    'a firebase.json that is JSON but no object (`null`, ' + 'a number) configures nothing and fails no build',
    async () => {
      for (const text of ['null', '7', '"x"', '[]']) {
        const h = await loadSiteHeaders(await makeSite({ 'firebase.json': text }));
        expect([text, h.rules, h.redirects, h.routes]).toEqual([text, [], [], []]);
      }
    },
  );
});
