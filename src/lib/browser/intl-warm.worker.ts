/**
 * Makes the runtime's first date formatters off the page's thread (./intl-warm.ts): the visitor's own
 * locale and English names with a zone name, as the islands use them; then says so and is closed.
 */
const now = new Date();
new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(now);
new Intl.DateTimeFormat('en-GB', { weekday: 'short', hour: '2-digit', timeZoneName: 'short' }).formatToParts(now);
postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone);
