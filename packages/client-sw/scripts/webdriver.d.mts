import type { ChildProcess } from 'node:child_process';
import type { WebDriver } from 'selenium-webdriver';

/** A program this module started, and how to stop it. */
export interface Started {
  child: ChildProcess;
  stop(): Promise<void>;
}
/** Starts Xvfb on a display it picks itself (`-displayfd`), so parallel test files never collide. */
export declare function startXvfb(bin: string): Promise<Started & { display: string }>;
/** Starts WebKitWebDriver on a free port of 127.0.0.1, its browsers on `display`; resolves once it answers. */
export declare function startDriver(bin: string, display: string): Promise<Started & { url: string }>;
/** Runs `fn(arg)` (its source) in the current window; resolves with its JSON-able result, rejects with its error. */
export declare function runInPage<R>(driver: WebDriver, fn: string, arg: unknown): Promise<R>;
