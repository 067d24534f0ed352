import type { ObjectEntry, PackageIndex } from '@objpack/format';

/** The page's HTML in its package: the build puts it first; a text/html entry is accepted anywhere. */
export function htmlEntry(index: PackageIndex): ObjectEntry | undefined {
  const first = index.entries[0];
  if (first && isHtml(first.contentType)) return first;
  return index.entries.find((e) => isHtml(e.contentType));
}

const isHtml = (type: string) => /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(type);
