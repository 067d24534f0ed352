import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serve, type ObjpackServer } from '@objpack/serve';
import { build, type BuildOptions, type BuildResult } from '../build.js';
import { discoverSite } from '../discover/discover-site.js';
import { serveFiles, type RunningSite } from '../discover/static-server.js';
import { launchChromium } from '../discover/trace-pages.js';
import { countingProxy, type CountingProxy } from './counting-proxy.js';

/** The whole chain on a generator's output (real-site tests): what they look at, and how to stop it. */
export interface RealChain {
  built: BuildResult;
  /** objpack serve of the built copy, behind a proxy that records each request. */
  proxy: CountingProxy;
  /** The output as it was, served plainly: the page without objpack. */
  plain: RunningSite;
  browser: Browser;
  close(): Promise<void>;
}

/** Copies `site`, builds the copy in place with `options`, serves it on port 0 and launches Chromium. */
export async function startRealChain(site: string, options: Omit<BuildOptions, 'root'> = {}): Promise<RealChain> {
  const dir = mkdtempSync(path.join(tmpdir(), 'objpack-real-site-'));
  let plain: RunningSite | undefined;
  let server: ObjpackServer | undefined;
  let proxy: CountingProxy | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await proxy?.close();
    await server?.close({ timeoutMs: 100 });
    await plain?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const root = path.join(dir, 'site');
    cpSync(site, root, { recursive: true });
    plain = await serveFiles((await discoverSite(site)).files);
    const built = await build({ ...options, root });
    server = await serve({ root, port: 0 });
    proxy = await countingProxy(server.port);
    browser = await launchChromium();
    return { built, proxy, plain, browser, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Opens the site's first page, which the build's snippet makes install the worker, waits until the worker
 * controls it, and forgets the requests of that first visit: what the proxy sees next is the next page's.
 */
export async function installWorker(page: Page, proxy: CountingProxy): Promise<void> {
  await page.goto(`${proxy.origin}/`);
  await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 15_000 });
  await proxy.quiet(500);
  proxy.take();
}
