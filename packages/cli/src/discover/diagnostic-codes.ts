/**
 * Discovery's part of the one catalog (`src/diagnostics/`): its warnings are things a build can live with
 * (the page ships without the object); its errors make discovery impossible. Tests and the CLI match on the
 * code, never on the message text.
 */
import { ErrorCode } from '../diagnostics/error-catalog.js';
import { WarningCode } from '../diagnostics/warnings.js';
import { DISCOVER_WARNINGS } from '../diagnostics/warnings-discover.js';

type DiscoverWarning = keyof typeof DISCOVER_WARNINGS;
type ShortName<C> = C extends `OBJPACK_W_${infer N}` ? N : never;
const DISCOVER_ERRORS = ['ROOT_NOT_FOUND', 'ROOT_NOT_DIRECTORY', 'BAD_ORIGIN', 'NO_BROWSER'] as const;

/** Discovery's codes by short name: its warnings, and the errors `DiscoverError` carries. */
export const DiscoverCodes = {
  ...(Object.fromEntries(Object.keys(DISCOVER_WARNINGS).map((code) => [code.slice('OBJPACK_W_'.length), code])) as {
    readonly [C in DiscoverWarning as ShortName<C>]: C;
  }),
  ...(Object.fromEntries(DISCOVER_ERRORS.map((name) => [name, ErrorCode[name]])) as {
    readonly [N in (typeof DISCOVER_ERRORS)[number]]: (typeof ErrorCode)[N];
  }),
};
export type DiscoverCode = (typeof DiscoverCodes)[keyof typeof DiscoverCodes];

/** Thrown for misuse that makes discovery impossible (no root, bad origin); everything else is a Diagnostic. */
export class DiscoverError extends Error {
  readonly code: (typeof ErrorCode)[(typeof DISCOVER_ERRORS)[number]];
  constructor(code: DiscoverError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DiscoverError';
    this.code = code;
  }
}

export { WarningCode };
