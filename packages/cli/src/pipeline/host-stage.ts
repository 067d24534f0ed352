import type { Diagnostic, SiteGraph } from '../discover/types.js';
import { WarningCode, warn } from '../errors.js';
import type { RedirectRule } from '../hosts/host.js';
import { settleHosts, type HostProfile } from '../hosts/profile.js';
import { readHosts, type SiteHosts } from '../hosts/read-hosts.js';
import type { BuildOptions } from '../options.js';

/** What the host stage hands forward: the profile the writer follows, and what the other stages ask of it. */
export interface HostStage {
  profile: HostProfile;
  /** Every redirect the host applies before its files, as read (some may take objpack's own URLs). */
  rules: RedirectRule[];
  /** vercel.json/firebase.json outside the site that apply to it. */
  projectConfigs: string[];
  /** Response headers the host config gives the page at a URL path. */
  forPage: SiteHosts['forPage'];
}

/**
 * The host stage: reads the site's host configs once (hosts/), warns about the pages' links no setting
 * covers, and settles the profile for these pages (which of them the host redirects before its files).
 */
export async function hostStage(
  input: { root: string; options: BuildOptions },
  graph: SiteGraph,
  diagnostics: Diagnostic[],
): Promise<HostStage> {
  const { options } = input;
  const siteHosts = await readHosts(input.root, {
    cleanUrls: options.cleanUrls,
    bareDirUrls: options.bareDirUrls,
    targets: options.targets,
  });
  diagnostics.push(...siteHosts.diagnostics);
  const cleanUrls = options.cleanUrls ?? siteHosts.cleanUrls;
  // Pages that link to others by a URL only some hosts serve, and nothing said whether this one does: one warning each.
  // A host config with clean URLs at `/about/` decided it too: there `/about` is redirected.
  if (options.cleanUrls === undefined && !cleanUrls && !siteHosts.cleanSlashUrls) {
    const links = linking(graph.pages, 'cleanLinks');
    if (links) {
      const parts = { ...links, target: links.target.replace(/\.html$/, '') };
      diagnostics.push(warn(WarningCode.CLEAN_URL_LINKS, parts, { file: links.file }));
    }
  }
  if (options.bareDirUrls === undefined && !siteHosts.bareDirKnown) {
    const links = linking(graph.pages, 'bareDirLinks');
    if (links) {
      const parts = { ...links, link: links.target.slice(0, -1) };
      diagnostics.push(warn(WarningCode.BARE_DIR_LINKS, parts, { file: links.file }));
    }
  }
  const settled = settleHosts(
    siteHosts,
    { ...options, host: options.origin ? new URL(options.origin).host : undefined },
    graph.pages.map((p) => p.url),
  );
  diagnostics.push(...settled.diagnostics);
  return {
    profile: settled.profile,
    rules: siteHosts.redirects,
    projectConfigs: siteHosts.projectConfigs,
    forPage: siteHosts.forPage,
  };
}

/** The pages' `cleanLinks`/`bareDirLinks` for one warning: how many, and the first page and link. */
function linking(pages: SiteGraph['pages'], kind: 'cleanLinks' | 'bareDirLinks') {
  const pagesWith = pages.filter((p) => (p[kind]?.length ?? 0) > 0);
  if (pagesWith.length === 0) return undefined;
  const first = pagesWith[0]!;
  const links = pagesWith.reduce((n, p) => n + p[kind]!.length, 0);
  return { links, pages: pagesWith.length, file: first.file, target: first[kind]![0]! };
}
