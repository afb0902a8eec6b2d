/**
 * The first Intl date formatter a page makes loads the runtime's date and time zone data (ICU): one
 * main-thread task of about 30 ms on this machine kind, four times that on a throttled phone, so it
 * blocked the account page's render of its events. That data belongs to the process and is shared by
 * its threads, so a worker that makes a formatter first leaves the page's own first one cheap (1-2 ms).
 * Islands that format dates in the visitor's zone call this as they mount, while their data loads.
 */
let started = false;

export function warmIntl(): void {
  if (started || typeof Worker === 'undefined') return;
  started = true;
  try {
    const worker = new Worker(new URL('./intl-warm.worker.ts', import.meta.url), { type: 'module' });
    const done = () => worker.terminate();
    worker.addEventListener('message', done);
    worker.addEventListener('error', done);
  } catch {
    // A browser that refuses the worker formats on its own thread, as before.
  }
}
