import type { BrowserContext } from 'playwright-core';

/** Debian's chromium, which .ci/run installs; playwright-core never downloads a browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

/** The flags every browser test starts Chromium with: headless, no sandbox, no traffic of its own. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

/** Headless Chromium on a profile folder of its own, at the given window size. */
export async function launchChromium(
  profile: string,
  viewport: { width: number; height: number },
  extraArgs: readonly string[] = [],
): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [...ARGS, ...extraArgs],
  });
}
