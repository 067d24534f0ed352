import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Decoder } from '@objpack/format';
import { serve, type ObjpackServer } from './index.js';
import { get } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

const names = (bytes: Uint8Array) => {
  const out: string[] = [];
  const d = new Decoder({ onObjectStart: (e) => out.push(e.name) });
  d.push(bytes);
  d.end();
  return out;
};

const open: Array<{ server?: ObjpackServer; site: FixtureSite }> = [];
async function start(siteBase: string, base?: string) {
  const site = makeSite(siteBase);
  const entry: { server?: ObjpackServer; site: FixtureSite } = { site };
  open.push(entry);
  entry.server = await serve({ root: site.root, port: 0, ...(base !== undefined ? { base } : {}) });
  return { site, server: entry.server };
}
afterEach(async () => {
  for (const { server, site } of open.splice(0)) {
    await server?.close();
    site.cleanup();
  }
});

describe('a site served under a base path', () => {
  it('serves the base the build recorded, and nothing above it, as GitHub Pages serves a project site', async () => {
    const { server, site } = await start('/repo/');
    expect(server.base).toBe('/repo/');
    const css = await get(server.url, '/repo/style.css');
    expect(css.status).toBe(200);
    expect(css.body.equals(site.files['/style.css']!)).toBe(true);
    for (const above of [
      '/',
      '/style.css',
      '/index.html',
      '/_objpack/pages/index.html.objp',
      '/objpack-manifest.json',
      '/repository/',
      '/rep',
    ]) {
      expect((await get(server.url, above)).status, above).toBe(404);
    }
    const bare = await get(server.url, '/repo');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/repo/');
    expect((await get(server.url, '/repo?utm=x')).headers.location).toBe('/repo/?utm=x');
    expect((await get(server.url, '/repo/guide')).headers.location).toBe('/repo/guide/');
  });

  it('answers pages with their Link preloads, and packages, at their URLs under the base', async () => {
    const { server } = await start('/repo/');
    const home = await get(server.url, '/repo/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers.link).toContain('</repo/style.css>; rel=preload; as=style');
    expect(home.informational[0]?.headers.link).toContain('</repo/font.woff2>');
    const pkg = await get(server.url, '/repo/', { headers: { 'x-objpack': 'package' } });
    expect(pkg.headers['content-type']).toBe('application/vnd.objpack');
    expect(names(pkg.body)).toEqual(['/repo/index.html', '/repo/app.js', '/repo/logo.png', '/repo/font.woff2']);
    const shared = await get(server.url, '/repo/_objpack/shared/00112233aabbccdd.objp');
    expect(shared.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(server.url, '/repo/_objpack/pages/guide/index.html.objp')).headers['cache-control']).toBe(
      'no-cache',
    );
    const listing = await get(server.url, '/repo/_objpack/listing');
    expect(listing.status).toBe(200);
    expect(Object.keys((JSON.parse(listing.body.toString()) as { packages: object }).packages).sort()).toEqual([
      '/repo/_objpack/pages/guide/index.html.objp',
      '/repo/_objpack/pages/index.html.objp',
    ]);
    expect((await get(server.url, '/_objpack/listing')).status).toBe(404);
  });

  it("serves the site's 404 page for a missing URL under the base, and its own above it", async () => {
    const { server, site } = await start('/repo/');
    writeFileSync(join(site.root, '404.html'), '<!doctype html><title>Lost</title>');
    await server.reload();
    const missing = await get(server.url, '/repo/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain('Lost');
    const above = await get(server.url, '/nope');
    expect(above.status).toBe(404);
    expect(above.body.toString()).not.toContain('Lost');
  });

  it('takes `base` over the recorded one, for nested and percent-encoded bases too', async () => {
    const root = await start('/repo/', '/');
    expect(root.server.base).toBe('/');
    expect((await get(root.server.url, '/style.css')).status).toBe(200);
    expect((await get(root.server.url, '/repo/style.css')).status).toBe(404);
    const nested = await start('/', '/a/b');
    expect(nested.server.base).toBe('/a/b/');
    expect((await get(nested.server.url, '/a/b/guide/')).status).toBe(200);
    expect((await get(nested.server.url, '/a/')).status).toBe(404);
    expect((await get(nested.server.url, '/a/b')).headers.location).toBe('/a/b/');
    const encoded = await start('/caf%C3%A9/');
    expect(encoded.server.base).toBe('/caf%C3%A9/');
    for (const spelling of ['/caf%C3%A9/style.css', '/caf%c3%a9/style.css'])
      expect((await get(encoded.server.url, spelling)).status).toBe(200);
    expect((await get(encoded.server.url, '/caf%C3%A9')).headers.location).toBe('/caf%C3%A9/');
    expect(
      (await get(encoded.server.url, '/caf%C3%A9/', { headers: { 'x-objpack': 'package' } })).headers['content-type'],
    ).toBe('application/vnd.objpack');
  });

  it('refuses a base that is not a URL path (SERVE_BAD_OPTION)', async () => {
    const site = makeSite();
    open.push({ site });
    for (const base of ['repo/', 'https://example.com/repo/', '/repo/?x', '/../']) {
      await expect(serve({ root: site.root, port: 0, base }), base).rejects.toMatchObject({ code: 'SERVE_BAD_OPTION' });
    }
  });
});
