import { errorCode, SwErrorCode } from '../errors.js';
import { refreshTo } from './refresh.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/** Failures of the transfer, not of the build: the next visit tries the package again. */
export const transient = (code: string) => code === SwErrorCode.PACKAGE_NETWORK || code === SwErrorCode.PACKAGE_STALLED;

/**
 * The HTML failed after the response was handed over (digest mismatch, cut or stalled stream). Send this
 * page to the network (for this build, or only this once when the transfer failed) and reload it, so it
 * ends up exactly as without objpack: if no byte reached the page yet, the document is a one-line refresh;
 * otherwise the partial page is closed and navigated.
 */
export function recover(
  w: WorkerState,
  url: URL,
  buildId: string,
  clientId: string,
  committed: boolean,
  err?: unknown,
): Uint8Array | undefined {
  // A package cut off or stalled on the way says nothing about the build: only this load goes to the network.
  const code = errorCode(err);
  if (transient(code)) w.networkOnce.add(url.pathname);
  else w.bypass.set(url.pathname, buildId);
  w.options.onEvent({
    type: 'fallback',
    url: url.pathname,
    code: transient(code) ? code : SwErrorCode.DECODE,
    detail: committed ? 'navigate' : 'refresh',
  });
  if (!committed) return refreshTo(url);
  const tryNavigate = async (attempt: number): Promise<void> => {
    const client = await w.scope.clients.get(clientId);
    if (client && 'navigate' in client) {
      await (client as WindowClient).navigate(url.href).catch(noop);
    } else if (attempt < 20) {
      await new Promise((r) => setTimeout(r, 50));
      return tryNavigate(attempt + 1);
    }
  };
  void tryNavigate(0);
  return undefined;
}
