/**
 * Cross-checks discovery against an independent model: the fixture generators (fixtures/generators/)
 * record each page's closure as they write the site; discovery must find exactly those objects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSite } from './discover-site.js';
import { pageUrlPath } from './site-origin.js';

interface Generated {
  pages: Array<{ url: string; closure: string[] }>;
}
interface Generators {
  generateHttpArchivePage(outDir: string): Promise<Generated>;
  generateSurgeSite(o: { pages: number; outDir: string }): Promise<Generated>;
}

const GENERATORS = new URL('../../../../fixtures/generators/index.mjs', import.meta.url).href;
const dir = mkdtempSync(path.join(tmpdir(), 'objpack-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function check(site: string, generated: Generated) {
  const graph = await discoverSite(site, { concurrency: 1 });
  expect(graph.diagnostics).toEqual([]);
  expect(graph.pages).toHaveLength(generated.pages.length);
  for (const want of generated.pages) {
    const page = graph.pages.find((p) => p.url === pageUrlPath(want.url.slice(1)));
    expect(page, want.url).toBeDefined();
    expect(new Set(page?.items.slice(1).map((i) => i.url)), want.url).toEqual(new Set(want.closure));
  }
  return graph;
}

describe('discovery agrees with the fixture generators', () => {
  it('on the HTTP Archive median page (70 objects)', async () => {
    const gen = (await import(GENERATORS)) as Generators;
    const site = path.join(dir, 'har');
    const graph = await check(site, await gen.generateHttpArchivePage(site));
    expect(graph.pages[0]?.items.length).toBe(70);
  });

  it('on a 150-page SURGE-like site', async () => {
    const gen = (await import(GENERATORS)) as Generators;
    const site = path.join(dir, 'surge');
    await check(site, await gen.generateSurgeSite({ pages: 150, outDir: site }));
  });
});
