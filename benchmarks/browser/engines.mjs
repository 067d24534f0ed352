/**
 * The browsers vitals.mjs measures in, behind the few Playwright calls vitals-measure.mjs makes
 * (`newContext`, `newPage`, `goto`, `waitForFunction`, `waitForTimeout`, `evaluate`, `close`, `version`):
 * - chromium: Debian's Chromium through playwright-core; the certificate is trusted by its key's hash;
 * - firefox: Debian's Firefox ESR over WebDriver BiDi (puppeteer-core), each context a BiDi user context;
 * - webkit: WebKitGTK's MiniBrowser through WebKitWebDriver (selenium-webdriver) under an Xvfb of its own,
 *   each context a new driver and session (a new browser: the driver holds one session). WebKitGTK has no
 *   Largest Contentful Paint: its LCP column stays empty.
 * Firefox and WebKit sessions accept the self-signed certificate (acceptInsecureCerts); workers register
 * and answer there as with a trusted one (the harness checks each sample's `controlled`).
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { Builder } from 'selenium-webdriver';
import { runInPage, startDriver, startXvfb } from '../../packages/client-sw/scripts/webdriver.mjs';
import { CHROMIUM_ARGS } from '../lib/chromium-args.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

const BIN = {
  chromium: process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium',
  firefox: process.env.OBJPACK_FIREFOX ?? '/usr/bin/firefox-esr',
  webkit: process.env.OBJPACK_WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver',
};
const MINIBROWSER = process.env.OBJPACK_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = process.env.OBJPACK_XVFB ?? '/usr/bin/Xvfb';

/** The browser's path, or undefined when it is not installed. */
export const engineBinary = (engine) => (existsSync(BIN[engine]) ? BIN[engine] : undefined);

/** A puppeteer page with Playwright's argument order for the calls vitals-measure.mjs makes. */
const firefoxPage = (page) => ({
  goto: (url, { waitUntil = 'load', timeout } = {}) => page.goto(url, { waitUntil, timeout }),
  waitForFunction: (fn, arg, { timeout } = {}) => page.waitForFunction(fn, { timeout, polling: 50 }, arg),
  evaluate: (fn, arg) => page.evaluate(fn, arg),
  waitForTimeout: (ms) => new Promise((r) => setTimeout(r, ms)),
});

/**
 * Launches `engine`. `spki`: base64 SHA-256 of the servers' public key (Chromium trusts it by that).
 * `newProfileContext` (Chromium, Firefox): a context on a profile directory that outlives it; `stopWorkers`
 * (Chromium): stops the service workers of a page's context.
 * @returns {Promise<{ version(): string, newContext(o: { viewport: { width: number, height: number } }):
 *   Promise<{ newPage(): Promise<any>, close(): Promise<void> }>, close(): Promise<void>,
 *   newProfileContext?: (o: { viewport: { width: number, height: number }, dir: string }) => Promise<any>,
 *   stopWorkers?: (page: any, expect: boolean) => Promise<void> }>}
 */
export async function launchEngine(engine, { spki }) {
  if (engine === 'chromium') {
    const launch = {
      executablePath: BIN.chromium,
      args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spki}`],
    };
    const browser = await chromium.launch(launch);
    return {
      version: () => `chromium ${browser.version()}`,
      newContext: ({ viewport }) => browser.newContext({ viewport }),
      // A browser of its own on a profile directory: closing it and opening the same directory again is a
      // reader who quit the browser and comes back (worker stopped, memory cache gone, disk caches kept).
      newProfileContext: ({ viewport, dir }) => chromium.launchPersistentContext(dir, { ...launch, viewport }),
      stopWorkers: (page, expect) => stopChromiumWorkers(page, expect),
      close: () => browser.close(),
    };
  }
  if (engine === 'webkit') return launchWebKit();
  const launch = { browser: 'firefox', executablePath: BIN.firefox, headless: true, acceptInsecureCerts: true };
  const browser = await puppeteer.launch(launch);
  const version = await browser.version();
  return {
    version: () => version,
    // As Chromium's: a browser of its own on a profile directory, which its next launch finds as it was left.
    async newProfileContext({ viewport, dir }) {
      const own = await puppeteer.launch({ ...launch, userDataDir: dir });
      return {
        pages: () => [],
        async newPage() {
          const page = (await own.pages())[0] ?? (await own.newPage());
          await page.setViewport(viewport);
          return firefoxPage(page);
        },
        close: () => own.close(),
      };
    },
    async newContext({ viewport }) {
      const context = await browser.createBrowserContext();
      return {
        async newPage() {
          const page = await context.newPage();
          await page.setViewport(viewport);
          return firefoxPage(page);
        },
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}

/**
 * Stops every service worker of the page's context, as Chromium does on its own after 30 s without events.
 * With `expect`, resolves once a worker was reported and every one is stopped (the next request a worker
 * handles starts it again); without, the context has none and the same calls are made.
 */
async function stopChromiumWorkers(page, expect) {
  const cdp = await page.context().newCDPSession(page);
  try {
    /** Version id → running status, as the protocol reports them (after enable, asynchronously). */
    const status = new Map();
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) status.set(v.versionId, v.runningStatus);
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const end = Date.now() + 10_000;
    while (expect && (status.size === 0 || [...status.values()].some((s) => s !== 'stopped'))) {
      if (Date.now() > end) throw new Error(`service workers not stopped after 10 s: ${[...status.values()]}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await cdp.send('ServiceWorker.disable');
  } finally {
    await cdp.detach();
  }
}

/** A WebDriver session as a page: `goto` waits for the load event (the default page load strategy). */
const webkitPage = (driver) => ({
  goto: (url) => driver.get(url),
  async waitForFunction(fn, arg, { timeout = 30_000 } = {}) {
    const end = Date.now() + timeout;
    while (!(await runInPage(driver, fn.toString(), arg).catch(() => false))) {
      if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for a page condition`);
      await new Promise((r) => setTimeout(r, 50));
    }
  },
  evaluate: (fn, arg) => runInPage(driver, fn.toString(), arg),
  waitForTimeout: (ms) => new Promise((r) => setTimeout(r, ms)),
});

async function launchWebKit() {
  const xvfb = await startXvfb(XVFB);
  // The driver names WebKitGTK's version in each session's capabilities.
  let version = 'webkit';
  return {
    version: () => version,
    async newContext({ viewport }) {
      const server = await startDriver(BIN.webkit, xvfb.display);
      const driver = await new Builder()
        .usingServer(server.url)
        .withCapabilities({
          browserName: 'MiniBrowser',
          acceptInsecureCerts: true,
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        })
        .build();
      version = `webkit ${(await driver.getCapabilities()).get('browserVersion')}`;
      await driver.manage().setTimeouts({ script: 60_000, pageLoad: 60_000 });
      await driver.manage().window().setRect(viewport);
      return {
        newPage: async () => webkitPage(driver),
        close: () => driver.quit().finally(() => server.stop()),
      };
    },
    close: () => xvfb.stop(),
  };
}
