/**
 * Drives the home splash (see Splash.astro): +5% every 20 ms, hidden 300 ms after 100%.
 * Progress is read from the clock rather than counted per tick, so a busy main thread that runs
 * a timer late cannot stretch the splash: it still reaches 100% after 400 ms (a late tick may
 * skip a step).
 */
const SPLASH_STEP = 5;
const SPLASH_TICK_MS = 20;
const SPLASH_HIDE_DELAY_MS = 300;
const FADE_MS = 200;

/** Percentage shown after `elapsed` milliseconds. */
export function splashProgress(elapsed: number): number {
  return Math.min(100, Math.max(0, Math.floor(elapsed / SPLASH_TICK_MS) * SPLASH_STEP));
}

export function runSplash(): void {
  const splash = document.getElementById('splash');
  if (!splash) return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    splash.remove();
    return;
  }
  splash.dataset.running = '';
  const bar = splash.querySelector<HTMLElement>('[data-splash-bar]');
  const value = splash.querySelector<HTMLElement>('[data-splash-value]');
  const started = performance.now();
  let shown = 0;

  const hide = () => {
    splash.dataset.state = 'hiding';
    window.setTimeout(() => splash.remove(), FADE_MS);
  };
  const timer = window.setInterval(() => {
    const progress = splashProgress(performance.now() - started);
    if (progress === shown) return;
    shown = progress;
    splash.setAttribute('aria-valuenow', String(progress));
    if (value) value.textContent = String(progress);
    if (bar) bar.style.transform = `scaleX(${progress / 100})`;
    if (progress === 100) {
      window.clearInterval(timer);
      window.setTimeout(hide, SPLASH_HIDE_DELAY_MS);
    }
  }, SPLASH_TICK_MS);
}
