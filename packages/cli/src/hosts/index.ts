/**
 * The static hosts objpack knows, in the order their configs are read and their rules apply (Netlify's
 * `_headers`/`_redirects` first, then vercel.json, then firebase.json). A new host is one module exporting a
 * `Host` (host.ts) and its line here.
 */
import { cloudflare } from './cloudflare.js';
import { firebase } from './firebase.js';
import type { Host } from './host.js';
import { netlify } from './netlify.js';
import { nginx } from './nginx.js';
import { vercel } from './vercel.js';

export const HOSTS = [netlify, cloudflare, vercel, firebase, nginx] as const satisfies readonly Host[];

/**
 * A `--target`: a host the build writes header rules for. `_headers` is always written, for Netlify and Cloudflare
 * Pages.
 */
export type HostTarget = (typeof HOSTS)[number]['name'];
export const HOST_TARGETS: readonly HostTarget[] = HOSTS.map((h) => h.name);

export type { Host, HostBuild, HostOutput, HostReading, HostSite, RedirectRule, SiteRule } from './host.js';
