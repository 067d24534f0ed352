import { count, spec } from './warning-spec.js';

/** Warnings about the host: its config files, their rules, and the URLs pages link by. */
export const HOST_WARNINGS = {
  OBJPACK_W_HOST_CONFIG_LIMIT: spec<{ rules: number; max: number }>({
    message: (p) => `vercel.json gets ${p.rules} header rules; Vercel accepts at most ${p.max}`,
    hint: 'fewer pages with their own Link rule fit: build fewer pages per deploy, or serve with objpack serve',
  }),
  OBJPACK_W_CLOUDFLARE_HEADERS_LIMIT: spec<{ problem: string }>({
    message: (p) => p.problem,
    hint: 'merge rules of your own _headers, or build with --target cloudflare so objpack keeps within the limits',
  }),
  OBJPACK_W_LINK_RULE_PATTERN: spec<{ pages: number; first: string; hosts: string }>({
    message: (p) =>
      `${count(p.pages, 'page gets', 'pages get')} no Link rule in _headers (${p.first}): ${
        p.pages === 1 ? 'its path holds' : 'their paths hold'
      } \`*\` or \`:name\`, which ${p.hosts} reads as a pattern that matches other URLs too, with no escape; ` +
      `the worker still announces ${p.pages === 1 ? 'its' : 'their'} preloads once installed`,
    hint: 'rename such pages if first visits need their preloads; the worker announces them once installed',
  }),
  OBJPACK_W_HOST_CONFIG_KEPT: spec<{ file: string; reason: string }>({
    message: (p) => `${p.file}: ${p.reason}`,
    hint: "add objpack's entries from _objpack/.host-entries.json yourself, or make the config plain JSON",
  }),
  OBJPACK_W_HOST_CONFIG_ELSEWHERE: spec<{ name: string; outDir: string; project: string }>({
    message: (p) =>
      `${p.name} got objpack's header rules in ${p.outDir}, but ${p.project} is the config a deploy from the ` +
      "project reads: copy objpack's `headers` entries there, or deploy the site directory itself",
    hint: "copy objpack's entries (_objpack/.host-entries.json) into the project's config",
  }),
  OBJPACK_W_HOST_HEADERS: spec<{ problem: string; unread?: boolean }>({
    message: (p) => (p.unread ? `host headers not read: ${p.problem}` : `host headers: ${p.problem}`),
    hint: 'fix the rule the message names; until then pages served from packages lack its headers',
    variants: [{ unread: true }, { unread: false }],
  }),
  OBJPACK_W_HOST_CONFIG_SKIPPED: spec<{ config: string; site: string }>({
    message: (p) =>
      `${p.config} names no outputDirectory and ${p.site}/ is not where a framework Vercel knows writes its site ` +
      '(dist, build, public, _site, out…): its headers, redirects and URL settings were not applied to this site; ' +
      `if Vercel deploys ${p.site}/ from there, add "outputDirectory": "${p.site}" to it`,
    hint: 'add "outputDirectory" to vercel.json when Vercel deploys this directory',
  }),
  OBJPACK_W_HOST_REDIRECTS: spec<{ problem: string }>({
    message: (p) => `host redirects: ${p.problem}`,
    hint: 'fix the rule the message names; the host may read it differently from objpack',
  }),
  OBJPACK_W_HOST_ROUTES_SKIPPED: spec<{ rules: number; file: string; source: string; why: string }>({
    message: (p) =>
      `${count(p.rules, 'host rule needs', 'host rules need')} the host itself (${p.file} \`${p.source}\`: ` +
      `${p.why}): objpack serve answers 502 where the host runs a function or a proxy, and leaves out rules that ` +
      'depend on the visitor',
    hint: 'nothing to do for the deploy: the host applies these rules; test them on the host itself',
  }),
  OBJPACK_W_PAGES_REDIRECTED: spec<{ pages: number; url: string; file: string; rule: string }>({
    message: (p) =>
      `${count(p.pages, 'page is', 'pages are')} redirected by the host before it serves files (${p.url} by ` +
      `${p.file} \`${p.rule}\`): the worker leaves ${p.pages === 1 ? 'its URL' : 'their URLs'} to the host`,
    hint: 'nothing breaks; remove the redirect rule if the page should load from its package',
  }),
  OBJPACK_W_HOST_ROUTE_SHADOWS_OWN: spec<{ rule: string; url: string; where: string; effect: string; fix: string }>({
    message: (p) => `host rule \`${p.rule}\` takes ${p.url} before the site's files${p.where}: ${p.effect}; ${p.fix}`,
    hint: "exclude objpack's files (/objpack-sw.js, /_objpack/) from the rule, as the message says",
  }),
  OBJPACK_W_CLEAN_URL_LINKS: spec<{ links: number; pages: number; file: string; target: string }>({
    message: (p) =>
      `${count(p.links, 'link')} on ${count(p.pages, 'page')} name pages without .html (${p.file} links to ` +
      `${p.target}): if your host serves clean URLs, build with --clean-urls so the worker answers those ` +
      'navigations (--no-clean-urls silences this)',
    hint: 'build with --clean-urls if your host serves /about for about.html, else --no-clean-urls',
  }),
  OBJPACK_W_BARE_DIR_LINKS: spec<{ links: number; pages: number; file: string; link: string; target: string }>({
    message: (p) =>
      `${count(p.links, 'link')} on ${count(p.pages, 'page')} name directory pages without their trailing slash ` +
      `(${p.file} links to ${p.link} for ${p.target}): a host that redirects them (Netlify, Cloudflare Pages, ` +
      'GitHub Pages) costs each such navigation a round trip, with or without objpack; if yours serves them there ' +
      '(Vercel, Render, Azure Static Web Apps), build with --bare-dir-urls so the worker answers them ' +
      '(--no-bare-dir-urls silences this)',
    hint: 'build with --bare-dir-urls if your host serves /guide for guide/index.html, else --no-bare-dir-urls',
  }),
} as const;
