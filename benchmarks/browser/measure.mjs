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
    // Epoch-based times, comparable with the worker's (both count from performance.timeOrigin).
    const timing = same.map((r) => ({
      url: new URL(r.name).pathname + new URL(r.name).search,
      start: performance.timeOrigin + r.startTime,
      end: performance.timeOrigin + r.responseEnd,
    }));
    let lcp = NaN;
    const last = same.reduce((a, r) => (!a || r.responseEnd > a.responseEnd ? r : a), undefined);
    // Where the time goes: the page's response headers and HTML, the first object request, the last object.
    const phases = {
      htmlStart: nav.responseStart,
      htmlEnd: nav.responseEnd,
      firstRequest: Math.min(...same.map((r) => r.startTime)),
      last: last ? new URL(last.name).pathname : '',
    };
    const done = () => resolve({ complete, lcp, load: nav.loadEventStart, objects: same.length, timing, phases });
    try {
      new PerformanceObserver((list) => {
        const e = list.getEntries();
        lcp = e[e.length - 1].startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    } catch {
      /* no LCP support */
    }
    setTimeout(done, 50);
  });
}

/**
 * The worker's cost per object as the page sees it: from the object's last byte reaching the worker (or the
 * page asking for it, if later) to the page holding the whole response. Verification, the fetch-event hop
 * and the IPC back are all in it.
 * @param {{ url: string, ms: number, at: number }[]} served worker events
 * @param {{ url: string, start: number, end: number }[]} timing the page's resource timing (epoch ms)
 */
function pageCosts(served, timing) {
  const byUrl = new Map(timing.map((t) => [t.url, t]));
  return served.flatMap((s) => {
    const t = byUrl.get(s.url);
    return t && Number.isFinite(s.at) ? [Math.max(0, t.end - Math.max(s.at, t.start))] : [];
  });
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {{ origin: string, path: string, variant: string }} o
 * @returns {Promise<{ complete: number, lcp: number, load: number, objects: number, duplicates: number, costs:
 * number[], pageCosts: number[] }>}
 */
export async function measure(browser, { origin, path, variant }) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const objpack = variant.startsWith('objpack');
    // Every variant starts from the same place: one warm connection to the server (the install page for
    // objpack, an empty page for the others), empty HTTP cache.
    const install =
      {
        'objpack-cold-nopreload': '/install-nopreload.html',
        'objpack-cold-late': '/install-late.html',
        'objpack-cold-noregcache': '/install-noregcache.html',
        'objpack-cold-baseline': '/install-baseline.html',
      }[variant] ?? '/install.html';
    await page.goto(`${origin}${objpack ? install : '/warm.html'}`);
    if (objpack)
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    if (variant === 'objpack-repeat') {
      await page.goto(`${origin}${path}`, { waitUntil: 'load', timeout: 120_000 });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      // The worker writes to Cache Storage once the page is quiet: wait for that, so the repeat visit is
      // served from Cache Storage (a visit soon after would be served from the worker's memory).
      await page.evaluate(
        () =>
          new Promise((r) => {
            const c = new MessageChannel();
            c.port1.onmessage = r;
            navigator.serviceWorker.controller.postMessage('bench:settled', [c.port2]);
          }),
      );
      await page.goto(`${origin}/warm.html`);
    }
    if (objpack)
      await page.evaluate(
        () =>
          new Promise((r) => {
            const c = new MessageChannel();
            c.port1.onmessage = r;
            navigator.serviceWorker.controller.postMessage('bench:costs', [c.port2]);
          }),
      );
    if (variant === 'objpack-cold-stopped') {
      // What a returning visitor usually meets: the browser stopped the idle worker, so the navigation
      // waits for it to start (Chromium stops idle workers after about 30 s).
      const cdp = await context.newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      const stopped = new Promise((resolve) =>
        cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
          if (e.versions.some((v) => v.runningStatus === 'stopped')) resolve(undefined);
        }),
      );
      await cdp.send('ServiceWorker.stopAllWorkers');
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 2000))]);
      await cdp.detach();
    }
    await page.goto(`${origin}${path}`, { waitUntil: 'load', timeout: 120_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const { timing, ...m } = await page.evaluate(pageMetrics);
    /** @type {{ url: string, ms: number, at: number }[]} */
    const served = objpack
      ? await page.evaluate(
          () =>
            new Promise((r) => {
              const c = new MessageChannel();
              c.port1.onmessage = (e) => r(e.data);
              navigator.serviceWorker.controller.postMessage('bench:costs', [c.port2]);
            }),
        )
      : [];
    // A preload the page did not use (wrong mode, say) would make the page ask the worker twice.
    const duplicates = served.length - new Set(served.map((s) => s.url)).size;
    return { ...m, duplicates, costs: served.map((s) => s.ms), pageCosts: pageCosts(served, timing) };
  } finally {
    await context.close();
  }
}
