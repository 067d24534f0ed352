import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Engine, EngineContext, EnginePage } from './types.js';

/** Chromium from the env (scripts/system-tools.mjs) or Debian's path; undefined → its tests skip loudly. */
export const CHROMIUM =
  process.env.OBJPACK_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** Chromium for the tests; `backForwardCache` keeps the cache on (Playwright switches it off by default). */
export const launchBrowser = ({ backForwardCache = false } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    ...(backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP *.objpack.test 127.0.0.1',
    ],
  });

/** Stops every service worker of the context, as Chromium does to an idle one (DevTools protocol). */
export async function stopWorkers(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

/** Chromium through Playwright: its contexts and pages are the engine interface's as they are. */
export async function launchChromium(): Promise<Engine & { browser: Browser }> {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    browser,
    newContext: (): Promise<EngineContext> => browser.newContext(),
    async setOffline(context: EngineContext, offline: boolean) {
      await (context as BrowserContext).setOffline(offline);
      return true;
    },
    async stopWorkers(context: EngineContext, page: EnginePage) {
      await stopWorkers(context as BrowserContext, page as Page);
      return true;
    },
    close: () => browser.close(),
  };
}
