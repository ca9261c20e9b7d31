// Debian's Chromium (/usr/bin/chromium, installed by .ci/run) as playwright-core starts it: one for a whole
// test run (scripts/run-tests.ts starts it and hands its address on as TEST_CHROMIUM_WS), or one a suite
// when a browser test file runs on its own.
import { type Browser, chromium, type LaunchOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Without the background-networking flags Chromium keeps trying hosts this closed network refuses. */
export function chromiumServerOptions(): LaunchOptions {
  return {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

/**
 * A Chromium for one suite: the run's shared one when there is one (closing it then ends only this suite's
 * connection and contexts), else a new one with a fresh, temporary profile, removed on close.
 */
export function launchChromium(): Promise<Browser> {
  const shared = process.env.TEST_CHROMIUM_WS;
  return shared ? chromium.connect(shared, { timeout: 60_000 }) : chromium.launch(chromiumServerOptions());
}
