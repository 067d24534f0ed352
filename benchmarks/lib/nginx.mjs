/**
 * nginx as a peer: a generated config (one worker, like the single-threaded Node servers; sendfile). Two
 * flavours: by default an access log with $msec and $request_time so its server response time is measured
 * like ours; `throughput: true` (the serve benchmark) logs nothing and caches open files, as a production
 * nginx would.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { procTreeCpuMs } from './cpu.mjs';

/** Path of the nginx binary, or null (scripts/system-tools.mjs installs it). */
export function nginxBinary() {
  const p = process.env.OBJPACK_NGINX || '/usr/sbin/nginx';
  return existsSync(p) ? p : null;
}

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', () => r(undefined)));
  const port = /** @type {net.AddressInfo} */ (s.address()).port;
  await new Promise((r) => s.close(() => r(undefined)));
  return port;
}

/**
 * @param {{ root: string, dir: string, holdMs?: number, maxConnections?: number, cpu?: number, nice?: number,
 * throughput?: boolean }} options `dir` holds config, logs and temp files; `maxConnections` caps worker_connections
 * (nginx counts its listening socket too); `cpu` pins the processes with taskset, `nice` re-prioritises them.
 */
export async function startNginx({ root, dir, holdMs = 5000, maxConnections, cpu, nice = 0, throughput = false }) {
  const bin = nginxBinary();
  if (!bin) throw new Error('nginx not found (run `node scripts/system-tools.mjs`)');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const log = join(dir, 'access.log');
  const logging = throughput
    ? 'access_log off;\n  keepalive_timeout 65s;\n  keepalive_requests 1000000;\n  open_file_cache max=10000 ' +
      'inactive=60s; open_file_cache_valid 60s;'
    : `log_format bench '$msec $request_time $status $body_bytes_sent';
  access_log ${log} bench;
  keepalive_timeout ${Math.max(0, Math.round(holdMs / 1000))}s;
  keepalive_requests 100000;
  open_file_cache off;`;
  const conf = `daemon off;
master_process on;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections ${maxConnections ? maxConnections + 1 : 4096}; multi_accept on; }
http {
  include /etc/nginx/mime.types;
  types { application/vnd.objpack objp; font/woff2 woff2; }
  default_type application/octet-stream;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  ${logging}
  client_body_temp_path ${join(dir, 'body')}; proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fcgi')}; uwsgi_temp_path ${join(dir, 'uwsgi')}; scgi_temp_path ${join(dir, 'scgi')};
  server { listen 127.0.0.1:${port}; root ${root}; location / { try_files $uri $uri/ =404; } }
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  await writeFile(log, '');
  const args = ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')];
  const pinned = cpu === undefined ? [bin, ...args] : ['taskset', '-c', String(cpu), bin, ...args];
  const [cmd, ...rest] = nice ? ['nice', '-n', String(nice), ...pinned] : pinned;
  const child = spawn(cmd, rest, { stdio: 'ignore' });
  const pid = /** @type {number} */ (child.pid);
  for (let i = 0; ; i++) {
    const ok = await new Promise((r) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        r(true);
      });
      s.on('error', () => r(false));
    });
    if (ok) break;
    if (i > 100 || child.exitCode !== null)
      throw new Error(`nginx did not start: ${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  let cpuBase = procTreeCpuMs(pid);
  let logOffset = 0;
  return {
    kind: 'nginx',
    port,
    pid,
    url: `http://127.0.0.1:${port}`,
    async reset() {
      cpuBase = procTreeCpuMs(pid);
      logOffset = (await readFile(log)).length;
    },
    async stats() {
      const lines = (await readFile(log)).subarray(logOffset).toString('latin1').trim().split('\n').filter(Boolean);
      let first = Infinity,
        last = 0;
      for (const l of lines) {
        const [msec, rt] = l.split(' ').map(Number);
        first = Math.min(first, msec - rt);
        last = Math.max(last, msec);
      }
      // nginx logs with millisecond resolution: response times below ~1 ms read as 0 or 1.
      return {
        cpuMs: procTreeCpuMs(pid) - cpuBase,
        requests: lines.length,
        responseMs: lines.length ? (last - first) * 1000 : 0,
        connections: NaN,
        connSeconds: NaN,
      };
    },
    close: () =>
      new Promise((r) => {
        child.once('exit', () => r(undefined));
        child.kill('SIGQUIT');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
