import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { serve, type ObjpackServer } from '../index.js';
import { makeSite, type FixtureSite } from './site.js';

/** A fresh fixture site for each test, and servers of it with host routes in its manifest. */
export interface RoutesFixture {
  /** The running test's site. */
  readonly site: FixtureSite;
  /** Serves the site with `hostRoutes: routes` (and `extra`) in its manifest; closed after the test. */
  start(routes: unknown, extra?: Record<string, unknown>): Promise<ObjpackServer>;
}

/** Registers the per-test site and clean-up; call it at the top of a test file. */
export function routesFixture(): RoutesFixture {
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
    async start(routes, extra = {}) {
      const file = join(site!.root, 'objpack-manifest.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), hostRoutes: routes, ...extra }));
      const s = await serve({ root: site!.root, port: 0 });
      servers.push(s);
      return s;
    },
  };
}
