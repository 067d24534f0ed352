import { existsSync } from 'node:fs';
import { Builder, By, type WebDriver } from 'selenium-webdriver';
import { pollUntil } from './poll.js';
import type { Engine, EngineContext, EnginePage } from './types.js';
import { runInPage as run, startDriver, startXvfb } from '../../../scripts/webdriver.mjs';

const env = (name: string, path: string) => process.env[name] ?? (existsSync(path) ? path : undefined);
/** WebKitGTK's driver, its MiniBrowser and Xvfb (scripts/system-tools.mjs); any missing → its tests skip loudly. */
export const WEBKIT = {
  driver: env('OBJPACK_WEBKIT_DRIVER', '/usr/bin/WebKitWebDriver'),
  browser: env('OBJPACK_MINIBROWSER', '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'),
  xvfb: env('OBJPACK_XVFB', '/usr/bin/Xvfb'),
};
export const WEBKIT_READY = Boolean(WEBKIT.driver && WEBKIT.browser && WEBKIT.xvfb);

class WebKitPage implements EnginePage {
  constructor(
    private readonly ctx: WebKitContext,
    readonly handle: string,
  ) {}

  /** The driver, switched to this page's window (WebDriver commands go to one window at a time). */
  private async on(): Promise<WebDriver> {
    return this.ctx.focus(this.handle);
  }

  async goto(url: string): Promise<unknown> {
    const driver = await this.on();
    // The session loads pages without waiting (pageLoadStrategy none), so a test can act while a page is
    // held mid-load; the old document is marked, and the load is done when a document without the mark is.
    await driver.executeScript('window.__objpackLeft = true').catch(() => {});
    await driver.get(url);
    const loaded = () => !(window as { __objpackLeft?: boolean }).__objpackLeft && document.readyState === 'complete';
    return this.waitForFunction(loaded, undefined);
  }

  async evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return run<R>(await this.on(), fn.toString(), arg);
  }

  async waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options: { timeout?: number } = {}): Promise<unknown> {
    const src = fn.toString();
    // A navigation in between drops the script's answer: that poll counts as not yet.
    const check = async () => run(await this.on(), src, arg).catch(() => false);
    return pollUntil(check, 'a page condition', options.timeout);
  }

  async textContent(selector: string): Promise<string | null> {
    const at = (sel: string) => {
      const el = document.querySelector(sel);
      return el ? { text: el.textContent } : null;
    };
    return (await pollUntil(() => this.evaluate(at, selector).catch(() => null), selector))!.text;
  }

  async click(selector: string): Promise<void> {
    await (await (await this.on()).findElement(By.css(selector))).click();
  }

  async waitForURL(url: string): Promise<void> {
    // Loaded, as Playwright's waitForURL waits for: the next call may run in this document.
    await this.waitForFunction((u) => location.href === u && document.readyState === 'complete', url);
  }

  async url(): Promise<string> {
    return (await this.on()).getCurrentUrl();
  }

  async screenshot(): Promise<Uint8Array> {
    return Buffer.from(await (await this.on()).takeScreenshot(), 'base64');
  }

  async close(): Promise<void> {
    await this.ctx.closeWindow(this.handle);
  }
}

/** One WebDriver session: one MiniBrowser process with its own website data, its windows the pages. */
class WebKitContext implements EngineContext {
  private current = '';
  private first: string | undefined;

  constructor(readonly driver: WebDriver) {}

  async init(): Promise<this> {
    this.first = this.current = await this.driver.getWindowHandle();
    await this.driver.manage().setTimeouts({ script: 30_000, pageLoad: 30_000 });
    await this.driver.manage().window().setRect({ width: 800, height: 600 });
    return this;
  }

  async focus(handle: string): Promise<WebDriver> {
    if (this.current !== handle) {
      await this.driver.switchTo().window(handle);
      this.current = handle;
    }
    return this.driver;
  }

  async newPage(): Promise<EnginePage> {
    // The session's first window is the first page; later pages are new windows.
    if (this.first) {
      const handle = this.first;
      this.first = undefined;
      return new WebKitPage(this, handle);
    }
    await this.driver.switchTo().newWindow('window');
    this.current = await this.driver.getWindowHandle();
    await this.driver.manage().window().setRect({ width: 800, height: 600 });
    return new WebKitPage(this, this.current);
  }

  async closeWindow(handle: string): Promise<void> {
    await (await this.focus(handle)).close();
    this.current = '';
    const left = await this.driver.getAllWindowHandles();
    if (left[0]) await this.focus(left[0]);
  }

  async close(): Promise<void> {
    await this.driver.quit();
  }
}

/**
 * WebKit (Safari's engine) as WebKitGTK's MiniBrowser, driven by WebKitWebDriver (classic WebDriver, spoken
 * by selenium-webdriver) under an Xvfb of its own. A driver holds one session, so each context is a driver
 * and its session: a new browser with its own website data.
 */
export async function launchWebKit(): Promise<Engine> {
  const xvfb = await startXvfb(WEBKIT.xvfb!);
  const contexts = new Set<WebKitContext>();
  return {
    name: 'webkit',
    async newContext() {
      const driver = await startDriver(WEBKIT.driver!, xvfb.display);
      const session = await new Builder()
        .usingServer(driver.url)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: WEBKIT.browser, args: ['--automation'] },
          pageLoadStrategy: 'none',
        })
        .build()
        .catch(async (e: unknown) => {
          await driver.stop();
          throw e;
        });
      const ctx = await new WebKitContext(session).init();
      contexts.add(ctx);
      const quit = ctx.close.bind(ctx);
      ctx.close = async () => {
        contexts.delete(ctx);
        await quit().finally(() => driver.stop());
      };
      return ctx;
    },
    // Classic WebDriver has no network emulation, and no command reaches a service worker.
    setOffline: async () => false,
    stopWorkers: async () => false,
    async close() {
      for (const ctx of contexts) await ctx.close().catch(() => {});
      await xvfb.stop();
    },
  };
}
