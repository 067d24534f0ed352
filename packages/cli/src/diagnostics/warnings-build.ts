import { count, spec } from './warning-spec.js';

/** Warnings of planning and writing: tracing, page files, Link headers and the service worker. */
export const BUILD_WARNINGS = {
  OBJPACK_W_LINK_HEADER_TRUNCATED: spec<{ page: string; limits: string; dropped: number }>({
    message: (p) => `Link header of ${p.page} cut to stay under ${p.limits} (${p.dropped} preloads dropped)`,
    hint: 'nothing breaks: the worker still announces every preload; fewer render-blocking files shorten the header',
  }),
  OBJPACK_W_TRACE_MISSED: spec<{ url: string }>({
    message: (p) => `the browser requested ${p.url} but static analysis did not find it; added to the closure`,
    hint: 'nothing to do for this build; a reference built by script is only found by --trace',
  }),
  OBJPACK_W_TRACE_UNAVAILABLE: spec({
    message: () => 'tracing was not available',
    hint:
      'not reported by this version: a trace that cannot start Chromium fails with OBJPACK_E_NO_BROWSER; ' +
      'the code stays reserved',
  }),
  OBJPACK_W_OBJECT_VANISHED: spec<{ path: string; reason: string }>({
    message: (p) => `${p.path} could not be read (${p.reason}); left out of the packages`,
    hint: 'run the build again once the site generator has finished writing',
  }),
  OBJPACK_W_REGISTER_WITHOUT_SW: spec<{
    pages: number;
    first: string;
    register: string;
    worker: string;
    kept: boolean;
  }>({
    message: (p) => {
      const these = `${count(p.pages, 'page')} (${p.first}${p.pages > 1 ? ', …' : ''}) still load${
        p.pages === 1 ? 's' : ''
      } ${p.register}`;
      return p.kept
        ? `${these} with --no-sw: the ${p.register} and ${p.worker} already there are kept, so they still register ` +
            'that worker; remove the tag from the pages (objpack never removes one: it may be yours) or rebuild the ' +
            'site from its sources, and build once with --unregister to retire installed workers, or drop --no-sw'
        : `${these} with --no-sw, and the site has no ${p.register}: every such page requests a missing file; ` +
            'remove the tag, or build without --no-sw';
    },
    hint: 'remove the registration tag from the pages, or build without --no-sw',
    variants: [{ kept: true }, { kept: false }],
  }),
} as const;
