// Installs the system programs the tests use (the three browser engines, nginx, wrk) from Debian when
// missing and we are root; otherwise says loudly which tests will skip. Tests read the result from
// OBJPACK_* env variables.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = [
  {
    bin: '/usr/bin/chromium',
    pkg: 'chromium',
    env: 'OBJPACK_CHROMIUM',
    why: 'service-worker and browser-oracle tests in Chromium',
  },
  { bin: '/usr/bin/firefox-esr', pkg: 'firefox-esr', env: 'OBJPACK_FIREFOX', why: 'service-worker tests in Firefox' },
  // WebKitGTK's driver drives its MiniBrowser (a dependency of webkit2gtk-driver), which needs an X display.
  {
    bin: '/usr/bin/WebKitWebDriver',
    pkg: 'webkit2gtk-driver',
    env: 'OBJPACK_WEBKIT_DRIVER',
    why: 'service-worker tests in WebKit',
  },
  {
    bin: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    pkg: 'webkit2gtk-driver',
    env: 'OBJPACK_MINIBROWSER',
    why: 'service-worker tests in WebKit',
  },
  {
    bin: '/usr/bin/Xvfb',
    pkg: 'xvfb',
    env: 'OBJPACK_XVFB',
    why: 'service-worker tests in WebKit (MiniBrowser needs a display)',
  },
  { bin: '/usr/sbin/nginx', pkg: 'nginx', env: 'OBJPACK_NGINX', why: 'nginx comparison tests' },
  { bin: '/usr/bin/wrk', pkg: 'wrk', env: 'OBJPACK_WRK', why: 'package throughput benchmarks' },
];

const has = (t) => existsSync(t.bin);

export function ensureSystemTools({ quiet = false } = {}) {
  const missing = [...new Set(tools.filter((t) => !has(t)).map((t) => t.pkg))];
  if (missing.length > 0 && process.getuid?.() === 0 && process.env.OBJPACK_NO_APT !== '1') {
    process.stdout.write(`Installing ${missing.join(', ')} from Debian (apt-get)…\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // apt's progress output would bury the test results; show it only when a step fails.
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', '--no-install-recommends', ...missing],
    ]) {
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
        const line = `${t.bin} is not installed and could not be installed (${t.pkg})`;
        process.stderr.write(`\n!!! ${line}.\n!!! SKIPPING ${t.why}.\n\n`);
      }
    }
  }
  const pkgs = [...new Set(tools.map((t) => t.pkg))];
  return Object.fromEntries(pkgs.map((pkg) => [pkg, tools.filter((t) => t.pkg === pkg).every(has)]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureSystemTools();
  for (const [bin, ...args] of [
    ['/usr/bin/chromium', '--version'],
    ['/usr/bin/firefox-esr', '--version'],
    // MiniBrowser opens a window even for --version: the package says which WebKit it is.
    ['dpkg-query', '-W', '-f', 'WebKitGTK ${Version}\\n', 'libwebkit2gtk-4.1-0'],
  ]) {
    try {
      execFileSync(bin, args, { stdio: 'inherit' });
    } catch {
      /* reported above */
    }
  }
}
