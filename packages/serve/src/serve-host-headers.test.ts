import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildManifest } from '@objpack/format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer } from './index.js';
import { hostRules, ruleHeaders } from './site-manifest.js';
import { get } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

let site: FixtureSite;
const servers: ObjpackServer[] = [];
beforeEach(() => {
  site = makeSite();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  site.cleanup();
});

/** Rules as the build records them: `match` is what Netlify's parser makes of `for` (flags `iu`). */
const RULES = [
  {
    for: '/*',
    match: '^/?(.*)/?$',
    headers: [
      ['x-frame-options', 'DENY'],
      ['cache-control', 'public, max-age=60'],
    ],
  },
  { for: '/guide/*', match: '^/guide/?(.*)/?$', headers: [['x-frame-options', 'SAMEORIGIN']] },
  { for: '/font.woff2', match: '^/font\\.woff2/?$', headers: [['access-control-allow-origin', '*']] },
  // Each of these is dropped: a pattern that does not compile, fields that are invalid or the server's own.
  { for: '/(', match: '(', headers: [['x-broken', 'yes']] },
  {
    for: '/*',
    match: '^/?(.*)/?$',
    headers: [
      ['x-injected', 'a\r\nset-cookie: x=1'],
      ['content-type', 'text/plain'],
      ['set-cookie', 'a=1'],
      ['x-objpack-build', 'forged'],
      ['te', 'gzip'],
    ],
  },
];

async function start(rules: unknown): Promise<ObjpackServer> {
  const file = join(site.root, 'objpack-manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Omit<BuildManifest, 'hostHeaders'> & {
    hostHeaders?: unknown;
  };
  manifest.hostHeaders = rules;
  writeFileSync(file, JSON.stringify(manifest));
  const s = await serve({ root: site.root, port: 0 });
  servers.push(s);
  return s;
}

