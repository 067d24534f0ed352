import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Decoder } from '@objpack/format';

/** `objpack serve` tests run the built binary, exactly as users do (signals included). */
export const BIN = fileURLToPath(new URL('../../bin/objpack.js', import.meta.url));

/** A running `objpack serve` process: `url` is what its `Local:` line printed. */
export interface Cli {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `objpack serve …` (after `under`, a command such as prlimit, when given) and resolves once it
 * printed its `Local:` line.
 */
export async function startServeCli(args: string[], cwd: string, under: string[] = []): Promise<Cli> {
  const env = { ...process.env, NO_COLOR: '1' };
  const [command, ...before] = [...under, process.execPath];
  const child = spawn(command!, [...before, BIN, 'serve', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /Local: (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    void exit.then(({ code }) => reject(new Error(`objpack serve exited (${code}) before listening:\n${err}`)));
  });
  return { child, url, stderr: () => err, exit };
}

export interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function get(url: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Objects of a package by name (decoded with the format's own decoder, digests verified). */
export function unpack(bytes: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  const parts = new Map<string, Buffer[]>();
  const d = new Decoder({
    onObjectData: (e, b) => void (parts.get(e.name) ?? parts.set(e.name, []).get(e.name)!).push(Buffer.from(b)),
    onObjectEnd: (e) => void out.set(e.name, Buffer.concat(parts.get(e.name) ?? []).toString('utf8')),
  });
  d.push(bytes);
  d.end();
  return out;
}

/** Waits for a condition on the live server; the test's own timeout bounds it (no timing assertion). */
export async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
