import { afterEach, beforeEach, expect } from 'vitest';
import { serve, type ObjpackServer, type ServeOptions } from '../index.js';
import { makeSite, type FixtureSite } from './site.js';

/**
 * A fresh fixture site for each test and `start`, which serves it on port 0; the servers close and the
 * site is removed after each test.
 */
export function useFixtureServers(): {
  readonly site: FixtureSite;
  start(o?: Partial<ServeOptions>): Promise<ObjpackServer>;
} {
  let site: FixtureSite | undefined;
  const servers: ObjpackServer[] = [];
  beforeEach(() => {
    site = makeSite();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    site?.cleanup();
  });
  return {
    get site() {
      return site!;
    },
    async start(o = {}) {
      const s = await serve({ root: site!.root, port: 0, ...o });
      servers.push(s);
      return s;
    },
  };
}

/** Waits up to 2 s for `cond`, then asserts it. */
export async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}
