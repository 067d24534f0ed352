import type { Diagnostic } from '../discover/types.js';
import { registerPath, workerPath } from './inject.js';

/** The worker files the build writes under `base`, as decoded paths (SiteFile.path): never packaged. */
export const ownPaths = (base = '/'): ReadonlySet<string> =>
  new Set([workerPath(base), registerPath(base)].map(decodeURIComponent));

const OWN_REF = /(^|\/)objpack-(register|sw)\.js$/;
/**
 * A diagnostic about the site, not about objpack's own files: references to the worker or the registration
 * script (which a previous build injected into the pages it rewrote) are not the site's.
 */
export const aboutSite = (d: Diagnostic): boolean => !(d.ref && OWN_REF.test(d.ref.split(/[?#]/)[0]!));
