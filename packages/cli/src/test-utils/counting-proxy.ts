import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A proxy in front of a local server that records each request's path (with its query). */
export interface CountingProxy {
  origin: string;
  /** The paths requested since the last call. */
  take(): string[];
  /** Resolves once no request has come for `ms`. */
  quiet(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Forwards to `port` on 127.0.0.1, recording each request's path. */
export async function countingProxy(port: number): Promise<CountingProxy> {
  let seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const upstream = http.request(
      { port, host: '127.0.0.1', path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  let total = 0;
  proxy.on('request', () => total++);
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    take: () => [seen, (seen = [])][0]!,
    async quiet(ms: number) {
      for (let last = -1; last !== total;) {
        last = total;
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
    },
    close: () => new Promise((resolve) => (proxy.closeAllConnections(), proxy.close(() => resolve()))),
  };
}
