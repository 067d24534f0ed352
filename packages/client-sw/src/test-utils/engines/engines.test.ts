import { describe, expect, it } from 'vitest';
import { installWorker, pageDone, reference, serveSite } from '../browser.js';
import { useEngineSuite } from '../engine-suite.js';
import { testSite } from '../site.js';
import { ENGINE_NAMES, engineInstalled } from './index.js';

// The one interface the worker's suites use, checked in each engine before those suites rely on it.
describe.each(ENGINE_NAMES)('test engine %s', (name) => {
  describe.skipIf(!engineInstalled(name))('', () => {
    const suite = useEngineSuite(name);

    it('127.0.0.1 and localhost are secure contexts with service workers, as the suites need', async () => {
      serveSite(suite.server, suite.b, testSite(suite.b.register));
      const page = await suite.context.newPage();
      const secure = () => [isSecureContext, 'serviceWorker' in navigator];
      for (const host of ['127.0.0.1', 'localhost']) {
        await page.goto(`http://${host}:${suite.server.port}/install.html`);
        expect(await page.evaluate(secure)).toEqual([true, true]);
      }
    });

    it('installs the test worker, evaluates with an argument, counts the server requests', async () => {
      const site = serveSite(suite.server, suite.b, testSite(suite.b.register));
      const page = await installWorker(suite.context, suite.server);
      expect(await page.evaluate((n: number) => Promise.resolve(n + 1), 41)).toBe(42);
      await expect(page.evaluate(() => Promise.reject(new Error('boom')))).rejects.toThrow(/boom/);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
      expect(await page.textContent('h1')).toBe('Home v1');
      await page.click('#next');
      await page.waitForURL(`${suite.server.origin}/about/`);
      expect(new URL(await page.url()).pathname).toBe('/about/');
    });

    it("a reference page is never controlled by a worker; a second tab shares the first one's", async () => {
      serveSite(suite.server, suite.b, testSite(suite.b.register));
      const ref = await reference(suite.engine, `${suite.server.origin}/`);
      expect(ref.dom).toContain('Home v1');
      expect(ref.shot.subarray(1, 4).toString()).toBe('PNG');
      const page = await installWorker(suite.context, suite.server);
      const tab2 = await suite.context.newPage();
      await tab2.goto(`${suite.server.origin}/about/`);
      expect(await tab2.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await tab2.close();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    });

    it('offline: nothing reaches the server', async () => {
      serveSite(suite.server, suite.b, testSite(suite.b.register));
      const page = await suite.context.newPage();
      await page.goto(`${suite.server.origin}/install.html`);
      await suite.offline(true);
      const reach = (q: string) =>
        fetch(`/assets/data.json?${q}`).then(
          () => 'online',
          () => 'offline',
        );
      expect(await page.evaluate(reach, 'x')).toBe('offline');
      await suite.offline(false);
      expect(await page.evaluate(reach, 'y')).toBe('online');
    });

    it('stops the worker where the engine allows it (Chromium), says so where it cannot', async () => {
      serveSite(suite.server, suite.b, testSite(suite.b.register));
      const page = await installWorker(suite.context, suite.server);
      expect(await suite.stopWorkers(page)).toBe(name === 'chromium');
      expect(await page.evaluate(() => fetch('/assets/data.json').then((r) => r.status))).toBe(200);
    });
  });
});
