import type { EnginePage as Page } from './engines/index.js';
import { svg, testSite, type SiteSpec } from './site.js';

/** Options of the deploy tests' server: the worker checks its route table on every navigation. */
export const deployCfg = { options: { routesMaxAgeMs: 0 } };

/** v1 of the deploy tests' site: an extra object in the home page's package that v2 drops. */
export const v1Site = (register: Buffer): SiteSpec =>
  testSite(register, 1, {
    files: { '/img/old.svg': svg('gray') },
    pages: { '/': { objects: ['/img/home.svg', '/img/old.svg'], shared: ['common'] } },
  });

/** The heading, the module's text and the JSON's message a deploy test page shows. */
export const readState = (p: Page) =>
  p.evaluate(() => [
    document.querySelector('h1')!.textContent,
    document.getElementById('js')!.textContent,
    document.getElementById('json')!.textContent,
  ]);
