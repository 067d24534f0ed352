import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Decoder, type BuildManifest } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import type { ObjpackServer } from './index.js';
import { get, raw } from './test-utils/http.js';
import { until, useFixtureServers } from './test-utils/fixture-servers.js';
import { b64Digest } from './test-utils/site.js';

const fixture = useFixtureServers();
const start = fixture.start;

/** Decodes a package (verifying every digest) into name → bytes. */
function decode(bytes: Uint8Array): Map<string, Buffer> {
  const out = new Map<string, Buffer[]>();
  const d = new Decoder({
    onObjectStart: (e) => out.set(e.name, []),
    onObjectData: (e, b) => out.get(e.name)!.push(Buffer.from(b)),
  });
  d.push(bytes);
  d.end();
  return new Map([...out].map(([k, v]) => [k, Buffer.concat(v)]));
}

describe('push: 103 Early Hints and package negotiation', () => {
  it('sends 103 with preload links for the critical objects the browser may reuse, and all on the page', async () => {
    const s = await start();
    const r = await get(s.url, '/');
    expect(r.status).toBe(200);
    expect(r.informational.map((i) => i.status)).toEqual([103]);
    const link = String(r.informational[0]!.headers.link);
    expect(link).toContain('</font.woff2>; rel=preload; as=font; crossorigin');
    // Served max-age=0, must-revalidate: a 103's fetch of it would not be reused, the page would ask again.
    expect(link).not.toContain('style.css');
    expect(r.headers.link).toContain('</style.css>; rel=preload; as=style');
    expect(r.headers.link).toContain('</font.woff2>; rel=preload; as=font; crossorigin');
    expect(r.headers.vary).toContain('Accept, X-Objpack');
    expect(s.stats().earlyHints).toBe(1);
  });

  it('sends no 103 when switched off, for HTTP/1.0 clients, or for non-pages', async () => {
    const off = await start({ earlyHints: false });
    const a = await get(off.url, '/');
    expect(a.informational).toEqual([]);
    expect(a.headers.link).toBeUndefined();
    const on = await start();
    expect(await raw(on.port, 'GET / HTTP/1.0\r\n\r\n')).not.toContain('103 Early Hints');
    expect((await get(on.url, '/style.css')).informational).toEqual([]);
  });

  it('answers a page request with its package when asked by Accept or X-Objpack', async () => {
    const s = await start();
    const asks: Array<Record<string, string>> = [
      { accept: 'application/vnd.objpack, text/html;q=0.9' },
      { 'x-objpack': 'package' },
    ];
    for (const headers of asks) {
      const r = await get(s.url, '/', { headers });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/vnd.objpack');
      expect(r.headers.vary).toContain('Accept, X-Objpack');
      expect(r.headers['content-location']).toBe('/_objpack/pages/index.html.objp');
      expect(r.informational).toEqual([]);
      expect(r.body.equals(fixture.site.files['/_objpack/pages/index.html.objp']!)).toBe(true);
      expect([...decode(r.body).keys()]).toEqual(['/index.html', '/app.js', '/logo.png', '/font.woff2']);
    }
    const html = await get(s.url, '/', { headers: { accept: 'text/html, application/vnd.objpack;q=0' } });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(s.stats().packages.prebuilt).toBe(2);
    const off = await start({ packages: false });
    expect((await get(off.url, '/', { headers: { 'x-objpack': 'package' } })).headers['content-type']).toBe(
      'text/html; charset=utf-8',
    );
  });
});

describe('disk-to-memory prefetch', () => {
  const visit = async (s: ObjpackServer) => {
    await get(s.url, '/');
    await until(() => !s.stats().prefetch.enabled || s.stats().prefetch.loads >= 4);
    for (const p of ['/style.css', '/app.js', '/logo.png', '/font.woff2']) {
      const r = await get(s.url, p);
      expect(r.body.equals(fixture.site.files[p]!)).toBe(true);
    }
    return s.stats().prefetch;
  };

  it('loads the closure when the page is served, so its objects are hits', async () => {
    const p = await visit(await start({ memoryBytes: 0, prefetch: 1024 * 1024 }));
    expect(p.hits).toBe(4);
    expect(p.misses).toBe(1); // the page itself
    expect(p.loadedBytes).toBeGreaterThan(0);
  });

  it('counts every disk read as a miss when switched off', async () => {
    const p = await visit(await start({ memoryBytes: 0, prefetch: false }));
    expect(p.enabled).toBe(false);
    expect(p.hits).toBe(0);
    expect(p.misses).toBe(5);
  });
});