describe("the site's host header rules (_headers, netlify.toml) on every file", () => {
  it(
    'a font gets its CORS header, every file the site-wide ' + 'rules, a later rule wins; 304s and ranges carry them',
    async () => {
      const s = await start(RULES);
      const font = await get(s.url, '/font.woff2');
      expect(font.status).toBe(200);
      expect(font.headers['access-control-allow-origin']).toBe('*');
      expect(font.headers['x-frame-options']).toBe('DENY');
      expect(font.headers['cache-control']).toBe('public, max-age=60');
      for (const h of ['x-broken', 'x-injected', 'set-cookie', 'x-objpack-build', 'te'])
        expect(font.headers[h], h).toBeUndefined();
      expect(font.headers['content-type']).not.toBe('text/plain');
      expect((await get(s.url, '/guide/guide.js')).headers['x-frame-options']).toBe('SAMEORIGIN');
      const again = await get(s.url, '/font.woff2', { headers: { 'if-none-match': font.headers.etag! } });
      expect(again.status).toBe(304);
      expect(again.headers['access-control-allow-origin']).toBe('*');
      const range = await get(s.url, '/font.woff2', { headers: { range: 'bytes=0-9' } });
      expect(range.status).toBe(206);
      expect(range.headers['access-control-allow-origin']).toBe('*');
      const br = await get(s.url, '/app.js', { headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['x-frame-options']).toBe('DENY');
    },
  );

  it("pages get the rules' caching next to their recorded headers; objpack's packages keep their own", async () => {
    const s = await start(RULES);
    const page = await get(s.url, '/');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('public, max-age=60');
    expect(page.headers.vary).toContain('Accept');
    const shared = await get(s.url, '/_objpack/shared/00112233aabbccdd.objp');
    expect(shared.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(shared.headers['x-frame-options']).toBeUndefined();
    const pkg = await get(s.url, '/_objpack/pages/index.html.objp');
    expect(pkg.headers['cache-control']).not.toBe('public, max-age=60');
    expect(pkg.headers['x-frame-options']).toBeUndefined();
  });

  it('a manifest without rules, or with rules of another shape, changes nothing', async () => {
    for (const rules of [undefined, 'x', [null, { match: 3 }, { match: '^/$', headers: 'x' }]]) {
      const s = await start(rules);
      const font = await get(s.url, '/font.woff2');
      expect(font.status).toBe(200);
      expect(font.headers['x-frame-options']).toBeUndefined();
      expect(font.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      await s.close();
    }
  });

  it('ruleHeaders merges matching rules in order, names compared as given (lower case from the build)', () => {
    const rules = hostRules(RULES);
    expect(rules).toHaveLength(3);
    expect(ruleHeaders(rules, '/guide/a.js')).toEqual({
      'x-frame-options': 'SAMEORIGIN',
      'cache-control': 'public, max-age=60',
    });
    expect(ruleHeaders(rules, '/FONT.woff2')).toMatchObject({ 'access-control-allow-origin': '*' });
    expect(ruleHeaders(hostRules([RULES[2]]), '/other.css')).toBeNull();
  });

  it('rules naming one path (looked up by it) give exactly what testing every rule in order gives', () => {
    const recorded = [
      '^\\/?(.*)\\/?$',
      '^\\/about\\.html\\/?$',
      '^\\/guide\\/?$',
      '^\\/docs\\/([^/]+)\\/?$',
      '^\\/About\\.html\\/?$',
      '^\\/x$',
    ].map((match, i) => ({
      for: String(i),
      match,
      ...(i === 5 ? { flags: 'm' } : {}),
      headers: [
        ['x-rule', String(i)],
        [`x-${i}`, match],
      ],
    }));
    const rules = hostRules(recorded);
    for (const path of ['/', '/about.html', '/ABOUT.HTML/', '/guide', '/guide/', '/docs/a', '/x', '/nowhere']) {
      const linear = new Map<string, string>();
      for (const r of rules)
        if (r.re.test(path))
          for (const [n, v] of r.headers) {
            linear.delete(n);
            linear.set(n, v);
          }
      expect(ruleHeaders(rules, path), path).toEqual(linear.size > 0 ? Object.fromEntries(linear) : null);
    }
    expect(ruleHeaders(rules, '/ABOUT.HTML/')).toMatchObject({ 'x-rule': '4', 'x-1': '^\\/about\\.html\\/?$' });
  });

  it(
    "a rule's recorded flags apply (Firebase globs are " +
      'case-sensitive); flags that make test() stateful drop the rule',
    () => {
      const rule = (flags?: string) => ({
        for: '/docs/*',
        match: '^\\/docs\\/[^/]*$',
        ...(flags === undefined ? {} : { flags }),
        headers: [['x-docs', '1']],
      });
      expect(ruleHeaders(hostRules([rule('')]), '/DOCS/a')).toBeNull();
      expect(ruleHeaders(hostRules([rule('')]), '/docs/a')).toEqual({ 'x-docs': '1' });
      expect(ruleHeaders(hostRules([rule()]), '/DOCS/a')).toEqual({ 'x-docs': '1' });
      expect(hostRules([rule('g'), rule('y'), rule(5 as unknown as string)])).toEqual([]);
    },
  );
});

describe("bare directory URLs (the build's bareDirUrls)", () => {
  it(
    'with the manifest saying so /guide is served as ' + '/guide/ is, with its host headers; without, redirected',
    async () => {
      const plain = await start(RULES);
      expect((await get(plain.url, '/guide')).status).toBe(301);
      await plain.close();
      const file = join(site.root, 'objpack-manifest.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), bareDirUrls: true }));
      const s = await start(RULES);
      const bare = await get(s.url, '/guide?x=1');
      expect(bare.status).toBe(200);
      expect(bare.body.equals(site.files['/guide/index.html']!)).toBe(true);
      expect(bare.headers['x-frame-options']).toBe('SAMEORIGIN');
      // The page's own extras too (its preloads), as at /guide/.
      expect(bare.headers.link).toBe((await get(s.url, '/guide/')).headers.link);
      expect(bare.headers.link).toContain('/style.css');
      expect((await get(s.url, '/about')).status).toBe(200);
    },
  );
});
