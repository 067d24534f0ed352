/** The browser engines the worker's tests run in. */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/**
 * One tab, in the few calls the worker's tests make. The names and signatures are Playwright's, so a
 * Playwright `Page` is one as it is; Firefox and WebKit implement them over their drivers.
 */
export interface EnginePage {
  /** Loads `url` and waits for its `load` event. */
  goto(url: string): Promise<unknown>;
  /** Runs `fn` in the page (its source is sent, so it may use only its argument) and returns its JSON-able result. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  /** Polls `fn` in the page until it returns a truthy value; rejects after `timeout` ms (default 30 s). */
  waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options?: { timeout?: number }): Promise<unknown>;
  /** The text of the first element matching `selector`, once there is one. */
  textContent(selector: string): Promise<string | null>;
  click(selector: string): Promise<void>;
  /** Waits until the tab shows exactly `url`. */
  waitForURL(url: string): Promise<void>;
  url(): string | Promise<string>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A browser profile of its own: no worker, caches or cookies shared with other contexts. */
export interface EngineContext {
  newPage(): Promise<EnginePage>;
  close(): Promise<void>;
}

/** One launched engine. */
export interface Engine {
  readonly name: EngineName;
  newContext(): Promise<EngineContext>;
  /**
   * Cuts the context off the network (every tab and its service worker), where the engine can; false when it
   * cannot (tests then make the server unreachable instead).
   */
  setOffline(context: EngineContext, offline: boolean): Promise<boolean>;
  /** Stops every service worker of the context, as an engine stops an idle one; false when it cannot. */
  stopWorkers(context: EngineContext, page: EnginePage): Promise<boolean>;
  close(): Promise<void>;
}
