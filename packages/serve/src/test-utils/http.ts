import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** 1xx responses received before the final one (103 Early Hints). */
  informational: Array<{ status: number; headers: IncomingHttpHeaders }>;
}

/** One request over a fresh connection (no agent pooling, so tests do not share sockets by accident). */
export function get(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const informational: Reply['informational'] = [];
    const req = request(
      {
        host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: u.port,
        path,
        method: init.method ?? 'GET',
        headers: init.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), informational }),
        );
        res.on('error', reject);
      },
    );
    req.on('information', (info) => informational.push({ status: info.statusCode, headers: info.headers }));
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw bytes and collects everything until the server closes (or `idleMs` of silence). */
export function raw(port: number, text: string, idleMs = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => s.destroy(), idleMs);
    };
    s.on('connect', () => {
      s.write(text);
      arm();
    });
    s.on('data', (c) => {
      chunks.push(c);
      arm();
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    s.on('error', reject);
  });
}

/** Status code of the first response in a raw reply. */
export const statusOf = (reply: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(reply)?.[1] ?? 0);
