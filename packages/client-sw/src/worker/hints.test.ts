import { expect, it } from 'vitest';
import { installWorker, pageDone, serveSite } from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import { testSite } from '../test-utils/site.js';

describeEngines('next-page hints', (engine) => {
  const suite = useEngineSuite(engine);

  /** Loads the home page with the worker, waits for its on-screen link's hint, clicks it: what that cost. */
  async function hintedClick(spec: ReturnType<typeof testSite>) {
    const site = serveSite(suite.server, suite.b, spec);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    // No gesture: the link is on screen.
    const hinted = () => suite.server.log.some((r) => r.path === site.pagePackage['/about/']);
    await expect.poll(hinted, { timeout: 5000 }).toBe(true);
    suite.server.take();
    await page.click('#next');
    await page.waitForURL(`${suite.server.origin}/about/`);
    await pageDone(page);
    return { page, requests: suite.server.take() };
  }

  it('prefetches links in the viewport once the page is idle, so the click costs no request', async () => {
    const { requests } = await hintedClick(testSite(suite.b.register, 1, { prefetch: true }));
    expect(requests).toEqual([]);
  });

  it(
    'Speculation Rules where the engine has them; elsewhere ' + "the worker's hints still make the click free",
    async () => {
      const spec = testSite(suite.b.register, 1, { prefetch: true, speculation: 'prefetch' });
      const { page, requests } = await hintedClick(spec);
      expect(requests).toEqual([]);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      const [supported, rules] = await page.evaluate(() => [
        HTMLScriptElement.supports?.('speculationrules') ?? false,
        [...document.querySelectorAll('script[type="speculationrules"]')].map(
          (s) => JSON.parse(s.textContent ?? '') as unknown,
        ),
      ]);
      // Only Chromium implements them (Firefox 153 ESR and WebKitGTK 2.50 do not).
      expect(supported).toBe(engine === 'chromium');
      expect(rules).toEqual(
        supported ? [{ prefetch: [{ where: { href_matches: '/*' }, eagerness: 'moderate' }] }] : [],
      );
    },
  );
});
