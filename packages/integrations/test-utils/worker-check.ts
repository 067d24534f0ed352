import { serve } from '@objpack/serve';
import { chromium } from 'playwright-core';
import { expect } from 'vitest';
import { countingProxy } from '../../cli/src/test-utils/counting-proxy.js';

/** Debian's Chromium (scripts/system-tools.mjs installs it), or $OBJPACK_CHROMIUM. */
export const CHROMIUM = process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Serves `root` with `objpack serve` on port 0 (behind a request-counting proxy) and, in Chromium, opens
 * `first`, waits until the worker the build injected controls it, then navigates to `second`: the worker
 * must answer that navigation from the page's package, so the server never sees a request for the page.
 */
export async function expectWorkerControlsSecondPage(root: string, first: string, second: string): Promise<void> {
  const server = await serve({ root, port: 0 });
  const proxy = await countingProxy(server.port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${proxy.origin}${first}`);
    await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 20_000 });
    await proxy.quiet(300);
    proxy.take();
    const response = await page.goto(`${proxy.origin}${second}`, { waitUntil: 'load' });
    expect(response?.fromServiceWorker(), 'navigation answered by the worker').toBe(true);
    expect(await page.evaluate('navigator.serviceWorker.controller !== null')).toBe(true);
    await proxy.quiet(300);
    const requests = proxy.take();
    // The page itself never reached the server: it came out of its package (fetched now, or prefetched).
    expect(requests.filter((p) => p.split('?')[0] === second)).toEqual([]);
  } finally {
    await browser.close();
    await proxy.close();
    await server.close({ timeoutMs: 100 });
  }
}
