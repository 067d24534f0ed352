/** A `headers` list of a host JSON config: `[{ key, value }]`. */
export type HeaderList = Array<{ key: string; value: string }>;

/** Whether a config value is a `headers` list objpack can apply. */
export const isHeaderList = (h: unknown): h is HeaderList =>
  Array.isArray(h) &&
  h.every(
    (x) =>
      x !== null &&
      typeof x === 'object' &&
      typeof (x as { key?: unknown }).key === 'string' &&
      typeof (x as { value?: unknown }).value === 'string',
  );
