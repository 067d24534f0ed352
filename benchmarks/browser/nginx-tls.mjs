/**
 * nginx 1.22 from Debian as the browser benchmark's peer: HTTP/1.1 (also the static host objpack runs on),
 * HTTP/2 over TLS, and HTTP/2 over TLS with `Link: rel=preload` for each page's whole closure (nginx 1.22
 * cannot send 103 Early Hints; the preload header on the 200 is what it can do). Self-signed certificate.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

const AS = { 'image/svg+xml': 'image', 'text/css': 'style', 'text/javascript': 'script', 'font/woff2': 'font' };

/**
 * A self-signed P-256 certificate for 127.0.0.1 in `dir`, and the base64 SHA-256 of its public key for
 * Chromium's `--ignore-certificate-errors-spki-list`: a certificate accepted that way counts as valid, while
 * `--ignore-certificate-errors` leaves the error on the connection and Chromium then stores none of its
 * responses in the HTTP cache (no reuse of a first page's files, no 103 Early Hints preload reused).
 */
export function certificate(dir) {
  const cert = join(dir, 'cert.pem'),
    key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const der = new X509Certificate(readFileSync(cert)).publicKey.export({ type: 'spki', format: 'der' });
  return { cert, key, spki: createHash('sha256').update(der).digest('base64') };
}

const TYPES =
  'types { text/html html; text/css css; text/javascript js mjs; application/javascript cjs; image/svg+xml svg; ' +
  ('image/png png; image/jpeg jpg jpeg; image/webp webp; image/x-icon ico; font/woff2 woff2; font/woff woff; ' +
    'font/ttf ttf; ') +
  'application/json json; application/manifest+json webmanifest; text/plain txt; application/vnd.objpack objp; }';

/** Runs nginx on `conf` (the `http` block's servers) until close(); resolves once `probe` accepts connections. */
async function runNginx(nginx, dir, servers, probe, cert) {
  const conf =
    `daemon off; master_process off; worker_processes 1; pid ${join(dir, 'nginx.pid')}; error_log ` +
    `${join(dir, 'error.log')} error;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nodelay on; keepalive_timeout 60; keepalive_requests 10000; ` +
    `client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; ` +
    `scgi_temp_path ${dir};
  ssl_certificate ${cert.cert}; ssl_certificate_key ${cert.key}; ${servers}
}`;
  const confFile = join(dir, 'nginx.conf');
  await writeFile(confFile, conf);
  const child = spawn(nginx, ['-c', confFile, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (let i = 0; i < 100; i++) {
    if (exited) throw new Error(`nginx exited; see ${join(dir, 'error.log')}`);
    const up = await new Promise((r) =>
      net
        .connect(probe, '127.0.0.1')
        .on('connect', function () {
          this.destroy();
          r(true);
        })
        .on('error', () => r(false)),
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return async () => {
    if (child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
}

/**
 * @param {{ nginx: string, root: string, dir: string, pages: Record<string, { path: string, closure: string[] }>,
 * types: (p: string) => string }} o
 */
export async function startNginxPeers({ nginx, root, dir, pages, types }) {
  await mkdir(dir, { recursive: true });
  const cert = certificate(dir);
  const [h1, h2, h2p] = [await freePort(), await freePort(), await freePort()];
  const preload = Object.values(pages)
    .map((p) => {
      const links = p.closure.map((u) => {
        const as = AS[types(u)] ?? 'fetch';
        if (as === 'script') return `<${u}>; rel=modulepreload`;
        return `<${u}>; rel=preload; as=${as}${as === 'font' ? '; crossorigin' : ''}`;
      });
      // nginx caps one parameter's length: several Link headers of ten links each (same meaning).
      const headers = [];
      for (let i = 0; i < links.length; i += 10)
        headers.push(`add_header Link "${links.slice(i, i + 10).join(', ')}";`);
      return (
        `location = ${p.path} { ${headers.join(' ')} add_header Cache-Control no-cache; try_files ` +
        `${p.path}index.html =404; }`
      );
    })
    .join('\n    ');
  const common = `root ${root}; location / { try_files $uri $uri/ =404; } ${TYPES}`;
  const servers = `add_header Cache-Control no-cache;
  server { listen 127.0.0.1:${h1}; ${common} }
  server { listen 127.0.0.1:${h2} ssl http2; ${common} }
  server { listen 127.0.0.1:${h2p} ssl http2; ${common}
    ${preload} }`;
  const close = await runNginx(nginx, dir, servers, h2p, cert);
  return { ports: { h1, h2, h2p }, close };
}

/**
 * One nginx HTTP/2-over-TLS server per site root, caching as a well-configured static host does: HTML,
 * objpack's page packages, route table, worker and snippet revalidate (`no-cache`); content-named shared
 * packages are immutable; every other file may be reused for an hour without asking, so a second page of
 * a visit takes the shared CSS, fonts and scripts from the HTTP cache. Text is gzipped, as hosts do.
 * @param {{ nginx: string, dir: string, roots: string[], cert: { cert: string, key: string } }} o
 * @returns {Promise<{ ports: number[], close: () => Promise<void> }>}
 */
export async function startNginxSites({ nginx, dir, roots, cert }) {
  await mkdir(dir, { recursive: true });
  const ports = [];
  for (let i = 0; i < roots.length; i++) ports.push(await freePort());
  const revalidate = 'add_header Cache-Control no-cache;';
  const servers =
    `gzip on; gzip_types text/css text/javascript application/javascript image/svg+xml ` +
    `application/json application/manifest+json text/plain;
  ${roots
    .map(
      (root, i) => `server { listen 127.0.0.1:${ports[i]} ssl http2; root ${root}; ${TYPES}
    location / { add_header Cache-Control "public, max-age=3600"; try_files $uri $uri/ =404; }
    location ~ (\\.html|/)$ { ${revalidate} try_files $uri $uri/ =404; }
    location ~ ^/(_objpack/pages/|_objpack/routes|objpack-sw|objpack-register|sw-bench) { ${revalidate} }
    location /_objpack/shared/ { add_header Cache-Control "public, max-age=31536000, immutable"; } }`,
    )
    .join('\n  ')}`;
  const close = await runNginx(nginx, dir, servers, ports[0], cert);
  return { ports, close };
}
