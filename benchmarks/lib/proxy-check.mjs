/**
 * The delay proxy's self-test at benchmark time: ping-pongs through the same proxy process the
 * experiments use, against an echo server, so every results file can say how close the emulated RTT came
 * to the configured one on this machine at this load. The unit test (delay-proxy.test.ts) checks the
 * lower bounds; this check also catches a proxy whose timers run late.
 */
import net from 'node:net';
import { startProxyProcess } from './proxy-process.mjs';
import { median } from './stats.mjs';

/**
 * ok: the median ping-pong is within max(2 ms, 10 %) above the RTT; late: slower (timers running late on a
 * loaded machine: times through the proxy are inflated); FAILED: faster than the RTT (the proxy is broken).
 * @param {number} rttMs @param {number} minMs fastest ping-pong @param {number} medianMs
 * @returns {'ok' | 'late' | 'FAILED'}
 */
export function proxyVerdict(rttMs, minMs, medianMs) {
  if (minMs < rttMs - 0.5) return 'FAILED';
  return medianMs <= rttMs + Math.max(2, 0.1 * rttMs) ? 'ok' : 'late';
}

/**
 * @param {{ rtts?: number[], rounds?: number }} [o]
 * @returns {Promise<{ rttMs: number, connectMs: number, minMs: number, medianMs: number, maxMs: number, verdict: string
 * }[]>}
 */
export async function proxySelfTest({ rtts = [20, 100], rounds = 7 } = {}) {
  const echo = net.createServer((s) => s.pipe(s));
  await new Promise((r) => echo.listen(0, '127.0.0.1', () => r(undefined)));
  const out = [];
  try {
    for (const rttMs of rtts) {
      const proxy = await startProxyProcess({
        targetPort: /** @type {net.AddressInfo} */ (echo.address()).port,
        rttMs,
      });
      try {
        // The first exchange is timed from connect(): the proxy holds it back from when it accepted the
        // connection, and on a busy machine the 'connect' callback can run several ms after that.
        const connecting = performance.now();
        const sock = net.connect({ port: proxy.port, host: '127.0.0.1' });
        sock.setNoDelay(true);
        await new Promise((r) => sock.once('connect', r));
        const times = [];
        for (let i = 0; i <= rounds; i++) {
          const t0 = i === 0 ? connecting : performance.now();
          sock.write('x');
          await new Promise((r) => sock.once('data', r));
          times.push(performance.now() - t0);
        }
        sock.destroy();
        // The first exchange also pays the emulated handshake (one more RTT).
        const [connectMs = NaN, ...rest] = times;
        const minMs = Math.min(...rest),
          medianMs = median(rest);
        out.push({
          rttMs,
          connectMs,
          minMs,
          medianMs,
          maxMs: Math.max(...rest),
          verdict: proxyVerdict(rttMs, minMs, medianMs),
        });
      } finally {
        await proxy.close();
      }
    }
  } finally {
    await new Promise((r) => echo.close(() => r(undefined)));
  }
  return out;
}
