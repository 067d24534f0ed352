import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/** A program this file started, and how to stop it. */
export interface Started {
  child: ChildProcess;
  stop(): Promise<void>;
}

const stopper = (child: ChildProcess) => async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill();
  await once(child, 'exit');
};

/** Starts Xvfb on a display it picks itself (`-displayfd`), so parallel test files never collide. */
export async function startXvfb(bin: string): Promise<Started & { display: string }> {
  const child = spawn(bin, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const display = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before naming its display`)));
    child.stdio[3]!.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
  });
  return { child, display, stop: stopper(child) };
}

const freePort = async (): Promise<number> => {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
};

/** Starts WebKitWebDriver on a free port of 127.0.0.1, its browsers on `display`; resolves once it answers. */
export async function startDriver(bin: string, display: string): Promise<Started & { url: string }> {
  const port = await freePort();
  const child = spawn(bin, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 10_000;
  for (;;) {
    const ok = await fetch(`${url}/status`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > end) throw new Error(`WebKitWebDriver did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url, stop: stopper(child) };
}
