import type { FirebaseHosting } from '../hosts/firebase-headers.js';
import { firebaseRouting } from '../hosts/firebase-routes.js';
import type { RedirectRule } from '../hosts/host.js';
import { compileNetlify } from '../hosts/netlify-pattern.js';
import { vercelRouting } from '../hosts/vercel-routes.js';

/** The redirect rules of one vercel.json and their warnings. */
export const vercelRedirects = async (config: unknown, file: string, text?: string) => {
  const { redirects: rules, diagnostics } = await vercelRouting(config, file, text);
  return { rules, diagnostics };
};

/** The redirect rules of one firebase.json site and their warnings. */
export const firebaseRedirects = async (site: FirebaseHosting, ...rest: [string, string?, Array<string | number>?]) => {
  const { redirects: rules, diagnostics } = await firebaseRouting(site, ...rest);
  return { rules, diagnostics };
};

/** A `_redirects` `from` as the worker's route table has it: the compiled pattern without its groups. */
export const netlifyFrom = (from: string) => {
  const { plain: re, host } = compileNetlify(from);
  return host === undefined ? { re } : { re, host };
};

export const PATHS = [
  '/',
  '/a',
  '/a/',
  '/a.html',
  '/a/index.html',
  '/blog',
  '/blog/',
  '/blog/x',
  '/blog/x/y.html',
  '/blogx',
  '/.well-known/x',
  '/docs/v1/intro',
  '/docs/v1/v2/intro',
  '/OLD.html',
  '/old.html',
];
/** The PATHS some rule takes, as the build decides it. */
export const taken = (rules: RedirectRule[]) => PATHS.filter((u) => rules.some((r) => r.test(u)));
/** The PATHS some rule takes, as the worker's pattern decides it. */
export const takenByRe = (rules: RedirectRule[]) => PATHS.filter((u) => rules.some((r) => r.re.test(u)));
