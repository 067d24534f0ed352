import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjpackServer } from '../index.js';
import { useFixtureServers } from './fixture-servers.js';
import type { FixtureSite } from './site.js';

/** A fresh fixture site for each test, and servers of it with host routes in its manifest. */
export interface RoutesFixture {
  /** The running test's site. */
  readonly site: FixtureSite;
  /** Serves the site with `hostRoutes: routes` (and `extra`) in its manifest; closed after the test. */
  start(routes: unknown, extra?: Record<string, unknown>): Promise<ObjpackServer>;
}

/** Registers the per-test site and clean-up; call it at the top of a test file. */
export function routesFixture(): RoutesFixture {
  const fixture = useFixtureServers();
  return {
    get site() {
      return fixture.site;
    },
    start(routes, extra = {}) {
      const file = join(fixture.site.root, 'objpack-manifest.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), hostRoutes: routes, ...extra }));
      return fixture.start();
    },
  };
}
