/**
 * CPU time measured from the processes themselves: `process.cpuUsage()` in Node processes, and
 * /proc/<pid>/stat (utime + stime of the process and its children) for nginx.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on every Linux the project runs on (getconf CLK_TCK).

/** This process's CPU time in ms (user + system). */
export function selfCpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * @param {number} pid
 * @returns {{ ppid: number, cpuMs: number } | null}
 */
function readStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return null;
  }
}

/**
 * CPU ms of a single-threaded process: /proc/<pid>/schedstat counts nanoseconds on the CPU, where
 * /proc/<pid>/stat counts 10 ms ticks (too coarse for 100 small files).
 * @param {number} pid
 * @param {number} fallback
 */
function schedCpuMs(pid, fallback) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return fallback;
  }
}

/**
 * CPU ms of `pid` and its live child processes (nginx master + single-threaded workers), from /proc.
 * @param {number} pid
 */
export function procTreeCpuMs(pid) {
  let total = schedCpuMs(pid, readStat(pid)?.cpuMs ?? 0);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (st && st.ppid === pid) total += schedCpuMs(Number(name), st.cpuMs);
  }
  return total;
}
