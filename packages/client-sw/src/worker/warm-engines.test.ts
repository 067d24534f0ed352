import { expect, it } from 'vitest';
import { serveSite, swEvents, swFetches } from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import { classicScriptSite } from '../test-utils/site.js';

/** A `_headers` rule that lets a browser reuse the site's assets for ten minutes. */
const objectCache: Array<[string, string, string]> = [['^/assets/', 'iu', 'public, max-age=600']];

describeEngines('the warm page', (engine) => {
  const suite = useEngineSuite(engine);

  it("fetches the first page's classic scripts and never runs them", async () => {
    serveSite(suite.server, suite.b, classicScriptSite(suite.b.register, { '/': [], '/about/': [] }, objectCache));
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
    await expect
      .poll(async () => (await swEvents(page)).find((e) => e.type === 'warm')?.detail, { timeout: 15_000 })
      .toBe('1');
    await page.waitForFunction(() => !document.querySelector('iframe[data-objpack-warm]'), undefined, {
      timeout: 15_000,
    });
    // The page itself loaded it without a worker: a fetch the worker saw is the warm page's.
    expect((await swFetches(page)).map((f) => f.url)).toContain('/assets/legacy.js');
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.evaluate(() => (window as unknown as { ran?: string[] }).ran)).toEqual(['/']);
  });
});
