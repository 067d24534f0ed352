import { rm } from 'node:fs/promises';
import type { BuildManifest } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { headerRules } from './header-rules.js';
import type { HostBuild, HostRoutes } from './host.js';
import { HOST_TARGETS, HOSTS } from './index.js';
import { netlifyRedirects } from './netlify-redirects.js';
import { hostOutputs } from './outputs.js';
import { makeSite } from '../test-utils/site.js';

const manifest = {
  base: '/',
  pages: {
    '/': { critical: [{ path: '/a.css', as: 'style' }], preconnect: [] },
    '/wiki/Help:Contents.html': { critical: [{ path: '/b.css', as: 'style' }], preconnect: [] },
  },
} as unknown as BuildManifest;

const build = (targets: string[], netlify = false): HostBuild => ({
  manifest,
  headers: headerRules(manifest),
  existingHeaders: '',
  targets,
  netlify,
});

describe('the host registry', () => {
  it('names every --target, and each writes one file', () => {
    expect(HOST_TARGETS).toEqual(['netlify', 'cloudflare', 'vercel', 'firebase', 'nginx']);
    expect(HOSTS.map((h) => h.output.file)).toEqual([
      '_headers',
      '_headers',
      'vercel.json',
      'firebase.json',
      'objpack-nginx.conf',
    ]);
  });

  it('writes `_headers` on every build, once: the targeted host writes it in place of the default', () => {
    const files = (targets: string[]) => hostOutputs(build(targets)).map((o) => o.file);
    expect(files([])).toEqual(['_headers']);
    expect(files(['vercel', 'nginx'])).toEqual(['_headers', 'vercel.json', 'objpack-nginx.conf']);
    expect(files(['nginx', 'firebase', 'vercel'])).toEqual([
      '_headers',
      'vercel.json',
      'firebase.json',
      'objpack-nginx.conf',
    ]);
    const [cloudflare] = hostOutputs(build(['cloudflare']));
    expect(cloudflare!.linkRules).toEqual({ pages: 1, of: 2, cut: 0 });
    expect(hostOutputs(build(['netlify', 'cloudflare'])).map((o) => [o.file, o.linkRules !== undefined])).toEqual([
      ['_headers', true],
    ]);
  });

  it('the default `_headers` counts both readers of a path as a pattern unless the site is Netlify’s', () => {
    const pattern = (b: HostBuild) =>
      hostOutputs(b)[0]!.warnings.filter((w) => w.code === 'OBJPACK_W_LINK_RULE_PATTERN');
    expect(pattern(build([]))).toHaveLength(1);
    expect(pattern(build([], true))).toHaveLength(0);
  });
});

describe('one compiled pattern per rule', () => {
  it(
    "a `_redirects` rule's route for objpack serve and " + 'its redirect rule for the worker match the same URLs',
    async () => {
      const site = await makeSite({ _redirects: '/blog/:id/* /posts/:id/:splat 301!\n/go/* /x 302\n' });
      const routes: HostRoutes = { routes: [], skipped: [] };
      const rules = await netlifyRedirects(site, undefined, [], routes);
      const urls = ['/blog/1/a/b', '/BLOG/1/a', '/blog/1', '/go', '/go/x/y', '/gone'];
      for (const [i, rule] of rules.entries()) {
        const [source, , , options] = routes.routes[i]!;
        const served = new RegExp(source, (options as { flags?: string } | undefined)?.flags ?? 'i');
        expect(urls.filter((u) => rule.re.test(u))).toEqual(urls.filter((u) => served.test(u)));
        expect(urls.filter((u) => rule.test(u))).toEqual(urls.filter((u) => served.test(u)));
      }
      expect(routes.routes.map((r) => r[1])).toEqual(['/posts/${id}/${splat}', '/x']);
      await rm(site, { recursive: true, force: true });
    },
  );
});
