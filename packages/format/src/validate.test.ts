import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from './errors.js';
import { fcRuns, nameArb } from './test-utils/arbitraries.js';
import { referenceNameOk } from './test-utils/reference-name.js';
import { validateName } from './validate.js';

const accepts = (name: string): boolean => {
  try {
    validateName(name, 1e9, 0);
    return true;
  } catch (e) {
    if (!(e instanceof FormatError) || e.code !== 'OBJP_INVALID_NAME') throw e;
    return false;
  }
};

describe('validateName', () => {
  it('accepts exactly the names the straightforward split-based check accepts', { timeout: 120_000 }, () => {
    const unit = fc.constantFrom(
      '/',
      '/',
      '.',
      '.',
      '%',
      '2',
      'e',
      'E',
      'f',
      'F',
      '5',
      'c',
      '0',
      'g',
      '?',
      '#',
      '\\',
      '\0',
      '\t',
      ' ',
      '\x7f',
      '\x85',
      '\uD800',
      '\uDC00',
      '😀',
      'é',
      'a',
      ':',
    );
    const hostile = fc.string({ unit, maxLength: 12 });
    fc.assert(
      fc.property(
        fc.oneof(
          hostile,
          hostile.map((s) => `/${s}`),
          nameArb,
        ),
        (name) => {
          expect(accepts(name), JSON.stringify(name)).toBe(referenceNameOk(name));
        },
      ),
      { numRuns: fcRuns(0.3) },
    );
  });

  it('checks the byte length it is given', () => {
    expect(accepts('/a')).toBe(true);
    expect(() => validateName('/a', 1, 2)).toThrow(FormatError);
  });
});
