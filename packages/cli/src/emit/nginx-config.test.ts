import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { fakeWorkerAssets, makeSite } from '../test-utils/site.js';
import { NGINX_FILE } from './output-files.js';

const NGINX = process.env.OBJPACK_NGINX ?? '/usr/sbin/nginx';
if (!existsSync(NGINX))
  console.warn(
    `⚠ SKIPPING the nginx include test: ${NGINX} not found (set OBJPACK_NGINX, or run scripts/system-tools.mjs as ` +
      `root)`,
  );

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** A real nginx serving `root` with objpack's include in its server block; `fn` gets its base URL. */
async function withNginx(root: string, fn: (base: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-nginx-'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${path.join(dir, t)};`)
    .join(' ');
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `daemon off; master_process off; pid ${path.join(dir, 'nginx.pid')}; error_log ${path.join(dir, 'error.log')} ` +
      `warn;
events {}
http {
  access_log off; ${temp}
  server { listen 127.0.0.1:${port}; root ${root}; include ${path.join(root, NGINX_FILE)}; location / { try_files ` +
      `$uri $uri/ =404; } }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  try {
    for (let i = 0; ; i++) {
      const up = await new Promise<boolean>((r) =>
        net
          .connect(port, '127.0.0.1')
          .on('connect', function (this: net.Socket) {
            this.destroy();
            r(true);
          })
          .on('error', () => r(false)),
      );
      if (up) break;
      if (i > 150 || child.exitCode !== null)
        throw new Error(`nginx did not start: ${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await fn(`http://127.0.0.1:${port}`);
  } finally {
    child.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('objpack-nginx.conf in a real nginx', () => {
  test.skipIf(!existsSync(NGINX))(
    'pages whose URLs hold escapes or `$` get their Link header: nginx matches locations against the decoded path',
    async () => {
      const page = (t: string) => `<!doctype html><title>${t}</title><link rel="stylesheet" href="/s.css">`;
      const root = await makeSite({
        'index.html': page('home'),
        'café.html': page('cafe'),
        'a b.html': page('ab'),
        'guide/index.html': page('guide'),
        'x$y/index.html': page('xy'),
        's.css': 'p{}',
      });
      await build({ root, workerAssets: await fakeWorkerAssets(), targets: ['nginx'] });
      await withNginx(root, async (base) => {
        const answers = await Promise.all(
          ['/', '/caf%C3%A9.html', '/a%20b.html', '/guide/', '/x$y/'].map(async (u) => {
            const r = await fetch(base + u);
            await r.arrayBuffer();
            return [u, r.status, r.headers.get('link')];
          }),
        );
        expect(answers).toEqual(
          ['/', '/caf%C3%A9.html', '/a%20b.html', '/guide/', '/x$y/'].map((u) => [
            u,
            200,
            '</s.css>; rel=preload; as=style',
          ]),
        );
      });
    },
  );
});
