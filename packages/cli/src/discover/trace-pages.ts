/**
 * `--trace`: loads pages in headless Chromium and compares what the browser requested with the static
 * closure, to find objects static analysis cannot see (URLs computed by scripts, `fetch()` calls…).
 */
import { existsSync } from 'node:fs';
import type { Browser, Request } from 'playwright-core';
import { DiscoverCodes, DiscoverError } from './diagnostic-codes.js';
import { decodePath } from './resolve-url.js';
import { serveFiles } from './static-server.js';
import type { ClosureItem, PageClosure, PreloadAs, SiteGraph } from './types.js';

/** Launch flags for reproducible headless runs (no background traffic that would pollute the record). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium binary to use: $OBJPACK_CHROMIUM, else Debian's /usr/bin/chromium; undefined if neither exists. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.OBJPACK_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c): c is string => !!c && existsSync(c));
}

export interface TraceOptions {
  /** Trace at most this many pages, spread evenly over the site (default: all). */
  sample?: number;
  /** Where the site is already served; default: a private static server on 127.0.0.1. */
  serveUrl?: string;
  /** Pages loaded at once (default 2). */
  concurrency?: number;
  /** Extra time to wait after the network goes idle, for late script-driven requests (default 0). */
  settleMs?: number;
}

export interface TraceResult {
  /** Per page URL: objects the browser loaded that exist in the site but are not in the static closure. */
  added: Map<string, ClosureItem[]>;
  /** Every same-origin request the closure did not predict (including ones that got 404). */
  missedByStatic: Array<{ page: string; url: string }>;
}

/** Records the same-origin request URLs (path + query) a page makes while loading. */
export interface PageRecording {
  /** `mainFrame` is false for requests made by iframes (other pages, with closures of their own). */
  requests: Array<{ url: string; resourceType: string; status: number | undefined; mainFrame: boolean }>;
}

const RESOURCE_AS: Record<string, PreloadAs> = {
  document: 'document',
  stylesheet: 'style',
  script: 'script',
  font: 'font',
  image: 'image',
  media: 'video',
  texttrack: 'track',
};

/** Starts Chromium through playwright-core, or throws OBJPACK_E_NO_BROWSER naming what is missing. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath)
    throw new DiscoverError(
      DiscoverCodes.NO_BROWSER,
      'Chromium not found: install it (apt install chromium) or set OBJPACK_CHROMIUM',
    );
  let pw: { chromium: { launch(o: { executablePath: string; args: string[] }): Promise<Browser> } };
  try {
    pw = await import('playwright-core');
  } catch (cause) {
    throw new DiscoverError(DiscoverCodes.NO_BROWSER, 'playwright-core is not installed: npm i -D playwright-core', {
      cause,
    });
  }
  return pw.chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export interface RecordOptions {
  /** Extra wait after the network went quiet. */
  settleMs?: number;
  quietMs?: number;
  /**
   * URL paths (with query) to keep waiting for, up to the 10 s deadline, after the network went quiet.
   * Chromium fetches a page's icon after `load`, on its own schedule; on a loaded machine that can come
   * later than the quiet window, and the oracle would report an icon the browser does fetch as unneeded.
   */
  awaitUrls?: readonly string[];
}

/**
 * Loads one page in a fresh context (empty cache) and records its same-origin requests, until the
 * network has been quiet for `quietMs`. Playwright's 'networkidle' is not used: a response whose body the
 * page never reads (a fire-and-forget fetch()) never "finishes", so it would always time out.
 */
