import { CHROMIUM, launchChromium } from './chromium.js';
import { FIREFOX, launchFirefox } from './firefox.js';
import type { Engine, EngineName } from './types.js';
import { launchWebKit, WEBKIT_READY } from './webkit.js';

export type { Engine, EngineContext, EngineName, EnginePage } from './types.js';

/** Each engine, whether it is installed, what to install, and how to launch it. */
const ENGINES: Record<EngineName, { installed: boolean; needs: string; launch: () => Promise<Engine> }> = {
  chromium: { installed: Boolean(CHROMIUM), needs: 'chromium', launch: launchChromium },
  firefox: { installed: Boolean(FIREFOX), needs: 'firefox-esr', launch: launchFirefox },
  webkit: { installed: WEBKIT_READY, needs: 'webkit2gtk-driver and xvfb', launch: launchWebKit },
};

/**
 * The engines a suite runs in: all three, or those named in OBJPACK_ENGINES (comma-separated, to run one
 * engine's suites alone). A missing engine prints the loud banner once per test file and its suites skip.
 */
export const ENGINE_NAMES: EngineName[] = (process.env.OBJPACK_ENGINES?.split(',') ?? Object.keys(ENGINES)).filter(
  (n): n is EngineName => Object.hasOwn(ENGINES, n),
);

for (const name of ENGINE_NAMES) {
  if (!ENGINES[name].installed) {
    console.warn(
      `\n!!! ${name} is missing (${ENGINES[name].needs}): SKIPPING the service-worker tests in ${name}` +
        ' (run node scripts/system-tools.mjs as root).\n',
    );
  }
}

/** Whether `name` can run here. */
export const engineInstalled = (name: EngineName): boolean => ENGINES[name].installed;

/** Launches one engine for a test file. */
export const launchEngine = (name: EngineName): Promise<Engine> => ENGINES[name].launch();
