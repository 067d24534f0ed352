/**
 * objpack's build library: the same functions the CLI calls. `build()` crawls a built site, plans page and
 * shared packages, and writes them with manifests, host configs, the service worker and a report.
 */
export { build, DEFAULT_PARTIAL_THRESHOLD, type BuildOptions, type BuildProgress, type BuildResult } from './build.js';
export { defineConfig, loadConfig, type ObjpackConfig, type ObjpackConfigExport } from './config.js';
export {
  frameworkBuild,
  type FrameworkBuildInput,
  type FrameworkLogger,
  type IntegrationOptions,
} from './integration/framework-build.js';
export { ErrorCode, ExitCode, ObjpackError, WarningCode, isObjpackError, DiscoverCodes } from './errors.js';
export { discoverSite } from './discover/on-demand.js';
export { pageClosure } from './discover/page-closure.js';
export { inCriticalTier, laterReason, type LaterReason } from './discover/tiers.js';
export { tracePages } from './discover/trace-pages.js';
export type { ClosureItem, Diagnostic, DiscoverOptions, PageClosure, SiteFile, SiteGraph } from './discover/index.js';
export { planPackages, expectedExtraCopies, DEFAULT_PLAN_OPTIONS } from './plan/plan-packages.js';
export type { PackagePlan, PlanOptions, PlanObject, PlanPage, PlannedPage, PlannedShared } from './plan/types.js';
export { sessionCost, type SessionCost } from './plan/session-cost.js';
export { HOST_TARGETS, type HostTarget } from './hosts/index.js';
export { inspectPackage, type InspectResult } from './inspect/inspect-package.js';
export { unpackPackage } from './inspect/unpack-package.js';
export type { BuildSummary, PageSummary } from './report/summary.js';