export async function recordPage(browser: Browser, url: string, opts: RecordOptions = {}): Promise<PageRecording> {
  const { settleMs = 0, quietMs = 400, awaitUrls = [] } = opts;
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const origin = new URL(url).origin;
    const statuses = new Map<Request, number>();
    const seen: Request[] = [];
    const inflight = new Set<Request>();
    let lastEvent = Date.now();
    page.on('request', (req) => {
      seen.push(req);
      inflight.add(req);
      lastEvent = Date.now();
    });
    page.on('response', (res) => {
      statuses.set(res.request(), res.status());
      inflight.delete(res.request());
      lastEvent = Date.now();
    });
    page.on('requestfailed', (req) => {
      inflight.delete(req);
      lastEvent = Date.now();
    });
    await page.goto(url, { waitUntil: 'load' });
    // Web fonts are asked for by layout, which a busy machine may run after the network has been quiet for
    // `quietMs`: force it, then wait for the font loads it starts (a page that navigated away answers nothing).
    await page
      .evaluate('void document.body?.offsetHeight; document.fonts.ready.then(() => undefined)')
      .catch(() => undefined);
    const deadline = Date.now() + 10_000;
    const awaited = () => {
      const urls = new Set(
        seen.map((r) => {
          const u = new URL(r.url());
          return u.origin === origin ? u.pathname + u.search : '';
        }),
      );
      return awaitUrls.every((u) => urls.has(u));
    };
    while (Date.now() < deadline && (inflight.size > 0 || Date.now() - lastEvent < quietMs || !awaited()))
      await page.waitForTimeout(50);
    if (settleMs > 0) await page.waitForTimeout(settleMs);
    const requests: PageRecording['requests'] = [];
    for (const req of seen) {
      const u = new URL(req.url());
      if (u.origin !== origin) continue;
      let mainFrame = true;
      try {
        mainFrame = req.frame() === page.mainFrame();
      } catch {
        // requests from workers have no frame; they belong to the page
      }
      requests.push({
        url: u.pathname + u.search,
        resourceType: req.resourceType(),
        status: statuses.get(req),
        mainFrame,
      });
    }
    return { requests };
  } finally {
    await context.close();
  }
}

/** Picks `n` pages spread evenly over the list (deterministic, so traces are reproducible). */
export function samplePages(pages: PageClosure[], n: number | undefined): PageClosure[] {
  if (n === undefined || n >= pages.length) return pages;
  if (n <= 0) return [];
  const step = pages.length / n;
  return Array.from({ length: n }, (_, i) => pages[Math.floor(i * step)] as PageClosure);
}

export async function tracePages(_root: string, graph: SiteGraph, opts: TraceOptions = {}): Promise<TraceResult> {
  const browser = await launchChromium();
  const server = opts.serveUrl ? undefined : await serveFiles(graph.files);
  const base = opts.serveUrl ?? (server as { origin: string }).origin;
  const result: TraceResult = { added: new Map(), missedByStatic: [] };
  const queue = samplePages(graph.pages, opts.sample);
  let next = 0;
  const lane = async () => {
    while (next < queue.length) {
      const page = queue[next++] as PageClosure;
      const recording = await recordPage(browser, new URL(page.url, base).href, { settleMs: opts.settleMs });
      compare(graph, page, recording, result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, lane));
  } finally {
    await browser.close();
    await server?.close();
  }
  return result;
}

function compare(graph: SiteGraph, page: PageClosure, recording: PageRecording, result: TraceResult): void {
  const known = new Set<string>([...page.items.map((i) => i.url), ...page.prefetch, ...page.iframes]);
  const added: ClosureItem[] = [];
  for (const req of recording.requests) {
    if (!req.mainFrame || known.has(req.url)) continue;
    known.add(req.url);
    result.missedByStatic.push({ page: page.url, url: req.url });
    const u = new URL(req.url, 'http://x');
    const path = decodePath(u.pathname);
    if (typeof path !== 'string') continue;
    const file = graph.files.get(path) ?? (path.endsWith('/') ? graph.files.get(`${path}index.html`) : undefined);
    if (!file || (req.status !== undefined && req.status >= 400)) continue;
    added.push({
      url: req.url,
      path: file.path,
      as: RESOURCE_AS[req.resourceType] ?? 'fetch',
      critical: false,
      from: page.url,
      traced: true,
    });
  }
  if (added.length > 0) result.added.set(page.url, added);
}
