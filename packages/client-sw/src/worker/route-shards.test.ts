import type { RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { preloadsFor } from './preload-link.js';
import { SHARD_MIN_CHARS, shardBase, shardOf, splitTable } from './route-shards.js';
import { lookupRoute } from './routes.js';

/** A large table as the build writes it: directory pages, .html pages, kept packages, preloads, headers. */
function bigTable(pages: number, flags: Partial<RouteTable> = {}): RouteTable {
  const shared = ['/_objpack/shared/a.objp', '/_objpack/shared/b.objp', '/_objpack/shared/c.objp'];
  const t: RouteTable = {
    version: 1,
    buildId: 'b2',
    packages: [...shared],
    pages: {},
    packageBuilds: {},
    preload: {
      urls: [
        ['/site.css', 'style'],
        ['/app.js', 'module'],
      ],
      pages: {},
    },
    htmlTypes: {},
    htmlHeaders: { sets: [[['x-frame-options', 'DENY']]], pages: {} },
    ...flags,
  };
  for (let i = 0; i < pages; i++) {
    const key = i % 3 === 0 ? `/docs/p${i}/` : i % 3 === 1 ? `/blog/p${i}.html` : `/caf%C3%A9/p${i}/index.html`;
    const at = t.packages.push(`/_objpack/pages${key}${key.endsWith('/') ? 'index.html' : ''}.objp`) - 1;
    t.pages[key] = [at, i % shared.length, (i + 1) % shared.length];
    if (i % 7 === 0) t.packageBuilds![String(at)] = 'b1';
    const own = t.preload!.urls.push([`/img/p${i}.png`, 'image']) - 1;
    t.preload!.pages[key] = [0, i % 2, own];
    if (i % 11 === 0) t.htmlTypes![key] = 'text/html';
    if (i % 5 === 0)
      t.htmlHeaders!.pages[key] =
        t.htmlHeaders!.sets.push([['content-security-policy', `default-src 'self' p${i}`]]) - 1;
  }
  return t;
}

/** Every spelling lookupRoute tries for a page key (as requested by a link). */
function spellings(key: string): string[] {
  const base = key
    .replace(/index\.html$/, '')
    .replace(/\.html$/, '')
    .replace(/\/$/, '');
  return [key, base, `${base}/`, `${base}/index.html`, `${base}.html`, key.toUpperCase()];
}

describe('route table shards', () => {
  it('a lookup in the shard that holds a path answers as the whole table does, for every spelling', () => {
    for (const flags of [
      {},
      { cleanUrls: true as const },
      {
        bareDirUrls: true as const,
        cleanSlashUrls: true as const,
        redirects: [['^/blog/p1\\.html$', '']] as RouteTable['redirects'],
      },
    ]) {
      const table = bigTable(3000, flags);
      const text = JSON.stringify(table);
      const split = splitTable(table, text.length, 'id1')!;
      expect(split.core.shards).toBeGreaterThan(1);
      expect(split.shards.reduce((n, s) => n + Object.keys(s.pages).length, 0)).toBe(3000);
      for (const key of Object.keys(table.pages)) {
        for (const path of spellings(key)) {
          const shard = split.shards[shardOf(path, split.core.shards)]!;
          const whole = lookupRoute(table, path);
          expect(lookupRoute(shard, path), path).toEqual(whole);
          if (whole) expect(preloadsFor(shard, whole.key)).toEqual(preloadsFor(table, whole.key));
        }
      }
    }
  });

  it('every key a lookup may try has the base of the path it was asked for', () => {
    expect(new Set(['/guide', '/guide/', '/guide/index.html', '/guide.html', '/guide.htm'].map(shardBase))).toEqual(
      new Set(['/guide']),
    );
    expect(new Set(['/', '/index.html'].map(shardBase))).toEqual(new Set(['/']));
    // One spelling of the page: an escape the table keys otherwise lands in the same shard.
    expect(shardBase('/%5Bslug%5D.html')).toBe(shardBase('/[slug].html'));
  });

  it('a small table is read whole; a shard carries the table-wide fields and the split it belongs to', () => {
    const small = bigTable(10);
    expect(splitTable(small, JSON.stringify(small).length, 'x')).toBeUndefined();
    const table = bigTable(20, { cleanUrls: true });
    const split = splitTable(table, SHARD_MIN_CHARS, 'id2')!;
    for (const s of split.shards)
      expect(s).toMatchObject({ version: 1, buildId: 'b2', cleanUrls: true, shardOf: 'id2' });
    expect(split.core).toEqual({ id: 'id2', shards: 4, buildId: 'b2' });
  });
});
