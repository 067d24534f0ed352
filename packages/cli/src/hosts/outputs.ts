import type { Host, HostBuild, HostOutput, HostWarning } from './host.js';
import { HOSTS } from './index.js';
import { writeJsonConfigs } from './json-config.js';

/**
 * The host files of a build, in the registry's order, one per file: each targeted host's, and those written
 * on every build (`_headers`); where two hosts write one file, the one not written on every build
 * (`--target cloudflare` over the default `_headers`, even beside `--target netlify`).
 */
export function hostOutputs(build: HostBuild): HostOutput[] {
  const hosts = (HOSTS as readonly Host[]).filter((h) => h.output?.always || build.targets.includes(h.name));
  const chosen = hosts.filter(
    (h) => !h.output?.always || !hosts.some((o) => !o.output?.always && o.output?.file === h.output?.file),
  );
  return chosen.map((h) => h.output!.make(build));
}

/**
 * Writes the host files with `writeText`: those written on every build first (`_headers`, which `between`
 * follows), then the JSON configs merged with what the output directory holds, then the rest. Returns every
 * output's warnings and those of configs left as they are.
 */
export async function writeHostOutputs(
  outDir: string,
  outputs: readonly HostOutput[],
  writeText: (rel: string, text: string) => Promise<void>,
  between: () => Promise<void>,
): Promise<HostWarning[]> {
  const warnings = outputs.flatMap((o) => o.warnings);
  const first = outputs.filter((o) => o.text !== undefined && isAlways(o));
  for (const o of first) await writeText(o.file, o.text!);
  await between();
  await writeJsonConfigs(
    outDir,
    outputs.filter((o) => o.json !== undefined),
    writeText,
    warnings,
  );
  for (const o of outputs) if (o.text !== undefined && !first.includes(o)) await writeText(o.file, o.text);
  return warnings;
}

/** Whether a host writes the output's file on every build. */
const isAlways = (o: HostOutput) =>
  (HOSTS as readonly Host[]).some((h) => h.output?.always === true && h.output.file === o.file);
