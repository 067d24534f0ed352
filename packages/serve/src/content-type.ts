import mime from 'mime';
import { MEDIA_TYPE } from '@objpack/format';

const TEXTUAL =
  /^(?:text\/|application\/(?:javascript|json|xml|manifest\+json|ld\+json|xhtml\+xml|rss\+xml|atom\+xml)|image\/svg\+xml)/;
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:javascript|json|xml|wasm|manifest\+json|ld\+json|xhtml\+xml|rss\+xml|atom\+xml)|image\/(?:svg\+xml|x-icon|vnd\.microsoft\.icon|bmp)|font\/(?:ttf|otf)|application\/vnd\.ms-fontobject)/;

/** `Content-Type` for a file name: the `mime` package's table, plus the package media type and charsets. */
export function contentTypeFor(name: string): string {
  if (name.endsWith('.objp')) return MEDIA_TYPE;
  const type = mime.getType(name) ?? 'application/octet-stream';
  return TEXTUAL.test(type) ? `${type}; charset=utf-8` : type;
}

/** Whether compressing a body of this type pays (images, fonts in woff2, archives are already compressed). */
export const isCompressible = (contentType: string): boolean => COMPRESSIBLE.test(contentType);
