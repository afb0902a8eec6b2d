/** Debian's Chromium and the flags this machine's closed network needs (shared by tests and bench). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests' Chromium: Debian's `chromium-headless-shell`, the same Blink and V8 without
 * the full browser around them (what Playwright itself runs headless tests in). The browser suite
 * spent about a third less CPU in it. The Lighthouse bench keeps the full browser (CHROMIUM_PATH).
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

/** The Debian packages that hold them. */
export const CHROMIUM_PACKAGES = ['chromium', 'chromium-headless-shell'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
