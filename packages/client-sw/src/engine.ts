/** The engine running this script, where a platform difference needs it: from what its `navigator` offers. */

interface WorkerNavigator {
  userAgent?: string;
  userAgentData?: { brands?: Array<{ brand: string }> };
}

const nav = (): WorkerNavigator | undefined => (globalThis as { navigator?: WorkerNavigator }).navigator;

/** Chromium's worker navigator names its brands; other engines' have no `userAgentData`. */
export function chromium(): boolean {
  return nav()?.userAgentData?.brands?.some((b) => b.brand === 'Chromium') ?? false;
}

/** WebKit (Safari, WebKitGTK): an `AppleWebKit` user agent that is not Chromium's. */
export function webkit(): boolean {
  const n = nav();
  return n?.userAgentData === undefined && /AppleWebKit\//.test(n?.userAgent ?? '');
}
