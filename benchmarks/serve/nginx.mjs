/** nginx from Debian with a generated throughput config (one worker, no access log, open_file_cache). */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export const nginxBinary = () => [process.env.OBJPACK_NGINX, '/usr/sbin/nginx'].find((b) => b && existsSync(b)) ?? null;

export async function startNginx({ root, dir, port, cpu, nice = 0 }) {
  mkdirSync(dir, { recursive: true });
  const conf = `daemon off;
master_process on;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 4096; multi_accept on; }
http {
  include /etc/nginx/mime.types;
  types { application/vnd.objpack objp; }
  default_type application/octet-stream;
  access_log off;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_timeout 65s; keepalive_requests 1000000;
  open_file_cache max=10000 inactive=60s; open_file_cache_valid 60s;
  client_body_temp_path ${join(dir, 'body')}; proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fcgi')}; uwsgi_temp_path ${join(dir, 'uwsgi')}; scgi_temp_path ${join(dir, 'scgi')};
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const args = ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')];
  const pin = ['taskset', '-c', String(cpu), nginxBinary(), ...args];
  const [cmd, ...rest] = nice ? ['nice', '-n', String(nice), ...pin] : pin;
  const child = spawn(cmd, rest, { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    const ok = await new Promise((r) => { const s = connect(port, '127.0.0.1', () => { s.destroy(); r(true); }); s.on('error', () => r(false)); });
    if (ok) break;
    if (i > 150 || child.exitCode !== null) throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    pid: child.pid,
    stop: () => new Promise((r) => { child.once('exit', () => r(null)); child.kill('SIGQUIT'); setTimeout(() => child.kill('SIGKILL'), 3000).unref(); }),
  };
}