describe('dynamic packages', () => {
  it(
    'answers the delta listing: every page package while small, else only page packages asked (bounded), gzip ' +
      'on request',
    async () => {
      const sri = (n: string) => `sha256-${b64Digest(fixture.site.files[n]!)}`;
      const home: Array<[string, string, string]> = [
        ['/index.html', sri('/index.html'), 'text/html; charset=utf-8'],
        ['/app.js', sri('/app.js'), 'text/javascript; charset=utf-8'],
        ['/logo.png', sri('/logo.png'), 'image/png'],
        ['/font.woff2', sri('/font.woff2'), 'font/woff2'],
      ];
      const s = await start();
      const all = await get(s.url, '/_objpack/listing');
      expect([all.status, all.headers['content-type'], all.headers['cache-control']]).toEqual([
        200,
        'application/json',
        'no-store',
      ]);
      const listing = JSON.parse(all.body.toString()) as {
        buildId: string;
        complete: boolean;
        packages: Record<string, unknown>;
      };
      expect(listing.complete).toBe(true);
      expect(Object.keys(listing.packages).sort()).toEqual([
        '/_objpack/pages/guide/index.html.objp',
        '/_objpack/pages/index.html.objp',
      ]);
      expect(listing.packages['/_objpack/pages/index.html.objp']).toEqual(home);

      const small = await start({ listingBytes: 0 });
      const q = ['/_objpack/pages/index.html.objp', '/_objpack/shared/00112233aabbccdd.objp', '/nope.objp']
        .map((p) => `p=${encodeURIComponent(p)}`)
        .join('&');
      const some = JSON.parse((await get(small.url, `/_objpack/listing?${q}`)).body.toString()) as typeof listing;
      expect(some).toEqual({
        buildId: listing.buildId,
        complete: false,
        packages: { '/_objpack/pages/index.html.objp': home },
      });
      // Past 64 names the rest is ignored; a hostile query costs nothing.
      const many =
        `${Array.from({ length: 64 }, (_, i) => `p=/x${i}`).join('&')}&p=` +
        `${encodeURIComponent('/_objpack/pages/index.html.objp')}`;
      expect(JSON.parse((await get(small.url, `/_objpack/listing?${many}`)).body.toString()).packages).toEqual({});
      const gz = await get(s.url, '/_objpack/listing', { headers: { 'accept-encoding': 'gzip' } });
      expect(all.body.length).toBeGreaterThan(512);
      expect([gz.headers['content-encoding'], gunzipSync(gz.body).equals(all.body)]).toEqual(['gzip', true]);
      const head = await get(s.url, '/_objpack/listing', { method: 'HEAD' });
      expect([head.status, head.body.length]).toEqual([200, 0]);
      // Without dynamic packages there are no deltas, so no listing either.
      expect((await get((await start({ dynamic: false })).url, '/_objpack/listing')).status).toBe(404);
    },
  );

  it('sends a delta package without the objects the client holds (full digests or prefixes)', async () => {
    const s = await start();
    const have = [
      b64Digest(fixture.site.files['/app.js']!),
      `sha256-${b64Digest(fixture.site.files['/logo.png']!).slice(0, 10)}`,
      'garbage!',
      'AAAA',
    ];
    for (const path of ['/_objpack/pages/index.html.objp', '/']) {
      const r = await get(s.url, path, { headers: { 'x-objpack-have': have.join(', '), 'x-objpack': 'package' } });
      expect(r.status).toBe(200);
      expect(r.headers['x-objpack-dynamic']).toBe('delta');
      expect(r.headers.vary).toContain('X-Objpack-Have');
      const objects = decode(r.body);
      expect([...objects.keys()]).toEqual(['/index.html', '/font.woff2']);
      expect(objects.get('/font.woff2')!.equals(fixture.site.files['/font.woff2']!)).toBe(true);
    }
    expect(s.stats().packages.delta).toBe(2);
    expect(s.stats().packages.assembled).toBe(1); // the second came from the cache
  });

  it(
    "a page's own headers (from _headers) travel in dynamic " + 'packages, and its HTML is never left out of a delta',
    async () => {
      const manifestFile = join(fixture.site.root, 'objpack-manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest;
      const csp: Array<[string, string]> = [['content-security-policy', "default-src 'self'"]];
      manifest.objects['/index.html']!.headers = csp;
      writeFileSync(manifestFile, JSON.stringify(manifest));
      const s = await start();
      const have = [b64Digest(fixture.site.files['/index.html']!), b64Digest(fixture.site.files['/app.js']!)];
      const r = await get(s.url, '/_objpack/pages/index.html.objp', { headers: { 'x-objpack-have': have.join(', ') } });
      expect(r.headers['x-objpack-dynamic']).toBe('delta');
      const entries = new Map<string, ReadonlyArray<readonly [string, string]>>();
      const d = new Decoder({ onObjectStart: (e) => entries.set(e.name, e.headers) });
      d.push(r.body);
      d.end();
      expect([...entries.keys()]).toEqual(['/index.html', '/logo.png', '/font.woff2']);
      expect(entries.get('/index.html')).toEqual(csp);
    },
  );

  it(
    "a page's host headers (from _headers) go on its HTML " + 'response; unsafe or server-owned ones are dropped',
    async () => {
      const manifestFile = join(fixture.site.root, 'objpack-manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest;
      // Keyed by the page's URL, as the build keys a page's HTML object.
      manifest.objects['/'] = { ...manifest.objects['/index.html']! };
      manifest.objects['/']!.headers = [
        ['content-security-policy', "default-src 'self'"],
        ['cross-origin-opener-policy', 'same-origin'],
        ['permissions-policy', 'camera=()'],
        ['permissions-policy', 'geolocation=()'],
        ['x-injected', 'a\r\nset-cookie: x=1'],
        ['Bad Name', 'x'],
        ['cache-control', 'no-store'],
        ['content-type', 'text/plain'],
        ['x-objpack-build', 'forged'],
        ['te', 'gzip'],
        ['upgrade', 'h2c'],
        ['constructor', 'x'],
      ] as Array<[string, string]>;
      writeFileSync(manifestFile, JSON.stringify(manifest));
      const s = await start();
      for (const path of ['/', '/index.html']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const r = await get(s.url, path, { method });
          expect(r.status, `${method} ${path}`).toBe(200);
          expect(r.headers['content-security-policy']).toBe("default-src 'self'");
          expect(r.headers['cross-origin-opener-policy']).toBe('same-origin');
          expect(r.headers['permissions-policy']).toBe('camera=(), geolocation=()');
          expect(r.headers['x-injected']).toBeUndefined();
          expect(r.headers['set-cookie']).toBeUndefined();
          expect(r.headers['content-type']).toMatch(/^text\/html/);
          expect(r.headers['cache-control']).not.toBe('no-store');
          expect(r.headers['x-objpack-build']).toBeUndefined();
          expect(r.headers.te).toBeUndefined();
          expect(r.headers.upgrade).toBeUndefined();
          expect(r.headers.constructor).toBe('x');
          expect(r.headers.vary).toContain('Accept');
        }
      }
      // A revalidation carries them too (a cache updates its stored headers from a 304), as does a range.
      const first = await get(s.url, '/');
      const again = await get(s.url, '/', { headers: { 'if-none-match': first.headers.etag! } });
      expect(again.status).toBe(304);
      expect(again.headers['content-security-policy']).toBe("default-src 'self'");
      const range = await get(s.url, '/', { headers: { range: 'bytes=0-3' } });
      expect(range.status).toBe(206);
      expect(range.headers['content-security-policy']).toBe("default-src 'self'");
      // Other pages and objects are untouched.
      expect((await get(s.url, '/guide/')).headers['content-security-policy']).toBeUndefined();
      expect((await get(s.url, '/app.js')).headers['content-security-policy']).toBeUndefined();
    },
  );

  it('assembles a fresh package for a page whose files changed since the build', async () => {
    const s = await start();
    expect(s.stats().index.stalePages).toBe(0);
    const changed = Buffer.from('export const changed = true;\n');
    writeFileSync(join(fixture.site.root, 'app.js'), changed);
    await s.reload();
    expect(s.stats().index.stalePages).toBe(1);
    const r = await get(s.url, '/_objpack/pages/index.html.objp');
    expect(r.headers['x-objpack-dynamic']).toBe('full');
    const objects = decode(r.body);
    expect(objects.get('/app.js')!.equals(changed)).toBe(true);
    expect(objects.size).toBe(4);
    const again = await get(s.url, '/_objpack/pages/index.html.objp', {
      headers: { 'if-none-match': r.headers.etag! },
    });
    expect(again.status).toBe(304);
    // The untouched page still gets its prebuilt package.
    const guide = await get(s.url, '/_objpack/pages/guide/index.html.objp');
    expect(guide.headers['x-objpack-dynamic']).toBeUndefined();
    expect(s.stats().packages).toMatchObject({ dynamic: 2, prebuilt: 1, assembled: 1 }); // 200 + 304, one encode
  });

  it('serves the prebuilt file (even when stale) with dynamic packages switched off', async () => {
    writeFileSync(join(fixture.site.root, 'app.js'), 'changed');
    const s = await start({ dynamic: false });
    const r = await get(s.url, '/_objpack/pages/index.html.objp', {
      headers: { 'x-objpack-have': b64Digest(fixture.site.files['/app.js']!) },
    });
    expect(r.body.equals(fixture.site.files['/_objpack/pages/index.html.objp']!)).toBe(true);
    // The answer does not depend on X-Objpack-Have, so Vary must not name it (the worker reads Vary to
    // decide whether to send digests at all).
    expect(r.headers.vary ?? '').not.toMatch(/x-objpack-have/i);
    const asPage = await get(s.url, '/', { headers: { accept: 'application/vnd.objpack' } });
    expect(asPage.headers.vary).toMatch(/accept/i);
    expect(asPage.headers.vary).not.toMatch(/x-objpack-have/i);
  });
});
