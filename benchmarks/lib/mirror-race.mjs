/**
 * Paper 004's proxy query protocol with HTTP instead of UDP: ask every mirror at once (HEAD) whether it
 * has the object, fetch it from the first that answers 200, and fall back to the origin when none does
 * before the timeout. The service worker's proxy-query mode does the same with fetch().
 */
import { Client } from 'undici';

/**
 * Time to the first body byte of `path`, raced over mirrors.
 * @param {{ mirrors: string[], origin: string, path: string, timeoutMs: number }} o
 * @returns {Promise<{ ttfbMs: number, totalMs: number, source: string, bytes: number }>}
 */
export async function raceMirrors({ mirrors, origin, path, timeoutMs }) {
  const t0 = performance.now();
  const clients = mirrors.map((m) => new Client(m, { connectTimeout: timeoutMs }));
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  /** @type {number} */
  let winner = -1;
  try {
    winner = await new Promise((resolve) => {
      let pending = clients.length;
      const lose = () => {
        if (--pending === 0) resolve(-1);
      };
      clients.forEach((c, i) => {
        c.request({ path, method: 'HEAD', signal: ac.signal })
          .then(async (res) => {
            await res.body.dump();
            if (res.statusCode === 200) resolve(i);
            else lose();
          })
          .catch(lose);
      });
      ac.signal.addEventListener('abort', () => resolve(-1));
    });
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  const source = winner >= 0 ? /** @type {string} */ (mirrors[winner]) : origin;
  const c = winner >= 0 ? /** @type {Client} */ (clients[winner]) : new Client(origin);
  try {
    const res = await c.request({ path, method: 'GET' });
    let ttfb = 0,
      bytes = 0;
    for await (const chunk of res.body) {
      if (!ttfb) ttfb = performance.now() - t0;
      bytes += chunk.length;
    }
    if (res.statusCode !== 200) throw new Error(`GET ${source}${path}: ${res.statusCode}`);
    return { ttfbMs: ttfb, totalMs: performance.now() - t0, source, bytes };
  } finally {
    await Promise.all([...clients, c].map((x) => x.destroy().catch(() => {})));
  }
}

/**
 * Time to the first body byte from one server.
 * @param {string} origin
 * @param {string} path
 */
export async function directTtfb(origin, path) {
  const t0 = performance.now();
  const c = new Client(origin);
  try {
    const res = await c.request({ path, method: 'GET' });
    let ttfb = 0;
    for await (const _chunk of res.body) {
      if (!ttfb) ttfb = performance.now() - t0;
    }
    return ttfb;
  } finally {
    await c.destroy();
  }
}
