// What spa-session.mjs runs in and asks of the page: its instrumentation, links in view, a step's target shown.

/**
 * Page-side instrumentation: the snippet's hints (postMessage to the worker), links present at load, a marker that dies
 * with the document.
 */
export const INIT =
  `(() => {
  window.__hints = [];
  window.__doc = Math.random().toString(36).slice(2);
  const post = ServiceWorker.prototype.postMessage;
  ServiceWorker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.type === 'objpack:prefetch') window.__hints.push({ t: Math.round(performance.now()), urls: ` +
  `[...msg.urls] });
    return post.call(this, msg, ...rest);
  };
  window.__atLoad = new WeakSet();
  addEventListener('load', () => { for (const a of document.querySelectorAll('a[href]')) window.__atLoad.add(a); });
})()`;

/** Same-origin links in the viewport now, and whether each element was in the document at load. */
export const VIEWPORT_LINKS =
  `(() => {
  const out = [];
  for (const a of document.querySelectorAll('a[href]')) {
    if (a.origin !== location.origin || a.pathname === location.pathname) continue;
    const r = a.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > ` +
  `innerWidth) continue;
    out.push({ path: a.pathname, atLoad: window.__atLoad.has(a) });
  }
  return out;
})()`;

/** The URLs the snippet hinted on this page so far. */
export const hintedPaths = (page) => page.evaluate('window.__hints ? window.__hints.flatMap((h) => h.urls) : []');
/** A page-side expression: the step's target at `path` is shown (its h1 or title, when the step names one). */
export const shownExpr = (step, path) => {
  const cond = [`location.pathname === ${JSON.stringify(path)}`];
  if (step.h1) cond.push(`(document.querySelector('h1')?.textContent ?? '').includes(${JSON.stringify(step.h1)})`);
  if (step.title) cond.push(`document.title === ${JSON.stringify(step.title)}`);
  return cond.join(' && ');
};

/**
 * Waits until `step`'s target at `path` is shown: the time since `start`, whether it took a new document
 * (the marker `doc` of the one before is gone), and the wait's error if it timed out.
 */
export async function shown(page, step, path, doc, start) {
  let error;
  try {
    await page.waitForFunction(shownExpr(step, path), undefined, { timeout: 15_000 });
  } catch (err) {
    error = String(err.message).split('\n')[0];
  }
  const shownMs = Math.round(performance.now() - start);
  const documentNav = (await page.evaluate('window.__doc').catch(() => undefined)) !== doc;
  return { shownMs, documentNav, error };
}
