import { checkBasePath } from '@objpack/format';
import { ErrorCode, ObjpackError } from './errors.js';

/**
 * The base path a build puts the site under, checked and spelt as checkBasePath spells it: `base`, else the
 * path of `origin` (`https://user.github.io/repo/` → `/repo/`); undefined when neither says (the build may
 * then find it in the pages, detect-base.ts). A base that is no path, or one that disagrees with the path of
 * `origin`, is a usage error (OBJPACK_E_BAD_BASE) thrown before anything is written.
 */
export function resolveBase(options: { base?: unknown; origin?: string }): string | undefined {
  const fromOrigin = originPath(options.origin);
  if (options.base === undefined) return fromOrigin === '/' ? undefined : fromOrigin;
  const checked = checkBasePath(options.base);
  if (!checked.ok)
    throw new ObjpackError(
      ErrorCode.BAD_BASE,
      `--base ${JSON.stringify(options.base)} is not a URL path: ${checked.reason}`,
    );
  if (fromOrigin !== undefined && fromOrigin !== '/' && fromOrigin !== checked.base) {
    throw new ObjpackError(
      ErrorCode.BAD_BASE,
      `--base ${checked.base} disagrees with the path of --origin ${options.origin} (${fromOrigin}): ` +
        'give one, or the same path in both',
    );
  }
  return checked.base;
}

/** The path of `origin` as a base path; undefined when `origin` is absent or no URL (discovery reports that). */
function originPath(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const checked = checkBasePath(url.pathname);
  if (!checked.ok)
    throw new ObjpackError(ErrorCode.BAD_BASE, `the path of --origin ${origin} is not a base path: ${checked.reason}`);
  return checked.base;
}
