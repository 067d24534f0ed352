/** What kind of object a reference is: its `as`, whether a stylesheet blocks rendering, srcset candidates. */
import { parseSrcset } from 'srcset';
import { isJavaScript } from './asset-analyzer.js';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import type { HtmlRef } from './html-ref.js';
import type { Diagnostic, PreloadAs, SiteFile } from './types.js';

/** True when a stylesheet with this `media` blocks rendering on a screen regardless of viewport size. */
export function mediaBlocksRender(media: string | undefined): boolean {
  const m = (media ?? '').trim().toLowerCase();
  return m === '' || m === 'all' || m === 'screen';
}

/** `as` values of a `<link rel=preload>` that are kept as the link gives them. */
const PRELOAD_AS = new Set<string>([
  'document',
  'style',
  'script',
  'font',
  'image',
  'fetch',
  'audio',
  'video',
  'track',
]);

/** `as` of a preload: the one the link gives when it is a destination, else the file's own. */
export function preloadAs(as: string | undefined, file: SiteFile): PreloadAs {
  return PRELOAD_AS.has(as ?? '') ? (as as PreloadAs) : asFor(file);
}

/** `as` for an object by its content type, when the reference itself does not say. */
export function asFor(file: SiteFile): PreloadAs {
  const t = file.contentType;
  if (t.startsWith('text/html')) return 'document';
  if (t.startsWith('text/css')) return 'style';
  if (isJavaScript(file)) return 'script';
  if (t.startsWith('image/')) return 'image';
  if (t.startsWith('font/') || /\.(woff2?|ttf|otf)$/.test(file.rel)) return 'font';
  if (t.startsWith('video/')) return 'video';
  if (t.startsWith('audio/')) return 'audio';
  if (t.startsWith('text/vtt')) return 'track';
  return 'fetch';
}

/** The candidate URLs of a srcset; an unparsable one is a warning. */
export function srcsetUrls(ref: HtmlRef, rel: string, diagnostics: Diagnostic[]): string[] {
  try {
    return parseSrcset(ref.v).map((c) => c.url);
  } catch (err) {
    diagnostics.push(
      warn(
        WarningCode.INVALID_URL,
        { at: `${rel}:${ref.line}`, ref: ref.v, reason: `invalid srcset: ${(err as Error).message}` },
        { file: rel, line: ref.line, ref: ref.v },
      ),
    );
    return [];
  }
}
