/** Attribute readers shared by the start-tag handlers. */
import type { Token } from 'parse5';
import type { PreloadCors } from '@objpack/format';

/** An attribute's value, or undefined when the tag has none. */
export function attr(token: Token.TagToken, name: string): string | undefined {
  for (const a of token.attrs) if (a.name === name) return a.value;
  return undefined;
}

/**
 * The CORS settings attribute (https://html.spec.whatwg.org/#cors-settings-attributes): absent is no CORS,
 * `use-credentials` is itself, any other value (empty, `anonymous`, invalid) is anonymous.
 */
export function corsOf(token: Token.TagToken): { cors?: PreloadCors } {
  const v = attr(token, 'crossorigin');
  if (v === undefined) return {};
  return { cors: v.trim().toLowerCase() === 'use-credentials' ? 'use-credentials' : 'anonymous' };
}
