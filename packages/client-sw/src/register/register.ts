/**
 * `objpack-register.js`: loaded by every page with `<script src="/objpack-register.js" defer fetchpriority="high">`.
 * Registers the worker and hints likely next pages to it (links in the viewport once idle, also those a script adds
 * later; on hover, touch, press or keyboard focus), at most MAX_HINTS of each kind per view, so
 * their packages arrive before the click; never before the page's load event. No dependencies; does nothing where
 * service workers are missing. Options are data attributes on the script tag: `data-sw`, `data-scope`,
 * `data-prefetch="off"`, `data-speculation="prefetch|prerender"` (also emit Speculation Rules for same-origin links),
 * `data-warm="off"` (no warm page after a first visit, see worker/warm.ts).
 * The worker defaults to `objpack-sw.js` beside this script, with the script's directory as its scope: a site built
 * for `/repo/` loads `/repo/objpack-register.js`, which registers `/repo/objpack-sw.js` for `/repo/`.
 */
interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

const MAX_HINTS = 24;

(() => {
  if (!('serviceWorker' in navigator)) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const data = script?.dataset ?? {};
  // A worker can be registered from its own origin only: a script loaded from elsewhere keeps the root.
  const src = script?.src ? new URL(script.src) : undefined;
  const dir = src && src.origin === location.origin ? new URL('./', src).pathname : '/';
  const scope = data.scope || dir;
  // Once the page has loaded: on a first visit the worker's install (its script, the route table, the
  // packages it is hinted) would compete with the page's own requests and scripts.
  const register = () =>
    navigator.serviceWorker
      .register(data.sw || `${dir}objpack-sw.js`, { scope, updateViaCache: 'none' })
      .catch(() => {});
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
  // The worker cannot see a page in the back/forward cache (clients.matchAll() leaves it out) and would take
  // it for closed: this page may come back, and its later requests must still get its own build's objects.
  addEventListener('pagehide', (e) => {
    if (e.persisted) navigator.serviceWorker.controller?.postMessage({ type: 'objpack:frozen' });
  });

  const conn = (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
  // Prefetching spends the user's bytes on a guess: not when they asked to save data or the link is 2G.
  if (data.prefetch === 'off' || conn?.saveData || /(^|-)2g$/.test(conn?.effectiveType ?? '')) return;

  if (data.speculation === 'prefetch' || data.speculation === 'prerender') {
    if (HTMLScriptElement.supports?.('speculationrules')) {
      const rules = document.createElement('script');
      rules.type = 'speculationrules';
      const rule = { where: { href_matches: `${scope}*` }, eagerness: 'moderate' };
      rules.textContent = JSON.stringify({ [data.speculation]: [rule] });
      document.head.append(rules);
    }
  }

  // Budgets are per view: a client-side router (Next's <Link>, VitePress, Docusaurus) shows many pages in
  // one document, and a lifetime budget spent on the first view left every later one without hints.
  const sent = new Set<string>([location.pathname]);
  // A page loaded without the worker (a first visit) asks for the warm page once its hints are in: the next
  // page then takes this one's shared objects from the memory cache instead of asking the worker for each.
  let warm = !navigator.serviceWorker.controller && data.warm !== 'off';
  let view = location.pathname;
  const spent = { viewport: 0, intent: 0 };
  /** Viewport links seen before the worker controls the page (a first visit): hinted once it does. */
  let waiting: HTMLAnchorElement[] | undefined;
  const idle = (fn: () => void) =>
    'requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 200);
  /**
   * Hints before the page's load event (a hover while it loads) wait for it and an idle moment: on a slow
   * link a package fetched ahead takes bandwidth from the page being loaded.
   */
  let early: Array<[HTMLAnchorElement[], keyof typeof spent]> | undefined;
  const hint = (links: HTMLAnchorElement[], kind: keyof typeof spent) => {
    if (document.readyState !== 'complete') {
      if (!early) {
        early = [];
        addEventListener(
          'load',
          () =>
            idle(() => {
              const queued = early ?? [];
              early = undefined;
              for (const [l, k] of queued) hint(l, k);
            }),
          { once: true },
        );
      }
      early.push([links, kind]);
      return;
    }
    const worker = navigator.serviceWorker.controller;
    if (!worker) {
      if (kind !== 'viewport') return;
      if (!waiting) {
        waiting = [];
        navigator.serviceWorker.addEventListener(
          'controllerchange',
          () => {
            const seen = waiting ?? [];
            waiting = undefined;
            hint(seen, 'viewport');
          },
          { once: true },
        );
      }
      waiting.push(...links.slice(0, MAX_HINTS - waiting.length));
      return;
    }
    if (location.pathname !== view) {
      view = location.pathname;
      sent.add(view);
      spent.viewport = spent.intent = 0;
    }
    const urls: string[] = [];
    for (const a of links) {
      // Pages outside the worker's scope (another site on the origin) are not its to fetch.
      if (a.origin !== location.origin || !a.pathname.startsWith(scope) || a.hasAttribute('download')) continue;
      if (sent.has(a.pathname) || spent[kind] >= MAX_HINTS) continue;
      sent.add(a.pathname);
      spent[kind]++;
      urls.push(a.pathname);
    }
    if (urls.length === 0) return;
    worker.postMessage({ type: 'objpack:prefetch', urls, ...(warm ? { warm: true } : {}) });
    warm = false;
  };
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent<{ type?: string } | null>) => {
    if (e.data?.type !== 'objpack:warm' || document.querySelector('iframe[data-objpack-warm]')) return;
    idle(() => {
      const frame = document.createElement('iframe');
      frame.hidden = true;
      frame.tabIndex = -1;
      frame.title = 'objpack';
      frame.setAttribute('aria-hidden', 'true');
      frame.dataset.objpackWarm = '';
      frame.src = `${scope}_objpack/warm?page=${encodeURIComponent(location.pathname)}`;
      // What it loaded stays in the memory cache once the frame is gone.
      const done = () => {
        frame.remove();
        removeEventListener('message', onWarmed);
      };
      const onWarmed = (m: MessageEvent<{ type?: string } | null>) => {
        if (m.source === frame.contentWindow && m.data?.type === 'objpack:warmed') done();
      };
      addEventListener('message', onWarmed);
      setTimeout(done, 10_000);
      (document.body ?? document.documentElement).append(frame);
    });
  });

  // Intent: the pointer on a link, a touch, a press, or keyboard focus (no pointer event precedes Enter).
  const onIntent = (e: Event) => {
    const a = (e.target as Element | null)?.closest?.('a[href]');
    if (a instanceof HTMLAnchorElement) hint([a], 'intent');
  };
  for (const type of ['mouseover', 'touchstart', 'pointerdown', 'focusin'])
    document.addEventListener(type, onIntent, { passive: true, capture: true });

  const watchViewport = () =>
    idle(() => {
      if (!('IntersectionObserver' in window)) return;
      const seen: HTMLAnchorElement[] = [];
      const io = new IntersectionObserver((entries) => {
        for (const e of entries) {
          if (!e.isIntersecting) continue;
          io.unobserve(e.target);
          seen.push(e.target as HTMLAnchorElement);
        }
        idle(() => hint(seen.splice(0), 'viewport'));
      });
      const observe = (root: ParentNode) => {
        if (root instanceof HTMLAnchorElement && root.hasAttribute('href')) io.observe(root);
        for (const a of root.querySelectorAll<HTMLAnchorElement>('a[href]')) io.observe(a);
      };
      observe(document);
      // Links a script adds later (a client-side router's next view, content loaded on scroll), or whose
      // href it changes, are watched too; work is deferred to idle time and done per added subtree.
      if (!('MutationObserver' in window)) return;
      const added: ParentNode[] = [];
      const mo = new MutationObserver((records) => {
        const first = added.length === 0;
        for (const r of records) {
          if (r.type === 'attributes') added.push(r.target as Element);
          else for (const n of r.addedNodes) if (n instanceof Element) added.push(n);
        }
        if (first && added.length > 0) idle(() => added.splice(0).forEach(observe));
      });
      mo.observe(document.documentElement, {
        childList: true,
        subtree: true,
        attributes: true,
        attributeFilter: ['href'],
      });
    });
  if (document.readyState === 'complete') watchViewport();
  else addEventListener('load', watchViewport, { once: true });
})();
