import type { PreloadEntry } from '@objpack/format';

/** Longest the warm page waits for what it loads before it stops, when it has classic scripts (ms). */
export const WARM_WAIT_MS = 5000;

/**
 * Elements per announced kind that fetch as the page's own would, and use what they fetch: Chromium drops an
 * unused preload from its memory cache when the frame goes. Fonts load through `FontFace` (warmScript).
 * A classic script is a `defer` one in a document that never finishes parsing (see {@link warmDocument}):
 * fetched at once, run only once parsing ends.
 */
const TAG: Record<string, (href: string, mode: string) => string> = {
  style: (h, m) => `<link rel="stylesheet"${m} href="${h}">`,
  image: (h, m) => `<img${m} src="${h}" alt="">`,
  module: (h, m) => `<link rel="modulepreload"${m} href="${h}">`,
  script: (h, m) => `<script defer${m} src="${h}"></script>`,
  chunk: (h, m) => `<script defer${m} src="${h}"></script>`,
};

/** Whether the warm page loads objects of this announced kind (as an element, or a font as `FontFace`). */
export const warmable = (kind: string): boolean => kind === 'font' || Object.hasOwn(TAG, kind);

/**
 * The warm page's HTML for `entries` (same-origin printable-ASCII paths, preloadsFor). Without classic
 * scripts the document ends and waits for its `load` event. With them, `endless` is set: the worker sends
 * the HTML as a body that never ends, so the `defer` scripts load but never run; the page waits until every
 * URL it loads has a resource timing entry (its bytes are in) or {@link WARM_WAIT_MS}, then calls `stop()`,
 * which ends parsing without running them. Should the body end first anyway (a worker stopped
 * mid-stream), the page removes its own frame when parsing ends, before a defer script could run; outside
 * a frame it stops at once.
 */
export function warmDocument(entries: readonly PreloadEntry[]): { html: string; endless: boolean } {
  const fonts = entries.filter(([, kind]) => kind === 'font').map(([url]) => url);
  const loaded = entries.filter(([, kind]) => kind !== 'font' && warmable(kind));
  const endless = loaded.some(([, kind]) => kind === 'script' || kind === 'chunk');
  const script = warmScript(fonts, endless ? loaded.map(([url]) => url) : undefined);
  const elements = loaded.map(element);
  // With classic scripts the script goes first: it must be listening before any of them is parsed.
  const body = endless ? [script, ...elements] : [...elements, script];
  return { html: `<!doctype html><meta charset="utf-8"><title>objpack</title>\n${body.join('\n')}\n`, endless };
}

/**
 * Loads `fonts` as a page's `@font-face` would (CORS, the frame's credentials); once they and the frame's
 * elements are in, tells the registration snippet that the frame may go. `urls`: the document never ends
 * (classic scripts), so wait for their resource timing entries instead of `load`, and stop.
 */
function warmScript(fonts: readonly string[], urls: readonly string[] | undefined): string {
  const css = fonts.map((u) => `url("${u.replace(/["\\]/g, (c) => `\\${c}`)}")`);
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  const faces = `Promise.allSettled(${json(css)}.map((u, i) => new FontFace('objpack-warm-' + i, u).load()))`;
  const warmed = `parent.postMessage({ type: 'objpack:warmed' }, location.origin)`;
  const onLoad = `new Promise((r) => addEventListener('load', r))`;
  if (!urls) return `<script>Promise.all([${onLoad}, ${faces}]).then(() => ${warmed});</script>`;
  return (
    '<script>(() => {' +
    'let stopped = false;' +
    'const halt = () => { if (!stopped) { stopped = true; stop(); } };' +
    'if (!frameElement) return halt();' +
    "document.addEventListener('readystatechange', () => {" +
    'if (!stopped) { stopped = true; frameElement.remove(); } });' +
    `const want = new Set(${json(urls)}.map((p) => new URL(p, location.href).href));` +
    'const seen = (list) => { for (const e of list) want.delete(e.name); return want.size === 0; };' +
    `const loaded = new Promise((r) => { setTimeout(r, ${WARM_WAIT_MS}); try {` +
    "new PerformanceObserver((l) => seen(l.getEntries()) && r()).observe({ type: 'resource', buffered: true });" +
    "} catch { /* no resource timing: the timeout */ } if (seen(performance.getEntriesByType('resource'))) r(); });" +
    `Promise.all([loaded, ${faces}]).then(() => { halt(); ${warmed}; });` +
    '})();</script>'
  );
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function element([url, kind, cors]: PreloadEntry): string {
  const mode =
    cors === 'use-credentials' ? ' crossorigin="use-credentials"' : cors === 'anonymous' ? ' crossorigin' : '';
  return TAG[kind]!(escapeAttr(url), mode);
}
