import path from 'node:path';

/**
 * The locales `docusaurus build` builds, in its order: those given with `-l/--locale` (a variadic option,
 * repeatable), else every configured one; the default first (core/lib/commands/build/build.js
 * `orderLocales`: building it last would erase the others' folders). A plugin is not told the CLI's
 * options, so they are read from `argv`; a build started from code passes none and builds them all.
 */
export function localesToBuild(
  argv: readonly string[],
  configured: readonly string[],
  defaultLocale: string,
): string[] {
  const given: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const inline = /^--locale=(.+)$/.exec(arg);
    if (inline) given.push(inline[1]!);
    else if (arg === '-l' || arg === '--locale') {
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) given.push(argv[++i]!);
    }
  }
  const locales = given.length > 0 ? [...new Set(given)] : [...configured];
  return locales.includes(defaultLocale) ? [defaultLocale, ...locales.filter((l) => l !== defaultLocale)] : locales;
}

/**
 * The directory holding every locale's output, from one locale's: Docusaurus writes a locale whose base URL
 * extends the site's (`/fr/` of `/`) into the matching sub-folder of the output (core/lib/server/site.js).
 */
export function outputRoot(outDir: string, localeBaseUrl: string, siteBaseUrl: string): string {
  if (!localeBaseUrl.startsWith(siteBaseUrl)) return outDir;
  const depth = localeBaseUrl.slice(siteBaseUrl.length).split('/').filter(Boolean).length;
  // Docusaurus joins the folder as a URL path: `build/fr/`, with the slash.
  let root = path.resolve(outDir);
  for (let i = 0; i < depth; i++) root = path.dirname(root);
  return root;
}
