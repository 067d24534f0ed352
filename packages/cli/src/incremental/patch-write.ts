import path from 'node:path';
import { checkAborted } from '../abort.js';
import { updatePackages } from '../cache/build-cache.js';
import { writeFileAtomic } from '../emit/atomic-write.js';
import { packageFile } from '../emit/generation.js';
import { localWriter } from '../emit/write-job.js';
import type { BuildContext } from '../pipeline/context.js';
import type { Fresh, PatchPlan } from './patch-plan.js';

/** What the write step wrote. */
export interface PatchWritten {
  fresh: Fresh;
  /** Site-relative files written, in order. */
  written: string[];
}

/**
 * The patch's write step: the rewritten pages' packages, each under its generation's name (encoded as the
 * full build's writer encodes them), then the pages written back with the registration tag. Nothing the
 * published manifest or route table names is touched.
 */
export async function writePatchPackages(input: BuildContext, plan: PatchPlan): Promise<PatchWritten> {
  const { root } = input;
  const { buildId, rewritten, htmlWrites, pageBuilds } = plan;
  // The last moment a cancelled patch leaves everything as it was.
  checkAborted(input.signal);
  // Null marks first: a patch killed from here on leaves them, and the next build re-encodes these files
  // (the patch refuses while any is left). They are replaced by records only once the state is saved.
  const unknown = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, null]));
  updatePackages(
    root,
    unknown([...rewritten.map((c) => c.record.packageUrl), ...htmlWrites.map((c) => `file:${c.file.rel}`)]),
  );
  const fresh = new Map<number, { bytes: number; digest: string }>();
  const written: string[] = [];
  const total = rewritten.length + htmlWrites.length + 3;
  for (const c of rewritten) {
    const rel = packageFile(plan.fileUrl(c.index, pageBuilds));
    const job = { target: path.join(root, rel), buildId, sharedRefs: c.record.shared, objects: c.objects };
    const { bytes, digest } = await localWriter.write(job);
    fresh.set(c.index, { bytes, digest });
    written.push(rel);
    input.progress({ phase: 'write', done: written.length, total });
  }
  for (const c of htmlWrites) {
    await writeFileAtomic(c.file.file, c.body);
    written.push(c.file.rel);
  }
  return { fresh, written };
}
