import { describe, expect, it } from 'vitest';
import { jsonSpan } from './json-span.js';

describe('jsonSpan', () => {
  it('finds a value by keys and indexes, past strings holding brackets, keys and escaped quotes', () => {
    const text = '{ "a": "}]\\"redirects\\"", "hosting": [ { "redirects": [1] }, {"x": {"y": [2, "]"]}, "redirects" : [ 3, {} ] } ] }';
    const at = (keys: Array<string | number>) => {
      const s = jsonSpan(text, keys);
      return s && text.slice(s.start, s.end);
    };
    expect(at(['hosting', 0, 'redirects'])).toBe('[1]');
    expect(at(['hosting', 1, 'redirects'])).toBe('[ 3, {} ]');
    expect(at(['hosting', 1, 'redirects', 0])).toBe('3');
    expect(at(['a'])).toBe('"}]\\"redirects\\""');
    expect([at(['hosting', 2]), at(['hosting', 0, 'headers']), at(['a', 0]), at(['hosting', 'redirects'])]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
