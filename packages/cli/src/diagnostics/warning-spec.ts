/**
 * The shape of one warning in the catalog: its message, made from named parts so call sites never write
 * message text, and a hint that says what to do. The codes reference in the README is generated from it.
 */
export interface WarningSpec<P> {
  readonly message: (p: P) => string;
  readonly hint: string;
  /** `info` reports what the build decided for the site, not a problem of it: it counts as no warning. */
  readonly severity?: 'info';
  /** Parts that choose between forms of the message; the reference shows one line per variant. */
  readonly variants?: ReadonlyArray<Partial<P>>;
}

/** Declares a warning whose message takes the parts `P` (none by default). */
export const spec = <P extends object = Record<never, never>>(s: WarningSpec<P>): WarningSpec<P> => s;

/** `n thing`/`n things`: counts in messages read as a person would write them. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
