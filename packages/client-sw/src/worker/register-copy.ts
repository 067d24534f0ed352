import type { Store } from './store.js';

const noop = () => {};

/**
 * The `Cache-Control` of the registration snippet the worker answers from its copy. The copy changes only
 * when the worker fetches a new one, so a page that reuses it runs what the worker would have sent; a few
 * minutes of reuse let the next page take it from the memory cache, where the warm page (warm.ts) puts it,
 * instead of asking the worker, which answers it after everything else the page asked for.
 */
const REGISTER_REUSE = 'max-age=300';

/** A copy's headers: the host's, but {@link REGISTER_REUSE} for its `Cache-Control`. */
function copyHeaders(res: Response): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  res.headers.forEach((value, name) => {
    if (name !== 'cache-control') headers.push([name, value]);
  });
  headers.push(['cache-control', REGISTER_REUSE]);
  return headers;
}

/**
 * The worker's own copy of the registration snippet (`registerUrl`): in Cache Storage (the meta cache) and,
 * while the worker runs, in memory. Hosts serve the snippet `must-revalidate`, and as a `defer` script its
 * revalidation would hold every navigation's `DOMContentLoaded` back one round trip.
 */
export class RegisterCopy {
  private copy: { body: ArrayBuffer; headers: Array<[string, string]> } | undefined;

  constructor(
    private readonly store: Store,
    /** The snippet's URL path; '' for none. */
    readonly path: string,
    private readonly network: (request: Request) => Promise<Response>,
  ) {}

  /** Fetches the snippet past the HTTP cache into the meta cache (at install). */
  async keep(): Promise<void> {
    if (!this.path) return;
    const res = await fetch(this.store.key(this.path), { cache: 'no-cache', credentials: 'same-origin' });
    if (res.status !== 200) return;
    await this.remember(res.clone());
    await this.store.putMeta(this.store.key(this.path), res);
  }

  /** Whether a copy is at hand, to answer without the network. */
  async held(): Promise<boolean> {
    if (!this.path) return false;
    if (this.copy) return true;
    return (await this.match()) !== undefined;
  }

  /**
   * The snippet from the copy: in memory while the worker runs (a Cache Storage read is a round trip to the
   * browser process, which came last on every page of the browser benchmark), else from the meta cache; the
   * network (and a new copy) when there is none. A copy goes out with {@link REGISTER_REUSE}.
   */
  async answer(event: FetchEvent): Promise<Response> {
    if (this.copy) return new Response(this.copy.body, { headers: this.copy.headers });
    const held = await this.match();
    if (held) {
      event.waitUntil(this.remember(held.clone()).catch(noop));
      return new Response(held.body, { headers: copyHeaders(held) });
    }
    const res = await this.network(event.request);
    if (res.status === 200) {
      const copy = res.clone();
      const key = this.store.key(this.path);
      event.waitUntil(Promise.all([this.remember(res.clone()), this.store.putMeta(key, copy)]).catch(noop));
    }
    return res;
  }

  /** Drops the copy in memory (Cache Storage is cleared with the rest). */
  forget(): void {
    this.copy = undefined;
  }

  private match(): Promise<Response | undefined> {
    return caches.match(this.store.key(this.path), { cacheName: this.store.metaName }).catch(() => undefined);
  }

  private async remember(res: Response): Promise<void> {
    this.copy = { body: await res.arrayBuffer(), headers: copyHeaders(res) };
  }
}
