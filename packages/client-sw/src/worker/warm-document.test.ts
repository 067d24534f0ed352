import { describe, expect, it } from 'vitest';
import { warmable, warmDocument } from './warm-document.js';

describe('warmDocument', () => {
  it("loads a route chunk as a classic script's defer element, in a document that never ends", () => {
    expect(warmable('chunk')).toBe(true);
    const { html, endless } = warmDocument([
      ['/a.css', 'style'],
      ['/1.js', 'chunk'],
    ]);
    expect(endless).toBe(true);
    expect(html).toContain('<script defer src="/1.js"></script>');
    expect(warmDocument([['/a.css', 'style']]).endless).toBe(false);
  });
});
