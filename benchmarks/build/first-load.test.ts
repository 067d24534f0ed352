import { describe, expect, test } from 'vitest';
// @ts-expect-error -- plain ESM helper without type declarations
import { firstLoadCases, measureCase } from './first-load.mjs';

interface PageResult {
  page: string;
  ratio: number;
  missing: string[];
}

// Package bytes are a property of the build, Chromium's of the fixtures' oracle (checked in Chromium by
// closure-fixtures.test.ts): deterministic, no timing.
describe('a first navigation downloads what Chromium loads for the page, and all of it', () => {
  for (const c of firstLoadCases() as Array<{ name: string }>) {
    test(`${c.name}: packages ≤ 1.05× Chromium's bytes on every page, none of its objects missing`, async () => {
      const r = (await measureCase(c)) as { pages: PageResult[]; ratio: number };
      console.log(`${c.name}: first-navigation packages / Chromium bytes = ${r.ratio.toFixed(3)}`);
      for (const p of r.pages) {
        expect(p.missing, p.page).toEqual([]);
        expect(p.ratio, p.page).toBeLessThanOrEqual(1.05);
      }
    }, 120_000);
  }
});
