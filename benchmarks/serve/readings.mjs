// What the serve benchmark reads off the system: a process's CPU time from /proc, and wrk's report.
import { readFileSync } from 'node:fs';

/** CPU time (user, system; ms) of a process and its direct children (nginx: master + worker). */
export function cpuMs(pid) {
  const one = (p) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return [Number(f[11]) * 10, Number(f[12]) * 10]; // clock ticks of 10 ms (USER_HZ 100)
    } catch {
      return [0, 0];
    }
  };
  let kids = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    /* gone */
  }
  return [pid, ...kids].map(one).reduce((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0]);
}

/**
 * The numbers of wrk's `--latency` report printed through the benchmark's `sh` wrapper, whose `SHSTAT`
 * line (the shell's /proc stat) holds wrk's CPU time once it has been waited for.
 */
export function parseWrk(out, duration) {
  const num = (re) => Number(re.exec(out)?.[1] ?? NaN);
  const unit = (re) => {
    const m = re.exec(out);
    if (!m) return NaN;
    return Number(m[1]) * ({ KB: 1e-3, MB: 1, GB: 1e3, us: 1e-3, ms: 1, s: 1e3 }[m[2]] ?? 1e-6);
  };
  const sh = /SHSTAT .*?\) (.*)/.exec(out)?.[1].split(' ') ?? [];
  const clientMs = (Number(sh[13]) + Number(sh[14])) * 10; // cutime + cstime, USER_HZ 100
  const non2xx = num(/Non-2xx or 3xx responses: (\d+)/);
  const socketErrors = /Socket errors: (.*)/.exec(out)?.[1];
  return {
    reqPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    mbPerSec: unit(/Transfer\/sec:\s+([\d.]+)(KB|MB|GB|B)/),
    p50ms: unit(/50%\s+([\d.]+)(us|ms|s)\b/),
    p99ms: unit(/99%\s+([\d.]+)(us|ms|s)\b/),
    non2xx: Number.isNaN(non2xx) ? 0 : non2xx,
    ...(socketErrors ? { socketErrors } : {}),
    clientCpuPct: clientMs / 10 / duration,
  };
}
