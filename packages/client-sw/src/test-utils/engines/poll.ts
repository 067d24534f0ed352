/** Calls `check` every `everyMs` until it returns a truthy value; rejects with `what` after `timeoutMs`. */
export async function pollUntil<T>(
  check: () => Promise<T>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
