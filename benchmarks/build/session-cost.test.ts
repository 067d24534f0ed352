import { describe, expect, test } from 'vitest';
// @ts-expect-error -- plain ESM helper without type declarations
import { measureSessions } from './session-measure.mjs';

// Plan quality is a property of the (seeded, deterministic) plan, not of the machine: no timing here.
describe('package plan on the SURGE-like site (10-page sessions)', () => {
  test('bytes sent stay within 1.15× of the unique bytes the pages need, with far fewer requests', async () => {
    const r = await measureSessions({ pages: 400, sessions: 200, length: 10 });
    console.log(
      `SURGE 400 pages, 200 × 10-page sessions: bytes ×${r.bytesRatio.toFixed(3)} (p95 ` +
        `×${r.p95SessionRatio.toFixed(3)}), ${r.requestsPerNavigation.toFixed(2)} requests/navigation vs ` +
        `${r.objectsPerNavigation.toFixed(2)} objects/page`,
    );
    expect(r.bytesRatio).toBeLessThanOrEqual(1.15);
    expect(r.requestsPerNavigation).toBeLessThan(r.objectsPerNavigation / 2);
  }, 120_000);
});
