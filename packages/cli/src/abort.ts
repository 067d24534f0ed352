import { ErrorCode, ObjpackError } from './errors.js';

/** Throws OBJPACK_E_ABORTED once the build's signal is aborted; stages call it where stopping is safe. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted';
  throw new ObjpackError(ErrorCode.ABORTED, `build cancelled (${why})`, undefined, {
    cause: reason,
  });
}
