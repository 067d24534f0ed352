// fast-check arbitraries for packages: valid names, content types, headers, bodies and body sources.
import fc from 'fast-check';
import type { BodySource, EncoderInput, EncoderObject } from '../types.js';

/** Runs per property: OBJPACK_FC_RUNS (default 10,000) scaled by `share`. */
export const fcRuns = (share = 1): number =>
  Math.max(1, Math.round(Number(process.env.OBJPACK_FC_RUNS ?? 10_000) * share));

const ch = (s: string) => fc.constantFrom(...s.split(''));
const PCHAR = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@";
const pctUnicode = fc.constantFrom('é', 'ß', '日本', '🙂', '\u00a0', 'Ω').map((s) => encodeURIComponent(s));

/** A path segment as URL.pathname writes it: ASCII, non-ASCII as percent-encoded UTF-8, never `.`/`..`. */
const segment = fc
  .array(fc.oneof({ weight: 8, arbitrary: ch(PCHAR) }, { weight: 1, arbitrary: pctUnicode }), {
    minLength: 0,
    maxLength: 12,
  })
  .map((parts) => parts.join(''))
  .filter((s) => s !== '.' && s !== '..');

/** A valid object name: `/` + segments, optionally a query. */
export const nameArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 4 }),
    fc.option(fc.string({ unit: ch(`${PCHAR}/?`), maxLength: 12 }), { nil: undefined }),
  )
  .map(([segs, q]) => `/${segs.join('/')}${q === undefined ? '' : `?${q}`}`)
  .filter((n) => !n.startsWith('//'));

const printable = (maxLength: number, minLength = 0) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength, maxLength });

export const contentTypeArb = fc.oneof(
  fc.constantFrom(
    'text/html; charset=utf-8',
    'text/css',
    'text/javascript',
    'image/png',
    'font/woff2',
    'application/octet-stream',
  ),
  printable(40, 1),
);

const FORBIDDEN = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'set-cookie',
  'keep-alive',
  'upgrade',
]);
const headerNameArb = fc
  .string({ unit: ch("abcdefghijklmnopqrstuvwxyz0123456789-!#$%&'*+.^_`|~"), minLength: 1, maxLength: 16 })
  .filter((n) => !FORBIDDEN.has(n));
const headerValueArb = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    fc.constant('\t'),
  ),
  maxLength: 40,
});
export const headersArb = fc.array(fc.tuple(headerNameArb, headerValueArb), { maxLength: 3 });

export const buildIdArb = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 64,
});

/** Bodies are small (the properties run 10,000 times); zero length is common. */
export const bodyArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  { weight: 6, arbitrary: fc.uint8Array({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 60, maxLength: 400 }) },
);

/** How a streamed body hands out its bytes. */
export interface SourcePlan {
  kind: 'bytes' | 'sync' | 'async';
  /** Cut points into the body (fractions of its length), and empty chunks to slip in. */
  cuts: number[];
  empties: boolean;
  giveSize: boolean;
  giveDigest: boolean;
}

export const sourcePlanArb: fc.Arbitrary<SourcePlan> = fc.record({
  kind: fc.constantFrom('bytes' as const, 'sync' as const, 'async' as const),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  empties: fc.boolean(),
  giveSize: fc.boolean(),
  giveDigest: fc.boolean(),
});

/** The body cut into chunks at the plan's points (empty chunks included when asked). */
export function chunksOf(body: Uint8Array, plan: SourcePlan): Uint8Array[] {
  const points = [...new Set(plan.cuts.map((f) => Math.floor(f * body.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, body.length]) {
    if (plan.empties) out.push(new Uint8Array(0));
    out.push(body.slice(at, p));
    at = p;
  }
  return out.filter((c) => c.length > 0 || plan.empties);
}

/** A re-iterable BodySource that yields `body` in the plan's chunks on every pass. */
export function sourceFor(body: Uint8Array, plan: SourcePlan): BodySource {
  if (plan.kind === 'bytes') return body;
  const chunks = chunksOf(body, plan);
  if (plan.kind === 'sync') return () => chunks.map((c) => c.slice());
  return () =>
    (async function* () {
      for (const c of chunks) {
        await Promise.resolve();
        yield c.slice();
      }
    })();
}

export interface ObjectSpec {
  name: string;
  contentType: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
  /** Bytes beyond the body in the whole object (0: not partial). */
  extra: number;
  plan: SourcePlan;
}

export interface PackageSpec {
  buildId: string;
  sharedRefs: string[];
  objects: ObjectSpec[];
}

export const packageSpecArb: fc.Arbitrary<PackageSpec> = fc.record({
  buildId: fc.oneof(fc.constant(''), buildIdArb),
  sharedRefs: fc.array(nameArb, { maxLength: 3 }),
  objects: fc.uniqueArray(
    fc.record({
      name: nameArb,
      contentType: contentTypeArb,
      headers: headersArb,
      body: bodyArb,
      extra: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }) },
      ),
      plan: sourcePlanArb,
    }),
    { selector: (o) => o.name, maxLength: 6 },
  ),
});

/** The spec as encoder input with in-memory bodies (for encodePackageSync). */
export function bytesInput(spec: PackageSpec): EncoderInput {
  return {
    buildId: spec.buildId,
    sharedRefs: spec.sharedRefs,
    objects: spec.objects.map((o) => ({
      name: o.name,
      contentType: o.contentType,
      headers: o.headers,
      body: o.body,
      ...(o.extra > 0 ? { totalSize: o.body.length + o.extra } : {}),
    })),
  };
}

/** The spec as encoder input with each body given as its plan says (bytes, sync or async source). */
export function streamedInput(spec: PackageSpec, digestOf: (b: Uint8Array) => Uint8Array): EncoderInput {
  return {
    ...bytesInput(spec),
    objects: spec.objects.map((o): EncoderObject => ({
      name: o.name,
      contentType: o.contentType,
      headers: o.headers,
      body: sourceFor(o.body, o.plan),
      ...(o.extra > 0 ? { totalSize: o.body.length + o.extra } : {}),
      ...(o.plan.giveSize ? { size: o.body.length } : {}),
      ...(o.plan.giveDigest ? { digest: digestOf(o.body) } : {}),
    })),
  };
}

/** Chunk lengths for a package of `total` bytes from arbitrary cut points. */
export const splitsArb = fc.array(fc.nat(), { maxLength: 12 });
export function splitLengths(total: number, raw: readonly number[]): number[] {
  const cuts = [...new Set(raw.map((n) => n % (total + 1)))].sort((a, b) => a - b);
  const out: number[] = [];
  let at = 0;
  for (const c of cuts) {
    out.push(c - at);
    at = c;
  }
  return out;
}
