import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { bundles, launchBrowser, type Bundles } from './browser.js';
import { TestServer } from './server.js';

/** What a Chromium suite's tests use; the fields are set by the hooks, so read them inside tests only. */
export interface ChromiumSuite {
  browser: Browser;
  b: Bundles;
  /** A fresh test server per test. */
  server: TestServer;
  /** A fresh browser context per test (no worker, caches or cookies carried over). */
  context: BrowserContext;
}

/**
 * Registers the hooks every Chromium suite shares: one browser and one bundle build per file, a new test
 * server and browser context per test. Call it at the top of a `describe`.
 */
export function useChromiumSuite(): ChromiumSuite {
  const suite = {} as ChromiumSuite;
  beforeAll(async () => {
    [suite.browser, suite.b] = await Promise.all([launchBrowser(), bundles()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
  });
  beforeEach(async () => {
    suite.server = await new TestServer().start();
    suite.context = await suite.browser.newContext();
  });
  afterEach(async () => {
    await suite.context.close();
    await suite.server.close();
  });
  return suite;
}
