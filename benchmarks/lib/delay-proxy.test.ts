import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDelayProxy } from './delay-proxy.mjs';
import { proxySelfTest, proxyVerdict } from './proxy-check.mjs';
import { startProxyProcess } from './proxy-process.mjs';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** An echo server on port 0. */
async function echoServer() {
  const server = net.createServer((s) => s.pipe(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
      }),
  );
  return (server.address() as net.AddressInfo).port;
}

/** Connect, then time `rounds` ping-pongs of `size` bytes after the connection's first exchange. */
async function pingPong(port: number, rounds: number, size = 1) {
  const sock = net.connect({ port, host: '127.0.0.1' });
  sock.setNoDelay(true);
  await new Promise<void>((r) => sock.once('connect', () => r()));
  const times: number[] = [];
  for (let i = 0; i < rounds + 1; i++) {
    const t0 = performance.now();
    sock.write(Buffer.alloc(size, 120));
    let got = 0;
    await new Promise<void>((r) => {
      const on = (c: Buffer) => {
        got += c.length;
        if (got >= size) {
          sock.off('data', on);
          r();
        }
      };
      sock.on('data', on);
    });
    times.push(performance.now() - t0);
  }
  sock.destroy();
  return { first: times[0]!, rest: times.slice(1) };
}

describe('delay proxy', () => {
  it('reports how late its timers delivered chunks, also from its own process', async () => {
    const target = await echoServer();
    const proxy = await startDelayProxy({ targetPort: target, rttMs: 20 });
    closers.push(proxy.close);
    expect(proxy.lateness().chunks).toBe(0);
    await pingPong(proxy.port, 3);
    // Each ping and its echo is one delayed chunk per direction.
    const l = proxy.lateness();
    expect(l.chunks).toBeGreaterThanOrEqual(8);
    expect(l.maxMs).toBeGreaterThanOrEqual(0);
    expect(l.p90Ms).toBeGreaterThanOrEqual(l.p50Ms);
    // Stall this process's event loop while a chunk is due: the lateness shows it. The ping goes over a
    // connection past its handshake hold, and the proxy has taken it in (30 ms) before the stall. A long RTT
    // (the chunk is due 200 ms after it arrived): with 20 ms, a busy machine's late 5 ms wait let the chunk
    // go out on time before the stall began (CI of 2105f68: lateness 0.7 ms).
    const slow = await startDelayProxy({ targetPort: target, rttMs: 400 });
    closers.push(slow.close);
    const sock = net.connect({ port: slow.port, host: '127.0.0.1' });
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write('a');
    await new Promise<void>((r) => sock.once('data', () => r()));
    sock.write('x');
    await new Promise((r) => setTimeout(r, 30));
    const until = performance.now() + 400;
    while (performance.now() < until) {
      /* busy: the proxy's 200 ms timer cannot fire */
    }
    await new Promise<void>((r) => sock.once('data', () => r()));
    sock.destroy();
    expect(slow.lateness().maxMs).toBeGreaterThanOrEqual(100);
    const child = await startProxyProcess({ targetPort: target, rttMs: 20 });
    closers.push(child.close);
    await pingPong(child.port, 2);
    expect((await child.lateness()).chunks).toBeGreaterThanOrEqual(6);
  });

  it('passes bytes through unchanged', async () => {
    const proxy = await startDelayProxy({ targetPort: await echoServer(), rttMs: 2 });
    closers.push(proxy.close);
    const sock = net.connect({ port: proxy.port, host: '127.0.0.1' });
    const payload = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    sock.end(payload);
    await new Promise<void>((r) => sock.on('end', () => r()));
    expect(Buffer.concat(chunks).equals(payload)).toBe(true);
    expect(proxy.connections()).toBe(1);
  });

  it('a ping-pong takes at least the configured RTT, the first one also the handshake RTT', async () => {
    const proxy = await startDelayProxy({ targetPort: await echoServer(), rttMs: 40 });
    closers.push(proxy.close);
    const { first, rest } = await pingPong(proxy.port, 3);
    // Generous lower bounds only (timer slack makes these runs slower, never faster).
    for (const t of rest) expect(t).toBeGreaterThanOrEqual(39);
    expect(first).toBeGreaterThanOrEqual(79);
  });

  it('forwards at most maxConnections at once; the next waits until one closes', async () => {
    const proxy = await startDelayProxy({ targetPort: await echoServer(), maxConnections: 2 });
    closers.push(proxy.close);
    const open = () => {
      const s = net.connect({ port: proxy.port, host: '127.0.0.1' });
      const echoed = new Promise<void>((r) => s.once('data', () => r()));
      s.write('x');
      return { s, echoed };
    };
    const a = open(),
      b = open();
    await Promise.all([a.echoed, b.echoed]);
    const c = open();
    let cEchoed = false;
    void c.echoed.then(() => {
      cEchoed = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(cEchoed).toBe(false);
    expect(proxy.maxQueued()).toBe(1);
    a.s.destroy();
    await c.echoed;
    b.s.destroy();
    c.s.destroy();
  });

  it('limits bandwidth per connection', async () => {
    // 8 Mbit/s = 1 byte/µs: 50 000 bytes each way need ≥ 50 ms of serialisation on top of the RTT.
    const proxy = await startDelayProxy({
      targetPort: await echoServer(),
      rttMs: 2,
      bandwidthBps: 8_000_000,
      handshakeRtts: 0,
    });
    closers.push(proxy.close);
    const { rest } = await pingPong(proxy.port, 1, 50_000);
    expect(rest[0]).toBeGreaterThanOrEqual(50);
  });

  it('with sharedLink, connections share one link per direction: two at once take twice as long', async () => {
    // 8 Mbit/s = 1 byte/µs. Two connections echo 50 000 bytes each at the same time: on one link the later
    // request is through at ≥ 100 ms and its echo then waits for the other's, so it is back at ≥ 150 ms; on
    // a link of its own each would be back after 100 ms (50 up, 50 down).
    const proxy = await startDelayProxy({
      targetPort: await echoServer(),
      rttMs: 2,
      bandwidthBps: 8_000_000,
      sharedLink: true,
      handshakeRtts: 0,
    });
    closers.push(proxy.close);
    const t0 = performance.now();
    const [a, b] = await Promise.all([pingPong(proxy.port, 0, 50_000), pingPong(proxy.port, 0, 50_000)]);
    expect(Math.max(a.first, b.first)).toBeGreaterThanOrEqual(150);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it('the run-time self-test measures the proxy process the experiments use and judges it', async () => {
    expect(proxyVerdict(20, 20.1, 21)).toBe('ok');
    expect(proxyVerdict(20, 20.1, 25)).toBe('late');
    expect(proxyVerdict(100, 100, 109)).toBe('ok');
    expect(proxyVerdict(20, 12, 21)).toBe('FAILED');
    const [check] = await proxySelfTest({ rtts: [30], rounds: 3 });
    expect(check!.rttMs).toBe(30);
    expect(check!.minMs).toBeGreaterThanOrEqual(29);
    expect(check!.connectMs).toBeGreaterThanOrEqual(59); // + the handshake RTT
    expect(check!.verdict).not.toBe('FAILED');
  });

  it(
    "times the self-test's first exchange from connect(), so a late 'connect' callback (a busy machine) does " +
      'not shorten it',
    async () => {
      const connect = net.connect.bind(net);
      const spy = vi.spyOn(net, 'connect').mockImplementation(((...args: Parameters<typeof net.connect>) => {
        const sock = connect(...args);
        sock.once('connect', () => {
          const t = performance.now();
          while (performance.now() - t < 25);
        });
        return sock;
      }) as typeof net.connect);
      try {
        const [check] = await proxySelfTest({ rtts: [30], rounds: 1 });
        // Timed from the 'connect' callback this was ~38 ms.
        expect(check!.connectMs).toBeGreaterThanOrEqual(59);
      } finally {
        spy.mockRestore();
      }
    },
  );
});
