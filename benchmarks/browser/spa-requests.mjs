// The requests of an SPA session (spa-session.mjs): recorded by a proxy in front of the server, sorted by kind.
import http from 'node:http';

/** A proxy in front of `port` that records every request (path with query, fetch metadata, status, time). */
export async function recordingProxy(port, rttMs = 0) {
  let seen = [];
  let total = 0;
  let t0 = performance.now();
  const server = http.createServer((req, res) => {
    total++;
    const rec = {
      url: req.url ?? '',
      t: Math.round(performance.now() - t0),
      dest: req.headers['sec-fetch-dest'] ?? '',
      mode: req.headers['sec-fetch-mode'] ?? '',
      rsc: req.headers.rsc === '1',
      status: 0,
    };
    seen.push(rec);
    const forward = () => {
      const up = http.request(
        { port, host: '127.0.0.1', path: req.url, method: req.method, headers: req.headers },
        (r) => {
          rec.status = r.statusCode ?? 0;
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    // A crude round trip: each request waits `rttMs` before it is forwarded (no per-chunk or handshake delay).
    if (rttMs > 0) setTimeout(forward, rttMs);
    else forward();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    /** The requests since the last call; times count from now on. */
    take: () => {
      const r = seen;
      seen = [];
      t0 = performance.now();
      return r;
    },
    async quiet(ms) {
      for (let last = -1; last !== total;) {
        last = total;
        await new Promise((r) => setTimeout(r, ms));
      }
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * Sorts one step's requests. `closures`: page URL path → its package closure; `packaged`: every object in some package.
 */
export function classify(reqs, ctx, targetPath) {
  const target = ctx.closureOf(targetPath);
  const c = {
    packages: 0,
    objects: 0,
    objectsInTarget: 0,
    objectsInSomePackage: 0,
    objectsInNoPackage: 0,
    data: 0,
    documents: 0,
    own: 0,
    notModified: 0,
  };
  const lists = { packages: [], objects: [], data: [], documents: [], own: [] };
  for (const r of reqs) {
    const path = r.url.split('?')[0];
    let kind;
    if (path.startsWith('/_objpack/') && path.endsWith('.objp')) kind = 'packages';
    else if (path.startsWith('/_objpack/') || /^\/objpack-(sw|register|manifest)\.js(on)?$/.test(path)) kind = 'own';
    else if (r.dest === 'document') kind = 'documents';
    else if (r.dest === 'empty' || r.rsc || /[?&]_rsc=/.test(r.url)) kind = 'data';
    else kind = 'objects';
    c[kind]++;
    if (r.status === 304 && kind !== 'own') c.notModified++;
    const item = { url: r.url, t: r.t, status: r.status, dest: r.dest };
    if (kind === 'objects') {
      item.where = target?.has(r.url) ? 'target' : ctx.packaged?.has(r.url) ? 'some-package' : 'no-package';
      c[
        item.where === 'target'
          ? 'objectsInTarget'
          : item.where === 'some-package'
            ? 'objectsInSomePackage'
            : 'objectsInNoPackage'
      ]++;
    }
    lists[kind].push(item);
  }
  return { ...c, requests: lists };
}
