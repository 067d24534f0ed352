import { expect, it } from 'vitest';
import { pageDone, serveSite } from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import { stallAfter } from '../test-utils/server.js';
import { testSite } from '../test-utils/site.js';

describeEngines('registration snippet', (engine) => {
  const suite = useEngineSuite(engine);

  it(
    'a first visit registers the worker once the page has ' + 'loaded: its install never competes with the page',
    async () => {
      serveSite(suite.server, suite.b, testSite(suite.b.register));
      // The page's image is held: its load event waits for it.
      const image = stallAfter(0);
      suite.server.hooks.set('/img/home.svg', image.hook);
      const page = await suite.context.newPage();
      const loading = page.goto(`${suite.server.origin}/`);
      await image.reached;
      // Deferred scripts and the module have run (their data is on the page); the load event has not.
      await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
      expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
      expect(suite.server.log.map((r) => r.path)).not.toContain('/sw-test.js');
      image.release();
      await loading;
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
      await pageDone(page);
      expect(suite.server.log.map((r) => r.path)).toContain('/sw-test.js');
    },
  );
});
