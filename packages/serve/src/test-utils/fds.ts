import { readdirSync } from 'node:fs';

/** Open descriptors of this process (Linux: one entry per descriptor in /proc/self/fd). */
export const fdCount = (): number => readdirSync('/proc/self/fd').length;

/** The descriptor count once it is back to `target`, or whatever it is after `waitMs` of waiting. */
export async function settledFdCount(target: number, waitMs = 3000): Promise<number> {
  let n = fdCount();
  for (let waited = 0; waited < waitMs && n > target; waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
    n = fdCount();
  }
  return n;
}
