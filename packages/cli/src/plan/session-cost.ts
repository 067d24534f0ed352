import type { BuildManifest } from '@objpack/format';
import type { PackagePlan } from './types.js';

export interface SessionCost {
  navigations: number;
  /** Requests over the session: page packages, shared packages not yet cached, partial-media remainders. */
  requests: number;
  /** Bytes of everything those requests returned (package files, remainders of partial media). */
  bytesSent: number;
  /** Bytes of the distinct objects the visited pages need (whole files). */
  uniqueBytes: number;
  /** bytesSent / uniqueBytes: 1.0 would be a perfect plan with zero framing. */
  ratio: number;
}

/**
 * What a browser with an empty cache downloads over a session of page visits, measured on the emitted
 * packages: a page package is fetched on the first visit of its page (a revisit is a revalidation with no
 * body: one request, no bytes), a shared package once per session (immutable), and the rest of each
 * partial medium once.
 */
export function sessionCost(
  build: { manifest: BuildManifest; plan: PackagePlan },
  session: readonly string[],
): SessionCost {
  const { manifest, plan } = build;
  const planned = new Map(plan.pages.map((p) => [p.url, p]));
  const have = new Set<string>();
  const needed = new Set<string>();
  let requests = 0;
  let bytesSent = 0;
  let uniqueBytes = 0;
  const fetch = (url: string, bytes: number) => {
    requests++;
    if (have.has(url)) return;
    have.add(url);
    bytesSent += bytes;
  };
  for (const visited of session) {
    // Sessions may name the file URL of a directory page ('/guide/index.html' is the page '/guide/').
    const url = manifest.pages[visited] ? visited : visited.replace(/index\.html?$/, '');
    const page = manifest.pages[url];
    const p = planned.get(url);
    if (!page || !p) throw new RangeError(`session page ${visited} is not in the build`);
    fetch(page.package, manifest.packages[page.package]!.bytes);
    for (const s of page.shared) if (!have.has(s)) fetch(s, manifest.packages[s]!.bytes);
    for (const o of p.closure) {
      if (o.sendBytes < o.bytes && !have.has(`rest:${o.url}`)) fetch(`rest:${o.url}`, o.bytes - o.sendBytes);
      if (!needed.has(o.url)) {
        needed.add(o.url);
        uniqueBytes += o.bytes;
      }
    }
  }
  return {
    navigations: session.length,
    requests,
    bytesSent,
    uniqueBytes,
    ratio: uniqueBytes ? bytesSent / uniqueBytes : 1,
  };
}
