import { sriToDigest, type ObjectEntry, type PackageIndex } from '@objpack/format';
import { errorCode, ObjpackSwError, SwErrorCode } from '../errors.js';
import type { Claim, HavePlan } from './delta.js';
import type { RunSpec } from './run-spec.js';
import type { Slot } from './slot.js';

/** The entry a delta left out, rebuilt from the manifest row; headers come from the held copy. */
function borrowedEntry(claim: Claim, index: number): ObjectEntry {
  const digest = sriToDigest(claim.digest)!;
  return {
    index,
    name: claim.name,
    contentType: claim.contentType,
    headers: [],
    size: 0,
    totalSize: 0,
    partial: false,
    digest,
    offset: -1,
  };
}

/** Headers of a held copy that are the object's own (ours are recomputed for the new build). */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'x-objpack-digest', 'x-objpack-build']);
/** How the host sent a held copy's bytes, not what they are: a shared script may be the host's copy (code-cache.ts). */
const TRANSFER_HEADERS = new Set(['content-encoding', 'transfer-encoding']);

/**
 * The whole package's index from a delta's, in the plan's order: the objects the delta left out come from
 * held copies (`borrowed`, found in the caches `borrowsFrom`).
 */
export function mergeDelta(
  received: PackageIndex,
  plan: HavePlan,
): { index: PackageIndex; borrowed: string[]; borrowsFrom: string[] } {
  const present = new Map(received.entries.map((e) => [e.name, e]));
  const entries: ObjectEntry[] = [];
  const borrowed: string[] = [];
  const borrowsFrom: string[] = [];
  for (const [name] of plan.order) {
    const e = present.get(name);
    const claim = plan.claims.get(name);
    if (e) {
      entries.push(e);
      present.delete(name);
    } else if (claim) {
      entries.push(borrowedEntry(claim, entries.length));
      borrowed.push(name);
      borrowsFrom.push(claim.cacheName);
    }
  }
  entries.push(...present.values());
  return { index: { ...received, entries }, borrowed, borrowsFrom };
}

/** Fills a left-out object from its held copy, verified again (`complete`) like any other object. */
export async function fillFromHeld(
  spec: RunSpec,
  slot: Slot,
  claim: Claim,
  complete: (slot: Slot, bytes: Uint8Array) => Promise<void>,
): Promise<boolean> {
  try {
    const res = await spec.store.match([claim.cacheName], claim.heldAs);
    if (!res) throw new ObjpackSwError(SwErrorCode.DELTA, claim.heldAs);
    const headers: Array<[string, string]> = [];
    res.headers.forEach((value, name) => {
      if (!OWN_HEADERS.has(name) && !TRANSFER_HEADERS.has(name)) headers.push([name, value]);
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    slot.entry = { ...slot.entry, headers, size: bytes.length, totalSize: bytes.length };
    slot.receivedAt = performance.now();
    slot.data(bytes);
    await complete(slot, bytes);
    return slot.state === 'done';
  } catch (err) {
    // The copy vanished (cleanup, quota): the object goes to the network; the package is not complete.
    slot.fail(err);
    spec.options.onEvent({ type: 'fallback', url: claim.name, code: SwErrorCode.DELTA, detail: errorCode(err) });
    return false;
  }
}
