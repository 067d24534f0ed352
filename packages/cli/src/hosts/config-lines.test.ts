import { describe, expect, it } from 'vitest';
import { ConfigLines } from './config-lines.js';

describe('ConfigLines', () => {
  it('gives the line of an offset, in any order, and of a JSON key', () => {
    const text =
      '{\n  "headers": [{ "source": "/(.*)" }],\n  "redirects": [\n    { "source": "/(.*)" },\n    { ' +
      '"source": "/(.*)" }\n  ],\n  "cleanUrls": true\n}\n';
    const lines = new ConfigLines(text);
    const at = (n: number) => text.split('"/(.*)"', n).join('"/(.*)"').length;
    expect([lines.lineAt(at(2)), lines.lineAt(at(3)), lines.lineAt(at(1)), lines.lineAt(0)]).toEqual([4, 5, 2, 1]);
    expect(ConfigLines.keyLine(text, 'cleanUrls')).toBe(7);
    expect(ConfigLines.keyLine(text, 'trailingSlash')).toBeUndefined();
  });

  it('a rule not found (written otherwise) leaves the cursor where it was', () => {
    const lines = new ConfigLines('# x\n/a /b 301\n\n/c /d 301\n');
    const starts = (from: string) => (l: string) => l.trim().split(/\s+/)[0] === from;
    expect([
      lines.nextLine(starts('/a')),
      lines.nextLine(starts('/nowhere')),
      lines.nextLine(starts('/c')),
      lines.nextLine(starts('/a')),
    ]).toEqual([2, undefined, 4, undefined]);
  });
});
