/* global document, location */
/**
 * One measured navigation in a fresh browser context: page-complete (navigation start → the last
 * same-origin object's responseEnd), LCP and the load event, from the page's own performance entries.
 */

/** Runs in the page after load: the three numbers, in ms from navigation start. */
function pageMetrics() {
  return new Promise((resolve) => {
    const nav = performance.getEntriesByType('navigation')[0];
    const same = performance.getEntriesByType('resource').filter((r) => new URL(r.name).origin === location.origin);
    const complete = Math.max(nav.responseEnd, ...same.map((r) => r.responseEnd));
    let lcp = NaN;
    const done = () => resolve({ complete, lcp, load: nav.loadEventStart, objects: same.length });
    try {
      new PerformanceObserver((list) => {
        const e = list.getEntries();
        lcp = e[e.length - 1].startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    } catch { /* no LCP support */ }
    setTimeout(done, 50);
  });
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {{ origin: string, path: string, variant: string }} o
 * @returns {Promise<{ complete: number, lcp: number, load: number, objects: number, costs: number[] }>}
 */
export async function measure(browser, { origin, path, variant }) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const objpack = variant.startsWith('objpack');
    // Every variant starts from the same place: one warm connection to the server (the install page for
    // objpack, an empty page for the others), empty HTTP cache.
    await page.goto(`${origin}${objpack ? '/install.html' : '/warm.html'}`);
    if (objpack) await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    if (variant === 'objpack-repeat') {
      await page.goto(`${origin}${path}`, { waitUntil: 'load', timeout: 120_000 });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.goto(`${origin}/warm.html`);
    }
    if (objpack) await page.evaluate(() => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; navigator.serviceWorker.controller.postMessage('bench:costs', [c.port2]); }));
    await page.goto(`${origin}${path}`, { waitUntil: 'load', timeout: 120_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const m = await page.evaluate(pageMetrics);
    const costs = objpack
      ? await page.evaluate(() => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = (e) => r(e.data); navigator.serviceWorker.controller.postMessage('bench:costs', [c.port2]); }))
      : [];
    return { ...m, costs };
  } finally {
    await context.close();
  }
}
