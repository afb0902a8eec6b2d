/**
 * How an event's time reads: the instant in a given zone, worded the same on the server (the
 * event's own zone, in the page) and in the browser (the visitor's zone): "Thu 10 Dec 2026, 15:00
 * GMT (Europe/London)". Intl only, so islands and page scripts stay small. Pure module.
 */

const partsCache = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${JSON.stringify(options)}`;
  let f = partsCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    partsCache.set(key, f);
  }
  return f;
}

function parts(date: Date, locale: string, zone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  return Object.fromEntries(
    formatter(locale, zone, options)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
}

/**
 * The zone's short name at that instant: a letter abbreviation where English has one (GMT, BST,
 * EST, EDT, CET), otherwise an offset (GMT+9).
 */
export function zoneAbbreviation(instant: string | Date, zone: string): string {
  const date = new Date(instant);
  const names = ['en-US', 'en-GB'].map((locale) => parts(date, locale, zone, { timeZoneName: 'short' }).timeZoneName ?? '');
  return names.find((name) => /^[A-Z]{2,5}$/.test(name)) ?? names[0] ?? zone;
}

/** "Thu 10 Dec 2026, 15:00" in `zone` (24-hour clock, English names). */
export function formatLocalTime(instant: string | Date, zone: string): string {
  const p = parts(new Date(instant), 'en-GB', zone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}`;
}

/** "Thu 10 Dec 2026, 15:00 GMT": an instant in a zone, with the zone's short name. */
export function formatWithZoneName(instant: string | Date, zone: string): string {
  return `${formatLocalTime(instant, zone)} ${zoneAbbreviation(instant, zone)}`;
}

/** "Thu 10 Dec 2026, 15:00 GMT (Europe/London)": an instant in a zone, with the zone named twice. */
export function formatInZone(instant: string | Date, zone: string): string {
  return `${formatWithZoneName(instant, zone)} (${zone})`;
}

/** "14:45 GMT": the time of day of an instant in a zone (24-hour clock), with the zone's short name. */
export function formatTimeOfDay(instant: string | Date, zone: string): string {
  const p = parts(new Date(instant), 'en-GB', zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${p.hour}:${p.minute} ${zoneAbbreviation(instant, zone)}`;
}

/** The zone this runtime is in (the visitor's, in a browser); UTC when it names none. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** "45 minutes", "1 hour", "1 h 30 min", "2 hours". */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} minute${rest === 1 ? '' : 's'}`;
  if (rest === 0) return `${hours} hour${hours === 1 ? '' : 's'}`;
  return `${hours} h ${rest} min`;
}
