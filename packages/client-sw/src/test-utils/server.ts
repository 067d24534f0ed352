import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SiteFile } from './site.js';

export interface LoggedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/** Returns true when it answered the request itself (failure injection, stalls). */
export type Hook = (
  req: IncomingMessage,
  res: ServerResponse,
  file: SiteFile | undefined,
) => boolean | Promise<boolean>;

/**
 * A static server on a real socket (127.0.0.1, port 0) that records every request, as Workbox's tests
 * count the server's requests. Files and hooks can be swapped at any time (a deploy, a broken package).
 */
/** The test worker and the objpack worker it imports (test-utils/browser.ts workerFiles). */
export const WORKER_SCRIPTS: ReadonlySet<string> = new Set(['/sw-test.js', '/objpack-sw.js']);

export class TestServer {
  files = new Map<string, SiteFile>();
  readonly log: LoggedRequest[] = [];
  readonly hooks = new Map<string, Hook>();
  cors = false;
  /** Every connection is cut as it comes, as for a visitor who is offline (in any engine). */
  down = false;
  private server: Server | undefined;
  origin = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  /**
   * Requests since the last call (or start), as `METHOD path` lines, in arrival order, without Chromium's
   * update checks of the worker scripts (timed by the browser: under load they land in any window).
   */
  take(filter: (r: LoggedRequest) => boolean = () => true): string[] {
    const out = this.log.splice(0).filter((r) => !WORKER_SCRIPTS.has(r.path) && filter(r));
    return out.map((r) => (r.method === 'GET' ? r.path : `${r.method} ${r.path}`));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.down) {
      req.socket.destroy();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    this.log.push({ method: req.method ?? 'GET', path, headers: req.headers });
    // The origin the reference pages load from (test-utils/browser.ts reference): no worker registers there.
    if (WORKER_SCRIPTS.has(path) && req.headers.host?.startsWith('localhost:')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no worker on this origin');
      return;
    }
    if (this.cors) {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-expose-headers', 'content-length, content-range');
    }
    const file = this.files.get(path);
    const hook = this.hooks.get(path);
    if (hook && (await hook(req, res, file))) return;
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.setHeader('content-type', file.type);
    for (const [k, v] of Object.entries(file.headers ?? {})) res.setHeader(k, v);
    res.setHeader('accept-ranges', 'bytes');
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    const total = file.body.length;
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), total - 1) : total - 1;
      if (start >= total || start > end) {
        res.writeHead(416, { 'content-range': `bytes */${total}` }).end();
        return;
      }
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${total}`, 'content-length': end - start + 1 });
      res.end(req.method === 'HEAD' ? undefined : file.body.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { 'content-length': total });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }
}

/** A hook that sends the first `n` bytes of the file, then waits for `release()` before the rest. */
export function stallAfter(n: number): { hook: Hook; release: () => void; reached: Promise<void> } {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reachedP = new Promise<void>((r) => (reached = r));
  const hook: Hook = async (req, res, file) => {
    if (!file || req.method !== 'GET') return false;
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length, 'cache-control': 'no-store' });
    res.write(file.body.subarray(0, n));
    reached();
    await gate;
    res.end(file.body.subarray(n));
    return true;
  };
  return { hook, release, reached: reachedP };
}

/**
 * A hook that sends the first `from` bytes at once, then `step` bytes every `everyMs` ms (a slow link, or a
 * host trickling bytes), until the file is sent or the client goes away.
 */
export function paced(from: number, step: number, everyMs: number): Hook {
  return async (req, res, file) => {
    if (!file || req.method !== 'GET') return false;
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length, 'cache-control': 'no-store' });
    res.write(file.body.subarray(0, from));
    for (let at = from; at < file.body.length && !res.destroyed; at += step) {
      await new Promise((r) => setTimeout(r, everyMs));
      res.write(file.body.subarray(at, at + step));
    }
    res.end();
    return true;
  };
}

/** A hook that answers with other bytes than the file (truncated, corrupt). */
export function serveBytes(bytes: (body: Buffer) => Buffer, opts: { destroy?: boolean } = {}): Hook {
  return (req, res, file) => {
    if (!file) return false;
    const body = bytes(file.body);
    if (opts.destroy) {
      // A connection that dies mid-body: the declared length is never reached.
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
      res.write(body, () => res.destroy());
      return true;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': body.length });
    res.end(body);
    return true;
  };
}
