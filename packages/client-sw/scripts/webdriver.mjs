/**
 * WebKitGTK's WebDriver plumbing, shared by the worker's tests (src/test-utils/engines/webkit.ts) and the
 * browser benchmarks (benchmarks/browser/engines.mjs): an Xvfb, a WebKitWebDriver, and a function run in
 * the page whose promise's outcome comes back. Types: webdriver.d.mts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

const stopper = (child) => async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill();
  await once(child, 'exit');
};

/** Starts Xvfb on a display it picks itself (`-displayfd`), so parallel test files never collide. */
export async function startXvfb(bin) {
  const child = spawn(bin, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const display = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before naming its display`)));
    child.stdio[3].on('data', (d) => {
      text += d.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
  });
  return { child, display, stop: stopper(child) };
}

const freePort = async () => {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
};

/** Starts WebKitWebDriver on a free port of 127.0.0.1, its browsers on `display`; resolves once it answers. */
export async function startDriver(bin, display) {
  const port = await freePort();
  const child = spawn(bin, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 10_000;
  for (;;) {
    const ok = await fetch(`${url}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > end) throw new Error(`WebKitWebDriver did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url, stop: stopper(child) };
}

/**
 * Runs `fn(arg)` (its source) in the driver's current window through WebDriver's async script: the page's
 * promise settles into `{ ok }` or `{ err }`, so a rejection in the page is one here too.
 */
export async function runInPage(driver, fn, arg) {
  const got = await driver.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${fn})(${JSON.stringify(arg ?? null)}))
  .then((ok) => done({ ok: ok === undefined ? null : ok }), (e) => done({ err: String(e) }));`,
  );
  if (!got || got.err !== undefined) throw new Error(`in the page: ${got?.err ?? 'no answer'}`);
  return got.ok;
}
