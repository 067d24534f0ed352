import { Tokenizer } from 'parse5';
import type { TokenHandler } from 'parse5';
import { describe, expect, test } from 'vitest';
import { skipPlainText } from './html-text-skip.js';

const handler = new Proxy({}, { get: () => () => undefined }) as unknown as TokenHandler;

describe('skipPlainText (parse5 internals)', () => {
  test('installs on the pinned parse5: every private member it relies on is there', () => {
    const tokenizer = new Tokenizer({ sourceCodeLocationInfo: true }, handler);
    expect(skipPlainText(tokenizer, () => false)).toBe(true);
  });

  test('leaves a tokenizer without those internals alone (the exact path keeps working)', () => {
    const tokenizer = new Tokenizer({ sourceCodeLocationInfo: true }, handler);
    const t = tokenizer as unknown as Record<string, unknown>;
    const original = t._stateData;
    delete (t.preprocessor as Record<string, unknown>).lineStartPos;
    expect(skipPlainText(tokenizer, () => false)).toBe(false);
    expect(t._stateData).toBe(original);
  });
});
