import { expect, it } from 'vitest';
import { serveSite, swEvents, swFetches } from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import { classicScriptSite } from '../test-utils/site.js';
import { warmDocument } from './warm-document.js';

/** A `_headers` rule that lets a browser reuse the site's assets for ten minutes. */
const objectCache: Array<[string, string, string]> = [['^/assets/', 'iu', 'public, max-age=600']];
/** The worker knows the test site's snippet as a build's worker knows `objpack-register.js`. */
const worker = { options: { registerUrl: '/sw-register.js' } };

describeEngines('the warm page', (engine) => {
  const suite = useEngineSuite(engine);

  it("fetches the first page's classic scripts and the snippet, and never runs them", async () => {
    serveSite(
      suite.server,
      suite.b,
      classicScriptSite(suite.b.register, { '/': [], '/about/': [] }, objectCache),
      worker,
    );
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
    await expect
      .poll(async () => (await swEvents(page)).find((e) => e.type === 'warm')?.detail, { timeout: 15_000 })
      .toBe('2');
    // Well before the snippet's own 10 s limit: the page said it was done.
    await page.waitForFunction(() => !document.querySelector('iframe[data-objpack-warm]'), undefined, {
      timeout: 4_000,
    });
    // The page itself loaded it without a worker: a fetch the worker saw is the warm page's.
    expect((await swFetches(page)).map((f) => f.url)).toContain('/assets/legacy.js');
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.evaluate(() => (window as unknown as { ran?: string[] }).ran)).toEqual(['/']);
  });

  it('a warm page whose body ends (a worker stopped mid-stream) removes its frame before a script runs', async () => {
    const text = (type: string, body: string) => ({ type, body: Buffer.from(body) });
    // The image never comes, so the page is still waiting when its body ends.
    const { html, endless } = warmDocument([
      ['/assets/legacy.js', 'script'],
      ['/img/never.svg', 'image'],
    ]);
    expect(endless).toBe(true);
    suite.server.files.set('/', text('text/html', '<!doctype html><title>top</title><iframe src="/warm"></iframe>'));
    suite.server.files.set(
      '/assets/legacy.js',
      text('text/javascript', '(top.ran = top.ran || []).push(location.pathname);'),
    );
    suite.server.hooks.set('/img/never.svg', () => new Promise<boolean>(() => undefined));
    // A chunked body that ends only once the script is in the frame's hands, ready to run.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    suite.server.hooks.set('/warm', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      res.write(html);
      await gate;
      res.end();
      return true;
    });
    const page = await suite.context.newPage();
    const loading = page.goto(`${suite.server.origin}/`);
    await expect
      .poll(() => suite.server.log.some((r) => r.path === '/assets/legacy.js'), { timeout: 10_000 })
      .toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    release();
    await loading;
    await new Promise((r) => setTimeout(r, 800));
    expect(await page.evaluate(() => (window as unknown as { ran?: string[] }).ran ?? [])).toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0);
  });
});
