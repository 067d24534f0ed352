/**
 * Cache Storage names by worker scope. Every site under one origin shares its Cache Storage, so the caches
 * of the worker for `/repo/` carry its scope (`objpack-v1/repo/-build-…`) and no other objpack worker on the
 * origin reads, prunes or deletes them. A worker at `/` keeps the names it always had (`objpack-v1-…`),
 * so installed sites keep their caches.
 */

/** The default cache prefix of a worker whose scope's path is `scopePath` (`/`, `/repo/`). */
export const cachePrefixFor = (scopePath: string): string =>
  scopePath === '/' ? 'objpack-v1' : `objpack-v1${scopePath}`;

/**
 * Whether `name` is a cache of objpack's default layout, of any version, for the worker of `scopePath`: what
 * a new version may delete as its scope's old layout, and what the kill switch of that scope deletes.
 */
export function isScopeCache(name: string, scopePath: string): boolean {
  const version = /^objpack-v\d+/.exec(name);
  if (!version) return false;
  const rest = name.slice(version[0].length);
  return scopePath === '/' ? rest.startsWith('-') : rest.startsWith(`${scopePath}-`);
}
