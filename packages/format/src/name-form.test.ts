import { describe, expect, it } from 'vitest';
import { nameFormPath } from './name-form.js';

describe('nameFormPath', () => {
  it("escapes '|' and '^' as Chromium does and leaves every other path as it is", () => {
    expect(nameFormPath(new URL('http://x/a|b^c.png').pathname)).toBe('/a%7Cb%5Ec.png');
    expect(nameFormPath('/a%7Cb%5Ec.png')).toBe('/a%7Cb%5Ec.png');
    expect(nameFormPath('/[slug].html')).toBe('/[slug].html');
  });
});
