import { describe, expect, test } from 'vitest';
import { expectedExtraCopies, planPackages } from './plan-packages.js';
import type { PlanObject, PlanPage } from './types.js';

const obj = (url: string, bytes: number): PlanObject => ({
  url,
  path: url,
  file: `/site${url}`,
  rel: url.slice(1),
  bytes,
  contentType: 'application/octet-stream',
  as: 'image',
  sendBytes: bytes,
  digest: new Uint8Array(32).fill(url.length),
  sri: 'sha256-x',
});
const page = (url: string, objects: PlanObject[]): PlanPage => ({
  url,
  file: `${url.slice(1) || 'index'}.html`,
  items: [obj(`${url}#html`.replace('#html', url === '/' ? 'index.html' : '.html'), 1000), ...objects],
  critical: [],
  crossOrigin: [],
});

describe('planPackages', () => {
  const css = obj('/site.css', 40_000);
  const js = obj('/app.js', 30_000);
  const logo = obj('/logo.png', 20_000);
  const own = (n: number) => obj(`/own-${n}.png`, 5_000);

  test('objects used by one page stay in its page package; site-wide objects are shared once', () => {
    const pages = Array.from({ length: 10 }, (_, i) => page(`/p${i}`, [css, js, own(i)]));
    const plan = planPackages(pages);
    expect(plan.shared).toHaveLength(1);
    expect(plan.shared[0]!.objects.map((o) => o.url)).toEqual(['/site.css', '/app.js']);
    expect(plan.shared[0]!.url).toMatch(/^\/_objpack\/shared\/[0-9a-f]{16}\.objp$/);
    for (const [i, p] of plan.pages.entries()) {
      expect(p.objects.map((o) => o.url)).toEqual([pages[i]!.items[0]!.url, `/own-${i}.png`]);
      expect(p.shared).toEqual([plan.shared[0]!.url]);
    }
  });

  test(
    'groups by the exact set of pages: two sections get two ' +
      'packages, nothing sent to a page that does not need it',
    () => {
      const a = obj('/a.css', 50_000);
      const b = obj('/b.css', 50_000);
      const pages = [
        ...Array.from({ length: 5 }, (_, i) => page(`/a${i}`, [css, a])),
        ...Array.from({ length: 5 }, (_, i) => page(`/b${i}`, [css, b])),
      ];
      const plan = planPackages(pages);
      expect(plan.shared).toHaveLength(3);
      for (const p of plan.pages) {
        const carried = new Set(
          [...p.objects, ...p.shared.flatMap((u) => plan.shared.find((s) => s.url === u)!.objects)].map((o) => o.url),
        );
        expect(carried).toEqual(new Set(p.closure.map((o) => o.url)));
      }
    },
  );

  test('a small group covered by a bigger one rides in it; every object lands in exactly one package', () => {
    const tiny = obj('/tiny.svg', 500);
    const pages = Array.from({ length: 10 }, (_, i) => page(`/p${i}`, i < 8 ? [css, tiny] : [css]));
    const plan = planPackages(pages, { requestCostBytes: 0 });
    expect(plan.stats.mergedGroups).toBe(1);
    expect(plan.shared).toHaveLength(1);
    expect(plan.shared[0]!.objects.map((o) => o.url)).toContain('/tiny.svg');
    const placed = [...plan.pages.flatMap((p) => p.objects.slice(1)), ...plan.shared.flatMap((s) => s.objects)].map(
      (o) => o.url,
    );
    expect(new Set(placed).size).toBe(placed.length);
  });

  test('a rarely shared small object is inlined (duplicated) instead of costing a request', () => {
    const pages = Array.from({ length: 100 }, (_, i) => page(`/p${i}`, i < 2 ? [css, logo] : [css]));
    const plan = planPackages(pages);
    expect(plan.pages[0]!.objects.map((o) => o.url)).toContain('/logo.png');
    expect(plan.pages[1]!.objects.map((o) => o.url)).toContain('/logo.png');
    expect(plan.stats.duplicatedBytes).toBe(20_000);
    expect(plan.stats.inlinedGroups).toBe(1);
  });

  test('shared refs follow the order the page first needs them', () => {
    const pages = Array.from({ length: 4 }, (_, i) => page(`/p${i}`, i < 2 ? [css, js, logo] : [logo, css]));
    const plan = planPackages(pages, { requestCostBytes: 0 });
    const pkgOf = (u: string) => plan.shared.find((s) => s.objects.some((o) => o.url === u))!.url;
    expect(plan.pages[3]!.shared[0]).toBe(pkgOf('/logo.png'));
    expect(plan.pages[0]!.shared[0]).toBe(pkgOf('/site.css'));
  });

  test('shared package names are content hashes: same input, same names; a changed byte, a new name', () => {
    const pages = Array.from({ length: 3 }, (_, i) => page(`/p${i}`, [css]));
    const one = planPackages(pages).shared[0]!.url;
    expect(planPackages(pages).shared[0]!.url).toBe(one);
    const changed = { ...css, digest: new Uint8Array(32).fill(99) };
    expect(planPackages(pages.map((p) => ({ ...p, items: [p.items[0]!, changed] }))).shared[0]!.url).not.toBe(one);
  });

  test('expectedExtraCopies is E[max(0, X − 1)] for X ~ Bin(k, q)', () => {
    expect(expectedExtraCopies(0, 10)).toBe(0);
    expect(expectedExtraCopies(1, 10)).toBe(9);
    // Bin(2, 0.5): P(X=2) = 0.25 → one extra copy a quarter of the time.
    expect(expectedExtraCopies(0.5, 2)).toBeCloseTo(0.25);
  });
});
