import { describe, expect, it } from 'vitest';
import { DiscoverCodes } from './diagnostic-codes.js';
import { discoverSite, pageClosure } from './discover-site.js';
import type { DiscoverCache } from './types.js';
import { tempSite } from '../test-utils/temp-site.js';

const t = tempSite('objpack-discover-');
const { write } = t;

describe('DiscoverCache', () => {
  /** Like objpack's build cache: the next cache keeps only the entries this build read or wrote. */
  class CarryOverCache implements DiscoverCache {
    prev = new Map<string, unknown>();
    next = new Map<string, unknown>();
    get(k: string) {
      const v = this.prev.get(k);
      if (v !== undefined) this.next.set(k, v);
      return v;
    }
    set(k: string, v: unknown) {
      this.next.set(k, v);
    }
    rotate() {
      this.prev = this.next;
      this.next = new Map();
    }
  }

  it('keeps every entry a later build needs in a cache that carries over only what was read', async () => {
    for (let i = 0; i < 3; i++) write(`p${i}.html`, '<link rel="stylesheet" href="/s.css">');
    write('s.css', 'p { background: url(a.png) }');
    write('a.png', 'x');
    write('b.png', 'x');
    const cache = new CarryOverCache();
    await discoverSite(t.site, { cache });
    cache.rotate();
    await discoverSite(t.site, { cache }); // all closures reused
    cache.rotate();
    write('s.css', 'p { background: url(b.png) }'); // invalidates every closure, but no page needs re-parsing
    const keysBefore = new Set(cache.prev.keys());
    const g = await discoverSite(t.site, { cache });
    expect([...cache.next.keys()].filter((k) => k.startsWith('html') && !keysBefore.has(k))).toEqual([]);
    expect(g.pages.map((p) => p.items.map((i) => i.url))).toEqual(
      [0, 1, 2].map((i) => [`/p${i}.html`, '/s.css', '/b.png']),
    );
  });

  class CountingCache implements DiscoverCache {
    readonly map = new Map<string, unknown>();
    sets = 0;
    get(k: string) {
      return this.map.get(k);
    }
    set(k: string, v: unknown) {
      this.sets++;
      this.map.set(k, v);
    }
  }

  it('gives the same closures from cache, and re-parses only the file that changed', async () => {
    for (let i = 0; i < 4; i++) write(`p${i}.html`, `<link rel="stylesheet" href="/s.css"><img src="/i${i}.png">`);
    for (let i = 0; i < 4; i++) write(`i${i}.png`, 'x');
    write('s.css', '@font-face { font-family: F; src: url(f.woff2) format("woff2") }');
    write('f.woff2', 'x');
    const cache = new CountingCache();
    const first = await discoverSite(t.site, { cache });
    const kinds = [...cache.map.keys()].map((k) => k.replace(/\d*:.*/, ''));
    expect(kinds.filter((k) => k === 'html')).toHaveLength(4);
    expect(kinds.filter((k) => k === 'css')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'closure')).toHaveLength(4);
    cache.sets = 0;
    const second = await discoverSite(t.site, { cache });
    expect(second.pages).toEqual(first.pages);
    expect(cache.sets).toBe(0); // nothing parsed or assembled again
    write('p2.html', '<link rel="stylesheet" href="/s.css"><img src="/i3.png">');
    const third = await discoverSite(t.site, { cache });
    expect(cache.sets).toBe(3); // the changed page: its parse result, its stat → hash entry, its closure
    expect(pageClosure(third, '/p2.html')?.items.map((i) => i.url)).toEqual([
      '/p2.html',
      '/s.css',
      '/f.woff2',
      '/i3.png',
    ]);
  });

  it(
    'does not reuse a closure whose stylesheet changed or ' + 'whose missing reference appeared, and replays warnings',
    async () => {
      write('index.html', '<link rel="stylesheet" href="/s.css"><img src="/later.png"><p>\n<img src="/gone.png">');
      write('s.css', 'p { background: url(a.png) } b { background: url(missing.png) }');
      write('a.png', 'x');
      write('b.png', 'x');
      const cache = new CountingCache();
      const full = await discoverSite(t.site, { cache });
      const again = await discoverSite(t.site, { cache });
      expect(again.diagnostics).toEqual(full.diagnostics);
      expect(again.diagnostics.map((d) => [d.code, d.file])).toEqual([
        [DiscoverCodes.MISSING_REF, 'index.html'],
        [DiscoverCodes.MISSING_REF, 'index.html'],
        [DiscoverCodes.MISSING_REF, 's.css'],
      ]);
      write('s.css', 'p { background: url(b.png) }');
      const edited = await discoverSite(t.site, { cache });
      expect(edited.pages[0]?.items.map((i) => i.url)).toEqual(['/', '/s.css', '/b.png']);
      write('later.png', 'x');
      const added = await discoverSite(t.site, { cache });
      expect(added.pages[0]?.items.map((i) => i.url)).toEqual(['/', '/s.css', '/later.png', '/b.png']);
    },
  );
});
