/**
 * The real generator fixtures rebuilt for a GitHub Pages project site (`gen-*-base`: VitePress `--base`,
 * Astro `--base`, Docusaurus `baseUrl`, Hugo `baseURL`, each with `/repo/`; source/regenerate.sh) give the
 * closures of the same site built at the root, shifted under `/repo/`. Generators put a content hash in
 * file names, and the base is part of what they hash: names are compared with their hashes left out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discoverSite } from './discover-site.js';
import { inCriticalTier } from './tiers.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/closure/', import.meta.url));
const BASE = '/repo/';

interface Expected {
  pages: Record<string, { closure: string[]; critical?: string[]; later?: string[]; links?: string[] }>;
  diagnostics: Array<{ code: string; file: string; line: number }>;
  oracle: Record<'staticOnly' | 'browserOnly' | 'unseen', Array<{ page: string; url: string }> | undefined>;
}

/** A URL path without its content hashes (`/assets/app.Byl4OWfj.js` → `/assets/app.#.js`). */
const unhashed = (u: string) =>
  u
    .replace(/[0-9a-f]{64}|[0-9a-f]{32}/g, '#')
    .replace(/\.[\w-]{8}(?=\.)/g, '.#')
    .replace(/(^|\/)[0-9a-f]{8}(?=\.)/g, '$1#')
    .replace(/_[\w-]{5,8}(?=\.(webp|png|jpg)$)/g, '_#');

/** A URL under the base as the same URL at the root: `/repo/a.css` → `/a.css`; anything else is marked. */
const atRoot = (u: string) => (u.startsWith(BASE) ? u.slice(BASE.length - 1) : `outside the base: ${u}`);
const shifted = (urls: readonly string[] | undefined) => urls?.map((u) => unhashed(atRoot(u)));
const read = (name: string) => JSON.parse(readFileSync(`${FIXTURES}${name}/expected.json`, 'utf8')) as Expected;

describe.each(['vitepress', 'astro', 'docusaurus', 'hugo'])('gen-%s built under /repo/', (g) => {
  it('has the closures of the site at the root, shifted under /repo/', async () => {
    const root = read(`gen-${g}`);
    const graph = await discoverSite(`${FIXTURES}gen-${g}-base/site`, { base: BASE, concurrency: 1 });
    expect(graph.pages.map((p) => atRoot(p.url)).sort()).toEqual(Object.keys(root.pages).sort());
    for (const p of graph.pages) {
      const want = root.pages[atRoot(p.url)]!;
      expect(shifted(p.items.map((i) => i.url)), p.url).toEqual(want.closure.map(unhashed));
      if (want.critical)
        expect(shifted(p.items.filter((i) => i.critical).map((i) => i.url)), p.url).toEqual(
          want.critical.map(unhashed),
        );
      if (want.links) expect(shifted(p.links), p.url).toEqual(want.links.map(unhashed));
      // The later tier: `url reason`, the reason kept.
      const later = p.items.filter((i) => !inCriticalTier(i)).map((i) => `${unhashed(atRoot(i.url))} ${i.conditional}`);
      const wantLater = (want.later ?? []).map(
        (l) => `${unhashed(l.slice(0, l.lastIndexOf(' ')))}${l.slice(l.lastIndexOf(' '))}`,
      );
      expect(later, p.url).toEqual(wantLater);
    }
    expect(graph.diagnostics.map((d) => d.code)).toEqual(root.diagnostics.map((d) => d.code));
  });

  it('lists the oracle exceptions of the site at the root, shifted (checked in Chromium by closure-fixtures)', () => {
    const root = read(`gen-${g}`);
    const base = read(`gen-${g}-base`);
    for (const kind of ['staticOnly', 'browserOnly', 'unseen'] as const) {
      const at = (list: Expected['oracle'][typeof kind]) =>
        (list ?? []).map((e) => `${e.page} ${unhashed(e.url)}`).sort();
      const shiftedList = (base.oracle[kind] ?? []).map((e) => ({ page: atRoot(e.page), url: atRoot(e.url) }));
      expect(at(shiftedList), kind).toEqual(at(root.oracle[kind]));
    }
  });
});
