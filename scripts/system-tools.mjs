// Installs the system programs the tests use (Chromium, nginx, wrk) from Debian when missing and we are
// root; otherwise says loudly which tests will skip. Tests read the result from OBJPACK_* env variables.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = [
  { bin: '/usr/bin/chromium', pkg: 'chromium', env: 'OBJPACK_CHROMIUM', why: 'service-worker and browser-oracle tests' },
  { bin: '/usr/sbin/nginx', pkg: 'nginx', env: 'OBJPACK_NGINX', why: 'nginx comparison tests' },
  { bin: '/usr/bin/wrk', pkg: 'wrk', env: 'OBJPACK_WRK', why: 'package throughput benchmarks' },
];

const has = (t) => existsSync(t.bin);

export function ensureSystemTools({ quiet = false } = {}) {
  const missing = tools.filter((t) => !has(t));
  if (missing.length > 0 && process.getuid?.() === 0 && process.env.OBJPACK_NO_APT !== '1') {
    process.stdout.write(`Installing ${missing.map((t) => t.pkg).join(', ')} from Debian (apt-get)…\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // apt's progress output would bury the test results; show it only when a step fails.
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing.map((t) => t.pkg)]]) {
      const r = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) {
        process.stderr.write(`apt-get ${args[0]} failed (exit ${r.status}):\n${(r.stdout + r.stderr).slice(-4000)}\n`);
      }
    }
  }
  for (const t of tools) {
    if (has(t)) {
      process.env[t.env] = t.bin;
    } else {
      delete process.env[t.env];
      if (!quiet) {
        process.stderr.write(`\n!!! ${t.bin} is not installed and could not be installed (${t.pkg}).\n!!! SKIPPING ${t.why}.\n\n`);
      }
    }
  }
  return Object.fromEntries(tools.map((t) => [t.pkg, has(t)]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureSystemTools();
  try { execFileSync('/usr/bin/chromium', ['--version'], { stdio: 'inherit' }); } catch { /* reported above */ }
}
