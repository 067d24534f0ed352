import { isHeaderValue, type ObjectEntry, type RouteTable } from '@objpack/format';

/** An object name's host `Cache-Control`, or undefined when no rule gives it one. */
export type CacheControlOf = (name: string) => string | undefined;

const compiled = new WeakMap<RouteTable, CacheControlOf | undefined>();

/**
 * The host's `Cache-Control` for objects of `table`'s build (RouteTable.objectCache), as objpack serve
 * applies the same rules to the files: tested on the path as requested and percent-decoded, a later match
 * winning. Undefined when the table has no such rule. A rule that does not compile, whose value is no header
 * value (format's isHeaderValue) or whose flags would make `test()` stateful is skipped: the table is a file
 * from the network.
 */
export function cacheControlOf(table: RouteTable): CacheControlOf | undefined {
  if (compiled.has(table)) return compiled.get(table);
  const rules: Array<[RegExp, string]> = [];
  for (const r of Array.isArray(table.objectCache) ? table.objectCache : []) {
    const [match, flags, value] = Array.isArray(r) ? r : [];
    if (typeof match !== 'string' || typeof flags !== 'string' || !isHeaderValue(value)) continue;
    if (!/^[imsu]*$/.test(flags)) continue;
    try {
      rules.push([new RegExp(match, flags), value]);
    } catch {
      /* skipped */
    }
  }
  const of: CacheControlOf | undefined =
    rules.length === 0
      ? undefined
      : (name) => {
          const path = name.split('?')[0]!;
          let decoded = path;
          try {
            decoded = decodeURIComponent(path);
          } catch {
            /* kept as requested */
          }
          let value: string | undefined;
          for (const [re, v] of rules) if (re.test(path) || (decoded !== path && re.test(decoded))) value = v;
          return value;
        };
  compiled.set(table, of);
  return of;
}

/**
 * `entry` with the host's `Cache-Control` added, unless it carries one (a page's own headers) or no rule
 * gives it one: the worker's answer is then as fresh as the host's would be.
 */
export function withHostCaching(entry: ObjectEntry, of: CacheControlOf | undefined): ObjectEntry {
  if (!of || entry.headers.some(([n]) => n === 'cache-control') || /^text\/html\b/i.test(entry.contentType))
    return entry;
  const value = of(entry.name);
  return value === undefined ? entry : { ...entry, headers: [...entry.headers, ['cache-control', value]] };
}

/** `Cache-Control` that lets a browser reuse a response without asking: a positive max-age, no no-cache/no-store. */
export function reusable(value: string | undefined): boolean {
  if (!value || /(^|[,\s])no-(cache|store)\b/i.test(value)) return false;
  const m = /(^|[,\s])max-age\s*=\s*"?(\d+)/i.exec(value);
  return !!m && Number(m[2]) > 0;
}
