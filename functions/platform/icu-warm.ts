/**
 * The first collator and date formatter a process makes load ICU's collation and calendar data:
 * about 15 and 20 ms of the thread that makes them (the content's sort by title and the events' time
 * zone check, in the middle of a start). That data is the process's, shared by its threads, so the
 * server's entry has a worker thread make them first while the server's modules load.
 */
import { Worker } from 'node:worker_threads';

const FIRST_USES = `
'a'.localeCompare('b');
new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'short' }).format(0);
`;

/** Begins it; nothing waits for it, and a failure only leaves the first uses their cost. */
export function warmIcu(): void {
  const worker = new Worker(FIRST_USES, { eval: true });
  worker.on('error', () => undefined);
  worker.unref();
}
