import { existsSync } from 'node:fs';
import puppeteer, { type BrowserContext, type Page } from 'puppeteer-core';
import { pollUntil } from './poll.js';
import type { Engine, EngineContext, EnginePage } from './types.js';

/** Firefox ESR from the env (scripts/system-tools.mjs) or Debian's path; undefined → its tests skip loudly. */
export const FIREFOX =
  process.env.OBJPACK_FIREFOX ?? (existsSync('/usr/bin/firefox-esr') ? '/usr/bin/firefox-esr' : undefined);

class FirefoxPage implements EnginePage {
  constructor(readonly raw: Page) {}

  async goto(url: string): Promise<unknown> {
    return this.raw.goto(url, { waitUntil: 'load' });
  }

  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.raw.evaluate(fn as (a: unknown) => Promise<R>, arg) as Promise<R>;
  }

  async waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options: { timeout?: number } = {}): Promise<unknown> {
    // Polled from here rather than in the page: a page that navigates meanwhile would drop an in-page poll.
    const check = () => this.raw.evaluate(fn as (a: unknown) => unknown, arg).catch(() => false);
    return pollUntil(check, 'a page condition', options.timeout);
  }

  async textContent(selector: string): Promise<string | null> {
    const el = await this.raw.waitForSelector(selector);
    return el!.evaluate((e) => e.textContent);
  }

  click(selector: string): Promise<void> {
    return this.raw.click(selector);
  }

  async waitForURL(url: string): Promise<void> {
    // Loaded, as Playwright's waitForURL waits for: the next call may run in this document.
    await this.waitForFunction((u) => location.href === u && document.readyState === 'complete', url);
  }

  url(): string {
    return this.raw.url();
  }

  screenshot(): Promise<Uint8Array> {
    return this.raw.screenshot();
  }

  close(): Promise<void> {
    return this.raw.close();
  }
}

class FirefoxContext implements EngineContext {
  readonly pages: FirefoxPage[] = [];
  constructor(readonly raw: BrowserContext) {}

  async newPage(): Promise<EnginePage> {
    const page = new FirefoxPage(await this.raw.newPage());
    this.pages.push(page);
    return page;
  }

  close(): Promise<void> {
    return this.raw.close();
  }
}

/** Firefox ESR over WebDriver BiDi (puppeteer-core); each context is a BiDi user context. */
export async function launchFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      // Workers run as in a user's Firefox: on, and not held back by the testing profile's defaults.
      'dom.serviceWorkers.enabled': true,
      'dom.serviceWorkers.testing.enabled': false,
    },
  });
  return {
    name: 'firefox',
    newContext: async () => new FirefoxContext(await browser.createBrowserContext()),
    async setOffline(context: EngineContext, offline: boolean) {
      for (const p of (context as FirefoxContext).pages) if (!p.raw.isClosed()) await p.raw.setOfflineMode(offline);
      return true;
    },
    // No driver command stops a Firefox service worker.
    stopWorkers: async () => false,
    close: () => browser.close(),
  };
}
