import { ErrorCode, ObjpackError } from '../errors.js';

/** A non-negative integer flag value, or a usage error naming the flag. */
export function parseCount(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ObjpackError(ErrorCode.USAGE, `${flag} expects a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return n;
}
