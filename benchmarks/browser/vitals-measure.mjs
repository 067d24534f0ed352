/* global document, location, requestIdleCallback, window */
/**
 * One sample of vitals.mjs in a new browser context (a fresh profile: empty HTTP cache, no worker, no
 * connection): a `first` visit loads the measured page straight away; a `session` first loads the site's
 * first page unmeasured (nginx's peer keeps what it fetched in the HTTP cache; objpack's worker installs,
 * takes control and fetches what the snippet hints), waits until the page is idle and the worker has
 * stored every package in flight, then loads the measured page; a `return` visit does the same with the
 * browser quit and started again in between (Chromium, Firefox); an `idle` one with the worker stopped in
 * between (Chromium stops a worker after 30 s without events: a reader who stays on the first page). Only
 * engine-neutral web APIs are used in pages (no DevTools protocol), so the same code runs in every browser of
 * engines.mjs; stopping the worker is the engine's (engines.mjs `stopWorkers`).
 */
import { rm } from 'node:fs/promises';

/**
 * Runs in the page after load: LCP, FCP, DOMContentLoaded, load, page-complete (navigation start → the last
 * same-origin responseEnd of what the page asked for before its load event: a router's idle prefetch after
 * load is not part of loading this page), in ms from navigation start.
 */
function pageVitals() {
  return new Promise((resolve) => {
    const nav = performance.getEntriesByType('navigation')[0];
    const before = performance
      .getEntriesByType('resource')
      .filter((r) => new URL(r.name).origin === location.origin && r.startTime <= nav.loadEventStart);
    let lcp = NaN;
    let lcpWhat = '';
    try {
      new PerformanceObserver((list) => {
        const e = list.getEntries().at(-1);
        lcp = e.startTime;
        // What painted: an image's path, else the element (text).
        const el = e.element;
        lcpWhat = e.url
          ? new URL(e.url).pathname
          : el
            ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`
            : '';
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    } catch {
      /* no LCP in this engine */
    }
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    const last = before.reduce((a, r) => (!a || r.responseEnd > a.responseEnd ? r : a), undefined);
    setTimeout(
      () =>
        resolve({
          lcp,
          lcpWhat,
          fcp,
          dcl: nav.domContentLoadedEventStart,
          load: nav.loadEventStart,
          complete: Math.max(nav.responseEnd, ...before.map((r) => r.responseEnd)),
          htmlStart: nav.responseStart,
          htmlEnd: nav.responseEnd,
          objects: before.length,
          last: last ? new URL(last.name).pathname : '',
        }),
      50,
    );
  });
}

/** Resolves once the page has had two idle periods and 300 ms more: the snippet's idle-time hints are out. */
const pageIdle = () =>
  new Promise((resolve) => {
    const idle = (fn) =>
      'requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 200);
    idle(() => idle(() => setTimeout(resolve, 300)));
  });

/** Asks the bench worker (vitals-sites.mjs) something over a MessageChannel. */
const askWorker = (what) =>
  new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = (e) => resolve(e.data);
    navigator.serviceWorker.controller.postMessage(what, [c.port2]);
  });

/**
 * The unmeasured first page of a visit: loaded, then left idle with every hinted package stored (or, with
 * `dwellMs`, left that long after its load event). Returns the URLs the worker prefetched.
 */
async function visitFirst(page, { origin, first, objpack, dwellMs }) {
  await page.goto(`${origin}${first}`, { waitUntil: 'load', timeout: 60_000 });
  if (objpack)
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  if (dwellMs !== undefined) {
    await page.waitForTimeout(dwellMs);
    return [];
  }
  await page.evaluate(pageIdle);
  if (!objpack) return [];
  await page.evaluate(askWorker, 'bench:settled');
  // The warm page the snippet loads once the hinted packages are in (client-sw worker/warm.ts) is part of
  // the idle state a reader leaves: a frame still loading it is not idle.
  await page.waitForFunction(() => !document.querySelector('iframe[data-objpack-warm]'), undefined, {
    timeout: 10_000,
  });
  return (await page.evaluate(askWorker, 'bench:events')).filter((e) => e.type === 'prefetch').map((e) => e.url);
}

/** Loads the measured page and reads its vitals. */
async function visitMeasured(page, { origin, measured }, prefetched) {
  await page.goto(`${origin}${measured}`, { waitUntil: 'load', timeout: 60_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const vitals = await page.evaluate(pageVitals);
  const controlled = await page.evaluate(() => navigator.serviceWorker?.controller != null);
  const norm = (p) => p.replace(/(index)?\.html$|\/$/, '');
  return { ...vitals, controlled, prefetchedMeasured: prefetched.some((u) => norm(u) === norm(measured)) };
}

/**
 * A `return` visit: the first page in a browser on a new profile directory, the browser quit, then the
 * measured page in a new browser on the same directory (the worker stopped, the memory cache gone; the
 * HTTP disk cache, Cache Storage and the registration kept), as a reader who comes back another day. With
 * `visits` above 2, the reader came back to the measured page `visits − 2` times before, each in a browser
 * started again (Chromium's V8 code cache serves a script from its third load on).
 */
async function measureReturn(browser, o, profileDir) {
  if (!browser.newProfileContext) throw new Error('the return scenario needs a profile directory (Chromium, Firefox)');
  await rm(profileDir, { recursive: true, force: true });
  const viewport = { width: 1280, height: 800 };
  /** Runs `fn` on a page of a browser started on the profile, and quits that browser. */
  const inBrowser = async (fn) => {
    const context = await browser.newProfileContext({ viewport, dir: profileDir });
    try {
      return await fn(context.pages()[0] ?? (await context.newPage()));
    } finally {
      await context.close();
    }
  };
  try {
    const prefetched = await inBrowser((page) => visitFirst(page, o));
    for (let visit = 3; visit <= (o.visits ?? 2); visit++) {
      await inBrowser(async (page) => {
        await page.goto(`${o.origin}${o.measured}`, { waitUntil: 'load', timeout: 60_000 });
        await page.evaluate(pageIdle);
      });
    }
    return await inBrowser((page) => visitMeasured(page, o, prefetched));
  } finally {
    await rm(profileDir, { recursive: true, force: true });
  }
}

/**
 * @param {Awaited<ReturnType<typeof import('./engines.mjs').launchEngine>>} browser
 * @param {{ origin: string, scenario: 'session' | 'first' | 'return' | 'idle', first: string, measured: string,
 *   objpack: boolean, dwellMs?: number, profileDir?: string, visits?: number }} o `dwellMs`: in a session, go on
 *   this long after the first page's load event instead of waiting until the page is idle and the worker has
 *   stored every package (a reader who clicks while prefetches are in flight); `profileDir`: where a `return`
 *   visit keeps its profile; `visits`: which visit of the reader's a `return` measures (default 2)
 */
export async function measureVisit(browser, o) {
  if (o.scenario === 'return') return measureReturn(browser, o, o.profileDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const prefetched = o.scenario === 'first' ? [] : await visitFirst(page, o);
    // Every variant: the plain site has no worker to stop, and makes the same calls.
    if (o.scenario === 'idle') await browser.stopWorkers(page, o.objpack);
    return await visitMeasured(page, o, prefetched);
  } finally {
    await context.close();
  }
}
