import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { bundles, type Bundles } from './browser.js';
import {
  ENGINE_NAMES,
  engineInstalled,
  launchEngine,
  type Engine,
  type EngineContext,
  type EngineName,
  type EnginePage,
} from './engines/index.js';
import { TestServer } from './server.js';

/** What an engine suite's tests use; the fields are set by the hooks, so read them inside tests only. */
export interface EngineSuite {
  engine: Engine;
  b: Bundles;
  /** A fresh test server per test. */
  server: TestServer;
  /** A fresh browser context per test (no worker, caches or cookies carried over). */
  context: EngineContext;
  /**
   * Takes the visitor off the network: the engine's own offline mode where it has one, and the test server
   * unreachable in every engine (so a worker outside the engine's emulation cannot reach it either).
   */
  offline(on: boolean): Promise<void>;
  /** Stops the context's service workers where the engine can; false where it cannot (the test then skips). */
  stopWorkers(page: EnginePage): Promise<boolean>;
}

/**
 * Registers the hooks every engine suite shares: one engine launch and one bundle build per file, a new
 * test server and context per test. Call it at the top of a `describe.each(ENGINE_NAMES)`.
 */
export function useEngineSuite(name: EngineName): EngineSuite {
  const suite = {
    async offline(on: boolean) {
      suite.server.down = on;
      await suite.engine.setOffline(suite.context, on);
    },
    stopWorkers: (page: EnginePage) => suite.engine.stopWorkers(suite.context, page),
  } as EngineSuite;
  beforeAll(async () => {
    [suite.engine, suite.b] = await Promise.all([launchEngine(name), bundles()]);
  });
  afterAll(async () => {
    await suite.engine?.close();
  });
  beforeEach(async () => {
    suite.server = await new TestServer().start();
    suite.context = await suite.engine.newContext();
  });
  afterEach(async () => {
    await suite.context.close();
    await suite.server.close();
  });
  return suite;
}

/**
 * One `describe` per engine (`service worker in <engine>: <title>`), the same tests in each; an engine that
 * is not installed has its suite skipped (its banner is printed once per file).
 */
export function describeEngines(title: string, body: (name: EngineName) => void): void {
  describe.each(ENGINE_NAMES)(`service worker in %s: ${title}`, (name) => {
    describe.skipIf(!engineInstalled(name))('', () => body(name));
  });
}
