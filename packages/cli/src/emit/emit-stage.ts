import path from 'node:path';
import { checkAborted } from '../abort.js';
import type { BuildCache } from '../cache/build-cache.js';
import type { Diagnostic, SiteGraph } from '../discover/types.js';
import { WarningCode, warn } from '../errors.js';
import type { BuildOptions } from '../options.js';
import type { PackagePlan, PlanPage } from '../plan/types.js';
import { renderReport } from '../report/render-report.js';
import { summarize, type BuildSummary } from '../report/summary.js';
import { emit, type EmitResult } from './emit.js';
import type { RedirectRule } from '../hosts/host.js';
import type { HostProfile } from '../hosts/profile.js';
import { keepRegisteredWorker } from './kept-worker.js';
import { ownUrlShadows } from './own-urls.js';
import type { WorkerAssets } from './sw-assets.js';
import { htmlBody } from './write-package.js';
import type { PackageWriter } from './write-job.js';

/** What the emit stage reads of the build (a BuildContext has it all). */
export interface EmitStageInput {
  root: string;
  outDir: string;
  inPlace: boolean;
  options: BuildOptions;
  workerAssets: WorkerAssets | undefined;
  report: string | undefined;
  signal: AbortSignal | undefined;
  progress(p: { phase: 'write'; done: number; total: number }): void;
}

/** What the stages before emit handed forward. */
export interface EmitStageData {
  graph: SiteGraph;
  base: string;
  diagnostics: Diagnostic[];
  pages: PlanPage[];
  plan: PackagePlan;
  hosts: { profile: HostProfile; rules: RedirectRule[]; projectConfigs: string[] };
  cache: BuildCache;
  /** Encodes and writes packages on its threads. */
  writer: PackageWriter;
}

export interface Emitted {
  result: EmitResult;
  /** The summary the report was rendered with; none without a report. */
  summary: BuildSummary | undefined;
}

/**
 * The emit stage: writes every output (emit.ts keeps each published reference valid at every moment, the
 * manifest last) and turns what the writer reports into warnings. An abort between two files stops it there.
 */
export async function emitStage(input: EmitStageInput, data: EmitStageData): Promise<Emitted> {
  const { root, outDir, inPlace, options, workerAssets, report } = input;
  const { graph, base, diagnostics, pages, plan, hosts, cache } = data;
  const origin = options.origin ? new URL(options.origin).host : undefined;
  const packageUrls = [...plan.pages.map((p) => p.packageUrl), ...plan.shared.map((s) => s.url)];
  diagnostics.push(
    ...ownUrlShadows(hosts.rules, { worker: workerAssets !== undefined, base, packages: packageUrls }, origin),
  );
  const html = pages
    .filter((p) => !inPlace || p.items[0]!.inject !== undefined)
    .map((p) => ({ rel: p.file, key: p.items[0]!.sri, load: () => htmlBody(p.items[0]!) }));
  checkAborted(input.signal);
  // Before the report is rendered, which lists the warning.
  const keptWorker = workerAssets ? [] : await keepRegisteredWorker(graph, root, outDir, diagnostics, base);
  let summary: BuildSummary | undefined;
  const result = await emit({
    root,
    outDir,
    plan,
    copy: inPlace ? undefined : [...graph.files.values()],
    html,
    worker: workerAssets ? { assets: workerAssets, unregister: options.unregister === true } : undefined,
    cache,
    report:
      report === undefined
        ? undefined
        : {
            file: report,
            render: (manifest, hostFiles) => {
              summary = summarize(manifest, plan, graph, diagnostics);
              if (hostFiles.linkRules) summary.linkRules = hostFiles.linkRules;
              return renderReport(manifest, plan, summary, diagnostics);
            },
          },
    concurrency: options.concurrency,
    writer: data.writer,
    host: hosts.profile,
    base,
    onFile: (_rel, done, total) => {
      // A throw here stops the writer between two whole files, before the manifest that would name them.
      checkAborted(input.signal);
      input.progress({ phase: 'write', done, total });
    },
  });
  result.written.push(...keptWorker);
  hostWarnings(result, diagnostics, options, outDir, hosts.projectConfigs);
  return { result, summary };
}

/** The writer's reports and the project configs it could not write to, as warnings. */
function hostWarnings(
  result: EmitResult,
  diagnostics: Diagnostic[],
  options: BuildOptions,
  outDir: string,
  projectConfigs: readonly string[],
): void {
  const targets = options.targets ?? [];
  const limits = targets.includes('cloudflare') ? "8 KB and Cloudflare's 2,000-character lines" : '8 KB';
  for (const w of result.linkTruncated)
    diagnostics.push(warn(WarningCode.LINK_HEADER_TRUNCATED, { ...w, limits }, { ref: w.page }));
  diagnostics.push(...result.hostWarnings);
  // Vercel and firebase-tools read the project's config, not one inside the built site.
  for (const project of projectConfigs) {
    const name = path.basename(project) as 'vercel.json' | 'firebase.json';
    if (!targets.includes(name === 'vercel.json' ? 'vercel' : 'firebase')) continue;
    diagnostics.push(warn(WarningCode.HOST_CONFIG_ELSEWHERE, { name, outDir, project }, { file: name }));
  }
}
