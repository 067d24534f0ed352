import type { RouteTable } from '@objpack/format';
import type { ResolvedOptions } from '../options.js';
import type { Binding } from './binding.js';
import type { Delta } from './delta.js';
import type { OtherPages } from './other-pages.js';
import type { PackageRun } from './package-run.js';
import type { Prefetches } from './prefetches.js';
import type { RegisterCopy } from './register-copy.js';
import type { Route, Routes } from './routes.js';
import type { Store } from './store.js';

/**
 * What the event helpers (navigation, subresource, lifecycle, prefetch, client records) use of the worker.
 * `ObjpackWorker` implements it; the helpers depend on this shape, not on the class that calls them.
 */
/** How {@link WorkerState.plan} binds a route's packages. */
export interface PlanOptions {
  /** Shared packages to bind in place of the route's (those a newer build's page package names). */
  shared?: readonly string[];
  /**
   * For a page the reader may open next: runs it starts count against the prefetch budget from their first
   * byte, and a completed prefetch in memory stays there for the navigation.
   */
  ahead?: boolean;
}

export interface WorkerState {
  readonly scope: ServiceWorkerGlobalScope;
  readonly options: ResolvedOptions;
  readonly origin: string;
  readonly store: Store;
  readonly routes: Routes;
  readonly delta: Delta;
  /** The worker's copy of the registration snippet. */
  readonly register: RegisterCopy;
  /** Objects of other pages of a page's build (client-side routers). */
  readonly otherPages: OtherPages;
  /** Package path → its fetch and unpacking in progress. */
  readonly runs: Map<string, PackageRun>;
  /** Packages fetched ahead: budgeted, cancelled by navigations that do not need them. */
  readonly prefetches: Prefetches;
  /** Client id → the build and packages that page was served from. */
  readonly bindings: Map<string, Binding>;
  /** `performance.now()` of the last request or HTML completion the worker saw (for the write gate). */
  lastActivity: number;
  /** Page path → build during which objpack failed for it: that page goes to the network until a new build. */
  readonly bypass: Map<string, string>;
  /** Page path → build whose HTML entry's headers differ from an early response's: answered the usual way. */
  readonly late: Map<string, string>;
  /** Pages whose package was unreachable after an early answer: their reload goes to the network once. */
  readonly networkOnce: Set<string>;
  /** Until this `Date.now()`, navigations are not answered early: a package was just unreachable. */
  earlyOffUntil: number;
  /** Packages of a route: held ones by cache name, missing ones fetched now. */
  plan(table: RouteTable, route: Route, how?: PlanOptions): Promise<Binding['packages']>;
  /** Resolves once the worker has seen no request for a while (or at `deadline`, or once `urgent` says so). */
  quiet(deadline: number, urgent?: () => boolean): Promise<void>;
  /** Fetches from the network, honouring the response's Clear-Site-Data. */
  network(request: Request): Promise<Response>;
  /** Any build's copy of the page, for when the network fails too. */
  offlineCopy(...pathnames: string[]): Promise<Response | undefined>;
  /** Follow-up work after a navigation: table refresh, clean-up, delta listing. */
  afterNavigation(): Promise<void>;
  /** Tracks a page copy's write (stopped-route.ts) until it is done. */
  keepCopy(copy: Promise<void>): Promise<void>;
  /** Saves where a page's objects come from, once the worker is quiet. */
  remember(clientId: string, binding: Binding): Promise<void>;
}
