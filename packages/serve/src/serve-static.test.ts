import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer } from './index.js';
import { get } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

let site: FixtureSite;
let server: ObjpackServer;

beforeAll(async () => {
  site = makeSite();
  server = await serve({ root: site.root, port: 0, maxMemoryFileBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
  site.cleanup();
});

describe('static files', () => {
  it('listens on a free port and reports its URL', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('serves files with content type, length, strong validators and cache policy', async () => {
    const r = await get(server.url, '/style.css');
    expect(r.status).toBe(200);
    expect(r.body.equals(site.files['/style.css']!)).toBe(true);
    expect(r.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(r.headers['content-length']).toBe(String(site.files['/style.css']!.length));
    expect(r.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(r.headers['last-modified']).toBeTruthy();
    expect(r.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const png = await get(server.url, '/logo.png');
    expect(png.headers['content-type']).toBe('image/png');
  });

  it('uses the objpack media type and the right cache policy for packages', async () => {
    const shared = await get(server.url, '/_objpack/shared/00112233aabbccdd.objp');
    expect(shared.headers['content-type']).toBe('application/vnd.objpack');
    expect(shared.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await get(server.url, '/_objpack/pages/index.html.objp');
    expect(page.headers['content-type']).toBe('application/vnd.objpack');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body.equals(site.files['/_objpack/pages/index.html.objp']!)).toBe(true);
    const html = await get(server.url, '/about.html');
    expect(html.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 to a matching If-None-Match or a current If-Modified-Since', async () => {
    const first = await get(server.url, '/logo.png');
    const r = await get(server.url, '/logo.png', { headers: { 'if-none-match': `"nope", ${first.headers.etag}` } });
    expect(r.status).toBe(304);
    expect(r.body.length).toBe(0);
    expect(r.headers.etag).toBe(first.headers.etag);
    const weak = await get(server.url, '/logo.png', { headers: { 'if-none-match': `W/${first.headers.etag}` } });
    expect(weak.status).toBe(200);
    const ims = await get(server.url, '/logo.png', {
      headers: { 'if-modified-since': first.headers['last-modified']! },
    });
    expect(ims.status).toBe(304);
    const old = await get(server.url, '/logo.png', { headers: { 'if-modified-since': new Date(0).toUTCString() } });
    expect(old.status).toBe(200);
  });

  it('answers HEAD with headers only', async () => {
    const r = await get(server.url, '/big.bin', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe(String(2 * 1024 * 1024));
    expect(r.body.length).toBe(0);
  });

  it('serves single ranges as 206, from memory and from disk', async () => {
    for (const path of ['/logo.png', '/big.bin']) {
      const file = site.files[path]!;
      const a = await get(server.url, path, { headers: { range: 'bytes=10-19' } });
      expect(a.status).toBe(206);
      expect(a.headers['content-range']).toBe(`bytes 10-19/${file.length}`);
      expect(a.body.equals(file.subarray(10, 20))).toBe(true);
      const tail = await get(server.url, path, { headers: { range: 'bytes=-5' } });
      expect(tail.body.equals(file.subarray(file.length - 5))).toBe(true);
      const open = await get(server.url, path, { headers: { range: `bytes=${file.length - 3}-` } });
      expect(open.body.equals(file.subarray(file.length - 3))).toBe(true);
      const past = await get(server.url, path, { headers: { range: `bytes=0-${file.length + 100}` } });
      expect(past.status).toBe(206);
      expect(past.body.length).toBe(file.length);
    }
  });

  it('answers unsatisfiable ranges with 416 and multi-ranges with the plain body', async () => {
    const file = site.files['/logo.png']!;
    const r = await get(server.url, '/logo.png', { headers: { range: `bytes=${file.length}-` } });
    expect(r.status).toBe(416);
    expect(r.headers['content-range']).toBe(`bytes */${file.length}`);
    const multi = await get(server.url, '/logo.png', { headers: { range: 'bytes=0-1,5-6' } });
    expect(multi.status).toBe(200);
    expect(multi.body.length).toBe(file.length);
    const stale = await get(server.url, '/logo.png', { headers: { range: 'bytes=0-1', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
  });

  it('prefers precompressed siblings and honours q-values', async () => {
    const br = await get(server.url, '/app.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.body).equals(site.files['/app.js']!)).toBe(true);
    const gz = await get(server.url, '/app.js', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(site.files['/app.js']!)).toBe(true);
    const none = await get(server.url, '/app.js', { headers: { 'accept-encoding': 'identity' } });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.equals(site.files['/app.js']!)).toBe(true);
  });

  it('compresses text on the fly, keeps the result, and 304s on the compressed tag', async () => {
    const a = await get(server.url, '/style.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(a.body).equals(site.files['/style.css']!)).toBe(true);
    const b = await get(server.url, '/style.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(b.body.equals(a.body)).toBe(true);
    const c = await get(server.url, '/style.css', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': a.headers.etag! },
    });
    expect(c.status).toBe(304);
    expect(c.headers.etag).toBe(a.headers.etag);
    // Ranges are answered from the identity body: never more bytes than the file.
    const range = await get(server.url, '/style.css', { headers: { 'accept-encoding': 'gzip', range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    // Images are not compressed.
    const png = await get(server.url, '/logo.png', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(png.headers['content-encoding']).toBeUndefined();
  });

  it('maps directories to index.html, redirects the bare name, and serves clean .html URLs', async () => {
    const dir = await get(server.url, '/guide/');
    expect(dir.status).toBe(200);
    expect(dir.body.equals(site.files['/guide/index.html']!)).toBe(true);
    const bare = await get(server.url, '/guide?x=1');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/guide/?x=1');
    const about = await get(server.url, '/about');
    expect(about.body.equals(site.files['/about.html']!)).toBe(true);
  });

  it('serves names with spaces and unicode', async () => {
    expect((await get(server.url, '/with%20space.txt')).body.toString()).toBe('space');
    expect((await get(server.url, `/${encodeURIComponent('ünïcode.txt')}`)).body.toString()).toBe('unicode');
  });

  it('answers unknown paths with a clean 404 page and other methods with 405', async () => {
    const r = await get(server.url, '/nope');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.body.toString()).toContain('404 Not Found');
    const post = await get(server.url, '/style.css', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('never lists directories', async () => {
    expect((await get(server.url, '/empty-dir/')).status).toBe(404);
    expect((await get(server.url, '/_objpack/')).status).toBe(404);
  });
});
